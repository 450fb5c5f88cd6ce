//! The control console: open a lease on a cloud computer, run a block (result, logs,
//! screenshot, variables), see the idle countdown, close, and read why it ended.

use porthole_e2e::{by_testid, leading_number, seconds_in_page, App, Eventually};

use crate::replay::image_loaded;
use crate::replay::keep_screenshot;
use crate::replay::select_machine;

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_console_opens_runs_a_block_and_closes() {
    let app = App::launch().await.expect("the app opens");
    select_machine(&app, "Design laptop").await.unwrap();
    let wait = Eventually::new(&app.driver);
    // Behind developer tools (off by default): the computer's menu shows no console yet.
    wait.element("computer-menu")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("menu-settings")
        .await
        .expect("the computer's menu opens");
    assert!(
        app.driver.find(by_testid("menu-console")).await.is_err(),
        "no console in the menu while developer tools are off"
    );
    crate::flows::open_console(&app)
        .await
        .expect("developer tools on, then the console from the computer's menu");
    wait.element("console-open")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("console-editor")
        .await
        .expect("the lease opens");
    wait.element("console-idle-countdown")
        .await
        .expect("the idle countdown shows");

    // The editor starts with a block that captures the screen.
    app.driver
        .find(by_testid("console-run"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let result = wait
        .text("run-result", |t| t.contains("windows"))
        .await
        .expect("the result tree");
    assert!(result.contains("screen"), "{result}");
    let logs = wait
        .text("run-logs", |t| t.contains("open windows"))
        .await
        .expect("logs");
    assert!(!logs.is_empty());
    let shot = wait.element("run-screenshot").await.expect("a screenshot");
    assert!(
        image_loaded(&app, &shot).await.unwrap(),
        "the screenshot decodes"
    );
    let vars = wait
        .text("run-variables", |t| t.contains("shot"))
        .await
        .expect("variables");
    assert!(vars.contains("shot"));
    // How long the block took, in seconds to the hundredth as the page's Intl says them.
    let took = wait
        .text("run-duration", |t| leading_number(t).is_some())
        .await
        .expect("duration");
    let said = seconds_in_page(&app, leading_number(&took).unwrap(), Some(2))
        .await
        .unwrap();
    assert_eq!(took.trim(), said, "the run's time in seconds");
    keep_screenshot(&app, "console-run").await;

    app.driver
        .find(by_testid("console-close"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let ended = wait
        .text("console-ended", |t| !t.is_empty())
        .await
        .expect("why it ended");
    assert!(ended.contains("closed"), "{ended}");
    wait.element("console-open")
        .await
        .expect("it can be opened again");
    keep_screenshot(&app, "console-closed").await;
    app.quit().await;
}
