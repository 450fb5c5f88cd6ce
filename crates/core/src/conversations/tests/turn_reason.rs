//! A task the computer could not take ends in words about the computer, not the agent: the
//! turn's reason (`machine_unavailable`) is read at the end, since the stream's `error` frame
//! does not carry it.

use super::*;
use crate::error::{UiCode, UiError};

#[tokio::test]
async fn a_task_on_a_computer_that_cannot_be_reached_says_so_and_when_to_try_again() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Check the mail even if the computer is unreachable")
        .await
        .unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Failed, "{:#?}", done.items);
    let problem = done.failure.expect("a failure");
    assert_eq!(problem.code, UiCode::MachineUnavailable);
    let shown = UiError::from(&problem);
    assert_eq!(shown.title, "The computer is not available");
    assert!(shown.retry_at.is_some(), "a time to try again");
}

#[tokio::test]
async fn a_task_for_a_computer_still_being_made_never_started_and_says_so() {
    let app = app().await;
    let token = app.sim.account("ada").id_token.clone();
    let signed_in = porthole_client::Client::with_config(
        &app.sim.base_url,
        porthole_client::Credential::id_token(&token).unwrap(),
        porthole_client::ClientConfig::time_scaled(test_app::SCALE),
    )
    .unwrap();
    signed_in
        .machines()
        .create(Some("Fresh box"))
        .await
        .unwrap();
    let fresh = signed_in
        .machines()
        .list()
        .await
        .unwrap()
        .machines
        .into_iter()
        .find(|m| m.name.as_deref() == Some("Fresh box"))
        .expect("the new computer is listed while it is made")
        .machine_id;
    let id = app.core.create(&fresh).await.unwrap().id;
    app.send(&id, "Look up the price of coffee").await.unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Failed, "{:#?}", done.items);
    let problem = done.failure.expect("a failure");
    assert_eq!(problem.code, UiCode::TaskNotStarted, "{:#?}", done.items);
    assert_eq!(UiError::from(&problem).title, "The task never started");
}
