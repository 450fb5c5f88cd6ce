//! What can be done with a finished answer, with the keyboard alone (Tab, Shift+Tab, Enter,
//! Escape, arrows and typing): the steps and "Share a report", a check against a list of
//! criteria, saving the task as reusable, running it again from the library with other words,
//! removing it and bringing it back; a step's screen; a new conversation and the finished one
//! opened again; the sidebar folded and back. Every place the focus lands shows it, and
//! Check, Make reusable and Run keep the focus while they work.
//!
//! The report's save dialog is the system's: as in `report.rs`, the test names the file it
//! answers (`PORTHOLE_E2E_SAVE_AS`); the button is reached and pressed with the keyboard.

use std::time::Duration;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::keyboard_walk::{
    focus_here, open_on, press, press_busy, retype, run_task, tab_to, tab_to_id, type_text,
};
use crate::replay::keep_screenshot;

/// Leaves the sheet with Escape, back in the conversation.
async fn leave_sheet(app: &App) {
    press(app, Key::Escape).await;
    let wait = Eventually::new(&app.driver);
    wait.gone("sheet").await.expect("Escape left the sheet");
    wait.element("answer-actions")
        .await
        .expect("back in the conversation");
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn an_answer_is_shared_checked_and_made_reusable_with_the_keyboard_alone() {
    let out = tempfile::tempdir().unwrap();
    let report = out.path().join("weather-report.html");
    let options = AppOptions {
        env: vec![("PORTHOLE_E2E_SAVE_AS".into(), report.display().to_string())],
        ..AppOptions::default()
    };
    let app = open_on(options, "Design laptop").await;
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(180));
    assert_eq!(
        run_task(&app, "Look up the weather in Paris").await,
        "succeeded",
        "the task finished"
    );

    // The steps, and the report shared from them.
    tab_to_id(&app, false, "answer-steps").await;
    press(&app, Key::Enter).await;
    wait.at_least("replay-step", 1)
        .await
        .expect("Enter opened the steps");
    tab_to_id(&app, false, "share-report-save").await;
    press(&app, Key::Enter).await;
    // The sheet over the report's screenshots comes first; its Save, reached with Tab.
    wait.element("redact-save")
        .await
        .expect("Enter opened the redaction sheet");
    tab_to_id(&app, false, "redact-save").await;
    press(&app, Key::Enter).await;
    wait.element("share-report-saved")
        .await
        .expect("Enter shared the report");
    assert!(report.exists(), "the report was written");
    focus_here(&app, "sharing the report").await;

    // A step's screen, opened with Enter, the next one with the arrow, closed with Escape.
    tab_to(&app, false, "the first step's screen", |f| {
        f.within == "replay-step"
    })
    .await;
    press(&app, Key::Enter).await;
    let first = wait
        .text("step-viewer-title", |t| !t.is_empty())
        .await
        .expect("Enter opened the step's screen");
    press(&app, Key::Right).await;
    wait.text("step-viewer-title", |t| t != first)
        .await
        .expect("the arrow showed the next step");
    press(&app, Key::Escape).await;
    wait.gone("step-viewer")
        .await
        .expect("Escape closed the screen");
    wait.element("sheet")
        .await
        .expect("the steps are still open");
    focus_here(&app, "closing the step's screen").await;
    leave_sheet(&app).await;

    // A check against two criteria, typed in a list.
    tab_to_id(&app, false, "answer-check").await;
    press(&app, Key::Enter).await;
    wait.element("check-result")
        .await
        .expect("Enter opened the check");
    tab_to(&app, false, "the kind of criteria", |f| {
        f.what.starts_with("input") && f.testid != "judge-sentence"
    })
    .await;
    for _ in 0..2 {
        if app
            .driver
            .find(by_testid("judge-checks-mode"))
            .await
            .unwrap()
            .is_selected()
            .await
            .unwrap()
        {
            break;
        }
        press(&app, Key::Right).await;
    }
    wait.element("judge-check")
        .await
        .expect("the arrows chose a list of checks");
    tab_to_id(&app, false, "judge-check").await;
    type_text(&app, "The answer gives a temperature").await;
    tab_to_id(&app, false, "judge-add-check").await;
    press(&app, Key::Enter).await;
    wait.at_least("judge-check", 2)
        .await
        .expect("Enter added a check");
    tab_to_id(&app, true, "judge-check").await;
    type_text(&app, "It is about Paris").await;
    tab_to_id(&app, false, "judge-run").await;
    press_busy(&app, "judge-run").await;
    long.element("judge-verdict")
        .await
        .expect("Enter checked the result");
    wait.at_least("judge-criterion", 2)
        .await
        .expect("a verdict per check");
    let now = focus_here(&app, "checking").await;
    assert_eq!(
        now.testid, "judge-run",
        "the focus is back on Check: {now:?}"
    );
    keep_screenshot(&app, "keyboard-answer-check").await;
    leave_sheet(&app).await;

    // Saved as a reusable task.
    tab_to_id(&app, false, "answer-reusable").await;
    press(&app, Key::Enter).await;
    wait.element("reusable-learn")
        .await
        .expect("Enter opened Make reusable");
    tab_to_id(&app, false, "reusable-learn").await;
    press_busy(&app, "reusable-learn").await;
    long.element("reusable-saved")
        .await
        .expect("learned and saved");
    focus_here(&app, "saving as reusable").await;
    leave_sheet(&app).await;

    // Run from the library with another place.
    tab_to_id(&app, true, "saved-task").await;
    press(&app, Key::Enter).await;
    wait.at_least("library-item", 1)
        .await
        .expect("Enter opened the library");
    tab_to_id(&app, false, "library-item").await;
    press(&app, Key::Enter).await;
    wait.element("reusable-run-form")
        .await
        .expect("the task's run form");
    tab_to(&app, false, "the place to fill", |f| {
        f.testid == "reusable-input" && f.name == "place"
    })
    .await;
    retype(&app, "Rome").await;
    tab_to_id(&app, false, "reusable-run").await;
    press_busy(&app, "reusable-run").await;
    let result = long
        .text("reusable-result", |t| !t.trim().is_empty())
        .await
        .expect("Enter ran it");
    assert!(result.contains("Rome"), "the new words were used: {result}");
    let now = focus_here(&app, "running the saved task").await;
    assert_eq!(
        now.testid, "reusable-run",
        "the focus is back on Run: {now:?}"
    );
    keep_screenshot(&app, "keyboard-answer-library-run").await;

    // Removed after confirming, and brought back with Undo.
    tab_to_id(&app, false, "reusable-remove").await;
    press(&app, Key::Enter).await;
    wait.element("reusable-remove-confirm")
        .await
        .expect("a confirmation");
    let now = focus_here(&app, "Remove…").await;
    assert!(
        now.testid.starts_with("reusable-remove-"),
        "the confirmation takes the focus: {now:?}"
    );
    tab_to_id(&app, false, "reusable-remove-yes").await;
    press(&app, Key::Enter).await;
    wait.element("reusable-removed")
        .await
        .expect("removed, with Undo");
    focus_here(&app, "removing the saved task").await;
    tab_to_id(&app, false, "reusable-undo").await;
    press(&app, Key::Enter).await;
    wait.at_least("library-item", 1)
        .await
        .expect("Undo brought it back");
    focus_here(&app, "Undo").await;
    leave_sheet(&app).await;

    // A new conversation, and the finished one opened again from the list.
    tab_to_id(&app, false, "new-conversation").await;
    press(&app, Key::Enter).await;
    wait.text("conversation-title", |t| !t.contains("weather"))
        .await
        .expect("Enter started a new conversation");
    focus_here(&app, "starting a new conversation").await;
    tab_to(&app, true, "the finished conversation", |f| {
        f.testid == "conversation-row" && f.what.contains("weather")
    })
    .await;
    press(&app, Key::Enter).await;
    wait.text("conversation-title", |t| t.contains("weather"))
        .await
        .expect("Enter opened the finished conversation");

    // The sidebar folded away and back.
    tab_to_id(&app, true, "sidebar-fold").await;
    press(&app, Key::Enter).await;
    wait.gone("machine-list")
        .await
        .expect("Enter folded the sidebar");
    let rail = focus_here(&app, "folding the sidebar").await;
    if rail.testid != "sidebar-unfold" {
        tab_to_id(&app, true, "sidebar-unfold").await;
    }
    press(&app, Key::Enter).await;
    wait.element("machine-list")
        .await
        .expect("Enter brought the sidebar back");
    focus_here(&app, "unfolding the sidebar").await;
    app.quit().await;
}
