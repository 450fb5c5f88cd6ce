//! Approval cards and delivery news through the core: a yes/no card, the waking news before
//! anything else, answering by the card's id (a late click answers nothing newer), a refused
//! pick that keeps the card, and a link-only card opened on the service's page.

use super::*;

#[tokio::test]
async fn a_yes_no_card_is_asked_for_and_answered() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Delete the old screenshots").await.unwrap();
    let asked = app.until(&id, waiting).await;
    let card = asked.pending_approval.clone().expect("a card waits");
    assert_eq!(card.kind, ApprovalKind::YesNo);
    assert_eq!(*app.told.asked.lock().unwrap(), vec![card.title.clone()]);

    app.core
        .answer(&id, &card.approval_id, Answer::Yes)
        .await
        .unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(notices(&done).contains(&"You approved the request.".to_owned()));
    assert!(done.pending_approval.is_none());
    assert_eq!(answers(&done).len(), 1);
}

#[tokio::test]
async fn a_task_for_a_sleeping_computer_shows_the_waking_news_before_anything_else() {
    let app = app().await;
    let machines = client_for(&app.sim, "ada").machines().list().await.unwrap();
    let research = machines
        .machines
        .iter()
        .find(|m| m.name.as_deref() == Some("Research box"))
        .unwrap();
    let id = app.core.create(&research.machine_id).await.unwrap().id;
    app.send(&id, "Look up the price of coffee").await.unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(
        *app.told.starting.lock().unwrap(),
        vec![research.machine_id.clone()]
    );
    // Right after the person's message, before any step or answer: the delivery news.
    match &done.items[1] {
        ThreadItem::Status { text, about } => {
            assert_eq!(*about, Some(porthole_client::events::StatusKind::Waking));
            assert!(!text.is_empty());
        }
        other => panic!("news first, not {other:?}: {:#?}", done.items),
    }
}

#[tokio::test]
async fn a_late_click_on_an_answered_card_never_answers_the_newer_one() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Delete the old screenshots").await.unwrap();
    let first = app.until(&id, waiting).await.pending_approval.unwrap();
    app.core
        .answer(&id, &first.approval_id, Answer::Yes)
        .await
        .unwrap();
    app.until(&id, ended).await;
    app.send(&id, "Delete the old invoices").await.unwrap();
    let second = app.until(&id, waiting).await.pending_approval.unwrap();
    assert_ne!(first.approval_id, second.approval_id);

    // The first card's Deny, clicked late, reaches the app after the second card arrived.
    let late = app.core.answer(&id, &first.approval_id, Answer::No).await;
    assert!(
        matches!(late, Err(crate::error::AppError::NoPendingApproval)),
        "{late:?}"
    );
    let still = app.core.store().get(&id).unwrap();
    assert_eq!(still.status, TaskStatus::NeedsApproval);
    assert_eq!(
        still.pending_approval.as_ref().map(|a| &a.approval_id),
        Some(&second.approval_id)
    );
    assert!(!notices(&still).contains(&"You denied the request.".to_owned()));
    // Nor was it answered on the service: it still takes the person's answer.
    app.core
        .answer(&id, &second.approval_id, Answer::Yes)
        .await
        .unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
}

#[tokio::test]
async fn a_choice_card_keeps_a_refused_pick_open_and_follows_the_right_one() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Which city should I visit in spring?")
        .await
        .unwrap();
    let asked = app.until(&id, waiting).await;
    let card = asked.pending_approval.clone().expect("a card waits");
    assert_eq!(card.kind, ApprovalKind::Choice);

    // Madrid is not one of the options: the service refuses, and the same card still waits.
    let refused = app
        .core
        .answer(
            &id,
            &card.approval_id,
            Answer::Choose(vec![vec!["Madrid".into()]]),
        )
        .await;
    assert!(refused.is_err());
    let still = app.core.store().get(&id).unwrap();
    assert_eq!(still.status, TaskStatus::NeedsApproval);
    assert_eq!(
        still.pending_approval.as_ref().map(|a| &a.approval_id),
        Some(&card.approval_id)
    );

    app.core
        .answer(
            &id,
            &card.approval_id,
            Answer::Choose(vec![vec!["Rome".into()]]),
        )
        .await
        .unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(notices(&done).contains(&"You answered: Rome.".to_owned()));
    assert!(
        answers(&done).iter().any(|a| a.contains("Rome")),
        "{:#?}",
        done.items
    );
}

#[tokio::test]
async fn a_link_only_card_is_opened_on_the_services_page_not_answered_here() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Buy a new keyboard").await.unwrap();
    let asked = app.until(&id, waiting).await;
    let card = asked.pending_approval.clone().expect("a card waits");
    assert_eq!(card.kind, ApprovalKind::LinkOnly);

    let page = app
        .core
        .approval_page(&id, &card.approval_id)
        .await
        .unwrap();
    assert!(page.starts_with(&app.sim.base_url), "{page}");
    assert!(page.contains(&card.approval_id));
    // The service takes a link-only card's answer only on its page; the card stays.
    assert!(app
        .core
        .answer(&id, &card.approval_id, Answer::Yes)
        .await
        .is_err());
    let still = app.core.store().get(&id).unwrap();
    assert_eq!(still.status, TaskStatus::NeedsApproval);
    app.core.stop(&id).await.unwrap();
}
