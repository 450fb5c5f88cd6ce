//! One current conversation per computer: an earlier conversation is read from the sidebar and
//! continued in the current one, and what a second copy of Porthole sent while the app was
//! closed appears after a restart, marked as sent from elsewhere, once.

use futures::StreamExt;
use porthole_client::messages::MessageRequest;
use porthole_client::{Client, ClientConfig, Credential, TaskFollower, Transport};
use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually};

use thirtyfour::prelude::*;

use crate::card_flows::focused;
use crate::flows::{
    own_demo, restart_on, scheme_env, select_machine, send_task, thread_texts, wait_for_status,
};

const SCALE: f64 = 0.02;

/// The conversation rows of the sidebar as shown: title and mark.
async fn conversation_rows(app: &App) -> Vec<(String, bool)> {
    let mut rows = Vec::new();
    for row in app
        .driver
        .find_all(by_testid("conversation-row"))
        .await
        .unwrap()
    {
        let current = row.attr("data-current").await.unwrap() == Some("true".into());
        rows.push((text_of(&row).await, current));
    }
    rows
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_finished_conversation_is_read_and_its_follow_up_asked_in_a_new_one() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Find the weather in Lisbon").await.unwrap();
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let lisbon = thread_texts(&app, "answer").await.unwrap();

    wait.element("new-conversation")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("final-answer")
        .await
        .expect("a fresh conversation");
    send_task(&app, "Find the weather in Porto").await.unwrap();
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    wait.at_least("conversation-row", 2).await.unwrap();
    let rows = conversation_rows(&app).await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(
        rows[0].1 && rows[0].0.contains("Porto"),
        "current first: {rows:?}"
    );
    assert!(!rows[1].1 && rows[1].0.contains("Lisbon"), "{rows:?}");
    assert!(rows[1].0.contains("Finished"), "{rows:?}");

    // The earlier one, read: its task and answer, and no way to send into it.
    app.driver
        .find_all(by_testid("conversation-row"))
        .await
        .unwrap()[1]
        .click()
        .await
        .unwrap();
    wait.element("conversation-finished")
        .await
        .expect("marked as finished");
    assert_eq!(thread_texts(&app, "answer").await.unwrap(), lisbon);
    let composer = wait.element("composer").await.unwrap();
    composer.click().await.unwrap();
    composer.send_keys("And tomorrow?").await.unwrap();
    assert!(app
        .driver
        .find_all(by_testid("send-button"))
        .await
        .unwrap()
        .is_empty());
    app.screenshot("conversations-finished").await.unwrap();

    // The service takes no message into it: the words are asked in a new conversation, the
    // earlier task named above them, and answered there.
    wait.element("ask-in-new")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("conversation-finished")
        .await
        .expect("in a new conversation");
    wait.at_least("conversation-row", 3).await.unwrap();
    let composer = wait.element("composer").await.unwrap();
    assert_eq!(
        composer.prop("value").await.unwrap().as_deref(),
        Some("About my earlier task “Find the weather in Lisbon”:\nAnd tomorrow?")
    );
    wait.element("send-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let status = wait_for_status(&app, &["succeeded", "failed"])
        .await
        .unwrap();
    assert_eq!(status, "succeeded");
    let users = thread_texts(&app, "user").await.unwrap();
    assert_eq!(users.len(), 1, "{users:?}");
    assert!(users[0].contains("And tomorrow?"), "{users:?}");
    assert!(users[0].contains("Lisbon"), "{users:?}");
    let rows = conversation_rows(&app).await;
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows[0].1, "the new one is current: {rows:?}");
    app.screenshot("conversations-continued").await.unwrap();

    // Deleted from the keyboard: Delete on the finished Lisbon conversation's row asks first,
    // saying what goes here and that the service keeps its own record.
    let lisbon_row = lisbon_row(&app).await.expect("the Lisbon row");
    lisbon_row.click().await.unwrap();
    wait.element("conversation-finished").await.unwrap();
    lisbon_row.send_keys(Key::Delete).await.unwrap();
    let name = wait
        .text("delete-conversation-name", |t| t.contains("Lisbon"))
        .await
        .expect("the confirmation names the conversation");
    assert!(!name.contains("About my earlier"), "{name}");
    let stays = wait
        .text("delete-conversation-stays", |t| !t.is_empty())
        .await
        .unwrap();
    assert!(stays.contains("service keeps its own record"), "{stays}");
    assert_eq!(
        focused(&app).await,
        "delete-conversation-no",
        "the safe answer first"
    );
    app.screenshot("delete-conversation-light").await.unwrap();
    wait.element("delete-conversation-yes")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("delete-conversation").await.expect("closed");
    let rows = loop_until_rows(&app, 2).await;
    assert!(
        rows.iter()
            .all(|(t, current)| *current || !t.contains("Lisbon")),
        "the Lisbon conversation is gone: {rows:?}"
    );
    // The computer's current conversation is shown in its place, and has the keyboard.
    wait.gone("conversation-finished").await.unwrap();
    assert_eq!(focused(&app).await, "conversation-row");
    app.quit().await;
}

