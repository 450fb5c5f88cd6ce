//! The stage beside the person's own window size (issue 31, "The live screen is the stage"):
//! a card the task on the live screen waits on docks under that screen (the one card, with the
//! same safety reading as everywhere, the thread saying where it is). The app's own 1180×760
//! window starts with the sidebar folded to its rail, which keeps the "Needs you" count and the
//! computers; one key opens it, and that choice is kept while the window stays under the fold
//! width, a wide window keeping its own. Light and dark, with axe over each screen and the
//! keyboard on the docked card.

use std::time::Duration;

use porthole_e2e::{by_testid, App, Eventually};
use thirtyfour::prelude::*;

use crate::accessibility::Audit;
use crate::card_flows::focused;
use crate::flows::{select_machine, send_task, wait_for_status};
use crate::live_stage::{launch, tab_until};
use crate::replay::keep_screenshot;

/// The app's own window and one narrower, both under the fold width (1200 px,
/// ui/src/lib/layout.svelte.ts) and over the window's least width (760 px); one over it.
const OWN: u32 = 1180;
const NARROW: u32 = 900;
const WIDE: u32 = 1240;
const HEIGHT: u32 = 760;

/// The window's width as the page sees it, once it has taken the size asked for.
async fn resize(app: &App, width: u32) {
    let rect = app.driver.get_window_rect().await.unwrap();
    // A window wider than the app's own starts at the screen's left edge, so it fits on it.
    let x = if width > OWN { 0 } else { rect.x };
    app.driver
        .set_window_rect(x, rect.y, width, HEIGHT)
        .await
        .expect("the window takes a new size");
    for _ in 0..100 {
        let inner = app
            .driver
            .execute("return window.innerWidth;", vec![])
            .await
            .unwrap();
        if inner.json().as_u64() == Some(u64::from(width)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the page never saw the window {width} px wide");
}

async fn ctrl_b(app: &App) {
    app.driver
        .action_chain()
        .key_down(Key::Control)
        .send_keys("b")
        .key_up(Key::Control)
        .perform()
        .await
        .unwrap();
}

/// Whether the sidebar is open (its list of computers shown) rather than folded to its rail.
async fn sidebar_open(app: &App) -> bool {
    !app.driver
        .find_all(by_testid("sidebar-fold"))
        .await
        .unwrap()
        .is_empty()
}

async fn docked_and_narrow(scheme: &str) {
    let app = launch(scheme).await;
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));
    let mut audit = Audit::new(&app, scheme).await;
    select_machine(&app, "Design laptop").await.unwrap();
    assert!(
        !sidebar_open(&app).await,
        "the app's own 1180×760 window starts with the sidebar folded, the computer chosen on the rail"
    );

    // A task the agent stops on a card: the card docks under the live screen it concerns.
    send_task(&app, "Delete the old files in Downloads")
        .await
        .unwrap();
    let dock = long
        .element("live-dock")
        .await
        .expect("the card docks on the stage");
    let card = dock
        .find(by_testid("approval-card"))
        .await
        .expect("the approval card, under the picture");
    // The same safety reading as the thread's and the inbox's card: the one component.
    assert_eq!(
        card.attr("data-destructive").await.unwrap().as_deref(),
        Some("true")
    );
    assert!(
        !dock
            .find_all(by_testid("approval-mismatch"))
            .await
            .unwrap()
            .is_empty(),
        "a Documents folder for a Downloads task is said on the docked card"
    );
    // One card: not also at the end of the thread, which says where it is.
    assert!(
        app.driver
            .find_all(By::Css(
                "[data-testid=\"thread\"] [data-testid=\"approval-card\"]"
            ))
            .await
            .unwrap()
            .is_empty(),
        "one card, not also in the thread"
    );
    let pointer = wait
        .text("thread-card-docked", |t| !t.is_empty())
        .await
        .expect("the thread says where the question is");
    assert!(pointer.contains("live screen"), "{pointer}");
    // The picture stays in view above the card, on the stage.
    let place: Vec<f64> = serde_json::from_value(
        app.driver
            .execute(
                r#"const stage = document.querySelector('[data-testid="live-stage"]').getBoundingClientRect();
                   const picture = document.querySelector('[data-testid="live-picture"]').getBoundingClientRect();
                   const dock = document.querySelector('[data-testid="live-dock"]').getBoundingClientRect();
                   return [picture.height, picture.bottom, dock.top, dock.bottom, stage.bottom];"#,
                vec![],
            )
            .await
            .unwrap()
            .json()
            .clone(),
    )
    .unwrap();
    let [picture_h, picture_bottom, dock_top, dock_bottom, stage_bottom] = place[..] else {
        panic!("{place:?}")
    };
    println!("docked card ({scheme}): picture {picture_h:.0} px tall, card {dock_top:.0}–{dock_bottom:.0}, stage ends {stage_bottom:.0}");
    assert!(
        picture_h >= 150.0,
        "the picture keeps {picture_h} px beside the card"
    );
    assert!(
        dock_top >= picture_bottom,
        "the card is under the picture, not over it"
    );
    assert!(
        dock_bottom <= stage_bottom + 1.0,
        "the card is on the stage"
    );
    // The keyboard: the card takes it on its words, Tab reaches its answer.
    assert_eq!(focused(&app).await, "approval-title");
    let passed = tab_until(&app, "approval-title", "approval-deny", 12).await;
    assert_eq!(
        passed.last().map(String::as_str),
        Some("approval-deny"),
        "the keyboard reaches the docked card's answer: {passed:?}"
    );
    keep_screenshot(&app, &format!("stage-docked-card-{scheme}")).await;
    audit.check("stage-docked-card").await;

    // The rail keeps the count of what needs the person.
    let badge = wait
        .element("inbox-open")
        .await
        .expect("the rail's Needs you");
    let count: u32 = badge
        .attr("data-count")
        .await
        .unwrap()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    assert!(
        count >= 1,
        "the rail's badge counts the waiting card: {count}"
    );
    keep_screenshot(&app, &format!("stage-narrow-rail-{scheme}")).await;
    audit.check("stage-narrow-rail").await;

    // One key opens it; the choice holds in a still narrower window.
    ctrl_b(&app).await;
    wait.element("sidebar-fold")
        .await
        .expect("Ctrl+B opens the sidebar");
    resize(&app, NARROW).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        sidebar_open(&app).await,
        "the person's unfold holds while the window stays narrow"
    );
    wait.element("live-dock")
        .await
        .expect("the card stays docked in the narrow window");
    // A wide window has the sidebar by default; folded there, that is the wide window's own
    // choice: back at the app's own size the person's open sidebar returns, and wide again the
    // wide window's fold.
    resize(&app, WIDE).await;
    wait.element("machine-list")
        .await
        .expect("a wide window has the sidebar");
    ctrl_b(&app).await;
    wait.element("sidebar-unfold")
        .await
        .expect("Ctrl+B folds it in the wide window");
    resize(&app, OWN).await;
    wait.element("sidebar-fold")
        .await
        .expect("the narrow window's choice (open) returns");
    resize(&app, WIDE).await;
    wait.element("sidebar-unfold")
        .await
        .expect("the wide window's choice (folded) returns");
    ctrl_b(&app).await;
    wait.element("sidebar-fold").await.unwrap();
    resize(&app, OWN).await;
    wait.element("machine-list").await.unwrap();

    // Answered from the stage.
    wait.element("approval-deny")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_status(&app, &["succeeded", "failed", "stopped"])
        .await
        .unwrap();
    wait.gone("live-dock").await.expect("the card is answered");
    wait.gone("thread-card-docked")
        .await
        .expect("the thread no longer points at a card");

    if let Some(report) = audit.report() {
        panic!("{report}");
    }
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_waiting_card_docks_under_its_screen_and_a_narrow_window_folds_the_sidebar_to_its_rail_light(
) {
    docked_and_narrow("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_waiting_card_docks_under_its_screen_and_a_narrow_window_folds_the_sidebar_to_its_rail_dark(
) {
    docked_and_narrow("dark").await;
}
