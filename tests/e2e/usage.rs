//! Usage after a task: the task's and the whole conversation's cost and tokens, by model.

use porthole_e2e::{App, Eventually};

use crate::flows::{select_machine, send_task, wait_for_status};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn usage_numbers_appear_after_a_task() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Look up the price of coffee")
        .await
        .expect("send");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    wait.element("usage-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let cost = wait
        .text("usage-session-cost", |t| t.starts_with('$'))
        .await
        .expect("the conversation's cost");
    assert!(cost.len() > 1);
    wait.text("usage-task-input", |t| {
        t.chars().any(|c| c.is_ascii_digit()) && t != "0"
    })
    .await
    .expect("the task's input tokens");
    let models = wait
        .at_least("usage-task-model", 1)
        .await
        .expect("a row per model");
    let model = models[0]
        .attr("data-model")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(!model.is_empty());
    crate::keys::settle().await;
    app.screenshot("usage-after-task").await.unwrap();
    app.quit().await;
}
