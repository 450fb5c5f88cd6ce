//! Cards as inbox items: one per waiting card, headed and read by the task that asks.

use super::*;

#[tokio::test]
async fn a_card_on_each_of_two_computers_is_two_items_and_answering_one_takes_it_away() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    let research = app.machine(&rows, "Research box");
    let on_laptop = app.send(&laptop, "Delete the old screenshots").await;
    let on_research = app.send(&research, "Send the report by email").await;

    let both = app.until(|v| of_kind(v, InboxKind::Card).len() == 2).await;
    let cards = of_kind(&both, InboxKind::Card);
    let laptop_card = cards
        .iter()
        .find(|i| i.conversation_id.as_deref() == Some(on_laptop.as_str()))
        .expect("the laptop's card");
    assert_eq!(laptop_card.machine_name.as_deref(), Some("Design laptop"));
    assert_eq!(laptop_card.title, "Delete the old screenshots");
    let approval = laptop_card.approval.clone().expect("the card to answer");
    assert!(approval.expires_at.is_some(), "its countdown comes along");
    assert!(cards.iter().any(
        |i| i.conversation_id.as_deref() == Some(on_research.as_str())
            && i.machine_name.as_deref() == Some("Research box")
    ));
    assert_eq!(both.count as usize, both.items.len());

    // The inbox answers as the task does: the same call, by the card's id.
    app.core
        .answer(&on_laptop, &approval.approval_id, Answer::Yes)
        .await
        .unwrap();
    let one = app.view();
    let left = of_kind(&one, InboxKind::Card);
    assert_eq!(left.len(), 1, "{one:#?}");
    assert_eq!(
        left[0].conversation_id.as_deref(),
        Some(on_research.as_str())
    );
}

/// Issue 31 §1: a delete in Documents asked by a later task that named Downloads is headed
/// by that task (not the conversation's first) and carries the warning, the same card the
/// thread shows, and still after a restart reads the conversations back from disk.
#[tokio::test]
async fn a_card_is_headed_and_read_by_the_task_that_asks_not_the_first() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    let id = app.send(&laptop, "Look up the weather in Paris").await;
    let done = async {
        let mut changes = app.ticks.0.subscribe();
        while app.core.store().get(&id).unwrap().status != TaskStatus::Succeeded {
            changes.changed().await.unwrap();
        }
    };
    tokio::time::timeout(Duration::from_secs(90), done)
        .await
        .expect("the weather task ends");
    app.send(&laptop, "Delete the old files in Downloads").await;

    let view = app.until(|v| !of_kind(v, InboxKind::Card).is_empty()).await;
    let item = of_kind(&view, InboxKind::Card)[0].clone();
    assert_eq!(item.title, "Delete the old files in Downloads");
    let card = item.approval.expect("the card");
    assert_eq!(card.task, "Delete the old files in Downloads");
    let named = card
        .reading
        .mismatch
        .clone()
        .expect("Not the place you named");
    assert_eq!(
        named.iter().map(|p| p.known).collect::<Vec<_>>(),
        [Some(porthole_client::card_reading::KnownPlace::Downloads)]
    );
    let conversation = app.core.store().get(&id).unwrap();
    assert_eq!(conversation.title, "Look up the weather in Paris");
    assert_eq!(
        conversation.pending_approval.as_ref(),
        Some(&card),
        "the thread's card and the inbox's are one and the same"
    );

    // Read back from disk, as after a restart: the same card, warning included. The store
    // writes on its own thread, so the test waits until what it holds is on disk.
    app.core.store().flush();
    let reopened = ConversationStore::open_in(app._dir.path()).unwrap();
    let saved = reopened.get(&id).unwrap();
    assert_eq!(saved.pending_approval, Some(card));
}

#[tokio::test]
async fn a_card_is_headed_by_the_task_that_asks_not_the_conversations_first() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    let id = app.send(&laptop, "Look up the weather in Paris").await;
    let mut changes = app.ticks.0.subscribe();
    let first_done = async {
        while app.core.current(&laptop).await.unwrap().status != TaskStatus::Succeeded {
            changes.changed().await.unwrap();
        }
    };
    tokio::time::timeout(Duration::from_secs(90), first_done)
        .await
        .expect("the look-up finishes");
    assert_eq!(app.send(&laptop, "Delete the old screenshots").await, id);
    let view = app.until(|v| !of_kind(v, InboxKind::Card).is_empty()).await;
    let card = of_kind(&view, InboxKind::Card)[0];
    assert_eq!(card.conversation_id.as_deref(), Some(id.as_str()));
    assert_eq!(
        card.title, "Delete the old screenshots",
        "the deletion asks, not the weather look-up the conversation began with"
    );
}

#[tokio::test]
async fn a_link_only_card_is_an_item_of_its_own_kind() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    app.send(&laptop, "Buy a new keyboard").await;
    let view = app
        .until(|v| !of_kind(v, InboxKind::LinkOnly).is_empty())
        .await;
    let item = of_kind(&view, InboxKind::LinkOnly)[0];
    assert!(item.approval.as_ref().is_some_and(|a| a.is_link_only));
}
