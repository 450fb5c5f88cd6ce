//! "Run next": held by Porthole while a task runs, started when it ends, kept across a restart,
//! removable.

use super::*;

fn request(id: &str, text: &str) -> SendRequest {
    SendRequest {
        conversation_id: id.into(),
        text: text.into(),
        ..SendRequest::default()
    }
}

fn users(c: &Conversation) -> Vec<&str> {
    c.items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::User { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_message_held_while_a_task_runs_starts_when_it_ends() {
    let app = app().await;
    let id = app.core.current(&app.machine).await.unwrap().id;
    app.send(&id, "Take your time and count to 3")
        .await
        .unwrap();
    app.until(&id, |c| c.status.is_active()).await;
    app.core
        .run_next(request(&id, "Find the weather in Oslo"))
        .await
        .unwrap();
    let held = app.core.store().get(&id).unwrap();
    assert_eq!(held.waiting.len(), 1);
    assert_eq!(
        users(&held),
        ["Take your time and count to 3"],
        "not sent yet"
    );

    // The first task ends; the held one runs as a task of its own and leaves the line.
    let done = app
        .until(&id, |c| {
            users(c).len() == 2 && ended(c) && answers(c).len() == 2
        })
        .await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(done.waiting.is_empty());
    assert!(answers(&done)[1].contains("Oslo"), "{:#?}", done.items);
    assert!(
        done.items
            .iter()
            .all(|i| !matches!(i, ThreadItem::User { joined: true, .. })),
        "it did not join the first task"
    );
}

#[tokio::test]
async fn a_held_message_can_be_removed_and_is_never_sent() {
    let app = app().await;
    let id = app.core.current(&app.machine).await.unwrap().id;
    app.send(&id, "Take your time and count to 3")
        .await
        .unwrap();
    app.until(&id, |c| c.status.is_active()).await;
    app.core
        .run_next(request(&id, "Find the weather in Oslo"))
        .await
        .unwrap();
    let waiting = app.core.store().get(&id).unwrap().waiting[0].id.clone();
    app.core.remove_waiting(&id, &waiting).unwrap();
    let done = app.until(&id, ended).await;
    assert!(done.waiting.is_empty());
    assert_eq!(users(&done), ["Take your time and count to 3"]);
    // A task sent after the end runs alone: the removed message did not start meanwhile.
    app.send(&id, "Find the weather in Porto").await.unwrap();
    let after = app.until(&id, |c| ended(c) && answers(c).len() == 2).await;
    assert_eq!(
        users(&after),
        ["Take your time and count to 3", "Find the weather in Porto"]
    );
}

#[tokio::test]
async fn a_held_message_is_kept_across_a_restart_and_starts_after_the_task() {
    let app = app().await;
    let id = app.core.current(&app.machine).await.unwrap().id;
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
    app.core
        .run_next(request(&id, "Find the weather in Oslo"))
        .await
        .unwrap();
    // The app quits mid-task with a message held.
    app.core.connection_left();

    let told = Arc::new(Told::default());
    // The app ends: what it changed is on disk (`lib.rs` flushes at exit).
    app.core.store().flush();
    let restarted = core_in(app.dir.path(), &app.connection, &told);
    assert_eq!(restarted.store().get(&id).unwrap().waiting.len(), 1, "kept");
    restarted.resume(&client_for(&app.sim, "ada"), SCOPE);
    let done = until(&restarted, &told, &id, |c| {
        users(c).len() == 2 && ended(c) && answers(c).len() == 2
    })
    .await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(done.waiting.is_empty());
    assert_eq!(
        users(&done),
        ["Take your time and count to 3", "Find the weather in Oslo"]
    );
}

#[tokio::test]
async fn run_next_with_nothing_running_sends_at_once_and_never_into_a_finished_conversation() {
    let app = app().await;
    let id = app.core.current(&app.machine).await.unwrap().id;
    app.core
        .run_next(request(&id, "Find the weather in Lisbon"))
        .await
        .unwrap();
    let done = app.until(&id, ended).await;
    assert!(done.waiting.is_empty());
    assert_eq!(users(&done), ["Find the weather in Lisbon"]);

    app.core.start_new(&app.machine).await.unwrap();
    let refused = app.core.run_next(request(&id, "And in Porto?")).await;
    assert!(matches!(
        refused,
        Err(crate::error::AppError::FinishedConversation)
    ));
}

#[tokio::test]
async fn a_held_message_runs_in_the_conversation_begun_meanwhile() {
    let app = app().await;
    let first = app.core.current(&app.machine).await.unwrap().id;
    app.send(&first, "Take your time and count to 3")
        .await
        .unwrap();
    app.until(&first, |c| c.status.is_active()).await;
    app.core
        .run_next(request(&first, "Find the weather in Oslo"))
        .await
        .unwrap();
    // The person begins a new conversation while the task runs; the held message goes with
    // what is current, never into the finished one.
    let second = app.core.start_new(&app.machine).await.unwrap().id;
    assert_ne!(second, first);
    let finished = app.until(&first, ended).await;
    assert_eq!(users(&finished), ["Take your time and count to 3"]);
    let done = app
        .until(&second, |c| ended(c) && answers(c).len() == 1)
        .await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(users(&done), ["Find the weather in Oslo"]);
    assert!(app.core.store().get(&first).unwrap().waiting.is_empty());
}
