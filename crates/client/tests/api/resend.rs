//! A message is never lost to a failed send, and never sent twice: with the simulator's
//! faults on the message route, a send without an answer is followed when the service took
//! it, sent again ("Sending again…") when it did not, and ends as "not sent" when the service
//! never takes it.

use futures_util::StreamExt;
use porthole_client::approvals::Answer;
use porthole_client::events::StatusKind;
use porthole_client::messages::MessageRequest;
use porthole_client::{Client, ErrorCode, TaskFollower, TaskUpdate, Transport};
use porthole_sim::faults::{Fault, FaultSpec, Faults};
use porthole_sim::RunningSim;

use crate::support::*;
use crate::tasks::{assert_messages_exactly_once, finished, follow_to_end};

/// A seed whose first draws of `fault` at `spec`'s rate are `pattern`: the simulator draws
/// for that fault once per message, and for no other fault when it is the only one set.
fn seed_for(spec: &str, fault: Fault, pattern: &[bool]) -> u64 {
    (0..10_000)
        .find(|&seed| {
            let faults = Faults::new(FaultSpec::parse(spec).unwrap(), seed);
            pattern.iter().all(|&want| faults.roll(fault) == want)
        })
        .expect("a seed with that pattern")
}

/// How many times the service took `text`: as a task's message or joined to one.
fn taken(sim: &RunningSim, text: &str) -> usize {
    let db = sim.state().db();
    db.turns
        .values()
        .flat_map(|t| std::iter::once(&t.message).chain(t.joined.iter()))
        .filter(|m| *m == text)
        .count()
}

/// The message sends the simulator received.
fn sends(sim: &RunningSim) -> usize {
    sim.state()
        .requests_seen()
        .iter()
        .filter(|r| r.method == "POST" && r.path == "/v1/agents/message")
        .count()
}

fn resendings(updates: &[TaskUpdate]) -> usize {
    updates
        .iter()
        .filter(|u| {
            matches!(u, TaskUpdate::Status { text, about: Some(StatusKind::Resending) }
                if text == "Sending again…")
        })
        .count()
}

/// Sends `text` and follows it to its end, knowing the machine's current session as the app
/// does, when it does (a send whose answer is lost names none: the task runs in that one).
async fn run(
    client: &Client,
    text: &str,
    machine_id: &str,
    transport: Transport,
    session: Option<&str>,
) -> Vec<TaskUpdate> {
    let request = MessageRequest::new(text, machine_id);
    let follower = TaskFollower::start_in(client, &request, transport, session)
        .await
        .expect("a send without an answer is not an error");
    follow_to_end(client, follower, Answer::Yes).await
}

/// The end of a task: it succeeded with the answer the simulator gave its turn.
fn ended_with_its_answer(sim: &RunningSim, updates: &[TaskUpdate]) -> String {
    let (succeeded, text, turn_id) = finished(updates);
    let turn_id = turn_id.expect("the turn is known");
    assert!(succeeded, "{updates:?}");
    assert_eq!(text, sim.state().db().turns[&turn_id].answer);
    assert_messages_exactly_once(updates);
    turn_id
}

#[tokio::test]
async fn an_answer_lost_after_the_service_took_the_message_is_followed_not_sent_again() {
    let sim = sim_with_faults("drop-message-answer=1", 3).await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    // The app knows the session from starting the conversation (every message lands in it).
    let session = ada
        .sessions()
        .new(&laptop)
        .await
        .unwrap()
        .session_id
        .unwrap();
    let mut turns = Vec::new();
    for (text, transport) in [
        ("Look up the weather in Lima", Transport::Stream),
        ("Look up the weather in Oslo", Transport::Poll),
    ] {
        let before = sends(&sim);
        let updates = run(&ada, text, &laptop, transport, Some(&session)).await;
        assert_eq!(sends(&sim) - before, 1, "sent once: {text}");
        assert_eq!(taken(&sim, text), 1, "one task: {text}");
        assert_eq!(resendings(&updates), 0, "{updates:?}");
        assert!(
            matches!(updates.first(), Some(TaskUpdate::Started { session_id, .. }) if *session_id == session),
            "followed in the conversation's session: {updates:?}"
        );
        turns.push(ended_with_its_answer(&sim, &updates));
    }
    assert_ne!(turns[0], turns[1], "each task followed to its own end");
}

