//! The person's local time goes to the agent with each task, never into their words here.

use super::*;

#[tokio::test]
async fn the_agent_gets_the_local_time_and_the_thread_keeps_the_persons_words() {
    let app = app().await;
    let id = app.core.current(&app.machine).await.unwrap().id;
    app.send(&id, "Find the weather in Oslo").await.unwrap();
    let done = app.until(&id, |c| ended(c) && !answers(c).is_empty()).await;

    // The service holds the words and the time line after them: what the agent read.
    let history = client_for(&app.sim, "ada")
        .sessions()
        .context(&app.machine, 20)
        .await
        .unwrap()
        .messages;
    let sent = history
        .iter()
        .find(|m| m.content.starts_with("Find the weather in Oslo"))
        .expect("the message is in the service's history");
    assert!(
        sent.content
            .contains("\n\n[Sent at the person's local time: "),
        "{}",
        sent.content
    );

    // The thread, and so the stored copy and search, hold the words alone.
    assert!(done
        .items
        .iter()
        .any(|i| matches!(i, ThreadItem::User { text, .. } if text == "Find the weather in Oslo")));
    assert!(done
        .items
        .iter()
        .all(|i| !matches!(i, ThreadItem::User { text, .. } if text.contains("[Sent at"))));
    // Reading the history back finds the person's own message, not one said elsewhere.
    assert_eq!(app.core.catch_up(&id).await.unwrap(), 0);
    assert!(from_elsewhere(&app.core.store().get(&id).unwrap()).is_empty());
}
