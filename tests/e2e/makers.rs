//! The app against a service answering in the shapes the makers' own client shows the real
//! service may use (`porthole-sim --shapes makers`: blank bodies on approve, wake, new-session
//! and abort, a computer row without `kind`, a session named by `{id, title}` only, keepalive
//! lines, odd history lines). A person connects at the address they typed, through the check
//! and a key, and works there as on the Demo; Stop pressed before the stream names its session
//! still stops the task, asked of the service by computer.

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually};
use porthole_sim::{Config, FaultSpec, Shapes, Sim};

use crate::flows::{select_machine, send_task, thread_texts, unfold_advanced, wait_for_status};

fn makers(faults: &str) -> Config {
    Config {
        time_scale: 0.05,
        shapes: Shapes::Makers,
        faults: FaultSpec::parse(faults).expect("a fault spec"),
        ..Config::default()
    }
}

/// No banner of "something went wrong" (or any other) over the window.
async fn no_error_shown(app: &App) {
    for id in ["action-error", "connection-error", "limit-banner"] {
        let shown = app.driver.find_all(by_testid(id)).await.unwrap();
        let mut words = Vec::new();
        for el in &shown {
            words.push(text_of(el).await);
        }
        assert!(words.is_empty(), "{id}: {words:?}");
    }
}

/// The history's odd lines of a task heard here whole (one without a role, one without
/// text) are never shown as "Answered elsewhere".
async fn nothing_from_elsewhere(app: &App) {
    let lines = thread_texts(app, "elsewhere").await.unwrap();
    assert!(lines.is_empty(), "{lines:?}");
}

/// The live screen beside the conversation reaches "live".
async fn live_plays(app: &App) {
    let start = std::time::Instant::now();
    loop {
        let view = Eventually::new(&app.driver)
            .element("live-view")
            .await
            .expect("a live screen");
        let phase = view.attr("data-phase").await.unwrap().unwrap_or_default();
        if phase == "live" {
            return;
        }
        assert!(
            start.elapsed().as_secs() < 60,
            "the live screen stayed {phase:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_person_connects_at_a_typed_address_and_works_there_in_the_makers_shapes() {
    let sim = Sim::start(makers("")).await.expect("a service");
    let key = sim.account("ada").api_key.clone().unwrap();
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);

    // The way in: the address typed by hand is checked, then the key goes to it.
    wait.element("open-keys")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    unfold_advanced(&app).await.unwrap();
    let address = wait.element("signin-base-url").await.unwrap();
    address.clear().await.unwrap();
    address.send_keys(&sim.base_url).await.unwrap();
    wait.element("connect-api-key")
        .await
        .unwrap()
        .send_keys(&key)
        .await
        .unwrap();
    wait.element("connect-submit")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    Eventually::new(&app.driver)
        .within(std::time::Duration::from_secs(60))
        .gone("demo-badge")
        .await
        .expect("connected");
    // Every computer is listed, the one whose row has no kind too.
    let rows = wait
        .at_least("machine-row", 3)
        .await
        .expect("the computers");
    assert!(rows.len() >= 3);
    let kindless = crate::waking::row(&app, "Ada's MacBook").await;
    assert_eq!(
        text_of(&kindless.find(by_testid("machine-kind")).await.unwrap()).await,
        "Computer",
        "a row that says no kind is not called a cloud computer or a desktop"
    );

    // A task whose approval the service takes with a blank body: approved, and it finishes.
    // The computer chosen first may have been another (its row gives no kind): the live
    // screen follows the choice and shows this computer's screen.
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    live_plays(&app).await;
    send_task(&app, "Delete the old screenshots folder")
        .await
        .expect("send");
    wait.element("approval-approve")
        .await
        .expect("the card")
        .click()
        .await
        .unwrap();
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed", "stopped"])
            .await
            .unwrap(),
        "succeeded"
    );
    let notices = thread_texts(&app, "notice").await.unwrap();
    assert!(
        notices.iter().any(|n| n == "You approved the request."),
        "{notices:?}"
    );
    no_error_shown(&app).await;
    nothing_from_elsewhere(&app).await;
    app.screenshot("makers-approved").await.expect("screenshot");

    // A new conversation on a blank answer takes the next task.
    wait.element("new-conversation")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let start = std::time::Instant::now();
    while !thread_texts(&app, "user").await.unwrap().is_empty() {
        assert!(
            start.elapsed().as_secs() < 30,
            "the new conversation is empty"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    send_task(&app, "Find the weather in Lisbon")
        .await
        .expect("send");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed", "stopped"])
            .await
            .unwrap(),
        "succeeded"
    );
    assert_eq!(thread_texts(&app, "user").await.unwrap().len(), 1);

    // Waking a sleeping computer on a blank answer: it wakes, and nothing says it failed.
    let research = crate::waking::row(&app, "Research box").await;
    research
        .find(by_testid("wake-button"))
        .await
        .expect("Wake on the sleeping computer")
        .click()
        .await
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        let row = crate::waking::row(&app, "Research box").await;
        let status = text_of(&row.find(by_testid("machine-status")).await.unwrap()).await;
        if status == "Online" {
            break;
        }
        assert!(start.elapsed().as_secs() < 60, "it stayed {status:?}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    no_error_shown(&app).await;
    nothing_from_elsewhere(&app).await;
    app.screenshot("makers-woken").await.expect("screenshot");
    app.quit().await;
    sim.shutdown().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn stop_pressed_before_the_session_is_named_stops_the_task() {
    // Every stream holds its session's name for 30 s: a cold start on the real service.
    let (sim, env) = crate::flows::own_demo_with(makers("late-session=1:30000ms")).await;
    let app = App::launch_with(AppOptions {
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Take your time and tidy up the desktop")
        .await
        .expect("send");
    let wait = Eventually::new(&app.driver);
    // The service runs the task before its stream names the session.
    let mut changes = sim.state().changes();
    while sim.state().db().turns.is_empty() {
        changes.changed().await.unwrap();
    }
    wait.element("stop-button")
        .await
        .expect("Stop")
        .click()
        .await
        .unwrap();
    assert_eq!(
        wait_for_status(&app, &["stopped", "failed", "succeeded"])
            .await
            .unwrap(),
        "stopped"
    );
    let notices = thread_texts(&app, "notice").await.unwrap();
    assert!(
        notices.iter().any(|n| n == "You stopped the task."),
        "{notices:?}"
    );
    // "Stopping…" gave way to the answer: it does not linger once the service took Stop.
    Eventually::new(&app.driver)
        .gone("thread-stopping")
        .await
        .expect("Stopping… gone");
    let aborts = sim
        .state()
        .requests_seen()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/v1/agents/abort")
        .count();
    assert_eq!(aborts, 1, "Stop asked the service");
    // And the service did stop it.
    let mut changes = sim.state().changes();
    while !sim.state().db().turns.values().all(|t| t.ended) {
        changes.changed().await.unwrap();
    }
    no_error_shown(&app).await;
    app.screenshot("makers-stopped-before-session")
        .await
        .expect("screenshot");
    app.quit().await;
    sim.shutdown().await;
}
