use std::time::Duration;

use porthole_client::approvals::Answer;
use porthole_client::messages::{MessageOptions, MessageRequest};
use porthole_client::turns::{ReasonCode, TurnStatus};
use porthole_client::{ErrorCode, TaskFollower, Transport};

use crate::support::*;
use crate::tasks::{finished, follow_to_end};

#[tokio::test]
async fn a_recorded_turn_has_steps_and_jpeg_screenshots() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut request = MessageRequest::new("Look up the weather in Lima", &laptop);
    request.options = Some(MessageOptions {
        record_trajectory: Some(true),
        inputs: None,
    });
    let follower = TaskFollower::start(&ada, &request, Transport::Poll)
        .await
        .unwrap();
    let updates = follow_to_end(&ada, follower, Answer::Yes).await;
    let (_, text, turn_id) = finished(&updates);
    let turn_id = turn_id.unwrap();

    let turn = ada
        .turns()
        .wait(&turn_id, Duration::from_secs(30))
        .await
        .unwrap();
    assert_eq!(turn.status, TurnStatus::Succeeded);
    assert!(turn.record_trajectory);
    assert_eq!(turn.output, Some(serde_json::Value::String(text)));
    assert!(turn.usage.is_some());

    let trajectory = ada.turns().trajectory(&turn_id).await.unwrap();
    assert!(!trajectory.steps.is_empty());
    assert!(trajectory.steps.last().unwrap().is_final);
    assert!(trajectory.trajectory.as_ref().unwrap().recorded);
    let shot = ada.turns().screenshot(&turn_id, 0).await.unwrap();
    assert_eq!(shot.content_type, "image/jpeg");
    assert_eq!(&shot.bytes[..2], &[0xFF, 0xD8], "a JPEG");
    let listed = trajectory.steps[0].screenshot.clone().unwrap();
    let same = ada.turns().screenshot_at(&listed).await.unwrap();
    assert_eq!(same.bytes, shot.bytes);

    let missing = ada.turns().screenshot(&turn_id, 9999).await.unwrap_err();
    assert_eq!(missing.code(), ErrorCode::TurnNotFound);
    let other = client(&sim, "fred")
        .turns()
        .get(&turn_id)
        .await
        .unwrap_err();
    assert_eq!(other.code(), ErrorCode::TurnNotFound);
    assert!(ada
        .turns()
        .screenshot_at("https://elsewhere/x.jpg")
        .await
        .is_err());
}

#[tokio::test]
async fn a_failing_task_ends_failed_with_a_reason() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let request = MessageRequest::new("Open the report and fail on purpose", &laptop);
    let follower = TaskFollower::start(&ada, &request, Transport::Stream)
        .await
        .unwrap();
    let updates = follow_to_end(&ada, follower, Answer::Yes).await;
    let last = updates.last().unwrap();
    let porthole_client::TaskUpdate::Finished {
        succeeded,
        failure,
        turn_id,
        ..
    } = last
    else {
        panic!("{last:?}");
    };
    assert!(!succeeded);
    assert!(failure.is_some());
    let turn = ada
        .turns()
        .wait(turn_id.as_deref().unwrap(), Duration::from_secs(30))
        .await
        .unwrap();
    assert_eq!(turn.status, TurnStatus::Failed);
    assert_eq!(turn.reason_code, Some(ReasonCode::AgentError));
    assert!(turn.output.is_none());
}

#[tokio::test]
async fn structured_output_that_does_not_match_is_output_invalid() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut request = MessageRequest::new("Read the price and give invalid output", &laptop);
    request.output_schema = Some(serde_json::json!({
        "type": "object",
        "properties": { "price": { "type": "number" } },
        "required": ["price"]
    }));
    let follower = TaskFollower::start(&ada, &request, Transport::Poll)
        .await
        .unwrap();
    let updates = follow_to_end(&ada, follower, Answer::Yes).await;
    let turn_id = finished(&updates).2.unwrap();
    let turn = ada
        .turns()
        .wait(&turn_id, Duration::from_secs(30))
        .await
        .unwrap();
    assert_eq!(turn.status, TurnStatus::Failed);
    assert_eq!(turn.reason_code, Some(ReasonCode::OutputInvalid));
    assert!(turn.output_errors.is_some_and(|e| !e.is_empty()));
    assert!(turn.raw_answer.is_some());
}

#[tokio::test]
async fn waiting_gives_up_with_a_typed_timeout() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let started = match ada
        .messages()
        .send(&MessageRequest::new(
            "Take your time and count to 3",
            &laptop,
        ))
        .await
        .unwrap()
    {
        porthole_client::messages::MessageOutcome::Started(s) => s,
        other => panic!("{other:?}"),
    };
    let turn_id = started.turn_id.expect("the 202 carries the turn");
    let err = ada
        .turns()
        .wait(&turn_id, Duration::ZERO)
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::TimedOut);
    ada.abort().session(&started.session_id).await.unwrap();
}
