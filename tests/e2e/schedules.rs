//! Tasks on a schedule, as a person tries them: "Schedule…" beside Send, every hour on the
//! Demo's Design laptop; the run starting in the computer's conversation when the hour comes;
//! the run recorded though the person looked at another computer (its screen never open), and
//! "Watch again" playing it; a run due while Porthole was closed shown as missed with Run now,
//! which runs it once.
//!
//! The app's clock is the test's: debug builds add the seconds written in the file named by
//! `PORTHOLE_TEST_CLOCK_FILE` to the wall clock (crates/core/src/schedules/clock.rs), so the
//! test moves time forward by writing the file, never by waiting an hour.

use std::time::Duration;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};

use crate::film::film_pictures;
use crate::flows::{own_demo, select_machine, thread_texts, wait_for_status};
use crate::schedule_flows::{
    close_list, launch_with_clock, move_clock, open_list, save_every_hour, schedule_hourly,
};

const TASK: &str = "Check the weather in Oslo";

/// The person's messages in the thread.
async fn users(app: &App) -> Vec<String> {
    let texts = thread_texts(app, "user").await.unwrap_or_default();
    texts.iter().map(|t| t.trim().to_owned()).collect()
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

    // The person looks at another computer meanwhile, so the run's live screen is never open:
    // a run on a cloud computer is recorded all the same (Settings, on by default).
    select_machine(&app, "Research box")
        .await
        .expect("another computer");
    assert!(film_pictures(&app).is_empty(), "nothing recorded yet");

    // An hour and a half minute later by the app's clock, the run starts on its own.
    move_clock(&clock, 3_630);
    open_list(&app).await.expect("list");
    long.text("schedule-last", |t| t.contains("Done"))
        .await
        .expect("the last run says how it ended");
    close_list(&app).await.expect("closed");
    let started = std::time::Instant::now();
    while film_pictures(&app).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the scheduled run was recorded though its screen was never open"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    select_machine(&app, "Design laptop")
        .await
        .expect("back to the scheduled computer");
    long.at_least("thread-item", 1)
        .await
        .expect("the run is in its thread");
    assert_eq!(users(&app).await, vec![TASK]);
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    // "Watch again" under its answer plays it.
    wait.element("answer-film")
        .await
        .expect("Watch again under the scheduled run's answer")
        .click()
        .await
        .unwrap();
    wait.element("film-frame")
        .await
        .expect("the scheduled run's film shows a picture");
    app.screenshot("schedules-run-film")
        .await
        .expect("screenshot");
    wait.element("sheet-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("film-frame").await.expect("the film closes");

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

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_saved_task_with_its_words_filled_in_runs_on_a_schedule() {
    let notifications = crate::notifications::NotificationServer::start();
    let (sim, app, clock) = launch_with_clock(&[]).await;
    crate::flows::learn_reusable_task(&app, "Look up the weather in Paris")
        .await
        .expect("a saved task, open in the library");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));

    // The saved task's form, its place changed to Rome, then Schedule… instead of Run.
    let place = app
        .driver
        .find(thirtyfour::By::Css(
            "[data-testid=\"reusable-input\"][data-name=\"place\"]",
        ))
        .await
        .expect("the place field");
    place.clear().await.expect("clear");
    place.send_keys("Rome").await.expect("type");
    let schedule = wait
        .element("reusable-schedule")
        .await
        .expect("Schedule… in the run form");
    schedule.scroll_into_view().await.expect("in view");
    crate::replay::keep_screenshot(&app, "schedules-saved-task-form").await;
    schedule.click().await.expect("open");
    let text = wait.element("schedule-text").await.expect("the task");
    assert_eq!(
        text.prop("value").await.unwrap().as_deref(),
        Some("Look up the weather in Rome"),
        "the task with its words filled in"
    );
    crate::replay::keep_screenshot(&app, "schedules-from-saved-task").await;
    save_every_hour(&app).await.expect("scheduled");
    assert!(
        app.driver.find(by_testid("reusable-result")).await.is_err(),
        "scheduled, not run now"
    );
    wait.element("sheet-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(users(&app).await, vec!["Look up the weather in Paris"]);

    // An hour later by the app's clock the run starts, in the computer's conversation.
    move_clock(&clock.file, 3_630);
    let started = std::time::Instant::now();
    while users(&app).await.len() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the scheduled run did not start"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert_eq!(
        users(&app).await,
        vec![
            "Look up the weather in Paris",
            "Look up the weather in Rome"
        ]
    );
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let answers = thread_texts(&app, "answer").await.unwrap();
    assert!(
        answers.last().is_some_and(|a| a.contains("Rome")),
        "the run used the word filled in: {answers:?}"
    );
    crate::replay::keep_screenshot(&app, "schedules-saved-task-ran").await;
    let told = notifications
        .until(|n| n["summary"] == "Scheduled task: Look up the weather in Rome")
        .await;
    assert_eq!(told["body"], "It is done. On Design laptop.", "{told}");
    open_list(&app).await.expect("list");
    long.text("schedule-last", |t| t.contains("Done"))
        .await
        .expect("the last run says how it ended");
    app.quit().await;
    sim.shutdown().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_run_past_the_hourly_message_limit_is_skipped_and_the_list_says_why() {
    // The Demo's client has sent its sixty tasks of this hour (a debug-only knob: sending
    // sixty real tasks first would take the test many minutes).
    let limit = porthole_client::Limit::Messages.per_hour().to_string();
    let notifications = crate::notifications::NotificationServer::start();
    let (sim, app, clock) = launch_with_clock(&[("PORTHOLE_TEST_MESSAGES_SPENT", &limit)]).await;
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));
    schedule_hourly(&app, "Design laptop", TASK)
        .await
        .expect("scheduled");

    move_clock(&clock.file, 3_630);
    open_list(&app).await.expect("list");
    let last = long
        .text("schedule-last", |t| t.contains("Skipped"))
        .await
        .expect("the skipped run is said in the list");
    assert!(
        last.contains(&format!("already sent {limit} tasks in the past hour"))
            && last.contains("The next run is as planned"),
        "why, and what happens next: {last}"
    );
    let next = wait
        .text("schedule-next", |t| t.starts_with("Next:"))
        .await
        .expect("the next run is still planned");
    assert!(!next.is_empty());
    app.screenshot("schedules-skipped")
        .await
        .expect("screenshot");
    let told = notifications
        .until(|n| n["summary"] == "A scheduled task was skipped")
        .await;
    assert!(
        told["body"]
            .as_str()
            .unwrap_or_default()
            .contains("in the past hour"),
        "the notification says why too: {told}"
    );
    close_list(&app).await.expect("closed");
    assert!(
        users(&app).await.is_empty(),
        "nothing was sent past the limit"
    );
    app.quit().await;
    sim.shutdown().await;
}
