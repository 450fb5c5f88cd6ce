//! Approval cards with the keyboard alone (Tab, Shift+Tab, Enter and typing): a deletion
//! refused with its "Don't delete" button, an email refused with a plain Deny, a question answered in the card's own words (the
//! free-text field instead of an option), and a card whose answer is given on the service's
//! page, opened with its button. Every place the focus lands shows it.
//!
//! The system browser is the recording one of `navigation.rs`, so "Open the page" is seen to
//! reach it.

use std::time::Duration;

use porthole_e2e::{App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::card_flows::answer_of_a_success;
use crate::keyboard_walk::{
    focus_here, focused, last_answer, open_on, press, tab_to, tab_to_id, type_text,
};
use crate::navigation::RecordingBrowser;
use crate::replay::keep_screenshot;

/// Sends `task` from the composer with the keyboard and waits for its card.
async fn ask(app: &App, wait: &Eventually<'_>, task: &str) {
    tab_to_id(app, false, "composer").await;
    type_text(app, task).await;
    press(app, Key::Enter).await;
    wait.element("approval-card")
        .await
        .expect("the agent asks on a card");
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn approval_cards_are_denied_answered_in_words_and_opened_with_the_keyboard_alone() {
    let browser = RecordingBrowser::install();
    let options = AppOptions {
        env: browser.env(),
        ..AppOptions::default()
    };
    let app = open_on(options, "Design laptop").await;
    let wait = Eventually::new(&app.driver);

    // A deletion, refused: Tab past the act to "Don't delete", Enter.
    ask(&app, &wait, "Delete the old files in Downloads").await;
    let deny = tab_to_id(&app, false, "approval-deny").await;
    assert!(deny.what.contains("Don\u{2019}t delete"), "{deny:?}");
    press(&app, Key::Enter).await;
    wait.gone("approval-card")
        .await
        .expect("Enter on Don't delete answered the card");
    focus_here(&app, "refusing the deletion").await;
    let answer = answer_of_a_success(&app).await.expect("an answer");
    assert!(
        answer.starts_with("I did not delete the folder old-reports"),
        "the refusal was followed: {answer}"
    );

    // A step that destroys nothing (an email), refused with its plain Deny.
    ask(&app, &wait, "Send the report to the team by email").await;
    let deny = tab_to_id(&app, false, "approval-deny").await;
    assert_eq!(deny.what, "button Deny", "{deny:?}");
    keep_screenshot(&app, "keyboard-approvals-deny").await;
    press(&app, Key::Enter).await;
    wait.gone("approval-card")
        .await
        .expect("Enter on Deny answered the card");
    focus_here(&app, "denying the email").await;
    let answer = last_answer(&app).await;
    assert!(
        answer.contains("I did not send"),
        "the refusal was followed: {answer}"
    );

    // A city typed in the card's own field instead of picked, the days picked with Enter.
    ask(&app, &wait, "Plan a trip for the weekend").await;
    tab_to_id(&app, false, "approval-other").await;
    type_text(&app, "Oslo").await;
    tab_to(&app, false, "Saturday", |f| {
        f.testid == "approval-option" && f.what.ends_with("Saturday")
    })
    .await;
    press(&app, Key::Enter).await;
    tab_to_id(&app, false, "approval-send-choice").await;
    keep_screenshot(&app, "keyboard-approvals-free-text").await;
    press(&app, Key::Enter).await;
    wait.gone("approval-card")
        .await
        .expect("Enter sent the typed answer");
    focus_here(&app, "sending the typed answer").await;
    let answer = last_answer(&app).await;
    assert!(
        answer.contains("Oslo"),
        "the typed city was followed: {answer}"
    );

    // A card answered on the service's page: its one button opens the page in the browser.
    ask(&app, &wait, "Sign in to the library website").await;
    wait.element("approval-link-only")
        .await
        .expect("a link-only card");
    tab_to_id(&app, false, "approval-open-page").await;
    keep_screenshot(&app, "keyboard-approvals-link-only").await;
    press(&app, Key::Enter).await;
    let mut opened = Vec::new();
    for _ in 0..200 {
        opened = browser.opened();
        if !opened.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        opened.iter().any(|u| u.starts_with("http")),
        "Enter on Open the page gave the browser the page: {opened:?}"
    );
    // The card waits for the page; its button, busy for a moment, has the focus again.
    let mut now = None;
    for _ in 0..50 {
        now = focused(&app).await;
        if now
            .as_ref()
            .is_some_and(|f| f.testid == "approval-open-page")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        now.as_ref()
            .is_some_and(|f| f.testid == "approval-open-page" && f.visible),
        "after opening the page, the focus is back on its button: {now:?}"
    );
    app.quit().await;
}
