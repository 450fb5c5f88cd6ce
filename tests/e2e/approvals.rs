//! The agent asks before a sensitive step, on a card docked under the live screen it concerns: a
//! deletion said in words (and where it is not what the task named) denied, a send approved,
//! a choice answered.

use porthole_e2e::{by_testid, text_of, visible, App, Eventually};
use thirtyfour::prelude::*;

use crate::card_flows::{answer_of_a_success, focused, pick, send_to_design_laptop};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_deletion_is_said_in_words_on_a_card_docked_under_the_live_screen_and_denied() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);

    // The task names Downloads; the Demo's agent, led by the word "old", picks a folder in
    // Documents: the card must say so in words.
    send_to_design_laptop(&app, "Delete the old files in Downloads").await;
    let title = wait
        .text("approval-title", |t| !t.is_empty())
        .await
        .expect("an approval card");
    assert_eq!(
        title,
        "Permanently delete the folder old-reports in Documents and everything in it?"
    );
    // Docked under the live screen it concerns: no dialog covers the window.
    let card = app
        .driver
        .find(By::Css(
            "[data-testid=\"live-dock\"] [data-testid=\"approval-card\"]",
        ))
        .await
        .expect("the card is docked under the live screen");
    assert_eq!(
        card.attr("data-destructive").await.unwrap().as_deref(),
        Some("true")
    );
    wait.element("live-slot")
        .await
        .expect("the live screen stays in view");
    assert!(app
        .driver
        .find_all(By::Css("[role=\"dialog\"][aria-modal=\"true\"]"))
        .await
        .unwrap()
        .is_empty());
    let mismatch = wait
        .text("approval-mismatch", |t| !t.is_empty())
        .await
        .expect("a warning: not the place the task named");
    assert!(
        mismatch.contains("Downloads") && mismatch.contains("Documents"),
        "{mismatch}"
    );
    let act = wait.element("approval-approve").await.unwrap();
    assert_eq!(text_of(&act).await, "Delete folder");
    assert!(act
        .class_name()
        .await
        .unwrap()
        .unwrap_or_default()
        .contains("danger"));
    let silence = wait
        .text("approval-expires", |t| !t.is_empty())
        .await
        .unwrap();
    assert!(silence.contains("nothing is deleted"), "{silence}");
    // The keyboard is on the card's words, never on the act.
    assert_eq!(focused(&app).await, "approval-title");
    // The command is there, folded under Technical details.
    assert!(
        !visible(
            &app.driver,
            &app.driver
                .find(by_testid("approval-command"))
                .await
                .unwrap()
        )
        .await,
        "the command is folded away"
    );
    app.driver
        .find(By::Css("[data-testid=\"approval-details\"] summary"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let command = wait
        .text("approval-command", |t| !t.is_empty())
        .await
        .unwrap();
    assert_eq!(command.trim(), "rm -r ~/Documents/old-reports");
    app.screenshot("approval-card-destructive")
        .await
        .expect("screenshot");

    wait.element("approval-deny")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("approval-card").await.expect("the card goes");
    let answer = answer_of_a_success(&app).await.expect("an answer");
    assert!(
        answer.starts_with(
            "I did not delete the folder old-reports in Documents because you declined."
        ),
        "the answer leads with what was not done: {answer}"
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
async fn a_step_that_destroys_nothing_is_approved_with_a_plain_approve() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    send_to_design_laptop(&app, "Send the report to the team by email").await;
    let title = wait
        .text("approval-title", |t| !t.is_empty())
        .await
        .expect("an approval card");
    assert_eq!(title, "Send the email");
    let description = wait
        .text("approval-description", |t| !t.is_empty())
        .await
        .unwrap();
    assert!(
        description.contains("can't be called back"),
        "{description}"
    );
    let approve = wait.element("approval-approve").await.unwrap();
    assert_eq!(text_of(&approve).await, "Approve");
    app.screenshot("approval-card").await.expect("screenshot");
    approve.click().await.unwrap();
    wait.gone("approval-approve").await.expect("the card goes");
    let answer = answer_of_a_success(&app).await.expect("an answer");
    assert!(answer.starts_with("Sent"), "{answer}");
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_choice_is_answered_with_a_pick_the_agent_follows() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    send_to_design_laptop(&app, "Look up the weather, which city is up to you").await;
    let send = wait
        .element("approval-send-choice")
        .await
        .expect("a choice dialog");
    assert!(
        !send.is_enabled().await.unwrap(),
        "nothing picked yet: nothing to send"
    );
    let card = wait.element("approval-card").await.unwrap();
    // A question is asked as one: the chip and the thread's line say so, each question says
    // how many it takes, and declining it is Skip, not Deny.
    wait.text("status-chip", |t| t == "Needs your answer")
        .await
        .expect("the chip asks for an answer, not an approval");
    let asked = crate::flows::thread_words(&app, "approval").await;
    assert!(
        asked.iter().any(|l| l.starts_with("Asked you: ")),
        "the thread's line for a question: {asked:?}"
    );
    wait.text("approval-question", |t| t.contains("Pick one"))
        .await
        .expect("the question says how many it takes");
    wait.text("approval-deny", |t| t == "Skip")
        .await
        .expect("a question is skipped, not denied");
    pick(&card, "Rome").await;
    app.screenshot("approval-choice").await.expect("screenshot");
    send.click().await.unwrap();
    wait.gone("approval-send-choice")
        .await
        .expect("the dialog closes");
    let answer = answer_of_a_success(&app).await.expect("an answer");
    assert!(
        answer.contains("Rome"),
        "the agent followed the pick: {answer}"
    );
    app.quit().await;
}
