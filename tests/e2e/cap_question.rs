//! The cap that asks before it stops, in the real window: near its cap a task asks in the
//! thread "This task has cost $0.10 of your $0.12. Let it go up to $0.24?"; one click lets it
//! run past the old cap up to the new one, the other keeps the cap and the task stops at it.
//!
//! The Demo's agent pays per model call (one as the task starts, one per step); on GPT-5 a
//! call costs about five cents. "Take your time" makes a step last six seconds at the tests'
//! time scale: the question comes after the first step, a whole step before the cap, time
//! enough for a click; the raised cap is reached at the quick counting steps of "count to 2",
//! a slow step before the answer (the Rust tests in conversations/tests/cap_question.rs say the figures).

use std::time::Duration;

use porthole_e2e::{App, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{select_machine, send_task, thread_texts, wait_for_status};

const TASK: &str = "Take your time and find the weather in Lisbon";
/// Two calls more than [`TASK`]: past the raised cap.
const LONGER_TASK: &str = "Take your time and count to 2";
const QUESTION: &str = "This task has cost $0.10 of your $0.12. Let it go up to $0.24?";

/// Sends `task` on GPT-5 with a $0.12 cap on Design laptop and waits for its question.
async fn asked_near_the_cap(task: &str) -> App {
    let app = App::launch().await.expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    let wait = Eventually::new(&app.driver);
    wait.element("composer-more")
        .await
        .expect("More options")
        .click()
        .await
        .unwrap();
    wait.element("model-picker").await.expect("the AI model");
    app.driver
        .find(By::Css(
            "[data-testid=\"model-picker\"] option[value=\"openai/gpt-5\"]",
        ))
        .await
        .expect("GPT-5 among the models")
        .click()
        .await
        .unwrap();
    let cap = wait.element("cap-input").await.expect("the cap box");
    cap.send_keys("0.12").await.unwrap();
    send_task(&app, task).await.expect("send");
    let asked = Eventually::new(&app.driver)
        .within(Duration::from_secs(90))
        .text("cap-question-title", |t| !t.is_empty())
        .await;
    let asked = asked.expect("the question near the cap");
    assert_eq!(asked, QUESTION);
    assert_eq!(
        wait.text("cap-raise", |t| !t.is_empty()).await.unwrap(),
        "Let it go up to $0.24"
    );
    assert_eq!(
        wait.text("cap-keep", |t| !t.is_empty()).await.unwrap(),
        "Stop at $0.12"
    );
    app
}

/// The notice of the stop at a cap, once the task ended.
async fn stopped_at(app: &App) -> String {
    assert_eq!(
        wait_for_status(app, &["stopped", "succeeded", "failed"])
            .await
            .unwrap(),
        "stopped"
    );
    let notices = thread_texts(app, "notice").await.unwrap();
    notices
        .iter()
        .find(|n| n.starts_with("Stopped at your "))
        .unwrap_or_else(|| panic!("the thread says where it stopped: {notices:?}"))
        .clone()
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn near_its_cap_a_task_asks_and_a_raise_lets_it_run_past_the_old_cap() {
    let app = asked_near_the_cap(LONGER_TASK).await;
    app.screenshot("cap-question-asked").await.unwrap();
    let wait = Eventually::new(&app.driver);
    wait.element("cap-raise")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("cap-question")
        .await
        .expect("answered, the card goes");
    let raised = thread_texts(&app, "notice").await.unwrap();
    assert!(
        raised.contains(&"You let this task go up to $0.24.".to_owned()),
        "{raised:?}"
    );
    wait.text("cap-meter", |t| t.contains("of $0.24 cap"))
        .await
        .expect("the meter counts against the raised cap");
    app.screenshot("cap-question-raised").await.unwrap();

    let stopped = stopped_at(&app).await;
    assert!(
        stopped.starts_with("Stopped at your $0.24 cap. This task cost $0.2"),
        "ran past the old cap up to the new one: {stopped}"
    );
    assert!(
        thread_texts(&app, "answer").await.unwrap().is_empty(),
        "stopped before its answer"
    );
    app.screenshot("cap-question-raised-stopped").await.unwrap();
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn near_its_cap_a_task_asks_and_keeping_the_cap_stops_it_there() {
    let app = asked_near_the_cap(TASK).await;
    let wait = Eventually::new(&app.driver);
    wait.element("cap-keep")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("cap-question")
        .await
        .expect("answered, the card goes");
    let kept = thread_texts(&app, "notice").await.unwrap();
    assert!(
        kept.contains(&"You kept your $0.12 cap: Porthole stops this task there.".to_owned()),
        "{kept:?}"
    );

    let stopped = stopped_at(&app).await;
    assert!(
        stopped.starts_with("Stopped at your $0.12 cap. This task cost $0.1"),
        "{stopped}"
    );
    assert!(thread_texts(&app, "answer").await.unwrap().is_empty());
    app.screenshot("cap-question-kept-stopped").await.unwrap();
}
