//! A stream cut before it names its session, with no turn id anywhere: the follower cannot
//! ask the service where the task runs (the sessions list's shape is not published, so it is
//! never read). The session the app last learned for the machine's conversation is where the
//! task runs, and the follow goes on there; without one, the follow ends saying the updates
//! were lost, never that the task failed or finished, and the conversation's history shows
//! the agent's answer once it is read again.

use std::time::Duration;

use futures_util::StreamExt;
use porthole_client::approvals::Answer;
use porthole_client::messages::MessageRequest;
use porthole_client::sessions::ContextRole;
use porthole_client::{Client, Error, ErrorCode, TaskFollower, TaskUpdate, Transport};
use porthole_sim::{Config, FaultSpec, RunningSim, Sim, TurnIdIn};

use crate::support::*;
use crate::tasks::{assert_messages_exactly_once, finished, follow_to_end};

/// Every stream is cut after each frame, and no turn id is given anywhere: the first
/// connection of a task carries only `start`, which names nothing.
async fn cutting_sim() -> RunningSim {
    Sim::start(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("drop-stream=1").unwrap(),
        seed: 5,
        turn_id_in: TurnIdIn::none(),
        ..Config::default()
    })
    .await
    .unwrap()
}

fn started_in(updates: &[TaskUpdate]) -> String {
    updates
        .iter()
        .find_map(|u| match u {
            TaskUpdate::Started { session_id, .. } => Some(session_id.clone()),
            _ => None,
        })
        .expect("the task started")
}

/// The simulator's answer to the one task whose message was `text`.
fn answer_of(sim: &RunningSim, text: &str) -> String {
    let db = sim.state().db();
    let turns: Vec<_> = db.turns.values().filter(|t| t.message == text).collect();
    assert_eq!(turns.len(), 1, "{text:?} started one task");
    turns[0].answer.clone()
}

fn never_listed_sessions(sim: &RunningSim) {
    let listed: Vec<_> = sim
        .state()
        .requests_seen()
        .into_iter()
        .filter(|r| r.path.starts_with("/v1/agents/sessions"))
        .collect();
    assert!(listed.is_empty(), "the sessions list was read: {listed:?}");
}

/// Follows `text` on a cutting simulator, knowing `session`; checks it was followed in that
/// session to its real end, its answer shown once.
async fn followed_in(sim: &RunningSim, ada: &Client, laptop: &str, text: &str, session: &str) {
    let request = MessageRequest::new(text, laptop);
    let follower = TaskFollower::start_in(ada, &request, Transport::Stream, Some(session))
        .await
        .unwrap();
    let updates = follow_to_end(ada, follower, Answer::Yes).await;
    let reconnecting = updates
        .iter()
        .position(|u| matches!(u, TaskUpdate::Reconnecting { .. }))
        .expect("the cut is told as reconnecting");
    let end = updates
        .iter()
        .position(|u| matches!(u, TaskUpdate::Finished { .. }))
        .unwrap();
    assert!(reconnecting < end, "a cut is not the end");
    assert_eq!(started_in(&updates), session, "{text}");
    let (succeeded, answer, turn_id) = finished(&updates);
    assert!(succeeded && turn_id.is_none(), "{updates:?}");
    assert_eq!(answer, answer_of(sim, text), "its own answer: {text}");
    assert_messages_exactly_once(&updates);
}

#[tokio::test]
async fn a_stream_cut_before_it_names_anything_is_followed_in_the_session_the_app_knew() {
    let sim = cutting_sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    // Known from a new conversation's answer.
    let fresh = ada
        .sessions()
        .new(&laptop)
        .await
        .unwrap()
        .session_id
        .unwrap();
    followed_in(&sim, &ada, &laptop, "Look up the weather in Accra", &fresh).await;
    never_listed_sessions(&sim);

    // Known from an earlier task: the poll's start names its session.
    let sim = cutting_sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let earlier = TaskFollower::start(
        &ada,
        &MessageRequest::new("Look up the weather in Paris", &laptop),
        Transport::Poll,
    )
    .await
    .unwrap();
    let earlier = started_in(&follow_to_end(&ada, earlier, Answer::Yes).await);
    followed_in(
        &sim,
        &ada,
        &laptop,
        "Look up the weather in Dakar",
        &earlier,
    )
    .await;
    never_listed_sessions(&sim);
}

#[tokio::test]
async fn without_a_known_session_the_follow_ends_as_lost_and_the_history_shows_the_answer() {
    let sim = cutting_sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let text = "Look up the weather in Accra";
    let mut follower =
        TaskFollower::start(&ada, &MessageRequest::new(text, &laptop), Transport::Stream)
            .await
            .expect("the service took it");
    let (updates, err) = until_the_error(&mut follower).await;
    assert_eq!(err.code(), ErrorCode::UpdatesLost, "{err:?}");
    assert!(!err.code().is_transient());
    assert!(
        matches!(&err, Error::UpdatesLost { cut } if cut.code() == ErrorCode::Network),
        "it holds the cut: {err:?}"
    );
    assert!(follower.next().await.is_none(), "nothing after the end");
    assert!(
        !updates
            .iter()
            .any(|u| matches!(u, TaskUpdate::Finished { .. } | TaskUpdate::Started { .. })),
        "neither started where nor ended: {updates:?}"
    );
    assert!(!follower.state().finished);
    never_listed_sessions(&sim);

    // The agent worked on: once its task ends, the conversation holds the answer.
    let turn_id = {
        let db = sim.state().db();
        let turn = db.turns.values().find(|t| t.message == text).unwrap();
        turn.id.clone()
    };
    let turn = ada
        .turns()
        .wait(&turn_id, Duration::from_secs(60))
        .await
        .unwrap();
    assert!(turn.status.is_final());
    let history = ada.sessions().context(&laptop, 20).await.unwrap().messages;
    let lines: Vec<_> = history
        .iter()
        .map(|m| (m.role.clone(), m.content.as_str()))
        .collect();
    let answer = answer_of(&sim, text);
    assert_eq!(
        lines,
        [
            (ContextRole::User, text),
            (ContextRole::Assistant, answer.as_str())
        ],
        "the message once, then the agent's answer"
    );
}
