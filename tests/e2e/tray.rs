//! The tray icon's menu as a desktop's panel reads it: a stand-in StatusNotifierWatcher
//! (`tray_watcher.py`) owns `org.kde.StatusNotifierWatcher` on the test's private session bus,
//! the app's tray icon registers with it and exports its menu (com.canonical.dbusmenu), and the
//! test reads the menu's lines and clicks them over D-Bus (`gdbus`), as a panel does.
//!
//! Not tested: how a panel draws the icon, and the count beside it (a title only some panels
//! show).

use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use porthole_e2e::{by_testid, App, Eventually};

pub(crate) struct TrayWatcher {
    child: Child,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

/// The tray icon as registered: its bus name and its menu's object path.
pub(crate) struct TrayMenu {
    service: String,
    menu: String,
}

/// One line of the menu as the panel gets it.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    id: i32,
    pub(crate) label: String,
    enabled: bool,
}

impl TrayWatcher {
    pub(crate) fn start() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("tray.jsonl");
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("e2e/tray_watcher.py");
        let child = Command::new("/usr/bin/python3")
            .arg(script)
            .arg(&log)
            .spawn()
            .expect("the stand-in tray starts");
        let watcher = Self {
            child,
            log,
            _dir: dir,
        };
        watcher.until(|lines| lines.iter().any(|l| l == "ready"), "ready");
        watcher
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    fn until(&self, done: impl Fn(&[String]) -> bool, what: &str) -> Vec<String> {
        let started = Instant::now();
        loop {
            let lines = self.lines();
            if done(&lines) {
                return lines;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the stand-in tray: no {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The app's tray icon, once it registered.
    pub(crate) fn icon(&self) -> TrayMenu {
        let lines = self.until(|l| l.len() >= 2, "tray icon registered");
        let item: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        let service = item["service"].as_str().unwrap().to_owned();
        let path = item["path"].as_str().unwrap().to_owned();
        let menu = gdbus(&[
            "--dest",
            &service,
            "--object-path",
            &path,
            "--method",
            "org.freedesktop.DBus.Properties.Get",
            "org.kde.StatusNotifierItem",
            "Menu",
        ]);
        // (<objectpath '/org/ayatana/NotificationItem/…/Menu'>,)
        let menu = menu.split('\'').nth(1).expect("the menu's path").to_owned();
        TrayMenu { service, menu }
    }
}

impl Drop for TrayWatcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn gdbus(args: &[&str]) -> String {
    let out = Command::new("gdbus")
        .args(["call", "--session"])
        .args(args)
        .output()
        .expect("gdbus");
    assert!(
        out.status.success(),
        "gdbus {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

impl TrayMenu {
    /// The menu's lines, separators left out, as `GetLayout` gives them (GVariant text:
    /// `<(7, {'label': <'Open Porthole'>}, @av [])>`, `'enabled': <false>` when greyed).
    fn lines(&self) -> Vec<Line> {
        let layout = gdbus(&[
            "--dest",
            &self.service,
            "--object-path",
            &self.menu,
            "--method",
            "com.canonical.dbusmenu.GetLayout",
            "--",
            "0",
            "-1",
            "[]",
        ]);
        layout
            .split("<(")
            .skip(1)
            .filter_map(|entry| {
                let id = entry.split(',').next()?.trim().parse().ok()?;
                let label = entry.split("'label': <'").nth(1)?.split("'>").next()?;
                Some(Line {
                    id,
                    label: label.replace('_', ""),
                    enabled: !entry.contains("'enabled': <false>"),
                })
            })
            .collect()
    }

    /// Waits until the menu has a line `wanted` accepts; that line.
    pub(crate) fn until(&self, wanted: impl Fn(&Line) -> bool, what: &str) -> Line {
        let started = Instant::now();
        loop {
            let lines = self.lines();
            if let Some(line) = lines.iter().find(|l| wanted(l)) {
                return line.clone();
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the tray menu has no {what}: {lines:?}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Clicks the line `wanted` finds until `done` says the app acted on it. The app builds a
    /// new menu, with new item ids, whenever a line's words change; a panel shows the new one
    /// at once, but a click read from the menu a moment before reaches an id no longer there,
    /// and nothing happens. So the line is read and clicked again, as it is now.
    pub(crate) async fn click_until<F, Fut>(
        &self,
        wanted: impl Fn(&Line) -> bool,
        what: &str,
        done: F,
    ) where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = bool>,
    {
        let started = Instant::now();
        loop {
            let line = self.until(&wanted, what);
            self.click(&line);
            for _ in 0..20 {
                if done().await {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(150)).await;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "a click on {what} is not acted on"
            );
        }
    }

    /// A click on a line, as a panel sends it.
    pub(crate) fn click(&self, line: &Line) {
        assert!(line.enabled, "{line:?} can be clicked");
        gdbus(&[
            "--dest",
            &self.service,
            "--object-path",
            &self.menu,
            "--method",
            "com.canonical.dbusmenu.Event",
            "--",
            &line.id.to_string(),
            "clicked",
            "<int32 0>",
            "0",
        ]);
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_tray_menu_opens_the_inbox_shows_the_next_run_pauses_schedules_and_quits() {
    let tray = TrayWatcher::start();
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let menu = tray.icon();
    let labels: Vec<String> = menu.lines().into_iter().map(|l| l.label).collect();
    assert_eq!(labels.first().map(String::as_str), Some("Open Porthole"));
    assert_eq!(labels.last().map(String::as_str), Some("Quit Porthole"));

    // A task that failed: one thing needs the person, and the tray's line for it opens the
    // inbox in the window.
    crate::flows::select_machine(&app, "Design laptop")
        .await
        .expect("the laptop");
    crate::flows::send_task(&app, "Open the file and fail")
        .await
        .expect("send");
    assert_eq!(
        crate::flows::wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "failed"
    );
    menu.click_until(
        |l| l.label == "1 thing needs you",
        "count of what needs you",
        || async { app.driver.find(by_testid("inbox")).await.is_ok() },
    )
    .await;
    wait.element("inbox").await.expect("the inbox opens");
    wait.element("inbox-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // A schedule: the menu says what runs next, and pauses every schedule.
    crate::schedule_flows::schedule_hourly(&app, "Design laptop", "Check the weather in Oslo")
        .await
        .expect("the schedule is saved");
    let next = menu.until(
        |l| l.label.starts_with("Next: Check the weather in Oslo "),
        "next run",
    );
    // Its time as the page words it (Intl), in the language's own clock, as the schedule form's
    // time field shows it: "at 02:05 PM" today, or "tomorrow at 12:05 AM" near midnight.
    let minutes = minutes_of(&next.label).unwrap_or_else(|| panic!("an English time: {next:?}"));
    // Spoken in German, the line has the page's German words: the English ones are not used
    // once the language changed, and the page says the same time again, on German's own
    // 24-hour clock.
    crate::language::open_settings(&wait).await;
    crate::language::choose(&wait, "de").await;
    let german = menu.until(
        |l| {
            l.label
                .starts_with("Als Nächstes: Check the weather in Oslo ")
        },
        "the next run in German",
    );
    assert!(
        german
            .label
            .ends_with(&format!("um {:02}:{:02}", minutes / 60, minutes % 60)),
        "the same time in German: {german:?} / {next:?}"
    );
    crate::language::choose(&wait, "en").await;
    menu.until(|l| l.label == next.label, "the next run in English again");
    wait.element("settings-dialog-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let pause = menu.until(|l| l.label == "Pause all schedules", "Pause all");
    menu.click(&pause);
    menu.until(|l| l.label == "Resume schedules", "Resume");
    menu.until(|l| l.label == "Schedules are paused", "paused line");
    wait.element("schedules-open")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.text("schedules-pause-all", |t| t == "Resume all")
        .await
        .expect("the window's list says the schedules are paused");
    app.screenshot("tray-paused-schedules")
        .await
        .expect("screenshot");

    // Quit from the tray ends Porthole, although a schedule is still there.
    let quit = menu.until(|l| l.label == "Quit Porthole", "Quit");
    menu.click(&quit);
    let started = Instant::now();
    while app.running() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "Quit Porthole ends the app"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    app.quit().await;
}

/// The minutes after midnight of the English time that ends a tray line ("… at 02:05 PM"; Intl
/// may put U+202F before AM/PM); `None` when it ends otherwise.
pub fn minutes_of(label: &str) -> Option<u32> {
    let label = label.replace('\u{202f}', " ");
    let mut words = label.rsplit(' ');
    let half = match words.next()? {
        "AM" => 0,
        "PM" => 12,
        _ => return None,
    };
    let (hour, minute) = words.next()?.split_once(':')?;
    let two_digits = |s: &str| s.len() == 2 && s.chars().all(|c| c.is_ascii_digit());
    if !two_digits(hour) || !two_digits(minute) {
        return None;
    }
    let (hour, minute): (u32, u32) = (hour.parse().ok()?, minute.parse().ok()?);
    ((1..=12).contains(&hour) && minute < 60).then_some((hour % 12 + half) * 60 + minute)
}
