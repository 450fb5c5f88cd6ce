//! Every finished task leads with its receipt, against a Demo that gives no turn id (as the
//! real service may never): a look-up is "Done", read from its end and answer (and says so),
//! with the app it opened, how long it took and what it cost; a task whose card the person
//! declined is "Not done" and says why. In both colour schemes, with axe at no serious finding.

use porthole_e2e::{by_testid, App, AppOptions, Eventually};

use crate::accessibility::Audit;
use crate::flows::{select_machine, send_task, wait_for_status};
use crate::replay::keep_screenshot;

async fn receipts(app: &App, n: usize) -> Vec<thirtyfour::WebElement> {
    let wait = Eventually::new(&app.driver);
    wait.at_least("receipt", n).await.expect("the receipts")
}

async fn text_in(el: &thirtyfour::WebElement, testid: &str) -> String {
    el.find(by_testid(testid))
        .await
        .unwrap_or_else(|e| panic!("{testid} in the receipt: {e}"))
        .text()
        .await
        .unwrap()
}

async fn receipts_in(scheme: &str) {
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(0.02),
        env: [
            vec![("PORTHOLE_SIM_TURN_ID_IN".into(), "none".into())],
            crate::flows::scheme_env(scheme),
        ]
        .concat(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let mut audit = Audit::new(&app, scheme).await;
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");

    send_task(&app, "Look up the weather in Paris")
        .await
        .unwrap();
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let first = receipts(&app, 1).await.remove(0);
    assert_eq!(text_in(&first, "receipt-outcome").await, "Done");
    assert_eq!(
        text_in(&first, "receipt-judged").await,
        "Read from how the task ended and the agent’s answer",
        "without a turn id there is no service check: the receipt says what it read"
    );
    let touched = text_in(&first, "receipt-touched").await;
    assert!(touched.contains("Opened Browser"), "{touched:?}");
    let figures = text_in(&first, "receipt-figures").await;
    assert!(
        figures.starts_with("Took ") && figures.contains("Cost $"),
        "{figures:?}"
    );

    // A second task whose card is declined: not done, and why.
    send_task(&app, "Delete the old-reports folder in Documents")
        .await
        .unwrap();
    wait.element("approval-deny")
        .await
        .expect("the card")
        .click()
        .await
        .unwrap();
    wait.gone("approval-card").await.expect("answered");
    wait_for_status(&app, &["succeeded", "failed"])
        .await
        .unwrap();
    let all = receipts(&app, 2).await;
    let second = &all[1];
    assert_eq!(text_in(second, "receipt-outcome").await, "Not done");
    assert_eq!(
        text_in(second, "receipt-why").await,
        "You declined what it asked."
    );
    assert_eq!(
        second.attr("data-outcome").await.unwrap().as_deref(),
        Some("notDone")
    );
    // The first task's receipt is still its own.
    assert_eq!(text_in(&all[0], "receipt-outcome").await, "Done");
    second.scroll_into_view().await.unwrap();
    keep_screenshot(&app, &format!("receipt-{scheme}")).await;
    audit.check("receipts").await;
    if let Some(findings) = audit.report() {
        panic!("{findings}");
    }
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn each_finished_task_leads_with_its_receipt_without_a_turn_id_light() {
    receipts_in("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn each_finished_task_leads_with_its_receipt_without_a_turn_id_dark() {
    receipts_in("dark").await;
}
