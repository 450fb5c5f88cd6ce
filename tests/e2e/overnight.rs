//! Schedules that run while the person is away, as they meet them: three hourly runs (the
//! awake Design laptop, the sleeping Research box, the Studio archive the service cannot wake)
//! come due with Porthole's window closed to the tray. The Research box is woken ahead of its
//! run; the Studio archive's run is missed with its reason. One notification sums the three up
//! (no notification per run), and when the tray brings the window back a card at the top of the
//! main area says the same, each run a line that opens its conversation, reached with the
//! keyboard; then it is dismissed. In the light and the dark scheme, checked by axe.
//!
//! The app's clock is the test's (`schedules.rs`); notifications are read by the stand-in
//! server (`notifications.rs`), the tray by the stand-in tray (`tray.rs`), and the window is
//! closed as a window manager closes it (`close_to_tray.rs`).

use std::time::{Duration, Instant};

use porthole_e2e::{by_testid, App, Eventually};
use thirtyfour::prelude::*;

use crate::accessibility::Audit;
use crate::close_to_tray::XWindow;
use crate::flows::thread_texts;
use crate::keyboard_walk::{press, tab_to, tab_to_id};
use crate::notifications::NotificationServer;
use crate::replay::keep_screenshot;
use crate::schedule_flows::{
    close_list, launch_with_clock, move_clock, open_list, open_schedule_dialog, save_every_hour,
};
use crate::tray::TrayWatcher;

const WEATHER: &str = "Check the weather in Oslo";
const INVOICES: &str = "Look for new invoices";
const PHOTOS: &str = "Back up the photos";
const HEADLINE: &str = "3 scheduled runs while you were away: 2 done, 1 needs you";

