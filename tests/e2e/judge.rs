//! Checking a result: criteria as a sentence or a list of checks; the verdict in words, each
//! check's evidence (a likelihood bar only where unsure); a check that cannot be made says why.

use porthole_e2e::{by_testid, App, Eventually};

use crate::replay::keep_screenshot;
use crate::replay::{select_machine, send_task, wait_for_status};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_result_is_checked_against_a_list_of_checks() {
    let app = App::launch().await.expect("the app opens");
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
    app.quit().await;
}
