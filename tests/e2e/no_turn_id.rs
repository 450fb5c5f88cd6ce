//! The Demo started with a service that gives no turn id: a finished task's steps, checks and
//! reusing say why they are not available, instead of failing or vanishing.

use porthole_e2e::{App, AppOptions, Eventually};

use crate::flows::{select_machine, send_task, wait_for_status};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn without_a_turn_id_the_task_tools_say_why_they_are_not_available() {
    let app = App::launch_with(AppOptions {
        env: vec![("PORTHOLE_SIM_TURN_ID_IN".into(), "none".into())],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Look up the price of coffee")
        .await
        .expect("send");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    wait.text("final-answer", |t| !t.is_empty())
        .await
        .expect("the answer is shown all the same");

    for (tab, words) in [
        ("answer-steps", "show the steps"),
        ("answer-check", "check the result"),
        ("answer-reusable", "save this task"),
    ] {
        wait.element(tab)
            .await
            .expect("the action is under the answer")
            .click()
            .await
            .unwrap();
        let sentence = wait
            .text("no-turn-id", |t| t.contains(words))
            .await
            .expect("a sentence says why");
        assert!(
            sentence.contains("didn’t say which task it was"),
            "{sentence}"
        );
        if tab == "answer-steps" {
            app.screenshot("no-turn-id").await.expect("screenshot");
        }
        // Back to the conversation, where the next action waits under the answer.
        wait.element("sheet-close")
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
    }
    app.quit().await;
}
