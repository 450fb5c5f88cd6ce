//! A scheduled run due while its computer is still on the task before it (security review
//! N2), as the person sees it in the Schedules list: it waits there, one run, with its time;
//! once it could no longer start within ten minutes of that time it is missed because the
//! computer was busy, with Run now, and never starts by itself.

use std::time::Duration;

use porthole_e2e::{App, AppOptions, Eventually};

use crate::flows::{own_demo, send_task, thread_texts, wait_for_status};
use crate::schedule_flows::{move_clock, open_list, schedule_hourly};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_run_due_while_the_computer_is_busy_waits_and_then_is_missed_with_run_now() {
    // Slow enough that the card the busy task waits on does not expire during the test.
    let (sim, mut env) = own_demo(0.2).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let clock = dir.path().join("clock-shift");
    move_clock(&clock, 0);
    env.push((
        "PORTHOLE_TEST_CLOCK_FILE".to_owned(),
        clock.to_string_lossy().into_owned(),
    ));
    let app = App::launch_with(AppOptions {
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    schedule_hourly(&app, "Design laptop", "Look for new invoices")
        .await
        .expect("scheduled every hour");

    // The computer is busy: its task waits for the person's answer.
    send_task(&app, "Delete the old screenshots")
        .await
        .expect("sent");
    wait_for_status(&app, &["needsApproval"])
        .await
        .expect("the task asks first");

    let long = Eventually::new(&app.driver).within(Duration::from_secs(60));
    move_clock(&clock, 3_630);
    open_list(&app).await.expect("list");
    let held = long
        .text("schedule-held", |t| t.contains("waits for Design laptop"))
        .await
        .expect("the run waits for the task before it");
    assert!(held.contains("does not start by itself"), "{held}");
    app.screenshot("schedules-held").await.expect("screenshot");

    // Eleven minutes after its time, with the computer still busy.
    move_clock(&clock, 3_600 + 11 * 60);
    let missed = long
        .text("schedule-missed", |t| t.contains("Missed"))
        .await
        .expect("shown as missed");
    assert!(
        missed.contains("Design laptop was still busy with the task before it"),
        "{missed}"
    );
    long.gone("schedule-held").await.expect("no longer waiting");
    long.element("schedule-run-now")
        .await
        .expect("Run now is offered");
    app.screenshot("schedules-missed-busy")
        .await
        .expect("screenshot");
    let users = thread_texts(&app, "user").await.unwrap();
    assert_eq!(users.len(), 1, "only the task before it: {users:?}");

    app.quit().await;
    sim.shutdown().await;
}
