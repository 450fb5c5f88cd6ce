//! The live screen is the stage: while a task runs in the app's own 1180×760 window, as a
//! person first sees it (the sidebar folded to its rail, which keeps "Needs you"), the picture
//! takes a third of the window or more, with no band of nothing over 80 px on the stage; under
//! the picture a "now" bar (the step, how long, the cost so far, Stop) and the last steps'
//! pictures, a click on one opening it large. The sidebar opened with one click (») is
//! measured too.
//! Full screen keeps a thin bar (the computer, its state, Stop, "Leave full screen (Esc)") and
//! a card the agent waits on slides in over the picture, where it can be answered. Each in the
//! light and the dark scheme, with axe over both screens and the keyboard reaching the new
//! controls. The figures are printed and recorded in BENCHMARKS.md ("The live stage").

use std::time::Duration;

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::accessibility::Audit;
use crate::card_flows::focused;
use crate::flows::{send_task, wait_for_status};
use crate::replay::{keep_screenshot, run_recorded_task_started};

/// The Demo at its documented pace: slow enough to measure, look and Tab while the task runs.
const SCALE: f64 = 1.0;

/// The goals of issue 31 at 1180×760.
const LEAST_SHARE: f64 = 1.0 / 3.0;
const MOST_BAND: f64 = 80.0;
/// With the sidebar opened at 1180×760 the work area is 908 px wide; a third of the window
/// would need a picture about 690 px wide, leaving the conversation about 210 px: too cramped
/// to read or type in, which is why that window starts with it folded. The open sidebar's
/// figure is kept from falling back (BENCHMARKS.md).
const LEAST_SHARE_SIDEBAR_OPEN: f64 = 0.21;

/// The stage as the page draws it: the window's size, the picture drawn (the live display's
/// canvas), its share of the window, and the tallest band of the stage where nothing is drawn
/// (above the picture, between it and the bars under it, below them).
const MEASURE: &str = r#"
    const stage = document.querySelector('[data-testid="live-stage"]').getBoundingClientRect();
    const drawn = document.querySelector('[data-testid="live-display"]').firstElementChild;
    const picture = drawn.getBoundingClientRect();
    const parts = [picture];
    for (const id of ['now-bar', 'step-strip']) {
      const el = document.querySelector(`[data-testid="${id}"]`);
      if (el) parts.push(el.getBoundingClientRect());
    }
    parts.sort((a, b) => a.top - b.top);
    let band = parts[0].top - stage.top;
    for (let i = 1; i < parts.length; i++) band = Math.max(band, parts[i].top - parts[i - 1].bottom);
    band = Math.max(band, stage.bottom - parts[parts.length - 1].bottom);
    const area = window.innerWidth * window.innerHeight;
    return [window.innerWidth, window.innerHeight, picture.width, picture.height,
            picture.width * picture.height / area, band];
"#;

