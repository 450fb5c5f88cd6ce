//! A finished task's answer leads with its result, and how it was done folds under it, with
//! the same step count the agent's actions give everywhere.

use porthole_e2e::{by_testid, text_of, App, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{select_machine, send_task, wait_for_status};
use crate::replay::keep_screenshot;

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn an_answer_leads_with_its_result_and_folds_the_steps_under_it() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Add up the table of expenses")
        .await
        .expect("send");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    // The Demo answers the task that was asked, result first.
    let answer = wait
        .text("final-answer", |t| !t.trim().is_empty())
        .await
        .expect("an answer");
    assert!(
        answer.starts_with("The total is $1,284.50"),
        "the answer leads with the sum: {answer}"
    );

    // After the answer, folded: how it was done, counted in the agent's actions.
    let order: Vec<String> = {
        let mut out = Vec::new();
        for el in app
            .driver
            .find_all(By::Css(
                "[data-testid=\"thread\"] > ol > [data-testid=\"thread-item\"], [data-testid=\"thread\"] > ol > [data-testid=\"thread-steps\"]",
            ))
            .await
            .unwrap()
        {
            out.push(match el.attr("data-kind").await.unwrap() {
                Some(kind) => kind,
                None => "steps".to_owned(),
            });
        }
        out
    };
    assert_eq!(order, ["user", "answer", "steps"], "{order:?}");
    let toggle = wait.element("steps-toggle").await.unwrap();
    let label = text_of(&toggle).await;
    assert!(label.starts_with("How I did it"), "{label}");
    let open = app
        .driver
        .find(By::Css("[data-testid=\"thread-steps\"] details"))
        .await
        .unwrap()
        .attr("open")
        .await
        .unwrap();
    assert!(open.is_none(), "the steps start folded");
    keep_screenshot(&app, "answer-result-first").await;
    toggle.click().await.unwrap();
    let tools = app
        .driver
        .find_all(By::Css(
            "[data-testid=\"thread-steps\"] [data-kind=\"tool\"]",
        ))
        .await
        .unwrap();
    // The count, when the thread knows the steps' titles, is one per step line shown.
    if !tools.is_empty() {
        assert_eq!(
            label,
            format!("How I did it ({} steps)", tools.len()),
            "one count everywhere"
        );
    }
    assert!(app.driver.find(by_testid("final-answer")).await.is_ok());
    keep_screenshot(&app, "answer-steps-open").await;
    app.quit().await;
}
