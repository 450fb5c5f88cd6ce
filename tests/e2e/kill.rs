//! Killed with SIGKILL in the middle of a task, again and again, the app reopens each time
//! with the thread as it showed it and follows the task to its end: nothing the person saw
//! is lost, nothing is shown twice, and every task's steps are what the simulator sent.
//!
//! The simulator outlives the app (the app's own Demo would die with it). Each round sends a
//! task that takes about ten seconds, kills the app after one to three of its steps, opens it
//! again over the same data folder, and waits for the task's answer. CI runs 3 rounds (each
//! kill lands at a different step); `PORTHOLE_KILL_ROUNDS=20` runs the benchmark whose
//! figures go to BENCHMARKS.md ("Kill -9 mid-task").

use std::collections::HashMap;
use std::time::{Duration, Instant};

use porthole_e2e::{App, AppOptions, Result};
use porthole_sim::records::LogEntry;
use porthole_sim::RunningSim;

use crate::flows::{own_demo, select_machine, send_task, wait_for_status};

/// Each full step takes 4.8 s: killed after one to three steps, the task (about 15 s) is
/// mostly still running when the app is back.
const TIME_SCALE: f64 = 0.04;
const CITIES: [&str; 5] = ["Oslo", "Lima", "Cairo", "Perth", "Quito"];
const MACHINE: &str = "Design laptop";

/// One line of the thread as the window shows it: its kind and its text.
type Item = (String, String);

