//! Tasks on a schedule, as a person tries them: "Schedule…" beside Send, every hour on the
//! Demo's Design laptop; the run starting in the computer's conversation when the hour comes;
//! a run due while Porthole was closed shown as missed with Run now, which runs it once.
//!
//! The app's clock is the test's: debug builds add the seconds written in the file named by
//! `PORTHOLE_TEST_CLOCK_FILE` to the wall clock (src-tauri/src/schedules/clock.rs), so the
//! test moves time forward by writing the file, never by waiting an hour.

use std::path::Path;
use std::time::Duration;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};

use crate::flows::{own_demo, select_machine, thread_texts, wait_for_status};

const TASK: &str = "Check the weather in Oslo";

fn move_clock(file: &Path, seconds: i64) {
    std::fs::write(file, seconds.to_string()).expect("the test clock is written");
}

/// Opens the Schedules list from the sidebar.
async fn open_list(app: &App) -> porthole_e2e::Result<()> {
    let wait = Eventually::new(&app.driver);
    wait.element("schedules-open").await?.click().await?;
    wait.element("schedules-list").await?;
    Ok(())
}

/// The person's messages in the thread.
async fn users(app: &App) -> Vec<String> {
    let texts = thread_texts(app, "user").await.unwrap_or_default();
    texts.iter().map(|t| t.trim().to_owned()).collect()
}

async fn close_list(app: &App) -> porthole_e2e::Result<()> {
    app.driver
        .find(by_testid("schedules-close"))
        .await?
        .click()
        .await?;
    Eventually::new(&app.driver).gone("schedules-list").await
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_scheduled_task_runs_when_due_and_a_missed_run_waits_for_run_now() {
    let (sim, mut env) = own_demo(0.02).await;
    let clock_dir = tempfile::tempdir().expect("temp dir");
    let clock = clock_dir.path().join("clock-shift");
    move_clock(&clock, 0);
    env.push((
        "PORTHOLE_TEST_CLOCK_FILE".to_owned(),
        clock.to_string_lossy().into_owned(),
    ));

    let app = App::launch_with(AppOptions {
        env: env.clone(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));

    // Schedule… beside Send takes the words typed in the composer.
    let composer = wait.element("composer").await.expect("composer");
    composer.click().await.expect("focus");
    composer.send_keys(TASK).await.expect("type");
    app.screenshot("schedules-composer")
        .await
        .expect("screenshot");
    wait.element("schedule-button")
        .await
        .expect("Schedule…")
        .click()
        .await
        .expect("open");
    let text = wait.element("schedule-text").await.expect("the task");
    assert_eq!(text.prop("value").await.unwrap().as_deref(), Some(TASK));
    wait.element("schedule-kind-everyHours")
        .await
        .expect("every few hours")
        .click()
        .await
        .expect("choose");
    let hours = wait.element("schedule-hours").await.expect("hours");
    hours.clear().await.expect("clear");
    hours.send_keys("1").await.expect("one hour");
    let summary = wait
        .text("schedule-summary", |t| t.contains("Every hour"))
        .await
        .expect("the schedule in words");
    assert!(summary.contains("Design laptop"), "{summary}");
    app.screenshot("schedules-dialog")
        .await
        .expect("screenshot");

    app.driver
        .find(by_testid("schedule-save"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    // Once, after the first schedule: start at login? Not now.
    wait.element("autostart-question")
        .await
        .expect("asked about starting at login");
    app.screenshot("schedules-autostart-question")
        .await
        .expect("screenshot");
    app.driver
        .find(by_testid("autostart-no"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("schedule-dialog").await.expect("closed");
    let left = app
        .driver
        .find(by_testid("composer"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(left.as_deref(), Some(""), "scheduled, not sent");

    open_list(&app).await.expect("list");
    let next = wait
        .text("schedule-next", |t| t.starts_with("Next:"))
        .await
        .expect("the next run");
    assert!(!next.is_empty());
    wait.text("schedules-rule", |t| {
        t.contains("keeps running in the tray")
    })
    .await
    .expect("the rule is said");
    app.screenshot("schedules-list").await.expect("screenshot");
    close_list(&app).await.expect("closed");
    assert!(
        thread_texts(&app, "user").await.unwrap().is_empty(),
        "nothing runs before its time"
    );

    // An hour and a half minute later by the app's clock, the run starts on its own.
    move_clock(&clock, 3_630);
    long.at_least("thread-item", 1)
        .await
        .expect("the run appears");
    let status = wait_for_status(&app, &["running", "succeeded"])
        .await
        .expect("the scheduled task runs");
    assert!(status == "running" || status == "succeeded");
    assert_eq!(users(&app).await, vec![TASK]);
    app.screenshot("schedules-run-started")
        .await
        .expect("screenshot");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    open_list(&app).await.expect("list");
    long.text("schedule-last", |t| t.contains("Done"))
        .await
        .expect("the last run says how it ended");
    close_list(&app).await.expect("closed");

    // Porthole is closed over the next two runs, and opened 3 h 20 min after the first.
    let data_dir = app.data_dir().to_path_buf();
    let keep = app.quit().await;
    move_clock(&clock, 3 * 3_600 + 20 * 60);
    let again = App::launch_with(AppOptions {
        data_dir: Some(data_dir),
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens again");
    select_machine(&again, "Design laptop")
        .await
        .expect("machine");
    let wait = Eventually::new(&again.driver);
    let long = Eventually::new(&again.driver).within(Duration::from_secs(120));
    long.element("schedules-missed-count")
        .await
        .expect("the sidebar says a run was missed");
    open_list(&again).await.expect("list");
    let missed = wait
        .text("schedule-missed", |t| t.contains("Missed"))
        .await
        .expect("shown as missed");
    assert!(missed.contains("Porthole was not running"), "{missed}");
    again
        .screenshot("schedules-missed")
        .await
        .expect("screenshot");
    assert_eq!(
        thread_texts(&again, "user").await.unwrap().len(),
        1,
        "a missed run is not run by itself"
    );

    wait.element("schedule-run-now")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("schedule-missed")
        .await
        .expect("no longer missed");
    close_list(&again).await.expect("closed");
    wait_for_status(&again, &["running", "succeeded"])
        .await
        .expect("Run now runs it");
    let started = std::time::Instant::now();
    loop {
        let users = users(&again).await;
        if users.len() == 2 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "Run now sends the task once: {users:?}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    again
        .screenshot("schedules-run-now")
        .await
        .expect("screenshot");
    assert_eq!(
        wait_for_status(&again, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    assert_eq!(users(&again).await, vec![TASK, TASK], "Run now ran it once");

    again.quit().await;
    drop(keep);
    sim.shutdown().await;
}
