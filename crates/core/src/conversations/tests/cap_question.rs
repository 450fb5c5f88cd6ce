//! The cap that asks before it stops, against the simulator. Its agent pays per model call:
//! one as the task starts, one per step, one for the answer; on GPT-5 (the dearest tier) a
//! call costs about five cents ($0.0509). "Take your time" makes a step last two scaled
//! minutes (1.2 s here); the task runs two such steps, then any quick counting steps ("count
//! to 2"), then a slow last step before its answer. With a $0.12 cap the question comes after
//! the first step ($0.10, at least 80 % of the cap) and the cap is reached after the second, a
//! slow step later: time enough to answer. Raised to $0.24, it is reached at the second
//! counting step ($0.25), still a slow step before the answer.

use super::*;
use crate::error::AppError;

const CAP: f64 = 0.12;
const RAISED: f64 = 0.24;
const TASK: &str = "Take your time and find the weather in Lisbon";
/// Two calls more than [`TASK`]: past the raised cap.
const LONGER_TASK: &str = "Take your time and count to 2";
const DEAR_MODEL: &str = "openai/gpt-5";
const QUESTION: &str = "This task has cost $0.10 of your $0.12. Let it go up to $0.24?";

fn capped(id: &str, text: &str) -> SendRequest {
    SendRequest {
        conversation_id: id.into(),
        text: text.into(),
        model: Some(DEAR_MODEL.into()),
        cap_usd: Some(CAP),
        ..SendRequest::default()
    }
}

fn cost(c: &Conversation) -> f64 {
    c.usage.as_ref().map_or(0.0, |u| u.total.cost_usd)
}

fn asked(c: &Conversation) -> bool {
    c.open_cap_question().is_some()
}

/// Sends `task` under the cap and waits for its question.
async fn asked_near_the_cap(app: &App, task: &str) -> (String, Conversation) {
    let id = app.new_conversation().await;
    app.core.send(capped(&id, task)).await.unwrap();
    let asking = app.until(&id, asked).await;
    (id, asking)
}

#[tokio::test]
async fn near_its_cap_a_task_asks_once_and_the_question_says_cost_cap_and_raise() {
    let app = app().await;
    let (id, asking) = asked_near_the_cap(&app, TASK).await;

    let question = asking.open_cap_question().unwrap();
    assert!(
        question.cost_usd >= CAP * 0.8 && question.cost_usd < CAP,
        "asked at four fifths of the cap, before it: {question:?}"
    );
    assert_eq!(question.cap_usd, CAP);
    assert_eq!(question.raise_to_usd, RAISED, "the cap doubled");
    assert!(asking.status.is_active(), "the task still runs");
    assert_eq!(
        *app.told.near_cap.lock().unwrap(),
        vec![QUESTION.to_owned()]
    );

    // Unanswered, the cap holds: the task stops at it, as without a question.
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Stopped, "{:#?}", done.items);
    assert!(
        cost(&done) >= CAP && cost(&done) < RAISED,
        "{}",
        cost(&done)
    );
    assert!(answers(&done).is_empty(), "stopped before its answer");
    assert_eq!(done.cap_usd, Some(CAP));
    assert!(
        notices(&done)
            .iter()
            .any(|n| n.starts_with("Stopped at your $0.12 cap.")),
        "{:#?}",
        done.items
    );
    assert!(!asked(&done), "no question is open once the task stopped");
    assert!(matches!(
        app.core.raise_cap(&id),
        Err(AppError::NoPendingApproval)
    ));
    assert_eq!(app.told.near_cap.lock().unwrap().len(), 1, "asked once");
}

#[tokio::test]
async fn raising_the_cap_lets_the_task_run_past_the_old_cap_up_to_the_new_one() {
    let app = app().await;
    let (id, _) = asked_near_the_cap(&app, LONGER_TASK).await;

    let raised = app.core.raise_cap(&id).unwrap();
    assert_eq!(raised.cap_usd, Some(RAISED));
    assert!(!asked(&raised), "answered");
    assert!(
        notices(&raised).contains(&"You let this task go up to $0.24.".to_owned()),
        "{:#?}",
        raised.items
    );
    assert!(
        matches!(app.core.keep_cap(&id), Err(AppError::NoPendingApproval)),
        "answered once"
    );

    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Stopped, "{:#?}", done.items);
    assert!(
        cost(&done) >= RAISED,
        "ran past the old cap up to the new one: {}",
        cost(&done)
    );
    assert!(
        notices(&done)
            .iter()
            .any(|n| n.starts_with("Stopped at your $0.24 cap.")),
        "{:#?}",
        done.items
    );
    assert!(answers(&done).is_empty(), "stopped before its answer");
    assert_eq!(app.told.near_cap.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn keeping_the_cap_stops_the_task_at_it() {
    let app = app().await;
    let (id, _) = asked_near_the_cap(&app, TASK).await;

    let kept = app.core.keep_cap(&id).unwrap();
    assert_eq!(kept.cap_usd, Some(CAP));
    assert!(!asked(&kept));
    assert!(
        notices(&kept)
            .contains(&"You kept your $0.12 cap: Porthole stops this task there.".to_owned()),
        "{:#?}",
        kept.items
    );

    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Stopped, "{:#?}", done.items);
    assert!(
        cost(&done) >= CAP && cost(&done) < RAISED,
        "{}",
        cost(&done)
    );
    assert!(answers(&done).is_empty(), "stopped before its answer");
    assert!(notices(&done)
        .iter()
        .any(|n| n.starts_with("Stopped at your $0.12 cap.")));
}

/// (That a new task asks anew is the model's test `asked_once_per_task_and_answered_once`.)
#[tokio::test]
async fn a_task_without_a_cap_never_asks() {
    let app = app().await;
    let other = app.new_conversation().await;
    app.core
        .send(SendRequest {
            conversation_id: other.clone(),
            text: "Find the weather in Lisbon and count to 8".into(),
            ..SendRequest::default()
        })
        .await
        .unwrap();
    let done = app.until(&other, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded);
    assert!(done.cap_question.is_none() && !done.cap_asked);
    assert!(app.told.near_cap.lock().unwrap().is_empty());
}