#[tokio::test]
async fn an_answer_lost_with_no_session_known_ends_as_lost_updates_not_sent_again() {
    let sim = sim_with_faults("drop-message-answer=1", 3).await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let text = "Look up the weather in Lima";
    let mut follower =
        TaskFollower::start(&ada, &MessageRequest::new(text, &laptop), Transport::Stream)
            .await
            .expect("a send without an answer is not an error");
    let (updates, err) = until_the_error(&mut follower).await;
    assert_eq!(err.code(), ErrorCode::UpdatesLost, "{err:?}");
    assert_eq!(resendings(&updates), 0, "{updates:?}");
    assert_eq!(sends(&sim), 1, "sent once");
    assert_eq!(taken(&sim, text), 1, "one task, working on");
}

#[tokio::test]
async fn a_message_refused_with_a_500_is_sent_again_once() {
    let spec = "message-500=0.5";
    let sim = sim_with_faults(spec, seed_for(spec, Fault::Message500, &[true, false])).await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let text = "Look up the weather in Cairo";
    let updates = run(&ada, text, &laptop, Transport::Stream, None).await;
    assert_eq!(
        updates.first(),
        Some(&porthole_client::TaskUpdate::Status {
            text: "Sending again…".into(),
            about: Some(StatusKind::Resending),
        }),
        "the person hears it first"
    );
    assert_eq!(resendings(&updates), 1);
    assert_eq!(sends(&sim), 2);
    assert_eq!(taken(&sim, text), 1, "one task");
    ended_with_its_answer(&sim, &updates);
}

#[tokio::test]
async fn a_message_the_service_never_takes_ends_as_not_sent() {
    let sim = sim_with_faults("message-500=1", 5).await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let text = "Look up the weather in Hanoi";
    let mut follower =
        TaskFollower::start(&ada, &MessageRequest::new(text, &laptop), Transport::Stream)
            .await
            .expect("the first failure is not the end");
    let (updates, err) = until_the_error(&mut follower).await;
    assert_eq!(err.code(), ErrorCode::MessageNotSent, "{err:?}");
    assert!(!err.code().is_transient());
    assert!(follower.next().await.is_none(), "nothing after the end");
    assert_eq!(
        updates.len(),
        resendings(&updates),
        "only 'Sending again…': {updates:?}"
    );
    assert!(resendings(&updates) >= 1);
    assert_eq!(
        sends(&sim),
        resendings(&updates) + 1,
        "each send told but the first"
    );
    assert_eq!(taken(&sim, text), 0, "nothing started");
}

#[tokio::test]
async fn the_same_words_again_are_a_new_task_whether_the_first_send_was_taken_or_not() {
    // The second task's first send is refused: the earlier task's identical words in the
    // conversation must not pass for it.
    let spec = "message-500=0.5";
    let sim = sim_with_faults(
        spec,
        seed_for(spec, Fault::Message500, &[false, true, false]),
    )
    .await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let text = "Look up the weather in Perth";
    let first = run(&ada, text, &laptop, Transport::Stream, None).await;
    let again = run(&ada, text, &laptop, Transport::Stream, None).await;
    assert_eq!((resendings(&first), resendings(&again)), (0, 1));
    assert_eq!(taken(&sim, text), 2, "two tasks, one per ask");
    assert_ne!(
        ended_with_its_answer(&sim, &first),
        ended_with_its_answer(&sim, &again)
    );

    // The second task's answer is lost after it was taken: it is followed, not sent again.
    let spec = "drop-message-answer=0.5";
    let sim = sim_with_faults(
        spec,
        seed_for(spec, Fault::DropMessageAnswer, &[false, true]),
    )
    .await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let first = run(&ada, text, &laptop, Transport::Stream, None).await;
    // The session is known from the first task, as the app keeps it.
    let session = first.iter().find_map(|u| match u {
        TaskUpdate::Started { session_id, .. } => Some(session_id.clone()),
        _ => None,
    });
    let again = run(&ada, text, &laptop, Transport::Stream, session.as_deref()).await;
    assert_eq!(resendings(&again), 0);
    assert_eq!(sends(&sim), 2);
    assert_eq!(taken(&sim, text), 2);
    assert_ne!(
        ended_with_its_answer(&sim, &first),
        ended_with_its_answer(&sim, &again)
    );
}
