//! A task and its computer with the keyboard alone (Tab, Shift+Tab, Enter, Escape, and
//! typing): the live screen's controls (actual size and fit, full screen left with Escape, a
//! snapshot, all screens), the limit for every task offered after the first task, Needs you
//! (a computer's notice put away, the waiting task opened), stopping the task while it waits,
//! what it cost, and waking a sleeping computer. Every place the focus lands shows it.
//!
//! The snapshot's save dialog is the system's: as in `live_states.rs`, the test names the
//! file it answers (`PORTHOLE_E2E_SAVE_PATH`); the button is reached and pressed by keyboard.

use std::time::Duration;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::flows::wait_for_status;
use crate::keyboard_walk::{
    choose_computer, focus_here, focus_inside, focused, open_on, press, run_task, tab_to,
    tab_to_id, type_text,
};
use crate::replay::keep_screenshot;

async fn attr(app: &App, testid: &str, name: &str) -> String {
    let el = app.driver.find(by_testid(testid)).await.unwrap();
    el.attr(name).await.unwrap().unwrap_or_default()
}

/// Waits until the element's attribute reads `wanted`.
async fn until_attr(app: &App, testid: &str, name: &str, wanted: &str, what: &str) {
    let start = std::time::Instant::now();
    loop {
        if attr(app, testid, name).await == wanted {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_live_screen_needs_you_stop_cost_and_wake_with_the_keyboard_alone() {
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("screen.png");
    let options = AppOptions {
        demo_time_scale: Some(0.2),
        env: vec![(
            "PORTHOLE_E2E_SAVE_PATH".into(),
            picture.display().to_string(),
        )],
        ..AppOptions::default()
    };
    let app = open_on(options, "Design laptop").await;
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(180));
    until_attr(
        &app,
        "live-view",
        "data-phase",
        "live",
        "the live screen shows",
    )
    .await;

    // The live screen's bar: sizes, full screen (left with Escape), a snapshot, all screens.
    tab_to_id(&app, false, "live-actual").await;
    press(&app, Key::Enter).await;
    assert_eq!(
        attr(&app, "live-actual", "aria-pressed").await,
        "true",
        "actual size"
    );
    tab_to_id(&app, true, "live-fit").await;
    press(&app, Key::Enter).await;
    assert_eq!(
        attr(&app, "live-fit", "aria-pressed").await,
        "true",
        "fitted again"
    );
    tab_to_id(&app, false, "live-fullscreen").await;
    press(&app, Key::Enter).await;
    wait.text("live-fullscreen", |t| t == "Leave full screen (Esc)")
        .await
        .expect("Enter went full screen");
    press(&app, Key::Escape).await;
    wait.text("live-fullscreen", |t| t == "Full screen")
        .await
        .expect("Escape left full screen");
    tab_to_id(&app, false, "live-snapshot").await;
    press(&app, Key::Enter).await;
    until_attr(
        &app,
        "live-view",
        "data-snapshot",
        "saved",
        "the snapshot is saved",
    )
    .await;
    assert!(picture.exists(), "the picture was written");
    focus_here(&app, "the snapshot").await;
    tab_to_id(&app, false, "live-grid-open").await;
    press(&app, Key::Enter).await;
    wait.element("live-grid")
        .await
        .expect("Enter opened all screens");
    let inside = focus_here(&app, "opening all screens").await;
    assert!(
        focus_inside(&app, "live-grid").await,
        "the focus moved onto all screens: {inside:?}"
    );
    // Every tile says what it shows: no tile is left blank while its first picture is on its
    // way (the Design laptop's was black), and the computer that is up shows its screen.
    // Read at one instant in the page, so a tile changing between two reads is no failure.
    let tiles: Vec<(String, bool)> = serde_json::from_value(
        app.driver
            .execute(
                r#"return [...document.querySelectorAll('[data-testid="live-grid"] [data-testid="live-view"]')]
                     .map((v) => [v.dataset.phase, !!v.querySelector('[data-testid="live-overlay"]')]);"#,
                vec![],
            )
            .await
            .unwrap()
            .json()
            .clone(),
    )
    .unwrap();
    for (phase, overlay) in &tiles {
        assert_eq!(
            phase == "live",
            !overlay,
            "a tile {phase} says so on its picture, or shows the screen: {tiles:?}"
        );
    }
    let tiles = app
        .driver
        .find_all(By::Css(
            "[data-testid=\"live-grid\"] [data-testid=\"live-view\"]",
        ))
        .await
        .unwrap();
    let first = tiles.first().expect("a tile per cloud computer");
    for _ in 0..300 {
        if first.attr("data-phase").await.unwrap().as_deref() == Some("live") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        first.attr("data-phase").await.unwrap().as_deref(),
        Some("live"),
        "the Design laptop's tile shows its screen"
    );
    keep_screenshot(&app, "keyboard-task-all-screens").await;
    // Each tile keeps the screens' shape (16:10), says its computer's state and opens it.
    let shapes: Vec<(f64, String, bool)> = serde_json::from_value(
        app.driver
            .execute(
                r#"return [...document.querySelectorAll('[data-testid="live-grid-tile"]')].map((tile) => {
                     const r = tile.querySelector('[data-testid="live-view"]').getBoundingClientRect();
                     const state = tile.querySelector('[data-testid="live-grid-state"]');
                     return [r.width / r.height, state ? state.textContent.trim() : '',
                             !!tile.querySelector('[data-testid="live-grid-tile-open"]')];
                   });"#,
                vec![],
            )
            .await
            .unwrap()
            .json()
            .clone(),
    )
    .unwrap();
    assert!(!shapes.is_empty(), "a tile per cloud computer");
    for (aspect, state, open) in &shapes {
        assert!(
            (aspect - 1.6).abs() < 0.02,
            "a tile keeps the screen's 16:10: {shapes:?}"
        );
        assert!(!state.is_empty(), "each tile says its state: {shapes:?}");
        assert!(open, "each tile opens its computer: {shapes:?}");
    }
    press(&app, Key::Tab).await;
    assert!(
        focus_inside(&app, "live-grid").await,
        "Tab stays on all screens"
    );
    press(&app, Key::Escape).await;
    wait.gone("live-grid")
        .await
        .expect("Escape closed all screens");
    assert_eq!(
        focus_here(&app, "closing all screens").await.testid,
        "live-grid-open"
    );

    // The Demo's archive cannot be woken: asked for a task, it fails and needs the person.
    choose_computer(&app, &wait, "Studio archive").await;
    assert_eq!(
        run_task(&app, "Look up the weather in Paris").await,
        "failed"
    );
    choose_computer(&app, &wait, "Design laptop").await;

    // After the first task, a limit for every task is offered: its field and both buttons are
    // reached (they sit just before the box), and "No, thanks" with Enter puts it away, the
    // keyboard back in the box.
    wait.element("cap-offer")
        .await
        .expect("the offer after the first task");
    tab_to_id(&app, true, "composer").await;
    tab_to_id(&app, true, "cap-offer-no").await;
    tab_to_id(&app, true, "cap-offer-set").await;
    tab_to_id(&app, true, "cap-offer-input").await;
    tab_to_id(&app, false, "cap-offer-set").await;
    keep_screenshot(&app, "keyboard-task-cap-offer").await;
    tab_to_id(&app, false, "cap-offer-no").await;
    press(&app, Key::Enter).await;
    wait.gone("cap-offer")
        .await
        .expect("Enter on No, thanks answered the offer");
    assert_eq!(
        focus_here(&app, "answering the offer").await.testid,
        "composer",
        "the keyboard is back in the box"
    );

    // A task that waits for the person.
    type_text(&app, "Delete the old files in Downloads").await;
    press(&app, Key::Enter).await;
    long.element("approval-card").await.expect("the agent asks");

    // Needs you: the sleeping computer's notice put away, then the waiting task opened.
    tab_to_id(&app, true, "inbox-open").await;
    press(&app, Key::Enter).await;
    wait.element("inbox").await.expect("Enter opened Needs you");
    assert!(
        focus_inside(&app, "inbox").await,
        "the focus is in Needs you"
    );
    tab_to(&app, false, "the sleeping computer's Put away", |f| {
        f.testid == "inbox-dismiss" && f.kind == "cannotWake"
    })
    .await;
    press(&app, Key::Enter).await;
    let start = std::time::Instant::now();
    while app
        .driver
        .find(By::Css("[data-testid=inbox-item][data-kind=cannotWake]"))
        .await
        .is_ok()
    {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "Enter put the notice away"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    focus_here(&app, "putting a notice away").await;
    assert!(
        focus_inside(&app, "inbox").await,
        "the focus stays in Needs you"
    );
    keep_screenshot(&app, "keyboard-task-needs-you").await;
    tab_to(&app, false, "the waiting task's Open the task", |f| {
        f.testid == "inbox-open-item" && f.kind == "card"
    })
    .await;
    press(&app, Key::Enter).await;
    wait.gone("inbox").await.expect("Enter opened the task");
    wait.text("task-machine-name", |t| t == "Design laptop")
        .await
        .expect("its computer");
    wait.element("approval-card")
        .await
        .expect("the waiting card");
    focus_here(&app, "opening the task").await;

    // Stopped while it waits.
    tab_to_id(&app, true, "stop-button").await;
    press(&app, Key::Enter).await;
    assert_eq!(
        wait_for_status(&app, &["stopped", "failed", "succeeded"])
            .await
            .unwrap(),
        "stopped",
        "Enter on Stop stopped the task"
    );
    focus_here(&app, "stopping").await;

    // What it cost: opened with Enter, its details unfolded, closed with Escape.
    tab_to_id(&app, true, "usage-button").await;
    press(&app, Key::Enter).await;
    wait.element("usage-popover")
        .await
        .expect("Enter opened the cost");
    tab_to_id(&app, false, "usage-details-toggle").await;
    press(&app, Key::Enter).await;
    wait.element("usage-session")
        .await
        .expect("Enter unfolded the details");
    keep_screenshot(&app, "keyboard-task-cost").await;
    press(&app, Key::Escape).await;
    wait.gone("usage-popover")
        .await
        .expect("Escape closed the cost");
    assert_eq!(
        focused(&app).await.unwrap_or_default().testid,
        "usage-button"
    );

    // A sleeping computer woken with Enter on its Wake.
    tab_to(&app, true, "Research box's Wake", |f| {
        f.testid == "wake-button" && f.row == "Research box"
    })
    .await;
    press(&app, Key::Enter).await;
    wait.text("machine-starting", |t| t.contains("Waking Research box"))
        .await
        .expect("Enter woke it");
    focus_here(&app, "waking").await;
    app.quit().await;
}
