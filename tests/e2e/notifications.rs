//! Desktop notifications, read where a desktop's notification daemon would read them: a
//! stand-in server (`notification_server.py`) owns `org.freedesktop.Notifications` on the
//! test's private session bus and writes down what the app sends it; a click on a
//! notification is the `ActionInvoked` signal the server sends from its own connection when
//! asked to. The same signal sent with `dbus-send` from another connection is a forged click,
//! which the app must ignore (security review N6).
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

    /// A click on notification `id`, on its body (`default`) or on one of its buttons: the
    /// server itself sends `ActionInvoked`, as a desktop's daemon does.
    pub fn click(&self, id: u64, action: &str) {
        let sent = Command::new("dbus-send")
            .args([
                "--session",
                "--print-reply",
                "--dest=org.freedesktop.Notifications",
                "/org/freedesktop/Notifications",
                "org.porthole.E2E.Click",
                &format!("uint32:{id}"),
                &format!("string:{action}"),
            ])
            .output()
            .expect("dbus-send");
        assert!(sent.status.success(), "the server clicked: {sent:?}");
    }

    /// A forged click: another program on the session bus sends the `ActionInvoked` signal
    /// the server would send, in its own name.
    pub fn forge(&self, id: u64, action: &str) {
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
        assert!(sent.success(), "the forged click was sent");
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

/// A notification's actions: pairs of key and label, as D-Bus sends them.
fn actions(n: &Value) -> Vec<String> {
    n["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap_or_default().to_owned())
        .collect()
}

/// The person works in another program (WebDriver still reaches the page) while `task` runs
/// on Design laptop and Porthole shows another computer; the task's card is notified with
/// Open and no answer (security review N5). Returns the notification's id.
async fn asked_away_with_open_only(
    server: &NotificationServer,
    app: &App,
    task: &str,
    title: &str,
) -> (u64, Elsewhere) {
    select_machine(app, "Design laptop").await.expect("machine");
    let elsewhere = Elsewhere::take_focus();
    send_task(app, task).await.expect("send");
    select_machine(app, "Research box").await.expect("machine");
    let asked = server
        .until(|n| text(n, "summary") == "Porthole needs your answer")
        .await;
    let body = text(&asked, "body");
    assert!(body.contains(title), "what is asked: {body}");
    let actions = actions(&asked);
    assert!(
        !actions
            .iter()
            .any(|a| ["approve", "Approve", "deny", "Deny"].contains(&a.as_str())),
        "the card is not answered from a notification: {actions:?}"
    );
    assert!(
        actions.contains(&"Open".to_owned()),
        "it offers Open: {actions:?}"
    );
    (asked["id"].as_u64().unwrap(), elsewhere)
}

/// The app shows Design laptop, where the card `title` still waits for its answer.
async fn led_to_card(app: &App, title: &str) {
    let wait = Eventually::new(&app.driver);
    wait.text("task-machine-name", |t| t == "Design laptop")
        .await
        .expect("the notification leads to its computer");
    wait.text("approval-title", |t| t == title)
        .await
        .expect("and to the question, still waiting");
    wait.element("approval-approve").await.expect("unanswered");
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_card_that_runs_a_command_is_notified_with_open_only_and_the_notification_leads_to_it() {
    let server = NotificationServer::start();
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    // The simulator's card runs a command: only the card in the window shows it.
    let (id, elsewhere) = asked_away_with_open_only(
        &server,
        &app,
        "Send the report to the team by email",
        "Send the email",
    )
    .await;

    // A server that reports an Approve the notification never offered answers nothing: it
    // brings the card forward instead.
    server.click(id, "approve");
    led_to_card(&app, "Send the email").await;
    // A click on the notification shows the question, on its computer.
    select_machine(&app, "Research box").await.expect("machine");
    server.click(id, "open");
    led_to_card(&app, "Send the email").await;
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

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_card_that_deletes_files_is_notified_with_open_only_though_it_runs_no_command() {
    let server = NotificationServer::start();
    let app = App::launch().await.expect("the app opens");
    // The simulator's card for "clear out" has no command: only its words say it deletes.
    let title = "Delete the 6 files in the folder drafts";
    let (id, elsewhere) =
        asked_away_with_open_only(&server, &app, "Clear out the drafts folder", title).await;

    // Even the server's own report of an Approve it never showed answers nothing.
    server.click(id, "approve");
    led_to_card(&app, title).await;
    crate::replay::keep_screenshot(&app, "notification-destructive-card").await;
    drop(elsewhere);
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_plain_yes_no_card_is_answered_from_its_notification_and_only_by_the_server() {
    let server = NotificationServer::start();
    let app = App::launch().await.expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    let elsewhere = Elsewhere::take_focus();
    let asks = |n: &Value| {
        text(n, "summary") == "Porthole needs your answer"
            && text(n, "body").contains("Go on with the task?")
    };

    send_task(&app, "Look up the weather in Lisbon, but ask me first")
        .await
        .expect("send");
    let asked = server.until(asks).await;
    let offered = actions(&asked);
    for (key, label) in [("approve", "Approve"), ("deny", "Deny")] {
        assert!(
            offered.windows(2).any(|w| w[0] == key && w[1] == label),
            "a plain yes or no is answered from the notification ({label}): {offered:?}"
        );
    }
    let first = asked["id"].as_u64().unwrap();
    let wait = Eventually::new(&app.driver);
    wait.element("approval-approve")
        .await
        .expect("the card waits in the window too");
    // The notification's buttons say what the card's do: a yes or no to go on is answered
    // "Deny" in both (a choice card's notification offers only Open, and its card "Skip").
    for (testid, label) in [("approval-approve", "Approve"), ("approval-deny", "Deny")] {
        wait.text(testid, |t| t == label)
            .await
            .unwrap_or_else(|_| panic!("the card's button says {label}, as the notification"));
    }
    // Another program claims Approve was clicked; then the person clicks Deny, which the
    // server reports. Had the forged Approve counted, the card would have been approved
    // before the Deny came: the answer says it was declined.
    server.forge(first, "approve");
    server.click(first, "deny");
    wait.gone("approval-approve")
        .await
        .expect("the Deny from the notification answers the card");
    let answer = crate::card_flows::answer_of_a_success(&app)
        .await
        .expect("an answer");
    assert!(
        answer.starts_with("I did not go on because you declined."),
        "the forged Approve did nothing, the server's Deny counted: {answer}"
    );

    // The next time, the person clicks Approve and the task goes on.
    send_task(&app, "Look up the weather in Rome, but ask me first")
        .await
        .expect("send");
    let asked = server
        .until(|n| asks(n) && n["id"].as_u64() != Some(first))
        .await;
    wait.element("approval-approve")
        .await
        .expect("the card waits in the window too");
    server.click(asked["id"].as_u64().unwrap(), "approve");
    wait.gone("approval-approve")
        .await
        .expect("the Approve from the notification answers the card");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    // The thread keeps the first task's answer above: this task's is the second.
    let answers = wait.at_least("final-answer", 2).await.expect("an answer");
    let answer = porthole_e2e::text_of(&answers[1]).await;
    assert!(
        answer.starts_with("Rome: 21 °C"),
        "approved on the service, the task did the work: {answer}"
    );
    crate::replay::keep_screenshot(&app, "notification-approved").await;
    drop(elsewhere);
    app.quit().await;
}
