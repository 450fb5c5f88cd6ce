//! A running task and a question card with the keyboard alone (Tab, Shift+Tab, Enter and
//! typing): a second request held with "Run next" and taken back with its ×, then a card of
//! two questions answered by pressing its options and sending the answer. Every place the
//! focus lands shows it.

use porthole_e2e::{App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::flows::wait_for_status;
use crate::keyboard_walk::{focus_here, last_answer, open_on, press, tab_to, tab_to_id, type_text};
use crate::replay::keep_screenshot;

/// Presses Enter on the card's option labelled `label`, reached with Tab.
async fn press_option(app: &App, label: &str) {
    tab_to(app, false, label, |f| {
        f.testid == "approval-option" && f.what.ends_with(label)
    })
    .await;
    press(app, Key::Enter).await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn run_next_and_a_question_card_are_used_with_the_keyboard_alone() {
    let app = open_on(AppOptions::default(), "Design laptop").await;
    let wait = Eventually::new(&app.driver);

    // A long task; meanwhile another request, held with Run next, then taken back.
    tab_to_id(&app, false, "composer").await;
    type_text(&app, "Take your time and count to 3").await;
    press(&app, Key::Enter).await;
    wait_for_status(&app, &["running"])
        .await
        .expect("the task runs");
    type_text(&app, "Find the weather in Oslo").await;
    tab_to_id(&app, false, "run-next-button").await;
    press(&app, Key::Enter).await;
    wait.text("waiting-item", |t| t.contains("Oslo"))
        .await
        .expect("Enter on Run next held it");
    focus_here(&app, "Run next").await;
    tab_to_id(&app, true, "waiting-remove").await;
    press(&app, Key::Enter).await;
    wait.gone("waiting-list")
        .await
        .expect("Enter on × took it back");
    focus_here(&app, "taking the request back").await;
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );

    // A card of two questions: the city and the days, picked with Enter, sent with Enter.
    tab_to_id(&app, false, "composer").await;
    type_text(&app, "Plan a trip for the weekend").await;
    press(&app, Key::Enter).await;
    wait.element("approval-send-choice")
        .await
        .expect("a choice card");
    press_option(&app, "Rome").await;
    press_option(&app, "Saturday").await;
    press_option(&app, "Sunday").await;
    tab_to_id(&app, false, "approval-send-choice").await;
    keep_screenshot(&app, "keyboard-cards-choice").await;
    press(&app, Key::Enter).await;
    wait.gone("approval-send-choice")
        .await
        .expect("Enter sent the answer");
    focus_here(&app, "answering the card").await;
    let answer = last_answer(&app).await;
    assert!(
        answer.contains("Rome"),
        "the agent followed the picks: {answer}"
    );
    app.quit().await;
}
