//! The window's layout is the person's: the splitter between the conversation and the live
//! screen moves with the keyboard (and the pointer), the sidebar folds with its button and
//! with Ctrl+B, and both are kept across a restart. While a task runs the live screen keeps
//! at least 60% of the work area.

use porthole_e2e::{by_testid, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{select_machine, send_task, wait_for_status};

async fn splitter_value(app: &App) -> i64 {
    let bar = Eventually::new(&app.driver)
        .element("splitter")
        .await
        .expect("the splitter");
    bar.attr("aria-valuenow")
        .await
        .unwrap()
        .and_then(|v| v.parse().ok())
        .expect("a value")
}

/// The live screen's width over the work area's (conversation column + live screen).
async fn live_share(app: &App) -> f64 {
    let ret = app
        .driver
        .execute(
            "const live = document.querySelector('[data-testid=live-slot]').getBoundingClientRect();
             const col = document.getElementById('conversation-column').getBoundingClientRect();
             return live.width / (live.width + col.width);",
            vec![],
        )
        .await
        .unwrap();
    ret.json().as_f64().expect("a share")
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_splitter_and_the_folded_sidebar_are_kept_across_a_restart() {
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(0.4),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop").await.unwrap();
    // A new install: the live screen takes 60% (the conversation 40%).
    assert_eq!(splitter_value(&app).await, 40);

    // Keyboard: the separator takes focus; → widens the conversation, ← narrows it.
    let bar = wait.element("splitter").await.unwrap();
    bar.focus().await.unwrap();
    for _ in 0..5 {
        bar.send_keys(Key::Right).await.unwrap();
    }
    assert_eq!(splitter_value(&app).await, 50);
    let share = live_share(&app).await;
    assert!(
        (share - 0.5).abs() < 0.02,
        "the live screen follows: {share}"
    );

    // While a task runs the live screen is the hero: at least 60% of the work area.
    send_task(&app, "Look up the weather in Lisbon")
        .await
        .unwrap();
    if wait_for_status(&app, &["running", "succeeded"])
        .await
        .unwrap()
        == "running"
    {
        let share = live_share(&app).await;
        assert!(
            share >= 0.59,
            "the live screen takes {share} while the task runs"
        );
        app.screenshot("layout-running-hero").await.unwrap();
    }
    wait_for_status(&app, &["succeeded", "failed"])
        .await
        .unwrap();
    assert_eq!(
        splitter_value(&app).await,
        50,
        "the person's choice is back"
    );

    // Ctrl+B folds the sidebar; the button beside the name does the same.
    app.driver
        .action_chain()
        .key_down(Key::Control)
        .send_keys("b")
        .key_up(Key::Control)
        .perform()
        .await
        .unwrap();
    wait.element("sidebar-unfold")
        .await
        .expect("Ctrl+B folds the sidebar");
    assert!(app.driver.find(by_testid("machine-list")).await.is_err());
    app.screenshot("layout-sidebar-folded").await.unwrap();

    let data_dir = app.data_dir().to_path_buf();
    let _keep = app.quit().await;
    let again = App::launch_with(AppOptions {
        data_dir: Some(data_dir),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens again");
    let wait = Eventually::new(&again.driver);
    wait.element("sidebar-unfold")
        .await
        .expect("still folded after a restart");
    wait.element("sidebar-unfold")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    select_machine(&again, "Design laptop").await.unwrap();
    assert_eq!(
        splitter_value(&again).await,
        50,
        "the splitter is where it was left"
    );
    again.quit().await;
}