/// Makes `task` an hourly schedule on `computer`, chosen in the dialog opened from the Design
/// laptop's composer; `first` answers the one-time question about starting at login.
async fn schedule_on(app: &App, computer: &str, task: &str, first: bool) {
    open_schedule_dialog(app, "Design laptop", task)
        .await
        .expect("Schedule… opens");
    let wait = Eventually::new(&app.driver);
    let select = wait.element("schedule-machine").await.expect("computers");
    let option = select
        .find(By::XPath(format!(
            "./option[normalize-space()='{computer}']"
        )))
        .await
        .unwrap_or_else(|e| panic!("{computer} is offered: {e}"));
    option.click().await.expect("chosen");
    if first {
        save_every_hour(app).await.expect("saved");
        return;
    }
    wait.element("schedule-kind-everyHours")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let hours = wait.element("schedule-hours").await.unwrap();
    hours.clear().await.unwrap();
    hours.send_keys("1").await.unwrap();
    wait.text("schedule-summary", |t| {
        t.contains("Every hour") && t.contains(computer)
    })
    .await
    .expect("every hour, on the chosen computer");
    app.driver
        .find(by_testid("schedule-save"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("schedule-dialog").await.expect("saved");
}

fn wakes(sim: &porthole_sim::RunningSim) -> usize {
    let seen = sim.state().requests_seen();
    seen.iter().filter(|r| r.path == "/v1/agents/wake").count()
}

fn summary(n: &serde_json::Value) -> String {
    n["summary"].as_str().unwrap_or_default().to_owned()
}

async fn overnight(scheme: &str) {
    let notifications = NotificationServer::start();
    let tray = TrayWatcher::start();
    let gtk = if scheme == "dark" {
        "Adwaita:dark"
    } else {
        "Adwaita"
    };
    let (sim, app, clock) =
        launch_with_clock(&[("PORTHOLE_THEME", scheme), ("GTK_THEME", gtk)]).await;
    let menu = tray.icon();
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));

    schedule_on(&app, "Design laptop", WEATHER, true).await;
    schedule_on(&app, "Research box", INVOICES, false).await;
    schedule_on(&app, "Studio archive", PHOTOS, false).await;

    // Closed to the tray for the night.
    let window = XWindow::find();
    window.close();
    window.until_shown(false);

    // Two and a half minutes before the hour the sleeping Research box is woken, once; the
    // awake laptop and the archive the service cannot wake are not.
    assert_eq!(wakes(&sim), 0, "nothing is woken an hour ahead");
    move_clock(&clock.file, 3_600 - 150);
    let started = Instant::now();
    while wakes(&sim) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the Research box was not woken ahead of its run"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // The hour passes: one notification for the three runs, once two have ended.
    move_clock(&clock.file, 3_630);
    let digest = notifications
        .until(|n| summary(n).contains("while you were away"))
        .await;
    assert_eq!(summary(&digest), HEADLINE);
    let body = digest["body"].as_str().unwrap_or_default();
    for line in [
        format!("{WEATHER}: Done"),
        format!("{INVOICES}: Done"),
        format!("{PHOTOS}: Missed: Studio archive could not be woken"),
    ] {
        assert!(body.contains(&line), "{line:?} in {body:?}");
    }
    let about_runs: Vec<String> = notifications
        .sent()
        .iter()
        .map(summary)
        .filter(|s| s.contains("cheduled") || s.contains("while you were away"))
        .collect();
    assert_eq!(
        about_runs,
        vec![HEADLINE],
        "one notification, not one per run"
    );
    assert_eq!(wakes(&sim), 1, "woken once");
    assert!(!window.shown(), "the window stayed hidden");

    // The tray brings the window back: the card, at the top of the main area.
    let open = menu.until(|l| l.label == "Open Porthole", "Open Porthole");
    menu.click(&open);
    window.until_shown(true);
    let headline = long
        .text("schedule-digest-headline", |t| !t.is_empty())
        .await
        .expect("the card is shown");
    assert_eq!(headline, HEADLINE);
    let lines = app
        .driver
        .find_all(by_testid("schedule-digest-line"))
        .await
        .unwrap();
    let mut said = Vec::new();
    for line in &lines {
        said.push(line.text().await.unwrap().replace('\n', " "));
    }
    assert_eq!(said.len(), 3, "{said:?}");
    assert!(said
        .iter()
        .any(|l| l.contains(WEATHER) && l.contains("Done")));
    assert!(said
        .iter()
        .any(|l| l.contains(INVOICES) && l.contains("Done")));
    assert!(said
        .iter()
        .any(|l| l.contains(PHOTOS) && l.contains("Studio archive could not be woken")));
    keep_screenshot(&app, &format!("overnight-digest-{scheme}")).await;
    let mut audit = Audit::new(&app, scheme).await;
    audit.check("overnight-digest").await;
    if let Some(findings) = audit.report() {
        panic!("{findings}");
    }

    // The missed run says why in the Schedules list.
    open_list(&app).await.expect("list");
    let missed = wait
        .text("schedule-missed", |t| t.contains("Missed"))
        .await
        .expect("the missed run");
    assert!(
        missed.contains("Studio archive is asleep and the service cannot wake it"),
        "{missed}"
    );
    keep_screenshot(&app, &format!("overnight-missed-{scheme}")).await;
    close_list(&app).await.expect("closed");

    // With the keyboard: the Research box's line opens its conversation; then the card is
    // dismissed.
    tab_to(&app, false, "the Research box's line", |f| {
        f.testid == "schedule-digest-line" && f.what.contains(INVOICES)
    })
    .await;
    press(&app, Key::Enter).await;
    let started = Instant::now();
    while !thread_texts(&app, "user")
        .await
        .unwrap_or_default()
        .iter()
        .any(|t| t.trim() == INVOICES)
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the line opens the run's conversation"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tab_to_id(&app, true, "schedule-digest-dismiss").await;
    press(&app, Key::Enter).await;
    wait.gone("schedule-digest").await.expect("dismissed");

    app.quit().await;
    sim.shutdown().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn runs_while_the_window_is_away_are_told_once_and_summed_up_on_return_in_the_light_scheme() {
    overnight("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn runs_while_the_window_is_away_are_told_once_and_summed_up_on_return_in_the_dark_scheme() {
    overnight("dark").await;
}
