//! Getting past what went wrong with the keyboard alone (Tab, Enter and typing): a message
//! the service did not take, sent again with its Retry; the computer fallen asleep under the
//! live screen, woken with the screen's Wake; a check made and a file attached while the
//! network was gone, done with the error banner's Try again and the chip's Retry once it is
//! back. Every place the focus lands shows it.
//!
//! The simulator is the test's own: it refuses the first message as in `not_sent.rs` (a seed
//! found with its own draws), it puts the computer to sleep as in `live_states.rs`, and the
//! network is a line to it the test cuts and mends (`cut_line.rs`).

use std::time::Duration;

use porthole_e2e::Eventually;
use porthole_sim::faults::FaultSpec;
use thirtyfour::prelude::*;

use crate::cut_line::CutLine;
use crate::flows::{thread_texts, wait_for_status};
use crate::keyboard_walk::{
    as_ada, data_of, focus_here, machine_of, open_on, press, press_busy, run_task, simulator,
    tab_to_id, type_text,
};
use crate::live_states::until;
use crate::not_sent::{seed_refusing_one_message, FAULTS};
use crate::replay::keep_screenshot;

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_message_not_sent_and_a_sleeping_computer_are_recovered_with_the_keyboard_alone() {
    let sim = porthole_sim::Sim::start(porthole_sim::Config {
        time_scale: 0.05,
        faults: FaultSpec::parse(FAULTS).unwrap(),
        seed: seed_refusing_one_message(),
        ..porthole_sim::Config::default()
    })
    .await
    .expect("simulator");
    let ada = sim.account("ada").clone();
    let app = open_on(as_ada(&sim, &sim.base_url, Vec::new()), "Design laptop").await;
    let long = Eventually::new(&app.driver).within(Duration::from_secs(60));

    // Not sent: Retry, reached with Tab, sends it once.
    tab_to_id(&app, false, "composer").await;
    type_text(&app, "Find the weather in Lisbon").await;
    press(&app, Key::Enter).await;
    long.element("retry-send")
        .await
        .expect("the message is marked not sent, with Retry");
    tab_to_id(&app, true, "retry-send").await;
    keep_screenshot(&app, "keyboard-recovery-not-sent").await;
    press(&app, Key::Enter).await;
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded",
        "Enter on Retry sent it"
    );
    assert!(thread_texts(&app, "notSent").await.unwrap().is_empty());
    assert_eq!(
        thread_texts(&app, "user").await.unwrap().len(),
        1,
        "sent once"
    );
    focus_here(&app, "Retry").await;

    // Asleep under the live screen: its Wake, reached with Tab.
    until(Duration::from_secs(30), "the live screen shows", || async {
        Ok(data_of(&app, "live-view", "phase").await == "live")
    })
    .await
    .expect("live");
    let machine_id = machine_of(&sim, "ada", "Design laptop");
    assert!(sim.state().hibernate(&ada.user_id, &machine_id));
    long.element("live-wake")
        .await
        .expect("the live screen offers Wake");
    tab_to_id(&app, false, "live-wake").await;
    keep_screenshot(&app, "keyboard-recovery-asleep").await;
    press(&app, Key::Enter).await;
    until(Duration::from_secs(60), "live again after Wake", || async {
        Ok(data_of(&app, "live-view", "phase").await == "live")
    })
    .await
    .expect("Enter on Wake woke the computer and the screen is live again");
    focus_here(&app, "waking the computer").await;
    app.quit().await;
    sim.shutdown().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_check_that_could_not_reach_the_service_is_tried_again_with_the_keyboard_alone() {
    let sim = simulator().await;
    let line = CutLine::to(&sim.base_url).await;
    let app = open_on(as_ada(&sim, &line.url, Vec::new()), "Design laptop").await;
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(180));
    assert_eq!(
        run_task(&app, "Look up the weather in Paris").await,
        "succeeded"
    );
    tab_to_id(&app, false, "answer-check").await;
    press(&app, Key::Enter).await;
    wait.element("check-result")
        .await
        .expect("Enter opened the check");
    tab_to_id(&app, false, "judge-sentence").await;
    type_text(&app, "The answer gives a temperature").await;

    // The network goes away: the check says it could not reach the service, with Try again.
    line.cut();
    tab_to_id(&app, false, "judge-run").await;
    press_busy(&app, "judge-run").await;
    let said = long
        .text("judge-error", |t| !t.trim().is_empty())
        .await
        .expect("the check says what went wrong");
    assert!(said.contains("Can't reach the service"), "{said}");
    keep_screenshot(&app, "keyboard-recovery-check-failed").await;

    // It comes back; Try again, reached with Tab, checks.
    line.mend();
    let again = tab_to_id(&app, false, "judge-error-action").await;
    assert!(again.what.contains("Try again"), "{again:?}");
    press(&app, Key::Enter).await;
    long.element("judge-verdict")
        .await
        .expect("Enter on Try again checked the result");
    wait.gone("judge-error").await.expect("the banner goes");
    focus_here(&app, "trying again").await;
    keep_screenshot(&app, "keyboard-recovery-check-again").await;
    app.quit().await;
    sim.shutdown().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn an_upload_that_failed_is_tried_again_with_the_keyboard_alone() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("shopping notes.md");
    std::fs::write(&notes, "milk\n".repeat(60_000)).unwrap();
    let sim = simulator().await;
    let line = CutLine::to(&sim.base_url).await;
    // The system's file dialog cannot be driven: the app takes this file as picked.
    let picked = vec![(
        "PORTHOLE_E2E_PICKED_FILES".into(),
        notes.display().to_string(),
    )];
    let app = open_on(as_ada(&sim, &line.url, picked), "Design laptop").await;
    let wait = Eventually::new(&app.driver);

    // Attached while the network is gone: the upload fails and says so, with Retry.
    line.cut();
    tab_to_id(&app, false, "attach-button").await;
    press(&app, Key::Enter).await;
    until(Duration::from_secs(120), "the upload fails", || async {
        Ok(data_of(&app, "attachment-chip", "state").await == "failed")
    })
    .await
    .expect("the upload failed");
    wait.text("attachment-error", |t| !t.trim().is_empty())
        .await
        .expect("the chip says why");
    keep_screenshot(&app, "keyboard-recovery-upload-failed").await;

    // Back: Retry, reached with Tab, uploads it.
    line.mend();
    tab_to_id(&app, false, "attachment-retry").await;
    press(&app, Key::Enter).await;
    until(Duration::from_secs(60), "the upload is done", || async {
        Ok(data_of(&app, "attachment-chip", "state").await == "ready")
    })
    .await
    .expect("Enter on Retry uploaded the file");
    focus_here(&app, "retrying the upload").await;
    keep_screenshot(&app, "keyboard-recovery-upload-again").await;
    app.quit().await;
    sim.shutdown().await;
}