fn rounds() -> usize {
    std::env::var("PORTHOLE_KILL_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3)
}

fn task(round: usize) -> String {
    format!(
        "Take your time and count to 2, then check the weather in {} (round {round})",
        CITIES[round % CITIES.len()]
    )
}

/// Every thread item of the shown conversation, in order, read in one go.
async fn thread(app: &App) -> Result<Vec<Item>> {
    let ret = app
        .driver
        .execute(
            r#"return Array.from(document.querySelectorAll('[data-testid="thread-item"]'))
                .map(e => [e.dataset.kind, e.textContent.trim()]);"#,
            vec![],
        )
        .await?;
    Ok(serde_json::from_value(ret.json().clone())?)
}

/// The items shown for the task `text`: those after its message, up to the next message.
fn segment<'a>(items: &'a [Item], text: &str) -> &'a [Item] {
    let Some(start) = items
        .iter()
        .position(|(kind, t)| kind == "user" && t.contains(text))
    else {
        return &[];
    };
    let rest = &items[start + 1..];
    let end = rest
        .iter()
        .position(|(kind, _)| kind == "user")
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Polls the window until `done` holds of its thread.
async fn until(app: &App, what: &str, done: impl Fn(&[Item]) -> bool) -> Result<Vec<Item>> {
    let start = Instant::now();
    loop {
        let items = thread(app).await?;
        if done(&items) {
            return Ok(items);
        }
        if start.elapsed() > Duration::from_secs(60) {
            let shot = app.screenshot("kill-9-stuck").await;
            return Err(format!("{what}; the thread shows {items:?} ({shot:?})").into());
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// A step's line: its title is shown as a tool line where the tool's input was read (the
/// poll), as a progress line where it was not (the stream), and once either way.
fn is_step(kind: &str) -> bool {
    kind == "tool" || kind == "progress"
}

/// The lines the thread should show for the task `text`, from the simulator's own record.
fn sent_for(sim: &RunningSim, text: &str) -> (Vec<Item>, String) {
    let db = sim.state().db();
    let turn = db
        .turns
        .values()
        .find(|t| {
            t.message
                .split("\n\n[Sent at the person's local time: ")
                .next()
                == Some(&*text)
        })
        .unwrap_or_else(|| panic!("the simulator ran {text:?}"));
    let mut items: Vec<Item> = Vec::new();
    for entry in &turn.log {
        let item = match entry {
            LogEntry::Text {
                reasoning: true,
                text,
                ..
            } => ("narration".to_owned(), text.clone()),
            // The window renders the answer's Markdown: its lines are counted, not read.
            LogEntry::Text {
                reasoning: false, ..
            } => ("answer".to_owned(), String::new()),
            LogEntry::Event(e) if e["type"] == "data-progress" => (
                "step".to_owned(),
                e["data"]["text"].as_str().unwrap_or_default().to_owned(),
            ),
            LogEntry::Event(e) if e["type"] == "tool-output-error" => (
                "toolFailed".to_owned(),
                format!("A step failed: {}", e["errorText"].as_str().unwrap_or("")),
            ),
            _ => continue,
        };
        items.push(item);
    }
    (items, turn.status.as_str().to_owned())
}

/// The task's status on the service.
fn turn_status(sim: &RunningSim, text: &str) -> String {
    let db = sim.state().db();
    db.turns
        .values()
        .find(|t| {
            t.message
                .split("\n\n[Sent at the person's local time: ")
                .next()
                == Some(&*text)
        })
        .map(|t| t.status.as_str().to_owned())
        .unwrap_or_default()
}

/// Lines of `sent` the window never showed, and lines it showed more often than sent.
fn lost_and_repeated(sent: &[Item], shown: &[Item]) -> (usize, usize) {
    let key = |(kind, text): &Item| match kind.as_str() {
        "answer" => (kind.clone(), String::new()),
        k if is_step(k) => ("step".to_owned(), text.clone()),
        _ => (kind.clone(), text.clone()),
    };
    let mut count: HashMap<(String, String), i64> = HashMap::new();
    for item in sent {
        *count.entry(key(item)).or_default() += 1;
    }
    for item in shown
        .iter()
        .filter(|(kind, _)| !matches!(kind.as_str(), "status" | "notice"))
    {
        *count.entry(key(item)).or_default() -= 1;
    }
    let lost = count.values().filter(|n| **n > 0).sum::<i64>();
    let repeated = -count.values().filter(|n| **n < 0).sum::<i64>();
    (lost as usize, repeated as usize)
}

async fn open(folder: &std::path::Path, env: &[(String, String)]) -> App {
    let app = App::launch_with(AppOptions {
        data_dir: Some(folder.to_path_buf()),
        env: env.to_vec(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    select_machine(&app, MACHINE).await.expect("the computer");
    app
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn killed_mid_task_again_and_again_the_app_reopens_with_the_thread_and_follows_the_task() {
    let (sim, env) = own_demo(TIME_SCALE).await;
    let folder = tempfile::tempdir().expect("a data folder");
    let rounds = rounds();
    let (mut lost, mut repeated) = (0, 0);
    let (mut times, mut reopen_times, mut still_running) = (Vec::new(), Vec::new(), 0);
    let mut app = open(folder.path(), &env).await;
    for round in 1..=rounds {
        let started = Instant::now();
        let text = task(round);
        send_task(&app, &text).await.expect("send");
        // Killed after one to three of the task's steps (two lines each), so rounds end at
        // different moments.
        let lines = 2 * (round % 3 + 1);
        let before = until(&app, "the task shows its steps", |items| {
            segment(items, &text)
                .iter()
                .filter(|(kind, _)| is_step(kind))
                .count()
                >= lines
        })
        .await
        .expect("the task runs");
        assert_eq!(
            wait_for_status(&app, &["running"]).await.expect("status"),
            "running"
        );
        let killed = Instant::now();
        let _ = app.kill_hard();

        app = open(folder.path(), &env).await;
        // A task that ended while the app was away (a loaded machine relaunches slowly) shows
        // its answer above the steps that led to it: a line added, not one taken back.
        let kept = |items: &[Item]| -> Vec<Item> {
            items
                .iter()
                .filter(|item| item.0 != "answer" || before.contains(item))
                .cloned()
                .collect()
        };
        let reopened = until(&app, "the thread comes back whole", |items| {
            kept(items).len() >= before.len()
        })
        .await
        .expect("the thread is shown again");
        assert_eq!(
            kept(&reopened)[..before.len()],
            before[..],
            "round {round}: the thread shows what it showed before the kill"
        );
        reopen_times.push(killed.elapsed());
        // The figure that says the resume was put to work: the service was still running
        // the task when the app was back.
        if turn_status(&sim, &text) == "running" {
            still_running += 1;
        }
        assert_eq!(
            wait_for_status(&app, &["succeeded", "failed", "stopped"])
                .await
                .expect("the task ends"),
            "succeeded",
            "round {round}: the task is followed to its end"
        );
        let end = until(&app, "the answer is shown", |items| {
            segment(items, &text)
                .iter()
                .any(|(kind, _)| kind == "answer")
        })
        .await
        .expect("the answer");
        let shown = segment(&end, &text);
        let city = CITIES[round % CITIES.len()];
        assert!(
            shown
                .iter()
                .any(|(kind, t)| kind == "answer" && t.contains(city)),
            "round {round}: the answer is about {city}: {shown:?}"
        );
        let (sent, status) = sent_for(&sim, &text);
        assert_eq!(status, "succeeded");
        let (l, r) = lost_and_repeated(&sent, shown);
        if l + r > 0 {
            eprintln!("round {round}: {l} lost, {r} repeated\n sent {sent:?}\n shown {shown:?}");
        }
        lost += l;
        repeated += r;
        let users = end
            .iter()
            .filter(|(kind, t)| kind == "user" && t.contains("(round "))
            .count();
        assert_eq!(users, round, "each message once");
        times.push(started.elapsed());
    }
    app.screenshot("kill-9-last-round")
        .await
        .expect("screenshot");
    app.quit().await;
    let total: Duration = times.iter().sum();
    let slowest = times.iter().max().copied().unwrap_or_default();
    let reopen: Duration = reopen_times.iter().sum();
    eprintln!(
        "kill -9 mid-task: {rounds} rounds in {:.0} s ({:.1} s a round, slowest {:.1} s); \
         thread back {:.1} s after the kill on average; task still running when the app was \
         back in {still_running} rounds; {lost} lines lost, {repeated} repeated",
        total.as_secs_f64(),
        total.as_secs_f64() / rounds.max(1) as f64,
        slowest.as_secs_f64(),
        reopen.as_secs_f64() / rounds.max(1) as f64,
    );
    assert_eq!((lost, repeated), (0, 0), "nothing lost, nothing repeated");
    sim.shutdown().await;
}
