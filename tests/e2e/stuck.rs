//! "It seems stuck": the Demo's agent told to go round in circles repeats the same narration
//! and step until a message joins the task or it is stopped. The thread shows one card, and
//! each of its three answers does what it says: Stop ends the task, a hint goes into the
//! running task (the agent reads it and the loop ends), and "Let it keep going" hides the
//! card for good while the task goes on repeating itself.

use porthole_e2e::{App, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{select_machine, send_task, thread_texts, wait_for_status};

const LOOPING: &str = "Fill in the form and go round in circles";

/// The app on Design laptop with the looping task sent and its card shown.
async fn stuck_task() -> App {
    let app = App::launch().await.expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, LOOPING).await.expect("send");
    let wait = Eventually::new(&app.driver);
    let card = wait.element("stuck-card").await.expect("the stuck card");
    assert_eq!(
        card.attr("data-why").await.unwrap().as_deref(),
        Some("repeating")
    );
    let why = wait.text("stuck-why", |t| !t.is_empty()).await.unwrap();
    assert_eq!(
        why,
        "The agent has done the same thing several times in a row."
    );
    app
}

async fn cards(app: &App) -> usize {
    app.driver
        .find_all(By::Css("[data-testid=\"stuck-card\"]"))
        .await
        .unwrap()
        .len()
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn stop_on_the_stuck_card_ends_the_task() {
    let app = stuck_task().await;
    app.screenshot("stuck-card").await.unwrap();
    let wait = Eventually::new(&app.driver);
    wait.element("stuck-stop")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        wait_for_status(&app, &["stopped", "succeeded", "failed"])
            .await
            .unwrap(),
        "stopped"
    );
    wait.gone("stuck-card").await.expect("the card is gone");
    let notices = thread_texts(&app, "notice").await.unwrap();
    assert!(
        notices.iter().any(|n| n == "You stopped the task."),
        "{notices:?}"
    );
    app.screenshot("stuck-stopped").await.unwrap();
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_hint_on_the_stuck_card_reaches_the_agent_and_the_loop_ends() {
    let app = stuck_task().await;
    let wait = Eventually::new(&app.driver);
    let hint = "The button is called Keep, at the bottom right";
    let field = wait.element("stuck-hint-text").await.unwrap();
    field.send_keys(hint).await.unwrap();
    wait.element("stuck-hint")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("stuck-card").await.expect("the card is gone");
    // The hint is in the thread as a message added to the running task, and the agent went on
    // with it: the task finishes, its answer naming the hint.
    let users = thread_texts(&app, "user").await.unwrap();
    assert!(users.iter().any(|u| u.contains(hint)), "{users:?}");
    assert_eq!(
        wait_for_status(&app, &["stopped", "succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let answers = thread_texts(&app, "answer").await.unwrap();
    assert!(answers.iter().any(|a| a.contains(hint)), "{answers:?}");
    assert_eq!(cards(&app).await, 0);
    app.screenshot("stuck-hinted").await.unwrap();
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn let_it_keep_going_hides_the_card_and_it_does_not_come_back() {
    let app = stuck_task().await;
    let wait = Eventually::new(&app.driver);
    let steps = |app: &App| {
        let driver = app.driver.clone();
        async move {
            driver
                .find_all(By::Css("[data-testid=\"thread-item\"][data-kind=\"tool\"]"))
                .await
                .unwrap()
                .len()
        }
    };
    wait.element("stuck-keep-going")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("stuck-card").await.expect("the card is gone");
    // Many more identical rounds go by, and the card is not shown again.
    let before = steps(&app).await;
    let start = std::time::Instant::now();
    while steps(&app).await < before + 12 {
        assert_eq!(cards(&app).await, 0, "asked again");
        assert!(
            start.elapsed() < std::time::Duration::from_secs(90),
            "the task went on repeating itself"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert_eq!(cards(&app).await, 0, "asked again");
    assert_eq!(
        wait_for_status(&app, &["running"]).await.unwrap(),
        "running"
    );
    app.screenshot("stuck-kept-going").await.unwrap();
    wait.element("stop-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_status(&app, &["stopped"]).await.unwrap();
    app.quit().await;
}
