//! The cap that asks before it stops, against the simulator. Its agent pays about a cent
//! ($0.0102) per model call, one as the task starts and one per step; "take your time" makes
//! each step last two scaled minutes (1.2 s here), so a question asked a step before the cap
//! is answered long before the next step's cost arrives. With a $0.05 cap the question comes
//! at four calls ($0.04, at least 80 %) and the stop at five.

use super::*;
use crate::error::AppError;

const CAP: f64 = 0.05;
/// Long enough to cost far more than the cap raised once.
const LONG_TASK: &str = "Take your time and count to 20";
const QUESTION: &str = "This task has cost $0.04 of your $0.05. Let it go up to $0.10?";

fn capped(id: &str) -> SendRequest {
    SendRequest {
        conversation_id: id.into(),
        text: LONG_TASK.into(),
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

/// Sends the long task under the cap and waits for its question.
async fn asked_near_the_cap(app: &App) -> (String, Conversation) {
    let id = app.new_conversation().await;
    app.core.send(capped(&id)).await.unwrap();
    let asking = app.until(&id, asked).await;
    (id, asking)
}

#[tokio::test]
async fn near_its_cap_a_task_asks_once_and_the_question_says_cost_cap_and_raise() {
    let app = app().await;
    let (id, asking) = asked_near_the_cap(&app).await;

    let question = asking.open_cap_question().unwrap();
    assert!(
        question.cost_usd >= CAP * 0.8 && question.cost_usd < CAP,
        "asked at four fifths of the cap, before it: {question:?}"
    );
    assert_eq!(question.cap_usd, CAP);
    assert_eq!(question.raise_to_usd, 0.10, "the cap doubled");
    assert!(asking.status.is_active(), "the task still runs");
    assert_eq!(
        *app.told.near_cap.lock().unwrap(),
        vec![QUESTION.to_owned()]
    );

    // Unanswered, the cap holds: the task stops at it, as without a question.
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Stopped, "{:#?}", done.items);
    assert!(cost(&done) >= CAP && cost(&done) < 0.10, "{}", cost(&done));
    assert_eq!(done.cap_usd, Some(CAP));
    assert!(
        notices(&done)
            .iter()
            .any(|n| n.starts_with("Stopped at your $0.05 cap.")),
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
    let (id, _) = asked_near_the_cap(&app).await;

    let raised = app.core.raise_cap(&id).unwrap();
    assert_eq!(raised.cap_usd, Some(0.10));
    assert!(!asked(&raised), "answered");
    assert!(
        notices(&raised).contains(&"You let this task go up to $0.10.".to_owned()),
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
        cost(&done) >= 0.10,
        "ran past the old cap to the new one: {}",
        cost(&done)
    );
    assert!(
        notices(&done)
            .iter()
            .any(|n| n.starts_with("Stopped at your $0.10 cap.")),
        "{:#?}",
        done.items
    );
    assert_eq!(
        app.told.near_cap.lock().unwrap().len(),
        1,
        "not asked again near the raised cap: once per task"
    );
}

#[tokio::test]
async fn keeping_the_cap_stops_the_task_at_it() {
    let app = app().await;
    let (id, _) = asked_near_the_cap(&app).await;

    let kept = app.core.keep_cap(&id).unwrap();
    assert_eq!(kept.cap_usd, Some(CAP));
    assert!(!asked(&kept));
    assert!(
        notices(&kept)
            .contains(&"You kept your $0.05 cap: Porthole stops this task there.".to_owned()),
        "{:#?}",
        kept.items
    );

    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Stopped, "{:#?}", done.items);
    assert!(cost(&done) >= CAP && cost(&done) < 0.10, "{}", cost(&done));
    assert!(notices(&done)
        .iter()
        .any(|n| n.starts_with("Stopped at your $0.05 cap.")));
}

#[tokio::test]
async fn the_next_task_asks_again_and_a_task_without_a_cap_never_asks() {
    let app = app().await;
    let (id, _) = asked_near_the_cap(&app).await;
    app.core.keep_cap(&id).unwrap();
    app.until(&id, ended).await;

    // Its own question, about its own cap (asked at ten calls, $0.10 of $0.12).
    let next = SendRequest {
        cap_usd: Some(0.12),
        ..capped(&id)
    };
    app.core.send(next).await.unwrap();
    let asking = app.until(&id, asked).await;
    assert_eq!(asking.open_cap_question().unwrap().cap_usd, 0.12);
    app.until(&id, ended).await;
    assert_eq!(app.told.near_cap.lock().unwrap().len(), 2);

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
    assert_eq!(app.told.near_cap.lock().unwrap().len(), 2);
}
