//! The task flows without a window: a [`Conversations`] over a temporary data folder, talking
//! to the simulator over real sockets, telling a collecting [`Notify`] what the window would
//! be told. Waits are for a state of the saved conversation (woken by each change), never
//! for a length of time; the generous limit only turns a hang into a failure.

mod test_app;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use porthole_client::approvals::{Answer, ApprovalKind};
use porthole_client::messages::MessageRequest;
use porthole_client::{Client, ClientConfig, Credential, TaskFollower, Transport};
use porthole_sim::{Config, RunningSim, Sim};

use super::model::Speaker;
use super::*;
use crate::connection::ConnectionMode;
use crate::persist::ConversationStore;
use test_app::*;

#[tokio::test]
async fn a_message_is_followed_to_its_answer_saved_and_told() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Find the weather in Lisbon").await.unwrap();
    let done = app.until(&id, ended).await;

    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(done.title, "Find the weather in Lisbon");
    assert_eq!(answers(&done).len(), 1, "one answer: {:#?}", done.items);
    let turn = done.follower.as_ref().and_then(|f| f.turn_id.clone());
    assert!(turn.is_some(), "the default placements give a turn id");
    assert!(
        !app.core.usage().tasks(&done).is_empty(),
        "the task's usage is kept"
    );
    // Saved, not only shown: a store opened afresh reads the same conversation.
    app.core.store().flush();
    let reread = ConversationStore::open_in(app.dir.path()).unwrap();
    assert_eq!(reread.get(&id).unwrap(), done);
    let told = app.told.changed.lock().unwrap().clone();
    assert!(told.iter().all(|(c, _)| c == &id));
    assert!(
        told.iter().filter(|(_, listed)| *listed).count() >= 3,
        "created, running, done"
    );
    assert!(*app.told.machines_changed.lock().unwrap() >= 1);
}

#[tokio::test]
async fn a_second_message_joins_the_running_task() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Take your time and count to 3")
        .await
        .unwrap();
    app.until(&id, |c| c.session_id.is_some() && c.status.is_active())
        .await;
    app.send(&id, "Also note the time").await.unwrap();
    let done = app.until(&id, ended).await;

    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    let users: Vec<(&str, bool)> = done
        .items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::User { text, joined, .. } => Some((text.as_str(), *joined)),
            _ => None,
        })
        .collect();
    assert_eq!(
        users,
        [
            ("Take your time and count to 3", false),
            ("Also note the time", true)
        ]
    );
    assert_eq!(
        answers(&done).len(),
        1,
        "one task, one answer: {:#?}",
        done.items
    );
    assert_eq!(done.title, "Take your time and count to 3");
}

#[tokio::test]
async fn stop_ends_the_task_on_the_service_and_here() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Take your time and count to 20")
        .await
        .unwrap();
    let running = app
        .until(&id, |c| c.session_id.is_some() && c.status.is_active())
        .await;
    app.core.stop(&id).await.unwrap();

    let stopped = app.core.store().get(&id).unwrap();
    assert_eq!(stopped.status, TaskStatus::Stopped);
    assert!(!app.core.is_following(&id));
    assert!(notices(&stopped).contains(&"You stopped the task.".to_owned()));
    assert!(answers(&stopped).is_empty());
    // The service agrees: the turn ends, and not as a success.
    let turn_id = running.follower.and_then(|f| f.turn_id).expect("a turn id");
    app.assert_turn_stopped_on_service(&turn_id).await;
}

