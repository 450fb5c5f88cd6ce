//! Conversations as the real service keeps them: one current session per machine on the
//! `api` channel, rotated by `new`, read back by `context`, and caught up on at the end of
//! each task.

use futures_util::StreamExt;
use porthole_client::approvals::Answer;
use porthole_client::messages::{MessageOutcome, MessageRequest};
use porthole_client::sessions::ContextRole;
use porthole_client::{ErrorCode, TaskFollower, TaskUpdate, Transport};

use crate::support::*;
use crate::tasks::{finished, follow_to_end};

fn started_session(updates: &[TaskUpdate]) -> (String, Option<String>) {
    updates
        .iter()
        .find_map(|u| match u {
            TaskUpdate::Started {
                session_id, title, ..
            } => Some((session_id.clone(), title.clone())),
            _ => None,
        })
        .expect("the task started")
}

#[tokio::test]
async fn messages_land_in_the_current_session_until_a_new_one_is_asked_for() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let ask = |text: &str| MessageRequest::new(text, &laptop);

    let first = TaskFollower::start(
        &ada,
        &ask("Look up the weather in Paris"),
        Transport::Stream,
    )
    .await
    .unwrap();
    let first = follow_to_end(&ada, first, Answer::Yes).await;
    let (session, title) = started_session(&first);
    assert!(
        title.is_some_and(|t| !t.is_empty()),
        "data-session names the conversation"
    );
    let second = TaskFollower::start(&ada, &ask("Open the calculator"), Transport::Poll)
        .await
        .unwrap();
    let second = follow_to_end(&ada, second, Answer::Yes).await;
    assert_eq!(started_session(&second).0, session, "the same conversation");

    let history = ada.sessions().context(&laptop, 20).await.unwrap().messages;
    let lines: Vec<_> = history
        .iter()
        .map(|m| (m.role.clone(), m.content.as_str()))
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(
        lines[0],
        (ContextRole::User, "Look up the weather in Paris"),
        "oldest first"
    );
    assert_eq!(lines[2], (ContextRole::User, "Open the calculator"));
    assert_eq!(lines[3].0, ContextRole::Assistant);
    assert_eq!(lines[3].1, finished(&second).1);
    let last_two = ada.sessions().context(&laptop, 2).await.unwrap().messages;
    assert_eq!(last_two, history[2..]);

    let fresh = ada.sessions().new(&laptop).await.unwrap();
    assert_ne!(fresh.session_id.as_deref(), Some(session.as_str()));
    assert!(ada
        .sessions()
        .context(&laptop, 20)
        .await
        .unwrap()
        .messages
        .is_empty());
    let next = match ada.messages().send(&ask("Open the notes")).await.unwrap() {
        MessageOutcome::Started(started) => started,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        Some(next.session_id),
        fresh.session_id,
        "lands in the new one"
    );

    let missing = ada.sessions().context("m_nope", 5).await.unwrap_err();
    assert_eq!(missing.code(), ErrorCode::MachineNotFound);
}

#[tokio::test]
async fn a_task_ends_with_the_conversations_history_then_its_end() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let request = MessageRequest::new("Look up the weather in Bern", &laptop);
    let follower = TaskFollower::start(&ada, &request, Transport::Stream)
        .await
        .unwrap();
    let updates = follow_to_end(&ada, follower, Answer::Yes).await;
    let history = match &updates[updates.len() - 2] {
        TaskUpdate::History { messages } => messages.clone(),
        other => panic!("expected the history before the end, got {other:?}"),
    };
    assert_eq!(history[0].content, "Look up the weather in Bern");
    let answer = &history.last().unwrap().content;
    assert_eq!(answer, &finished(&updates).1);
}

#[tokio::test]
async fn a_steering_message_joins_the_task_and_its_stream_is_never_followed() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let request = MessageRequest::new("Take your time and read the news", &laptop);
    let mut follower = TaskFollower::start(&ada, &request, Transport::Stream)
        .await
        .unwrap();
    let mut updates = Vec::new();
    while let Some(update) = follower.next().await {
        let update = update.unwrap();
        let started = matches!(update, TaskUpdate::Started { .. });
        updates.push(update);
        if started {
            break;
        }
    }
    // Sent as the app sends a message into a running task: no stream of its own to read.
    let steer = MessageRequest::new("Also look at the weather", &laptop);
    let joined = match ada.messages().send(&steer).await.unwrap() {
        MessageOutcome::Started(joined) => joined,
        other => panic!("{other:?}"),
    };
    assert!(joined.queued);
    updates.extend(follow_to_end(&ada, follower, Answer::Yes).await);
    let starts = updates
        .iter()
        .filter(|u| matches!(u, TaskUpdate::Started { .. }))
        .count();
    assert_eq!(starts, 1, "one task, followed once");
    crate::tasks::assert_messages_exactly_once(&updates);
    let history = match &updates[updates.len() - 2] {
        TaskUpdate::History { messages } => messages.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        history
            .iter()
            .any(|m| m.content == "Also look at the weather"),
        "the joined message is part of the conversation: {history:?}"
    );
}
