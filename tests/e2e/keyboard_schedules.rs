//! The Schedules list with the keyboard alone (Tab, Shift+Tab, Enter, Escape): a run missed
//! while Porthole was closed started with its "Run now", then every schedule paused with
//! "Pause all" and resumed. Every place the focus lands shows it, and it stays in the list
//! when Run now goes away.
//!
//! The schedule is made and the run missed as in `schedules.rs`: debug builds add the seconds
//! in `PORTHOLE_TEST_CLOCK_FILE` to the clock, and the app is closed over the hour.

use std::time::Duration;

use porthole_e2e::{App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{own_demo, thread_texts, wait_for_status};
use crate::keyboard_walk::{choose_computer, focus_here, focus_inside, press, tab_to_id};
use crate::replay::keep_screenshot;
use crate::schedule_flows::schedule_hourly;

const TASK: &str = "Check the weather in Bergen";

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_missed_run_is_run_now_and_all_are_paused_with_the_keyboard_alone() {
    let (sim, mut env) = own_demo(0.02).await;
    let clock_dir = tempfile::tempdir().expect("temp dir");
    let clock = clock_dir.path().join("clock-shift");
    std::fs::write(&clock, "0").unwrap();
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
    schedule_hourly(&app, "Design laptop", TASK)
        .await
        .expect("an hourly schedule");
    // Closed over the first run: opened again an hour and ten minutes later.
    let data_dir = app.data_dir().to_path_buf();
    let keep = app.quit().await;
    std::fs::write(&clock, (3_600 + 600).to_string()).unwrap();
    let app = App::launch_with(AppOptions {
        data_dir: Some(data_dir),
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens again");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));
    long.element("schedules-missed-count")
        .await
        .expect("the sidebar says a run was missed");

    tab_to_id(&app, false, "schedules-open").await;
    press(&app, Key::Enter).await;
    wait.element("schedule-missed")
        .await
        .expect("Enter opened the list, with the missed run");
    tab_to_id(&app, false, "schedule-run-now").await;
    keep_screenshot(&app, "keyboard-schedules-missed").await;
    press(&app, Key::Enter).await;
    wait.gone("schedule-missed")
        .await
        .expect("Enter on Run now took the missed run");
    focus_here(&app, "Run now").await;
    assert!(
        focus_inside(&app, "schedules-list").await,
        "the focus stays in the list when Run now goes"
    );

    // Pause all, then Resume all, on the same button.
    let pause = tab_to_id(&app, true, "schedules-pause-all").await;
    assert!(pause.what.contains("Pause all"), "{pause:?}");
    press(&app, Key::Enter).await;
    wait.text("schedules-pause-all", |t| t == "Resume all")
        .await
        .expect("Enter paused every schedule");
    wait.text("schedule-next", |t| t == "Paused")
        .await
        .expect("the schedule says it is paused");
    let now = focus_here(&app, "Pause all").await;
    assert_eq!(now.testid, "schedules-pause-all", "{now:?}");
    keep_screenshot(&app, "keyboard-schedules-paused").await;
    press(&app, Key::Enter).await;
    wait.text("schedules-pause-all", |t| t == "Pause all")
        .await
        .expect("Enter resumed them");
    wait.text("schedule-next", |t| t.starts_with("Next:"))
        .await
        .expect("the next run is planned again");
    focus_here(&app, "Resume all").await;
    press(&app, Key::Escape).await;
    wait.gone("schedules-list")
        .await
        .expect("Escape closed the list");
    focus_here(&app, "closing the list").await;

    // Run now sent the task, once, in the computer's conversation.
    choose_computer(&app, &wait, "Design laptop").await;
    wait_for_status(&app, &["running", "succeeded"])
        .await
        .expect("Run now ran it");
    let users = thread_texts(&app, "user").await.unwrap();
    assert_eq!(
        users.iter().map(|t| t.trim()).collect::<Vec<_>>(),
        vec![TASK],
        "Run now sent the task once"
    );
    app.quit().await;
    drop(keep);
    sim.shutdown().await;
}
