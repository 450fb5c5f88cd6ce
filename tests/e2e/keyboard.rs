//! A walk that uses only the keyboard (Tab, Shift+Tab, Enter, Escape, arrows, and typing):
//! choose a computer, send a task, answer its approval card, open the answer's steps and close
//! them, move the splitter, open the settings dialog and close it, open the computer's menu and
//! close it, search and open a result. At every place Tab or Shift+Tab lands, the focus must be
//! visible (a focus ring: an outline or a box shadow drawn on the element, or the splitter's
//! widened grip). The walk's steps (`tab_to`, `press`, the focus check) are in `keyboard_walk`;
//! the walks over the other actions are the `keyboard_*` modules beside it.

use std::time::Duration;

use porthole_e2e::{by_testid, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::flows::wait_for_status;
use crate::keyboard_walk::{focused, open_on, press, tab_to, type_text};
use crate::replay::keep_screenshot;

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_task_is_sent_answered_and_a_dialog_used_with_the_keyboard_alone() {
    // A computer, chosen with Tab and Enter.
    let options = AppOptions {
        demo_time_scale: Some(0.2),
        ..AppOptions::default()
    };
    let app = open_on(options, "Design laptop").await;
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(180));

    // The task, typed in the composer and sent with Enter.
    let composer = tab_to(&app, false, "the composer", |f| f.testid == "composer").await;
    assert!(
        composer.keyboard,
        "the composer was reached by the keyboard"
    );
    type_text(&app, "Delete the old files in Downloads").await;
    press(&app, Key::Enter).await;

    // The approval card: its question takes the focus, Tab reaches its answer.
    long.element("approval-card").await.expect("the agent asks");
    tab_to(&app, false, "the card's Allow", |f| {
        f.testid == "approval-approve"
    })
    .await;
    keep_screenshot(&app, "keyboard-approval-focused").await;
    press(&app, Key::Enter).await;
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed", "stopped"])
            .await
            .unwrap(),
        "succeeded",
        "the approved task goes on to its answer"
    );

    // What can be done with the answer: its steps, a sheet opened with Enter and closed with
    // Escape.
    tab_to(&app, false, "See the steps", |f| f.testid == "answer-steps").await;
    press(&app, Key::Enter).await;
    wait.at_least("replay-step", 1)
        .await
        .expect("Enter opened the steps");
    press(&app, Key::Escape).await;
    wait.gone("sheet").await.expect("Escape closed the sheet");
    wait.element("answer-actions")
        .await
        .expect("back in the conversation");

    // The splitter, moved with the arrow keys.
    tab_to(&app, false, "the splitter", |f| f.testid == "splitter").await;
    let splitter = app.driver.find(by_testid("splitter")).await.unwrap();
    let before = splitter.attr("aria-valuenow").await.unwrap();
    press(&app, Key::Left).await;
    press(&app, Key::Left).await;
    let after = splitter.attr("aria-valuenow").await.unwrap();
    assert_ne!(before, after, "the arrow keys move the splitter");

    // A dialog: back to Settings with Shift+Tab, opened with Enter, closed with Escape.
    tab_to(&app, true, "Settings", |f| f.testid == "open-settings").await;
    press(&app, Key::Enter).await;
    wait.element("settings-dialog")
        .await
        .expect("Enter opened the settings");
    let inside = focused(&app)
        .await
        .expect("the focus moved into the dialog");
    let in_dialog: bool = app
        .driver
        .execute(
            "return !!document.activeElement.closest('[data-testid=\"settings-dialog\"]');",
            vec![],
        )
        .await
        .unwrap()
        .json()
        .as_bool()
        .unwrap_or(false);
    assert!(in_dialog, "the focus is inside the dialog: {inside:?}");
    keep_screenshot(&app, "keyboard-settings-dialog").await;
    press(&app, Key::Escape).await;
    wait.gone("settings-dialog")
        .await
        .expect("Escape closed it");
    let back = focused(&app).await.unwrap_or_default();
    assert_eq!(
        back.testid, "open-settings",
        "the focus went back to what opened the dialog"
    );

    // The computer's menu: opened with Enter, its item focused and visibly so, closed with
    // Escape back on its button.
    tab_to(&app, true, "the computer's menu", |f| {
        f.testid == "computer-menu"
    })
    .await;
    press(&app, Key::Enter).await;
    wait.element("computer-menu-items")
        .await
        .expect("Enter opened the menu");
    let item = focused(&app).await.expect("a menu item has the focus");
    assert!(
        item.testid.starts_with("menu-") && item.visible,
        "the focus is visibly on the menu's first item: {item:?}"
    );
    press(&app, Key::Escape).await;
    wait.gone("computer-menu-items")
        .await
        .expect("Escape closed the menu");
    assert_eq!(
        focused(&app).await.unwrap_or_default().testid,
        "computer-menu"
    );

    // Search, from another computer: opened with Enter, typed into, a result chosen with the
    // arrows and opened with Enter, which brings back the laptop's conversation.
    tab_to(&app, true, "Research box in the sidebar", |f| {
        f.testid == "machine-select" && f.row == "Research box"
    })
    .await;
    press(&app, Key::Enter).await;
    wait.text("task-machine-name", |t| t == "Research box")
        .await
        .expect("Enter chose the other computer");
    tab_to(&app, true, "search", |f| f.testid == "search-open").await;
    press(&app, Key::Enter).await;
    let field = focused(&app).await.expect("the search field has the focus");
    assert!(
        field.testid == "search-input" && field.visible,
        "the focus is visibly in the search field: {field:?}"
    );
    type_text(&app, "Downloads").await;
    wait.at_least("search-hit", 1).await.expect("results");
    press(&app, Key::Down).await;
    press(&app, Key::Enter).await;
    wait.gone("search-box")
        .await
        .expect("Enter opened the chosen result");
    wait.text("task-machine-name", |t| t == "Design laptop")
        .await
        .expect("the result's computer is open");
    wait.text("conversation-title", |t| t.contains("Downloads"))
        .await
        .expect("the result's conversation is open");

    app.quit().await;
}