/// The finished conversation's row about Lisbon.
async fn lisbon_row(app: &App) -> Option<WebElement> {
    for row in app
        .driver
        .find_all(by_testid("conversation-row"))
        .await
        .unwrap()
    {
        let current = row.attr("data-current").await.unwrap() == Some("true".into());
        if !current && text_of(&row).await.contains("Lisbon") {
            return Some(row);
        }
    }
    None
}

/// The sidebar's rows once there are exactly `n`.
async fn loop_until_rows(app: &App, n: usize) -> Vec<(String, bool)> {
    let start = std::time::Instant::now();
    loop {
        let rows = conversation_rows(app).await;
        if rows.len() == n || start.elapsed() > std::time::Duration::from_secs(30) {
            assert_eq!(rows.len(), n, "{rows:?}");
            return rows;
        }
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn after_a_restart_a_task_sent_from_another_copy_meanwhile_appears_once() {
    let (sim, mut env) = own_demo(SCALE).await;
    // In the dark scheme: the delete confirmation at the end is looked at in both.
    env.extend(scheme_env("dark"));
    let app = App::launch_with(AppOptions {
        env: env.clone(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Find the weather in Lisbon").await.unwrap();
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let data_dir = app.data_dir().to_path_buf();
    let keep = app.quit().await;

    // While Porthole is closed, a second copy on the same account gives the same computer a
    // task, followed to its end.
    let key = sim.account("ada").api_key.clone().expect("a key");
    let other = Client::with_config(
        &sim.base_url,
        Credential::api_key(&key).unwrap(),
        ClientConfig::time_scaled(SCALE),
    )
    .unwrap();
    let machine = other
        .machines()
        .list()
        .await
        .unwrap()
        .machines
        .into_iter()
        .find(|m| m.name.as_deref() == Some("Design laptop"))
        .expect("the computer")
        .machine_id;
    let mut follower = TaskFollower::start(
        &other,
        &MessageRequest::new("Find the weather in Oslo", &machine),
        Transport::Stream,
    )
    .await
    .unwrap();
    while follower.next().await.is_some() {}

    let again = App::launch_with(AppOptions {
        data_dir: Some(data_dir),
        env: env.clone(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens again");
    drop(keep);
    select_machine(&again, "Design laptop")
        .await
        .expect("machine");
    let wait = Eventually::new(&again.driver);
    wait.at_least("thread-item", 1).await.unwrap();
    let elsewhere = loop_until_elsewhere(&again, 2).await;
    assert!(elsewhere[0].contains("Oslo"), "{elsewhere:?}");
    assert!(
        elsewhere[0].contains("Sent from elsewhere"),
        "marked as from elsewhere: {elsewhere:?}"
    );
    again.screenshot("conversations-caught-up").await.unwrap();

    // Once more at the next start: nothing is shown twice.
    let (keep, third) = restart_on(again, env.clone(), "Design laptop").await;
    Eventually::new(&third.driver)
        .at_least("thread-item", 1)
        .await
        .unwrap();
    let elsewhere = loop_until_elsewhere(&third, 2).await;
    assert_eq!(elsewhere.len(), 2, "{elsewhere:?}");
    assert_eq!(thread_texts(&third, "user").await.unwrap().len(), 1);

    // Deleted from the conversation's menu: it is the current one, so the service starts a
    // fresh session, and neither the list nor a catch-up after a restart brings it back.
    let wait = Eventually::new(&third.driver);
    wait.element("conversation-menu")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("menu-delete-conversation")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.text("delete-conversation-name", |t| t.contains("Lisbon"))
        .await
        .expect("the confirmation");
    third.screenshot("delete-conversation-dark").await.unwrap();
    wait.element("delete-conversation-yes")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("delete-conversation").await.expect("closed");
    wait.gone("thread-item")
        .await
        .expect("a fresh, empty conversation");
    let (keep2, fourth) = restart_on(third, env, "Design laptop").await;
    let rows = conversation_rows(&fourth).await;
    assert!(
        rows.iter().all(|(t, _)| !t.contains("Lisbon")),
        "gone after a restart: {rows:?}"
    );
    // Caught up with the service's new session: nothing of the deleted one comes back.
    Eventually::new(&fourth.driver)
        .element("composer")
        .await
        .unwrap();
    fourth
        .screenshot("conversations-after-delete")
        .await
        .unwrap();
    assert!(thread_texts(&fourth, "user").await.unwrap().is_empty());
    assert!(fourth
        .driver
        .find_all(by_testid("thread-item"))
        .await
        .unwrap()
        .is_empty());
    fourth.quit().await;
    drop(keep2);
    drop(keep);
    sim.shutdown().await;
}

/// The thread's lines from elsewhere once there are at least `n` of them.
async fn loop_until_elsewhere(app: &App, n: usize) -> Vec<String> {
    let start = std::time::Instant::now();
    loop {
        let lines = thread_texts(app, "elsewhere").await.unwrap();
        if lines.len() >= n {
            return lines;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "expected {n} lines from elsewhere, saw {lines:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn run_next_is_held_while_a_task_runs_and_starts_when_it_ends() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Take your time and count to 3")
        .await
        .unwrap();
    wait_for_status(&app, &["running"])
        .await
        .expect("the task runs");

    let composer = wait.element("composer").await.unwrap();
    composer.click().await.unwrap();
    composer
        .send_keys("Find the weather in Oslo")
        .await
        .unwrap();
    wait.element("run-next-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let held = wait
        .text("waiting-item", |t| t.contains("Oslo"))
        .await
        .expect("shown as waiting");
    assert!(held.starts_with('1'), "with its place: {held:?}");
    let users = thread_texts(&app, "user").await.unwrap();
    assert_eq!(users.len(), 1, "not sent into the running task: {users:?}");
    app.screenshot("run-next-waiting").await.unwrap();

    wait.gone("waiting-list")
        .await
        .expect("started when the task ended");
    let start = std::time::Instant::now();
    loop {
        let users = thread_texts(&app, "user").await.unwrap();
        let answers = thread_texts(&app, "answer").await.unwrap();
        let status = wait_for_status(&app, &["running", "succeeded", "failed"])
            .await
            .unwrap();
        if users.len() == 2 && answers.len() == 2 && status != "running" {
            assert_eq!(status, "succeeded");
            assert!(users[1].contains("Oslo"), "{users:?}");
            assert!(answers[1].contains("Oslo"), "{answers:?}");
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(90),
            "the held task never ran to its end: {users:?} {answers:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    app.screenshot("run-next-done").await.unwrap();
    app.quit().await;
}
