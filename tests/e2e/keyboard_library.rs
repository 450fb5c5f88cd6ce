//! A saved task's repairs with the keyboard alone (Tab, Enter and typing): a run whose result
//! is wrong is said to be so ("The result is wrong", with a note), which offers "Fix it"; the
//! feedback typed and Fix it pressed, the window lists what the repair changed, and the focus
//! goes on to that list. Run and Fix it keep the focus while they work; every place the focus
//! lands shows it.
//!
//! The saved task is learned first as `heal.rs` does (that part is walked in
//! `keyboard_answer.rs`).

use std::time::Duration;

use porthole_e2e::{App, Eventually};
use thirtyfour::prelude::*;

use crate::flows::learn_reusable_task;
use crate::keyboard_walk::{focus_here, press, press_busy, tab_to_id, type_text};
use crate::replay::keep_screenshot;

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_wrong_result_is_reported_and_fixed_with_the_keyboard_alone() {
    let app = App::launch().await.expect("the app opens");
    learn_reusable_task(&app, "Look up the weather in Paris")
        .await
        .expect("a learned reusable task");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(180));
    wait.element("reusable-run-form")
        .await
        .expect("the library shows the task");

    // Run as it is, from its Run button.
    tab_to_id(&app, false, "reusable-run").await;
    press_busy(&app, "reusable-run").await;
    long.text("reusable-result", |t| !t.trim().is_empty())
        .await
        .expect("Enter ran it");

    // The result is wrong: a note, then the button.
    tab_to_id(&app, false, "reusable-wrong-note").await;
    type_text(&app, "It should give the temperature in Fahrenheit").await;
    let wrong = tab_to_id(&app, false, "reusable-wrong").await;
    assert!(wrong.what.contains("The result is wrong"), "{wrong:?}");
    press(&app, Key::Enter).await;
    let heal = wait
        .text("reusable-heal", |t| t.contains("went wrong"))
        .await
        .expect("Enter reported the result, and Fix it is offered");
    assert!(heal.contains("1 run went wrong"), "{heal}");
    // The pressed button is disabled with its note gone: the focus goes on to Fix it's note.
    let now = focus_here(&app, "reporting a wrong result").await;
    assert_eq!(now.testid, "reusable-feedback", "{now:?}");

    // Fix it, with what to do differently.
    type_text(&app, "Give the temperature in Fahrenheit").await;
    tab_to_id(&app, false, "reusable-fix").await;
    keep_screenshot(&app, "keyboard-library-fix").await;
    press_busy(&app, "reusable-fix").await;
    let changes = long
        .text("reusable-changes", |t| !t.trim().is_empty())
        .await
        .expect("Enter on Fix it repaired the task");
    assert!(
        changes.contains("Recorded the feedback at the top of the code."),
        "the window lists what changed: {changes}"
    );
    wait.gone("reusable-heal")
        .await
        .expect("the wrong run was settled by the fix");
    // Fix it went with the runs it settled: the focus is on what the repair changed.
    let now = focus_here(&app, "fixing the task").await;
    assert_eq!(now.testid, "reusable-changes", "{now:?}");
    keep_screenshot(&app, "keyboard-library-fixed").await;
    app.quit().await;
}
