//! A schedule's spending cap, as a person meets it: the Schedule dialog says plainly when a run
//! would have no spending limit, the run goes out with the cap typed there and is stopped at it
//! while nobody watches, and the list says each schedule's limit (or its lack) and changes it.

use std::time::Duration;

use porthole_e2e::{by_testid, Eventually};

use crate::flows::thread_texts;
use crate::schedule_flows::{
    close_list, launch_with_clock, move_clock, open_list, open_schedule_dialog,
};

/// A task whose cost passes two cents well before the Demo's agent would finish it.
const LONG_TASK: &str = "Find the weather in Lisbon and count to 8";

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_scheduled_run_is_stopped_at_the_cap_its_schedule_was_given() {
    let (sim, app, clock) = launch_with_clock(&[]).await;
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));
    open_schedule_dialog(&app, "Design laptop", LONG_TASK)
        .await
        .expect("the Schedule dialog");

    // No "every task" cap is set: the dialog says what that means instead of a quiet blank.
    let note = wait
        .text("schedule-cap-note", |t| t.starts_with("No spending limit"))
        .await
        .expect("the dialog asks for a cap");
    assert!(note.contains("while you are away"), "{note}");
    app.screenshot("schedule-cap-none").await.unwrap();
    let cap = wait.element("schedule-cap").await.expect("the cap box");
    cap.send_keys("0.02").await.expect("a cap");
    wait.text("schedule-cap-note", |t| {
        t.contains("while Porthole is running")
    })
    .await
    .expect("what the cap can and cannot do");
    app.screenshot("schedule-cap-typed").await.unwrap();
    crate::schedule_flows::save_every_hour(&app)
        .await
        .expect("scheduled");

    open_list(&app).await.expect("list");
    wait.text("schedule-cap", |t| t == "Up to $0.02 a run")
        .await
        .expect("the list says the run's limit");
    close_list(&app).await.expect("closed");

    // An hour later the run starts by itself, and is stopped at its cap.
    move_clock(&clock.file, 3_630);
    let stopped = until_stopped_at_cap(&app).await;
    assert!(stopped.ends_with('.'), "{stopped}");
    assert!(
        thread_texts(&app, "answer").await.unwrap().is_empty(),
        "stopped before its answer"
    );
    app.screenshot("schedule-cap-stopped").await.unwrap();

    open_list(&app).await.expect("list");
    long.text("schedule-last", |t| t.contains("Stopped"))
        .await
        .expect("the list says the last run was stopped");

    // The cap can be changed from the list.
    app.driver
        .find(by_testid("schedule-set-cap"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let input = wait.element("schedule-cap-input").await.expect("cap box");
    input.clear().await.unwrap();
    input.send_keys("1.50").await.unwrap();
    app.driver
        .find(by_testid("schedule-cap-save"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.text("schedule-cap", |t| t == "Up to $1.50 a run")
        .await
        .expect("the new limit");
    app.screenshot("schedule-cap-list").await.unwrap();
    app.quit().await;
    sim.shutdown().await;
}

/// The thread's sentence that the task stopped at its cap, once it is there.
async fn until_stopped_at_cap(app: &porthole_e2e::App) -> String {
    let start = std::time::Instant::now();
    loop {
        let notices = thread_texts(app, "notice").await.unwrap_or_default();
        if let Some(stopped) = notices
            .into_iter()
            .find(|n| n.starts_with("Stopped at your $0.02 cap. This task cost $"))
        {
            return stopped;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the scheduled run never stopped at its cap"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
