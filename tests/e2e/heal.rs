//! "Fix it" on a reusable task: a run that went wrong is kept, the person says what to do
//! differently, the service repairs the code (sent the failed run as an evaluation), the
//! window lists what changed and why, and the repaired task runs. On the way, the console
//! (used to close the page that asked to sign in) counts down the Demo's real idle limit.

use porthole_e2e::{by_testid, App, Eventually};
use std::time::Duration;

use crate::flows::{learn_reusable_task, run_in_console, run_reusable_with};
use crate::replay::keep_screenshot;

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_failed_run_is_fixed_with_feedback_and_the_fixed_task_runs() {
    let app = App::launch().await.expect("the app opens");
    learn_reusable_task(&app, "Look up the weather in Paris")
        .await
        .expect("a learned reusable task");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));

    // The learned code stops when the screen asks to sign in; typing this place makes the
    // browser's page say "sign in", as a site asking for a login would.
    run_reusable_with(&app, &[("place", "the sign in page")])
        .await
        .unwrap();
    let failure = long
        .text("run-error", |t| !t.trim().is_empty())
        .await
        .expect("the run goes wrong and says so");
    assert!(
        failure.contains("sign in"),
        "the error says what stopped it: {failure}"
    );
    let pending = wait
        .text("reusable-heal", |t| t.contains("went wrong"))
        .await
        .expect("Fix it is offered for the failed run");
    assert!(pending.contains("1 run went wrong"), "{pending}");
    assert!(
        app.driver
            .find(by_testid("reusable-changes"))
            .await
            .is_err(),
        "nothing was fixed yet"
    );
    keep_screenshot(&app, "heal-failed-run").await;

    let feedback = wait.element("reusable-feedback").await.unwrap();
    feedback
        .send_keys("It reads the screen too early")
        .await
        .unwrap();
    wait.element("reusable-fix")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let changes = long
        .text("reusable-changes", |t| !t.trim().is_empty())
        .await
        .expect("the window shows what the fix changed");
    assert!(
        changes.contains("Wait for the screen to settle"),
        "the repair for a screen read too early is listed: {changes}"
    );
    assert!(
        changes.contains("Why:") && changes.contains("evaluation 1") && changes.contains("sign_in"),
        "with why, naming the failed run it was sent and its error: {changes}"
    );
    assert!(
        changes.contains("It reads the screen too early"),
        "the feedback reached the repair: {changes}"
    );
    wait.gone("reusable-heal")
        .await
        .expect("the failed run is settled by the fix");
    keep_screenshot(&app, "heal-fixed").await;

    // The person deals with the page that asked to sign in (closes it on the computer, from
    // the console); the repaired task then runs.
    let windows = run_in_console(&app, "machine.close(\"Browser\"); machine.windows().length")
        .await
        .expect("the console closes the page");
    assert_eq!(windows.trim(), "0", "no window is left open");
    // The console counts down the service's real idle limit: the Demo's 600 s run at its
    // time scale (0.05 in these tests: 30 s), so it must not show ten minutes.
    let left = wait
        .text("console-idle-countdown", |t| !t.trim().is_empty())
        .await
        .expect("the idle countdown shows");
    let seconds: Option<u32> = left.trim().strip_suffix(" s").and_then(|n| n.parse().ok());
    assert!(
        seconds.is_some_and(|s| s <= 30),
        "the countdown starts within the scaled idle limit: {left}"
    );
    keep_screenshot(&app, "heal-console").await;
    Eventually::new(&app.driver)
        .element("saved-task")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let kept = wait
        .text("reusable-changes", |t| {
            t.contains("Wait for the screen to settle")
        })
        .await
        .expect("the library kept the fixed task and what changed");
    assert!(kept.contains("Why:"), "{kept}");
    run_reusable_with(&app, &[("place", "Rome")]).await.unwrap();
    let result = match long.text("run-result", |t| t.contains("Rome")).await {
        Ok(result) => result,
        Err(e) => {
            keep_screenshot(&app, "heal-fixed-run-failed").await;
            let error = match app.driver.find(by_testid("run-error")).await {
                Ok(el) => porthole_e2e::text_of(&el).await,
                Err(_) => String::new(),
            };
            panic!("the fixed task runs with the new input: {e}; the run said: {error}");
        }
    };
    assert!(result.contains("weather"), "{result}");
    assert!(
        app.driver.find(by_testid("run-error")).await.is_err(),
        "the fixed task finished without an error"
    );
    keep_screenshot(&app, "heal-fixed-run").await;
    app.quit().await;
}
