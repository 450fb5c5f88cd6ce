//! Where the service puts a message's `turnId` is not published: the follower must find it
//! wherever it is (`--turn-id-in`), and finish the task without it when it is nowhere.

use porthole_client::approvals::Answer;
use porthole_client::messages::MessageRequest;
use porthole_client::{TaskFollower, TaskUpdate, Transport};

use crate::support::*;
use crate::tasks::{assert_messages_exactly_once, finished, follow_to_end};

/// Follows one task and checks it ends well; returns the turn the follower found, after
/// checking it is the task's real turn.
async fn turn_found(places: &str, transport: Transport) -> Option<String> {
    let sim = sim_with_turn_id_in(places).await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let request = MessageRequest::new("Look up the weather in Lima", &laptop);
    let follower = TaskFollower::start(&ada, &request, transport)
        .await
        .unwrap();
    let updates = follow_to_end(&ada, follower, Answer::Yes).await;
    let (succeeded, _, turn_id) = finished(&updates);
    assert!(succeeded, "{places} {transport:?}: {updates:?}");
    assert_messages_exactly_once(&updates);
    let (session_id, started_turn) = updates
        .iter()
        .find_map(|u| match u {
            TaskUpdate::Started {
                session_id,
                turn_id,
                ..
            } => Some((session_id.clone(), turn_id.clone())),
            _ => None,
        })
        .expect("the task started");
    if let (Some(started), Some(ended)) = (&started_turn, &turn_id) {
        assert_eq!(started, ended);
    }
    if let Some(turn_id) = &turn_id {
        let turn = ada.turns().get(turn_id).await.unwrap();
        assert_eq!(turn.session_id.as_deref(), Some(session_id.as_str()));
    }
    turn_id
}

#[tokio::test]
async fn the_202_body_gives_the_turn_to_the_poll_path_only() {
    assert!(turn_found("message", Transport::Poll).await.is_some());
    assert!(turn_found("message", Transport::Stream).await.is_none());
}

#[tokio::test]
async fn the_start_frame_gives_the_turn_to_the_stream_path_only() {
    assert!(turn_found("start", Transport::Stream).await.is_some());
    assert!(turn_found("start", Transport::Poll).await.is_none());
}

#[tokio::test]
async fn data_session_gives_the_turn_to_the_stream_path_only() {
    assert!(turn_found("session", Transport::Stream).await.is_some());
    assert!(turn_found("session", Transport::Poll).await.is_none());
}

#[tokio::test]
async fn the_poll_gives_the_turn_to_both_paths() {
    assert!(turn_found("poll", Transport::Poll).await.is_some());
    // The stream path reads the poll once at the end.
    assert!(turn_found("poll", Transport::Stream).await.is_some());
}

#[tokio::test]
async fn without_a_turn_anywhere_a_task_still_ends_with_its_answer() {
    assert_eq!(turn_found("none", Transport::Stream).await, None);
    assert_eq!(turn_found("none", Transport::Poll).await, None);
}
