//! Checking a result: criteria as a sentence or a list of checks; the verdict in words, each
//! check's evidence (a likelihood bar only where unsure); a check that cannot be made says why.
//! The task's receipt then reads its outcome from the check, and still does after a restart
//! (the check is kept with the conversation). The app's own Demo dies with the app, so this
//! test runs the simulator itself, as restart.rs does.

use porthole_e2e::{by_testid, App, AppOptions, Eventually};

use crate::flows::own_demo;
use crate::replay::keep_screenshot;
use crate::replay::{select_machine, send_task, wait_for_status};

/// The finished task's receipt: its outcome, and how it was told.
async fn receipt(app: &App) -> (String, String) {
    let wait = Eventually::new(&app.driver);
    let judged = wait
        .text("receipt-judged", |t| t.contains("Checked by the service"))
        .await
        .expect("the receipt says the service checked it");
    let outcome = wait
        .text("receipt-outcome", |t| !t.trim().is_empty())
        .await
        .unwrap();
    (outcome, judged)
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_result_is_checked_against_a_list_of_checks() {
    let (sim, env) = own_demo(0.02).await;
    let app = App::launch_with(AppOptions {
        env: env.clone(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    select_machine(&app, "Design laptop").await.unwrap();
    send_task(&app, "Look up the weather in Paris")
        .await
        .unwrap();
    wait_for_status(&app, &["succeeded"]).await.unwrap();
    let wait = Eventually::new(&app.driver);
    wait.element("answer-check")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    wait.element("judge-checks-mode")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("judge-check")
        .await
        .unwrap()
        .send_keys("Reports the weather in Paris")
        .await
        .unwrap();
    wait.element("judge-add-check")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let inputs = wait.at_least("judge-check", 2).await.unwrap();
    inputs[1]
        .send_keys("The layout looks tidy on the screen")
        .await
        .unwrap();
    app.driver
        .find(by_testid("judge-run"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    let verdict = wait.element("judge-verdict").await.expect("a verdict");
    assert!(verdict.attr("data-verdict").await.unwrap().is_some());
    let criteria = wait
        .at_least("judge-criterion", 2)
        .await
        .expect("one row per check");
    assert_eq!(
        criteria[0].attr("data-verdict").await.unwrap().as_deref(),
        Some("passed")
    );
    // The evidence says where it came from, in words; no internal terms.
    let evidence = criteria[0]
        .find(by_testid("judge-evidence-text"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        !evidence.contains("turn") && !evidence.contains("key words"),
        "{evidence}"
    );
    assert_eq!(
        criteria[1].attr("data-verdict").await.unwrap().as_deref(),
        Some("unverifiable")
    );
    let why = criteria[1]
        .find(by_testid("judge-unverifiable"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(why.contains("could not be checked"), "{why}");
    assert!(
        criteria[1].find(by_testid("judge-score")).await.is_err(),
        "no likelihood bar where the check could not be made"
    );
    keep_screenshot(&app, "judge-checks").await;

    // The receipt reads its outcome from the check: the check that could be made passed.
    wait.element("sheet-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let checked = receipt(&app).await;
    assert_eq!(checked.0, "Done");

    // After a restart the receipt is the same: the check was kept with the conversation.
    let data_dir = app.data_dir().to_path_buf();
    let keep = app.quit().await;
    let again = App::launch_with(AppOptions {
        data_dir: Some(data_dir),
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens again");
    select_machine(&again, "Design laptop").await.unwrap();
    assert_eq!(receipt(&again).await, checked);
    keep_screenshot(&again, "judge-receipt-after-restart").await;
    again.quit().await;
    drop(keep);
    sim.shutdown().await;
}
