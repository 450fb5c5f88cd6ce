//! The composer with the keyboard alone (Tab, Shift+Tab, Enter, Escape, arrows, Space and
//! typing): files attached with the paperclip and their chips removed; "More options" (⋯)
//! with the AI model, recording steps, the answer's format and success checks, and a spending
//! cap made the default; a task scheduled with "Schedule…", and the Schedules list (pause,
//! delete after confirming). Every place the focus lands shows it.
//!
//! The system file dialog cannot be driven over WebDriver: as in `attachments.rs`, the test
//! names the files it returns (`PORTHOLE_E2E_PICKED_FILES`); the paperclip itself is reached
//! and pressed with the keyboard.

use porthole_e2e::{by_testid, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::keyboard_walk::{
    focus_here, focus_inside, focused, open_on, press, retype, tab_to, tab_to_id, type_text,
};
use crate::replay::keep_screenshot;

const TASK: &str = "Check the weather in Oslo";

async fn value(app: &App, testid: &str) -> String {
    let el = app.driver.find(by_testid(testid)).await.unwrap();
    el.prop("value").await.unwrap().unwrap_or_default()
}

async fn checked(app: &App, testid: &str) -> bool {
    let el = app.driver.find(by_testid(testid)).await.unwrap();
    el.is_selected().await.unwrap()
}

async fn count(app: &App, testid: &str) -> usize {
    app.driver.find_all(by_testid(testid)).await.unwrap().len()
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn attachments_options_and_a_schedule_are_used_with_the_keyboard_alone() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "milk\n").unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let options = AppOptions {
        env: vec![(
            "PORTHOLE_E2E_PICKED_FILES".into(),
            format!("{}\n{}", notes.display(), empty.display()),
        )],
        ..AppOptions::default()
    };
    let app = open_on(options, "Design laptop").await;
    let wait = Eventually::new(&app.driver);

    // The paperclip, pressed with Enter: a chip per file; each taken away again with Enter on
    // its ×, the focus staying in the composer.
    tab_to_id(&app, false, "attach-button").await;
    press(&app, Key::Enter).await;
    wait.at_least("attachment-chip", 2)
        .await
        .expect("Enter on the paperclip attached the files");
    keep_screenshot(&app, "keyboard-composer-chips").await;
    tab_to(&app, true, "the empty file's ×", |f| {
        f.testid == "attachment-remove" && f.name == "empty.txt"
    })
    .await;
    press(&app, Key::Enter).await;
    let start = std::time::Instant::now();
    while count(&app, "attachment-chip").await != 1 {
        assert!(
            start.elapsed().as_secs() < 20,
            "Enter on × removed the chip"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let now = focus_here(&app, "removing a chip").await;
    assert!(
        focus_inside(&app, "composer-form").await,
        "the focus stays in the composer: {now:?}"
    );
    tab_to(&app, true, "the other file's ×", |f| {
        f.testid == "attachment-remove" && f.name == "notes.md"
    })
    .await;
    press(&app, Key::Enter).await;
    wait.gone("attachment-chip")
        .await
        .expect("the last chip removed");
    let now = focus_here(&app, "removing the last chip").await;
    assert!(
        focus_inside(&app, "composer-form").await,
        "the focus stays in the composer: {now:?}"
    );

    // More options: opened with Enter, each option used, closed with Escape.
    tab_to_id(&app, false, "composer-more").await;
    press(&app, Key::Enter).await;
    wait.element("composer-more-panel")
        .await
        .expect("Enter opened More options");
    tab_to_id(&app, false, "model-picker").await;
    let model = value(&app, "model-picker").await;
    let words = wait
        .text("model-cost-words", |t| !t.is_empty())
        .await
        .expect("the picker says what its model costs");
    press(&app, Key::Down).await;
    let other = value(&app, "model-picker").await;
    assert_ne!(model, other, "the arrow chose another model");
    // What the model costs in words follows the keyboard's choice (read with the picker).
    wait.text("model-cost-words", |t| !t.is_empty() && t != words)
        .await
        .expect("the cost words of the model the arrow chose");
    tab_to_id(&app, false, "record-steps").await;
    let recording = checked(&app, "record-steps").await;
    press(&app, Key::Space).await;
    assert_ne!(
        checked(&app, "record-steps").await,
        recording,
        "Space switched recording"
    );
    press(&app, Key::Space).await;
    assert_eq!(checked(&app, "record-steps").await, recording, "and back");
    tab_to_id(&app, false, "advanced-toggle").await;
    press(&app, Key::Enter).await;
    wait.element("advanced-panel")
        .await
        .expect("Enter opened the answer's format");
    tab_to_id(&app, false, "cap-input").await;
    type_text(&app, "0.50").await;
    tab_to_id(&app, false, "cap-make-default").await;
    press(&app, Key::Enter).await;
    wait.gone("cap-make-default")
        .await
        .expect("the cap is every task's now");
    focus_here(&app, "making the cap the default").await;
    tab_to(&app, false, "the success criteria's kind", |f| {
        f.what.starts_with("input") && f.testid != "criteria-sentence"
    })
    .await;
    for _ in 0..2 {
        if checked(&app, "criteria-checks-mode").await {
            break;
        }
        press(&app, Key::Right).await;
    }
    assert!(
        checked(&app, "criteria-checks-mode").await,
        "the arrows chose a list of checks"
    );
    tab_to_id(&app, false, "criteria-check").await;
    type_text(&app, "It names a temperature").await;
    // The output schema (JSON Schema) is folded under "Technical details": Enter unfolds it.
    tab_to_id(&app, false, "output-schema-toggle").await;
    press(&app, Key::Enter).await;
    tab_to_id(&app, false, "output-schema").await;
    type_text(&app, r#"{"type": "object"}"#).await;
    keep_screenshot(&app, "keyboard-composer-more-options").await;
    press(&app, Key::Escape).await;
    wait.gone("composer-more-panel")
        .await
        .expect("Escape closed More options");
    let more = focus_here(&app, "closing More options").await;
    assert_eq!(more.testid, "composer-more", "back on ⋯");
    assert!(
        more.what.contains("some changed"),
        "⋯ says options changed: {more:?}"
    );

    // Schedule…: the task typed, the dialog filled and saved, the start-at-login question
    // answered, all with the keyboard.
    tab_to_id(&app, true, "composer").await;
    type_text(&app, TASK).await;
    tab_to_id(&app, false, "schedule-button").await;
    press(&app, Key::Enter).await;
    wait.element("schedule-dialog")
        .await
        .expect("Enter opened Schedule…");
    assert_eq!(
        focus_here(&app, "opening Schedule…").await.testid,
        "schedule-text"
    );
    assert_eq!(value(&app, "schedule-text").await, TASK);
    tab_to_id(&app, false, "schedule-machine").await;
    tab_to(&app, false, "how often", |f| {
        f.testid.starts_with("schedule-kind-")
    })
    .await;
    for _ in 0..4 {
        if checked(&app, "schedule-kind-everyHours").await {
            break;
        }
        press(&app, Key::Right).await;
    }
    assert!(
        checked(&app, "schedule-kind-everyHours").await,
        "the arrows chose every few hours"
    );
    tab_to_id(&app, false, "schedule-hours").await;
    retype(&app, "2").await;
    wait.text("schedule-summary", |t| t.contains("Every 2 hours"))
        .await
        .expect("the schedule in words");
    keep_screenshot(&app, "keyboard-composer-schedule").await;
    tab_to_id(&app, false, "schedule-save").await;
    press(&app, Key::Enter).await;
    wait.element("autostart-question")
        .await
        .expect("asked about starting at login");
    tab_to_id(&app, true, "autostart-no").await;
    press(&app, Key::Enter).await;
    wait.gone("schedule-dialog")
        .await
        .expect("saved and closed");
    focus_here(&app, "the schedule saved").await;
    assert_eq!(value(&app, "composer").await, "", "scheduled, not sent");

    // The Schedules list: the new schedule, paused and deleted after confirming.
    tab_to_id(&app, true, "schedules-open").await;
    press(&app, Key::Enter).await;
    wait.element("schedules-list")
        .await
        .expect("Enter opened the list");
    wait.text("schedule-title", |t| t.contains("weather"))
        .await
        .expect("the schedule is listed");
    tab_to_id(&app, false, "schedule-pause").await;
    press(&app, Key::Enter).await;
    wait.text("schedule-pause", |t| t == "Resume")
        .await
        .expect("Enter paused it");
    tab_to_id(&app, false, "schedule-delete").await;
    press(&app, Key::Enter).await;
    wait.element("schedule-delete-yes")
        .await
        .expect("a confirmation");
    let now = focus_here(&app, "Delete…").await;
    assert!(
        now.testid.starts_with("schedule-delete-"),
        "the confirmation takes the focus: {now:?}"
    );
    tab_to_id(&app, false, "schedule-delete-yes").await;
    press(&app, Key::Enter).await;
    wait.element("schedules-empty").await.expect("deleted");
    focus_here(&app, "deleting").await;
    assert!(
        focus_inside(&app, "schedules-list").await,
        "the focus stays in the list"
    );
    press(&app, Key::Escape).await;
    wait.gone("schedules-list")
        .await
        .expect("Escape closed the list");
    assert_eq!(
        focused(&app).await.unwrap_or_default().testid,
        "schedules-open"
    );
    app.quit().await;
}
