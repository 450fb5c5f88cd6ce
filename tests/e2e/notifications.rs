//! Desktop notifications, read where a desktop's notification daemon would read them: a
//! stand-in server (`notification_server.py`) owns `org.freedesktop.Notifications` on the
//! test's private session bus and writes down what the app sends it; a click on a
//! notification is the `ActionInvoked` signal a daemon sends, sent here with `dbus-send`.
//!
//! What a person sees of a notification (its look, where it pops up) is the desktop's and is
//! not tested; what the app asks to show, and what a click does, is.

use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use porthole_e2e::{App, Eventually};
use serde_json::Value;

use crate::flows::{select_machine, send_task, wait_for_status};

pub struct NotificationServer {
    child: Child,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl NotificationServer {
    /// Starts the stand-in server and waits until it owns the name.
    pub fn start() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("notifications.jsonl");
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("e2e/notification_server.py");
        // Debian's python3, which has python3-dbus and python3-gi (scripts/setup.sh).
        let child = Command::new("/usr/bin/python3")
            .arg(script)
            .arg(&log)
            .spawn()
            .expect("the stand-in notification server starts");
        let server = Self {
            child,
            log,
            _dir: dir,
        };
        let started = Instant::now();
        while !server.lines().iter().any(|l| l == "ready") {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the stand-in notification server did not take the name (python3-dbus, python3-gi?)"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        server
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Every notification sent so far, oldest first.
    pub fn sent(&self) -> Vec<Value> {
        self.lines()
            .iter()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    /// The first notification sent that `wanted` accepts, waiting up to two minutes.
    pub async fn until(&self, wanted: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            if let Some(found) = self.sent().into_iter().find(|n| wanted(n)) {
                return found;
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "no such notification; sent: {:?}",
                self.sent()
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// A click on notification `id`: on its body (`default`) or on one of its buttons.
    pub fn click(&self, id: u64, action: &str) {
        let sent = Command::new("dbus-send")
            .args([
                "--session",
                "--type=signal",
                "/org/freedesktop/Notifications",
                "org.freedesktop.Notifications.ActionInvoked",
                &format!("uint32:{id}"),
                &format!("string:{action}"),
            ])
            .status()
            .expect("dbus-send");
        assert!(sent.success(), "the click was sent");
    }
}

impl Drop for NotificationServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Another program holds the keyboard, as when the person works in another window: Porthole
/// notifies only while its own window is not focused. Dropped, the program ends.
struct Elsewhere(Child);

impl Elsewhere {
    fn take_focus() -> Self {
        let child = Command::new("xlogo")
            .args(["-name", "porthole-e2e-elsewhere"])
            .spawn()
            .expect("xlogo (x11-apps)");
        let found = Command::new("timeout")
            .args(["20", "xdotool", "search", "--sync", "--classname"])
            .arg("porthole-e2e-elsewhere")
            .output()
            .expect("xdotool");
        let id = String::from_utf8_lossy(&found.stdout)
            .split_whitespace()
            .next()
            .expect("the other program's window")
            .to_owned();
        let focused = Command::new("timeout")
            .args(["20", "xdotool", "windowfocus", "--sync", &id])
            .status()
            .expect("xdotool");
        assert!(focused.success(), "the other window has the keyboard");
        Self(child)
    }
}

impl Drop for Elsewhere {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn text(n: &Value, key: &str) -> String {
    n[key].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_card_that_runs_a_command_is_notified_with_open_only_and_the_notification_leads_to_it() {
    let server = NotificationServer::start();
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    // The person works in another program meanwhile (WebDriver still reaches the page), and
    // Porthole shows another computer.
    let elsewhere = Elsewhere::take_focus();
    send_task(&app, "Send the report to the team by email")
        .await
        .expect("send");
    select_machine(&app, "Research box").await.expect("machine");

    let asked = server
        .until(|n| text(n, "summary") == "Porthole needs your answer")
        .await;
    let body = text(&asked, "body");
    assert!(body.contains("Send the email"), "what is asked: {body}");
    // The simulator's card runs a command: only the card in the window shows it, so the
    // notification offers no answer (security review N5). D-Bus actions come as pairs of
    // key and label.
    let actions: Vec<String> = asked["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap_or_default().to_owned())
        .collect();
    assert!(
        !actions.contains(&"Approve".to_owned()) && !actions.contains(&"approve".to_owned()),
        "a card with a command is not approved from a notification: {actions:?}"
    );
    assert!(
        actions.contains(&"Open".to_owned()),
        "it offers Open: {actions:?}"
    );
    let id = asked["id"].as_u64().unwrap();

    // A claimed click on an Approve the notification never offered answers nothing: it
    // brings the card forward instead.
    server.click(id, "approve");
    wait.text("task-machine-name", |t| t == "Design laptop")
        .await
        .expect("the refused answer leads to its computer");
    wait.text("approval-title", |t| t == "Send the email")
        .await
        .expect("and to the question, still waiting");
    // A click on the notification shows the question, on its computer.
    select_machine(&app, "Research box").await.expect("machine");
    server.click(id, "open");
    wait.text("task-machine-name", |t| t == "Design laptop")
        .await
        .expect("Open leads to its computer");
    wait.text("approval-title", |t| t == "Send the email")
        .await
        .expect("and to the question");
    crate::replay::keep_screenshot(&app, "notification-led-to-question").await;
    drop(elsewhere);

    // The card itself answers it.
    wait.element("approval-approve")
        .await
        .expect("the card's act")
        .click()
        .await
        .expect("approve on the card");
    wait.gone("approval-approve")
        .await
        .expect("answered on the card");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    app.quit().await;
}