#[tokio::test]
async fn a_restart_resumes_following_where_the_last_run_stopped() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Take your time and count to 3")
        .await
        .unwrap();
    app.until(&id, |c| {
        // Mid-task: a step heard, its session known (the stream's, read from the turn's
        // start again on resume; the poll's cursor, when the follow went over to it).
        c.status.is_active()
            && c.follower.as_ref().is_some_and(|f| f.session_id.is_some())
            && c.items
                .iter()
                .any(|i| matches!(i, ThreadItem::Progress { .. }))
    })
    .await;
    // The app quits mid-task: its followers end with it, the conversation stays saved.
    app.core.connection_left();
    assert!(!app.core.is_following(&id));

    let told = Arc::new(Told::default());
    // The app ends: what it changed is on disk (`lib.rs` flushes at exit).
    app.core.store().flush();
    let restarted = core_in(app.dir.path(), &app.connection, &told);
    let saved = restarted.store().get(&id).unwrap();
    assert!(saved.status.is_active(), "saved as running");
    restarted.resume(&client_for(&app.sim, "ada"), SCOPE);
    let done = until(&restarted, &told, &id, ended).await;

    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(answers(&done).len(), 1, "nothing twice: {:#?}", done.items);
    let users = done
        .items
        .iter()
        .filter(|i| matches!(i, ThreadItem::User { .. }))
        .count();
    assert_eq!(users, 1);
    assert!(from_elsewhere(&done).is_empty(), "{:#?}", done.items);
}

#[tokio::test]
async fn what_another_client_said_meanwhile_appears_once_marked_as_from_elsewhere() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Find the weather in Lisbon").await.unwrap();
    app.until(&id, ended).await;

    // Another copy of Porthole, same account and computer, sends a task of its own.
    let other = client_for(&app.sim, "ada");
    let mut follower = TaskFollower::start(
        &other,
        &MessageRequest::new("What time is it in Tokyo?", &app.machine),
        Transport::Stream,
    )
    .await
    .unwrap();
    let mut their_answer = String::new();
    while let Some(update) = futures::StreamExt::next(&mut follower).await {
        if let porthole_client::TaskUpdate::Finished { text, .. } = update.unwrap() {
            their_answer = text;
        }
    }
    assert!(!their_answer.is_empty());

    // At the end of this copy's next task, the context it reads brings the other's lines.
    app.send(&id, "Find the weather in Porto").await.unwrap();
    let done = app.until(&id, |c| ended(c) && answers(c).len() == 2).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    let elsewhere = from_elsewhere(&done);
    assert_eq!(
        elsewhere,
        [
            (Speaker::Person, "What time is it in Tokyo?"),
            (Speaker::Agent, their_answer.trim())
        ],
        "{:#?}",
        done.items
    );

    // A catch-up made again (at focus, at start) finds nothing new.
    assert_eq!(app.core.catch_up(&id).await.unwrap(), 0);
    let again = app.core.store().get(&id).unwrap();
    assert_eq!(again.items, done.items);
}

#[tokio::test]
async fn a_catch_up_between_tasks_shows_what_was_said_elsewhere() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Find the weather in Lisbon").await.unwrap();
    app.until(&id, ended).await;
    let other = client_for(&app.sim, "ada");
    let mut follower = TaskFollower::start(
        &other,
        &MessageRequest::new("Find the weather in Oslo", &app.machine),
        Transport::Stream,
    )
    .await
    .unwrap();
    while futures::StreamExt::next(&mut follower).await.is_some() {}

    assert_eq!(app.core.catch_up(&id).await.unwrap(), 2);
    assert_eq!(app.core.catch_up(&id).await.unwrap(), 0, "nothing twice");
    let caught = app.core.store().get(&id).unwrap();
    assert_eq!(
        from_elsewhere(&caught).first(),
        Some(&(Speaker::Person, "Find the weather in Oslo"))
    );
}

#[tokio::test]
async fn switching_account_leaves_the_old_tasks_and_switching_back_resumes_them() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Take your time and count to 3")
        .await
        .unwrap();
    app.until(&id, |c| c.session_id.is_some() && c.status.is_active())
        .await;

    // To fred: ada's task is no longer followed, and fred sees none of her conversations.
    app.core.connection_left();
    app.connection.begin_switch(ConnectionMode::Account);
    let fred = client_for(&app.sim, "fred");
    app.connection.activate(fred.clone(), "fred".into());
    app.core.resume(&fred, "fred");
    assert!(!app.core.is_following(&id));
    assert!(app.core.list(&app.machine).await.unwrap().is_empty());

    // Back to ada: her task is followed again to its end.
    app.core.connection_left();
    app.connection.begin_switch(ConnectionMode::Demo);
    let ada = client_for(&app.sim, "ada");
    app.connection.activate(ada.clone(), SCOPE.into());
    app.core.resume(&ada, SCOPE);
    assert!(app.core.is_following(&id));
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(answers(&done).len(), 1);
    assert_eq!(app.core.list(&app.machine).await.unwrap().len(), 1);
}