pub(crate) async fn launch(scheme: &str) -> App {
    App::launch_with(AppOptions {
        demo_time_scale: Some(SCALE),
        sidebar_as_first_seen: true,
        env: vec![
            ("PORTHOLE_THEME".into(), scheme.into()),
            (
                "GTK_THEME".into(),
                if scheme == "dark" {
                    "Adwaita:dark"
                } else {
                    "Adwaita"
                }
                .into(),
            ),
        ],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens")
}

/// Tabs from `from` until `to` has the keyboard (at most `most` presses); the test ids passed.
pub(crate) async fn tab_until(app: &App, from: &str, to: &str, most: usize) -> Vec<String> {
    let start = app.driver.find(by_testid(from)).await.unwrap();
    start.focus().await.unwrap();
    let mut passed = vec![focused(app).await];
    for _ in 0..most {
        app.driver
            .action_chain()
            .send_keys(Key::Tab)
            .perform()
            .await
            .unwrap();
        let now = focused(app).await;
        let done = now == to;
        passed.push(now);
        if done {
            break;
        }
    }
    passed
}

/// Once the picture is drawn and the first step is in the strip, the stage can be measured.
async fn settle(app: &App, view: &WebElement) {
    for _ in 0..600 {
        let live = view.attr("data-phase").await.unwrap().as_deref() == Some("live");
        let thumbs = app
            .driver
            .find_all(by_testid("step-strip-thumb"))
            .await
            .unwrap();
        if live && !thumbs.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The picture has settled at its fitted size (a fold and the strip move it).
    tokio::time::sleep(Duration::from_millis(500)).await;
}

/// The window's width and height, the picture's, its share of the window, the largest band.
async fn measure(app: &App) -> [f64; 6] {
    let figures: Vec<f64> = serde_json::from_value(
        app.driver
            .execute(MEASURE, vec![])
            .await
            .unwrap()
            .json()
            .clone(),
    )
    .unwrap();
    figures[..]
        .try_into()
        .unwrap_or_else(|_| panic!("the stage's figures: {figures:?}"))
}

async fn the_stage(scheme: &str) {
    let app = launch(scheme).await;
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));
    let mut audit = Audit::new(&app, scheme).await;

    // The app's own window as a person first sees it: the sidebar folded to its rail, which
    // still says what needs the person.
    wait.element("sidebar-unfold")
        .await
        .expect("the 1180×760 window starts with the sidebar folded");
    wait.element("inbox-open")
        .await
        .expect("the rail keeps Needs you");
    // The rail's computers are on the keyboard's way: », search, Needs you, then the first.
    wait.element("rail-machine")
        .await
        .expect("the rail keeps the computers");
    let passed = tab_until(&app, "sidebar-unfold", "rail-machine", 4).await;
    assert_eq!(
        passed.last().map(String::as_str),
        Some("rail-machine"),
        "Tab reaches the rail's computers: {passed:?}"
    );

    // A recorded task, so its steps have pictures for the strip.
    run_recorded_task_started(&app, "Look up the weather in Lisbon")
        .await
        .expect("a recorded task starts");
    assert_eq!(
        wait_for_status(&app, &["running", "succeeded"])
            .await
            .unwrap(),
        "running",
        "caught while it runs"
    );
    long.element("now-bar").await.expect("the now bar");
    let view = wait.element("live-view").await.unwrap();
    settle(&app, &view).await;
    let [width, height, picture_w, picture_h, share, band] = measure(&app).await;
    println!(
        "live stage ({scheme}, as first seen: sidebar folded) at {width}x{height}: picture \
         {picture_w:.0}x{picture_h:.0} px, {:.1}% of the window; largest empty band {band:.0} px",
        share * 100.0
    );
    assert_eq!(
        (width, height),
        (1180.0, 760.0),
        "measured at the window size of issue 31"
    );
    assert!(
        share >= LEAST_SHARE,
        "the picture takes {:.1}% of the window, under a third",
        share * 100.0
    );
    assert!(
        band <= MOST_BAND,
        "a band of {band:.0} px of nothing on the stage"
    );

    // One click opens the sidebar; the stage beside it is measured for the record, then the
    // person folds it again (Ctrl+B).
    wait.element("sidebar-unfold")
        .await
        .unwrap()
        .click()
        .await
        .expect("unfold");
    wait.element("machine-list")
        .await
        .expect("one click brings the sidebar back");
    settle(&app, &view).await;
    let open = measure(&app).await;
    println!(
        "live stage ({scheme}, sidebar opened) at {}x{}: picture {:.0}x{:.0} px, {:.1}% of the \
         window; largest empty band {:.0} px",
        open[0],
        open[1],
        open[2],
        open[3],
        open[4] * 100.0,
        open[5]
    );
    assert!(
        open[4] >= LEAST_SHARE_SIDEBAR_OPEN,
        "with the sidebar open the picture takes {:.1}% of the window",
        open[4] * 100.0
    );
    keep_screenshot(&app, &format!("stage-running-sidebar-open-{scheme}")).await;
    app.driver
        .action_chain()
        .key_down(Key::Control)
        .send_keys("b")
        .key_up(Key::Control)
        .perform()
        .await
        .unwrap();
    wait.element("sidebar-unfold")
        .await
        .expect("Ctrl+B folds it again");
    settle(&app, &view).await;

    // While it runs, the keyboard reaches Stop under the picture from the toolbar.
    let passed = tab_until(&app, "live-grid-open", "now-stop", 8).await;
    assert_eq!(
        passed.last().map(String::as_str),
        Some("now-stop"),
        "Tab from the toolbar reaches Stop under the picture: {passed:?}"
    );
    // The now bar: the step, the time, the cost so far and Stop, right under the picture.
    let step = wait
        .text("now-step", |t| t.starts_with("Step ") || t == "Starting…")
        .await
        .expect("the step the agent is on");
    assert!(!step.is_empty());
    let elapsed = wait.text("now-elapsed", |t| !t.is_empty()).await.unwrap();
    assert!(
        elapsed.chars().any(|c| c.is_ascii_digit()),
        "the time so far: {elapsed}"
    );
    wait.element("now-stop")
        .await
        .expect("Stop under the picture");
    keep_screenshot(&app, &format!("stage-running-{scheme}")).await;
    audit.check("stage-running").await;

    // The keyboard reaches the steps' pictures from the live screen's toolbar.
    let passed = tab_until(&app, "live-grid-open", "step-strip-thumb", 12).await;
    assert_eq!(
        passed.last().map(String::as_str),
        Some("step-strip-thumb"),
        "Tab from the toolbar reaches a step's picture: {passed:?}"
    );
    // A step's picture opens the step large; Escape closes it.
    app.driver
        .action_chain()
        .send_keys(Key::Enter)
        .perform()
        .await
        .unwrap();
    let title = wait
        .text("step-viewer-title", |t| !t.is_empty())
        .await
        .expect("the step opens large");
    assert!(!title.is_empty());
    app.driver
        .action_chain()
        .send_keys(Key::Escape)
        .perform()
        .await
        .unwrap();
    wait.gone("step-viewer").await.expect("Escape closes it");

    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    wait.gone("now-bar")
        .await
        .expect("no now bar once the task ended");
    wait.element("sidebar-unfold")
        .await
        .expect("the rail's unfold button")
        .click()
        .await
        .expect("unfold");
    wait.element("sidebar-fold")
        .await
        .expect("the sidebar is back");

    // Full screen during a task that stops on a card.
    send_task(&app, "Delete the old files in Downloads")
        .await
        .unwrap();
    let full = wait.element("live-fullscreen").await.unwrap();
    full.click().await.unwrap();
    assert_eq!(
        wait.text("live-full-name", |t| !t.is_empty())
            .await
            .unwrap(),
        "Design laptop"
    );
    assert_eq!(text_of(&full).await, "Leave full screen (Esc)");
    let card = long
        .element("live-card")
        .await
        .expect("the card slides in over the picture");
    card.find(by_testid("approval-card"))
        .await
        .expect("the approval card, over the picture");
    let chip = app
        .driver
        .find(By::Css(
            "[data-testid=\"live-view\"] [data-testid=\"status-chip\"]",
        ))
        .await
        .expect("the task's state on the thin bar");
    assert_eq!(
        chip.attr("data-status").await.unwrap().as_deref(),
        Some("needsApproval")
    );
    wait.element("live-stop")
        .await
        .expect("Stop stays in full screen");
    assert!(
        app.driver
            .find_all(By::Css(
                "[data-testid=\"thread\"] [data-testid=\"approval-card\"]"
            ))
            .await
            .unwrap()
            .is_empty(),
        "one card at a time: not also in the hidden thread"
    );
    keep_screenshot(&app, &format!("stage-full-screen-card-{scheme}")).await;
    audit.check("stage-full-screen-card").await;

    // The card takes the keyboard on its words; Tab goes on to its buttons.
    assert_eq!(focused(&app).await, "approval-title");
    let passed = tab_until(&app, "approval-title", "approval-deny", 12).await;
    assert_eq!(
        passed.last().map(String::as_str),
        Some("approval-deny"),
        "the keyboard reaches the card's answer: {passed:?}"
    );
    // Answered from over the picture.
    app.driver
        .action_chain()
        .send_keys(Key::Enter)
        .perform()
        .await
        .unwrap();
    wait_for_status(&app, &["succeeded", "failed", "stopped"])
        .await
        .unwrap();
    wait.gone("live-card").await.expect("the card is answered");
    wait.gone("live-stop")
        .await
        .expect("no Stop once the task ended");

    // Escape leaves full screen.
    app.driver
        .action_chain()
        .send_keys(Key::Escape)
        .perform()
        .await
        .unwrap();
    wait.text("live-fullscreen", |t| t == "Full screen")
        .await
        .expect("Escape leaves full screen");

    if let Some(report) = audit.report() {
        panic!("{report}");
    }
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_live_picture_is_the_stage_and_full_screen_keeps_stop_and_the_card_light() {
    the_stage("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_live_picture_is_the_stage_and_full_screen_keeps_stop_and_the_card_dark() {
    the_stage("dark").await;
}
