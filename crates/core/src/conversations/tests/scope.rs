//! A card is answered only on the service that asked it (security review N7): after the
//! person switches to another service, a click on the old card (in the window or a
//! notification) sends nothing to the new one, and the card still waits for them at home.

use super::*;
use crate::error::AppError;

fn approval_calls(sim: &RunningSim) -> usize {
    sim.state()
        .requests_seen()
        .iter()
        .filter(|r| r.path.contains("approval"))
        .count()
}

#[tokio::test]
async fn an_answer_goes_only_to_the_service_its_conversation_belongs_to() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Delete the old screenshots").await.unwrap();
    let asked = app.until(&id, waiting).await;
    let card = asked.pending_approval.clone().expect("a card waits");

    // The person switches to a second service, as the app does (`connection/switching.rs`).
    let other = sim_with("message,start,poll").await;
    app.core.connection_left();
    app.connection.begin_switch(ConnectionMode::Account);
    let there = client_for(&other, "ada");
    app.connection
        .activate(there.clone(), "second service".into());
    app.core.resume(&there, "second service");
    let refused = app.core.answer(&id, &card.approval_id, Answer::Yes).await;
    assert!(
        matches!(refused, Err(AppError::NoPendingApproval)),
        "{refused:?}"
    );
    assert!(
        matches!(
            app.core.approval_page(&id, &card.approval_id).await,
            Err(AppError::NoPendingApproval)
        ),
        "nor is its page taken from there"
    );
    assert_eq!(
        approval_calls(&other),
        0,
        "nothing reached the second service"
    );
    let still = app.core.store().get(&id).unwrap();
    assert_eq!(
        still.pending_approval.map(|a| a.approval_id),
        Some(card.approval_id.clone()),
        "the card still waits at home"
    );
    assert_eq!(still.status, TaskStatus::NeedsApproval);

    // Back on the first service, the same card is answered there and the task finishes.
    app.core.connection_left();
    app.connection.begin_switch(ConnectionMode::Demo);
    let home = client_for(&app.sim, "ada");
    app.connection.activate(home.clone(), SCOPE.into());
    app.core.resume(&home, SCOPE);
    app.core
        .answer(&id, &card.approval_id, Answer::Yes)
        .await
        .expect("answered at home");
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(approval_calls(&other), 0);
}
