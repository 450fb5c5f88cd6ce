//! Every main screen of the window, in the light and in the dark colour scheme, against the
//! Demo: the computer list, a running task beside its live screen, a finished answer with what
//! can be done with it (its steps, checking it, saving it as a reusable task), the usage, an
//! approval, the account dialog and its advanced part, a new computer, settings with developer
//! tools, the console, and the folded sidebar. Each is kept as `screen-<scheme>-NN-<name>.png`
//! to be looked at.
//!
//! The window runs in the scheme the system asks for: GTK's theme (its dark variant) on Linux,
//! with `PORTHOLE_THEME` for the window itself; the test checks the page really sees it.

use std::time::Duration;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};

use crate::flows::{open_console, send_task, wait_for_status};
use crate::replay::{keep_screenshot, run_recorded_task_started};

/// Slow enough to catch a task while it runs, fast enough for a test.
const SCALE: f64 = 0.4;

async fn click(wait: &Eventually<'_>, testid: &str) {
    wait.element(testid)
        .await
        .unwrap_or_else(|e| panic!("{testid} is there: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{testid} can be clicked: {e}"));
}

async fn every_main_screen(scheme: &str) {
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(SCALE),
        env: vec![
            ("PORTHOLE_THEME".into(), scheme.into()),
            // The system's own setting, as GTK reads it: WebKitGTK takes the page's
            // colour scheme from the theme's dark variant.
            (
                "GTK_THEME".into(),
                if scheme == "dark" {
                    "Adwaita:dark"
                } else {
                    "Adwaita"
                }
                .into(),
            ),
        ],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(180));
    let shot = |name: &str| format!("screen-{scheme}-{name}");

    let dark = app
        .driver
        .execute(
            "return matchMedia('(prefers-color-scheme: dark)').matches;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        dark.json().as_bool(),
        Some(scheme == "dark"),
        "the page sees the {scheme} colour scheme"
    );

    // 1. The computer list, a computer chosen, its live screen beside the empty conversation.
    wait.at_least("machine-row", 1).await.expect("computers");
    crate::flows::select_machine(&app, "Design laptop")
        .await
        .unwrap();
    wait.element("live-view-only")
        .await
        .expect("the live screen says it is view only");
    keep_screenshot(&app, &shot("01-computers")).await;

    // 2. A task running: the live screen is the hero.
    run_recorded_task_started(&app, "Look up the weather in Paris")
        .await
        .expect("a recorded task starts");
    let status = wait_for_status(&app, &["running", "succeeded"])
        .await
        .unwrap();
    if status == "running" {
        keep_screenshot(&app, &shot("02-running")).await;
    }
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );

    // 3. The finished answer and what can be done with it.
    wait.element("answer-actions")
        .await
        .expect("the actions under the answer");
    keep_screenshot(&app, &shot("03-answer")).await;

    // 4–6. Its steps, checking it, saving it as a reusable task: each a sheet.
    click(&wait, "answer-steps").await;
    wait.at_least("replay-step", 1).await.expect("the steps");
    keep_screenshot(&app, &shot("04-steps")).await;
    click(&wait, "sheet-close").await;
    click(&wait, "answer-check").await;
    wait.element("judge-run").await.expect("the check");
    keep_screenshot(&app, &shot("05-check")).await;
    click(&wait, "sheet-close").await;
    click(&wait, "answer-reusable").await;
    wait.element("reusable-template")
        .await
        .expect("saving as reusable");
    keep_screenshot(&app, &shot("06-save-reusable")).await;
    click(&wait, "sheet-close").await;

    // 7. Usage.
    click(&wait, "usage-button").await;
    wait.element("usage-panel").await.expect("usage");
    keep_screenshot(&app, &shot("07-usage")).await;
    click(&wait, "usage-button").await;

    // 8. An approval.
    send_task(&app, "Delete the old files in Downloads")
        .await
        .unwrap();
    long.element("approval-deny")
        .await
        .expect("the agent asks first");
    keep_screenshot(&app, &shot("08-approval")).await;
    click(&wait, "approval-deny").await;
    wait_for_status(&app, &["succeeded", "failed", "stopped"])
        .await
        .unwrap();

    // 9–10. The account: sign-in first, the rest under "Use an API key instead / Advanced".
    click(&wait, "open-keys").await;
    wait.element("keys-page").await.expect("the account dialog");
    keep_screenshot(&app, &shot("09-account")).await;
    click(&wait, "account-advanced-toggle").await;
    wait.element("connect-api-key")
        .await
        .expect("the API key form");
    keep_screenshot(&app, &shot("10-account-advanced")).await;
    click(&wait, "keys-page-close").await;

    // 11. A new computer, from under the computer list.
    click(&wait, "new-computer").await;
    wait.element("computer-name").await.expect("the form");
    keep_screenshot(&app, &shot("11-new-computer")).await;
    click(&wait, "new-computer-dialog-close").await;

    // 12–13. Settings with developer tools on, then the console from the computer's menu.
    click(&wait, "open-settings").await;
    let setting = wait.element("setting-developer-tools").await.unwrap();
    if !setting.is_selected().await.unwrap() {
        setting.click().await.unwrap();
    }
    keep_screenshot(&app, &shot("12-settings")).await;
    click(&wait, "settings-dialog-close").await;
    open_console(&app).await.expect("the console opens");
    keep_screenshot(&app, &shot("13-console")).await;
    click(&wait, "sheet-close").await;

    // 14. The sidebar folded away: the conversation and the live screen take the window.
    click(&wait, "sidebar-fold").await;
    wait.element("sidebar-unfold").await.expect("the rail");
    keep_screenshot(&app, &shot("14-sidebar-folded")).await;
    click(&wait, "sidebar-unfold").await;
    wait.element("machine-list")
        .await
        .expect("the sidebar is back");
    assert!(app.driver.find(by_testid("sidebar-unfold")).await.is_err());

    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn every_main_screen_in_the_light_scheme() {
    every_main_screen("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn every_main_screen_in_the_dark_scheme() {
    every_main_screen("dark").await;
}
