//! The agent asks before a sensitive step: one request approved, another denied.

use porthole_e2e::{App, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{select_machine, send_task, wait_for_status};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn an_approval_is_approved_and_another_denied() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");

    // Approve: the task goes on and finishes.
    send_task(&app, "Delete the old drafts folder")
        .await
        .expect("send");
    let title = wait
        .text("approval-title", |t| !t.is_empty())
        .await
        .expect("an approval dialog");
    assert!(!title.is_empty());
    wait.element("approval-command")
        .await
        .expect("the command is shown");
    app.screenshot("approval-dialog").await.expect("screenshot");
    wait.element("approval-approve")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("approval-approve")
        .await
        .expect("the dialog closes");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );

    // Deny: a new conversation, the agent skips the step and says so.
    wait.element("new-conversation")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    send_task(&app, "Send the report to the team by email")
        .await
        .expect("send");
    wait.element("approval-deny")
        .await
        .expect("an approval dialog")
        .click()
        .await
        .unwrap();
    wait.gone("approval-deny").await.expect("the dialog closes");
    wait_for_status(&app, &["succeeded", "failed"])
        .await
        .expect("the task ends");
    let answer = wait
        .text("final-answer", |t| !t.is_empty())
        .await
        .expect("an answer");
    let lower = answer.to_lowercase();
    assert!(
        lower.contains("not") || lower.contains("skip") || lower.contains("denied"),
        "the answer says the step was not done: {answer}"
    );
    let approvals = app
        .driver
        .find_all(By::Css(
            "[data-testid=\"thread-item\"][data-kind=\"approval\"]",
        ))
        .await
        .unwrap();
    assert!(
        !approvals.is_empty(),
        "the thread records that permission was asked"
    );

    app.screenshot("approval-denied").await.expect("screenshot");
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_choice_is_answered_with_a_pick_the_agent_follows() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Look up the weather, which city is up to you")
        .await
        .expect("send");
    let send = wait
        .element("approval-send-choice")
        .await
        .expect("a choice dialog");
    assert!(
        !send.is_enabled().await.unwrap(),
        "nothing picked yet: nothing to send"
    );
    let options = app
        .driver
        .find_all(By::Css("[data-testid=\"approval-option\"]"))
        .await
        .unwrap();
    let mut rome = None;
    for option in options {
        if option.text().await.unwrap() == "Rome" {
            rome = Some(option);
        }
    }
    rome.expect("Rome is offered").click().await.unwrap();
    app.screenshot("approval-choice").await.expect("screenshot");
    send.click().await.unwrap();
    wait.gone("approval-send-choice")
        .await
        .expect("the dialog closes");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let answer = wait
        .text("final-answer", |t| !t.is_empty())
        .await
        .expect("an answer");
    assert!(
        answer.contains("Rome"),
        "the agent followed the pick: {answer}"
    );
    app.quit().await;
}
