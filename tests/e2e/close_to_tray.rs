//! Closing the window as a person does, with the window's close button: while a schedule will
//! still run, Porthole keeps running in the tray (its window hidden) and the tray's "Open
//! Porthole" brings the window back; with no schedule, or every schedule paused, closing quits.
//!
//! The tests run under Xvfb without a window manager, so nothing draws a close button. A window
//! manager's close button does not destroy the window: it sends the window the WM_DELETE_WINDOW
//! message, which GTK turns into the window's delete-event and Tauri into
//! `WindowEvent::CloseRequested`. `close_window.py` sends that same message, so the app meets
//! the close exactly as on a desktop. The tray is the stand-in of `tray.rs`.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use porthole_e2e::{visible, App, AppOptions, Eventually};

use crate::schedule_flows::schedule_hourly;
use crate::tray::TrayWatcher;

/// The app's main window on the X display: its title is "Porthole", or "Porthole (n)" with
/// what needs the person.
pub(crate) struct XWindow(String);

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("e2e/close_window.py")
}

impl XWindow {
    pub(crate) fn find() -> Self {
        let ids = Self::all();
        assert_eq!(ids.len(), 1, "one Porthole window on the display: {ids:?}");
        Self(ids[0].clone())
    }

    /// The ids of the Porthole windows on the display, none while GTK has not made it yet.
    pub(crate) fn all() -> Vec<String> {
        let out = Command::new("/usr/bin/python3")
            .arg(script())
            .args(["find", r"Porthole( \(\d+\))?"])
            .output()
            .expect("close_window.py runs");
        assert!(
            out.status.success(),
            "close_window.py find: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Whether the window is on the screen (`xwininfo`'s map state IsViewable), or hidden
    /// (IsUnMapped); it is still there either way.
    pub(crate) fn shown(&self) -> bool {
        let out = Command::new("xwininfo")
            .args(["-id", &self.0])
            .output()
            .expect("xwininfo");
        assert!(
            out.status.success(),
            "the window {} is still there: {}",
            self.0,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).contains("Map State: IsViewable")
    }

    pub(crate) fn until_shown(&self, shown: bool) {
        let started = Instant::now();
        while self.shown() != shown {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the window is {} after 30 s",
                if shown { "still hidden" } else { "still shown" }
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The close button's message, as a window manager sends it.
    pub(crate) fn close(&self) {
        let status = Command::new("/usr/bin/python3")
            .arg(script())
            .args(["close", &self.0])
            .status()
            .expect("close_window.py runs");
        assert!(status.success(), "the close request is sent");
    }
}

async fn until_ended(app: &App, what: &str) {
    let started = Instant::now();
    while app.running() {
        assert!(started.elapsed() < Duration::from_secs(30), "{what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn closing_the_window_with_a_schedule_keeps_porthole_in_the_tray_until_paused() {
    let tray = TrayWatcher::start();
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let menu = tray.icon();

    // An hourly schedule on the Design laptop.
    schedule_hourly(&app, "Design laptop", "Check the weather in Oslo")
        .await
        .expect("the schedule is saved");
    menu.until(
        |l| l.label.starts_with("Next: Check the weather in Oslo "),
        "next run",
    );

    let window = XWindow::find();
    assert!(window.shown(), "the window is on the screen");
    window.close();
    window.until_shown(false);
    // A close that quits destroys the window on the app's main thread right after the close
    // request; a round trip through WebDriver is served on that same thread, after it. So once
    // the page answers, a window that is still there (hidden, not destroyed) was kept.
    app.driver
        .execute("return document.title", vec![])
        .await
        .expect("the page answers after the close");
    assert!(
        !window.shown(),
        "the window stays hidden, and is still there"
    );
    assert!(app.running(), "Porthole keeps running for its schedule");
    menu.until(
        |l| l.label.starts_with("Next: Check the weather in Oslo "),
        "next run, from the tray of the running app",
    );
    app.screenshot("close-to-tray-hidden")
        .await
        .expect("screenshot");

    // The tray brings the window back, as it was.
    let open = menu.until(|l| l.label == "Open Porthole", "Open Porthole");
    menu.click(&open);
    window.until_shown(true);
    let composer = wait.element("composer").await.unwrap();
    assert!(
        visible(&app.driver, &composer).await,
        "the window's page is there again"
    );
    app.screenshot("close-to-tray-opened-again")
        .await
        .expect("screenshot");

    // With every schedule paused nothing will run, so closing quits.
    let pause = menu.until(|l| l.label == "Pause all schedules", "Pause all");
    menu.click(&pause);
    menu.until(|l| l.label == "Resume schedules", "Resume");
    window.close();
    until_ended(&app, "closing with every schedule paused ends Porthole").await;
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn closing_the_window_without_a_schedule_quits() {
    let tray = TrayWatcher::start();
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    // The tray icon is there, and the page is ready: closing still quits.
    let menu = tray.icon();
    menu.until(|l| l.label == "Quit Porthole", "Quit");
    wait.element("composer").await.expect("the page is ready");

    let window = XWindow::find();
    assert!(window.shown(), "the window is on the screen");
    window.close();
    until_ended(&app, "closing without a schedule ends Porthole").await;
    app.quit().await;
}

/// The tray's "Next:" line has its time in the page's words (Intl), and the page runs on with
/// the window hidden: a scheduled run made while hidden moves the next run an hour on, and the
/// line says the new time. The app's clock is moved by the test (`schedules.rs`).
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_tray_says_the_next_run_s_new_time_after_a_run_made_while_the_window_is_hidden() {
    let tray = TrayWatcher::start();
    let clock_dir = tempfile::tempdir().expect("temp dir");
    let clock = clock_dir.path().join("clock-shift");
    std::fs::write(&clock, "0").expect("the test clock is written");
    let app = App::launch_with(AppOptions {
        env: vec![(
            "PORTHOLE_TEST_CLOCK_FILE".into(),
            clock.to_string_lossy().into_owned(),
        )],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let menu = tray.icon();
    schedule_hourly(&app, "Design laptop", "Check the weather in Oslo")
        .await
        .expect("the schedule is saved");
    let timed = |l: &crate::tray::Line| {
        l.label.starts_with("Next: Check the weather in Oslo ") && l.label.contains(" at ")
    };
    let first = menu.until(timed, "next run with its time").label;

    let window = XWindow::find();
    window.close();
    window.until_shown(false);
    // An hour and half a minute later by the app's clock, the run starts by itself.
    std::fs::write(&clock, "3630").expect("the test clock is moved");
    let second = menu
        .until(
            |l| timed(l) && l.label != first,
            "the next run's new time, worded by the hidden window's page",
        )
        .label;
    assert!(!window.shown(), "the window stayed hidden");
    let minutes = |label: &str| {
        crate::tray::minutes_of(label).unwrap_or_else(|| panic!("an English time: {label}"))
    };
    assert_eq!(
        minutes(&second),
        (minutes(&first) + 60) % (24 * 60),
        "an hour after the first: {first} / {second}"
    );
    app.quit().await;
}