#[tokio::test]
async fn a_task_ends_wherever_the_service_puts_its_turn_id_or_without_one() {
    for (placement, has_turn) in [
        ("start", Some(true)),
        ("session", Some(true)),
        ("poll", Some(true)),
        ("none", Some(false)),
        // Only the 202 body of a `wait: false` message carries it there, which a streamed
        // task never reads: whether the poll's end finds it is the follower's business.
        ("message", None),
    ] {
        let app = app_with(placement).await;
        let id = app.new_conversation().await;
        app.send(&id, "Find the weather in Lisbon").await.unwrap();
        let done = app.until(&id, ended).await;
        assert_eq!(
            done.status,
            TaskStatus::Succeeded,
            "{placement}: {:#?}",
            done.items
        );
        assert_eq!(answers(&done).len(), 1, "{placement}: {:#?}", done.items);
        let turn = done.follower.as_ref().and_then(|f| f.turn_id.clone());
        if let Some(has_turn) = has_turn {
            assert_eq!(turn.is_some(), has_turn, "{placement}");
        }
    }
}

#[tokio::test]
async fn a_schema_that_does_not_parse_sends_nothing() {
    let app = app().await;
    let id = app.new_conversation().await;
    let refused = app
        .core
        .send(SendRequest {
            conversation_id: id.clone(),
            text: "Find the weather".into(),
            options: SendOptions {
                output_schema: "{ not json".into(),
                ..SendOptions::default()
            },
            ..SendRequest::default()
        })
        .await;
    assert!(matches!(
        refused,
        Err(crate::error::AppError::InvalidSchema)
    ));
    let untouched = app.core.store().get(&id).unwrap();
    assert!(untouched.items.is_empty() && untouched.status == TaskStatus::Idle);
}

#[tokio::test]
async fn two_tasks_keep_their_own_usage_and_add_up_to_the_session() {
    let app = app().await;
    let id = app.new_conversation().await;
    for task in [
        "Look up the price of coffee",
        "Write an expensive report on tea",
    ] {
        app.send(&id, task).await.unwrap();
        app.until(&id, ended).await;
    }

    let view = app.core.usage_view(&id).await.unwrap();
    let tasks = &view.tasks;
    assert_eq!(tasks.len(), 2, "one row per task: {tasks:?}");
    assert_eq!(tasks[0].task, "Look up the price of coffee");
    assert_eq!(tasks[1].task, "Write an expensive report on tea");
    assert_ne!(tasks[0].turn_id, tasks[1].turn_id);
    assert!(tasks.iter().all(|t| !t.running), "both tasks ended");
    let (first, second) = (&tasks[0].usage.total, &tasks[1].usage.total);
    assert!(first.input_tokens > 0 && first.cost_usd > 0.0);
    assert!(
        second.cost_usd > first.cost_usd,
        "the expensive task costs more: {second:?} vs {first:?}"
    );
    assert!(!tasks[1].usage.by_model.is_empty(), "figures by model kept");

    // The service's session total is the two tasks together.
    assert!(view.session_error.is_none());
    let session = view.session.expect("session usage").total;
    assert_eq!(
        session.input_tokens,
        first.input_tokens + second.input_tokens
    );
    assert_eq!(
        session.output_tokens,
        first.output_tokens + second.output_tokens
    );
    assert_eq!(session.model_calls, first.model_calls + second.model_calls);
    assert!((session.cost_usd - (first.cost_usd + second.cost_usd)).abs() < 1e-9);
}

mod current;

mod run_next;

mod delivery;

mod network;

mod lost_updates;

mod cards;

mod cap;

mod cap_question;

mod deleting;
mod search;

mod stopping;

mod local_time;

mod makers_shapes;

mod moving;

mod scope;

mod turn_reason;

mod stuck_flow;

/// A check's result kept with its conversation, read back after a restart.
mod kept_check;
mod loading;
