//! One current conversation per computer: a new conversation only when the person asks, a
//! finished one readable but never sent into, and the current one caught up from the service.

use super::*;
use crate::error::AppError;

/// Another copy of Porthole on ada's account sends `text` to `machine` and follows it to its
/// end; returns the answer it got.
async fn sent_by_another_copy(sim: &RunningSim, machine: &str, text: &str) -> String {
    let other = client_for(sim, "ada");
    let mut follower = TaskFollower::start(
        &other,
        &MessageRequest::new(text, machine),
        Transport::Stream,
    )
    .await
    .unwrap();
    let mut answer = String::new();
    while let Some(update) = futures::StreamExt::next(&mut follower).await {
        if let porthole_client::TaskUpdate::Finished { text, .. } = update.unwrap() {
            answer = text;
        }
    }
    answer
}

#[tokio::test]
async fn a_finished_conversation_stays_readable_and_refuses_a_message() {
    let app = app().await;
    let first = app.core.current(&app.machine).await.unwrap().id;
    assert_eq!(
        app.core.current(&app.machine).await.unwrap().id,
        first,
        "the same current conversation until the person asks for a new one"
    );
    app.send(&first, "Find the weather in Lisbon")
        .await
        .unwrap();
    let finished = app.until(&first, ended).await;

    let second = app.core.start_new(&app.machine).await.unwrap().id;
    assert_ne!(second, first);
    assert!(!app.core.is_current(&first));
    let rows = app.core.list(&app.machine).await.unwrap();
    let order: Vec<(&str, bool)> = rows.iter().map(|r| (r.id.as_str(), r.current)).collect();
    assert_eq!(order, [(second.as_str(), true), (first.as_str(), false)]);

    // Typed in the finished one: refused before anything is sent or recorded.
    let refused = app.send(&first, "And in Porto?").await;
    assert!(
        matches!(refused, Err(AppError::FinishedConversation)),
        "{refused:?}"
    );
    assert_eq!(app.core.store().get(&first).unwrap(), finished);
    // Nor does a catch-up pull the current session's lines into it.
    assert_eq!(app.core.catch_up(&first).await.unwrap(), 0);

    // Continued in the current one: the service began a fresh session for it, so nothing
    // of the finished conversation comes back as said elsewhere.
    app.send(&second, "And in Porto?").await.unwrap();
    let current = app.until(&second, ended).await;
    assert_eq!(
        current.status,
        TaskStatus::Succeeded,
        "{:#?}",
        current.items
    );
    assert_eq!(answers(&current).len(), 1, "{:#?}", current.items);
    assert!(from_elsewhere(&current).is_empty(), "{:#?}", current.items);
    assert_eq!(app.core.store().get(&first).unwrap(), finished);
}

#[tokio::test]
async fn a_new_conversation_with_nothing_in_it_is_kept_rather_than_piled_up() {
    let app = app().await;
    let first = app.core.current(&app.machine).await.unwrap().id;
    let again = app.core.start_new(&app.machine).await.unwrap().id;
    assert_eq!(again, first);
    assert_eq!(app.core.list(&app.machine).await.unwrap().len(), 1);
}

#[tokio::test]
async fn after_a_restart_the_current_conversation_shows_a_task_sent_meanwhile_once() {
    let app = app().await;
    let id = app.core.current(&app.machine).await.unwrap().id;
    app.send(&id, "Find the weather in Lisbon").await.unwrap();
    app.until(&id, ended).await;
    // The app quits; meanwhile a second copy of Porthole on the same account sends a task.
    app.core.connection_left();
    app.core.store().flush();
    drop(app.core);
    let their_answer =
        sent_by_another_copy(&app.sim, &app.machine, "Find the weather in Oslo").await;
    assert!(!their_answer.is_empty());

    let told = Arc::new(Told::default());
    let restarted = core_in(app.dir.path(), &app.connection, &told);
    assert_eq!(restarted.current(&app.machine).await.unwrap().id, id);
    assert_eq!(restarted.catch_up(&id).await.unwrap(), 2);
    let caught = restarted.store().get(&id).unwrap();
    assert_eq!(
        from_elsewhere(&caught),
        [
            (Speaker::Person, "Find the weather in Oslo"),
            (Speaker::Agent, their_answer.trim())
        ],
        "{:#?}",
        caught.items
    );
    // At focus, and at the next start, nothing is shown twice.
    assert_eq!(restarted.catch_up(&id).await.unwrap(), 0);
    restarted.store().flush();
    let again = core_in(app.dir.path(), &app.connection, &Arc::new(Told::default()));
    assert_eq!(again.catch_up(&id).await.unwrap(), 0);
    assert_eq!(again.store().get(&id).unwrap().items, caught.items);
}
