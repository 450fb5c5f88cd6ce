//! Task outcomes the app must word: credits, computer time, unreachable computers, computers
//! still being created.

use porthole_client::approvals::Answer;
use porthole_client::events::EventErrorCode;
use porthole_client::machines::MachineKind;
use porthole_client::messages::MessageRequest;
use porthole_client::turns::ReasonCode;
use porthole_client::{ErrorCode, TaskFailure, TaskFollower, TaskUpdate, Transport};

use crate::support::*;
use crate::tasks::follow_to_end;

fn failure(updates: &[TaskUpdate]) -> (Option<TaskFailure>, Option<String>) {
    match updates.last() {
        Some(TaskUpdate::Finished {
            succeeded: false,
            failure,
            turn_id,
            ..
        }) => (failure.clone(), turn_id.clone()),
        other => panic!("expected a failed end, got {other:?}"),
    }
}

#[tokio::test]
async fn running_out_of_credit_mid_task_is_coded_with_its_reset_time() {
    let sim = sim().await;
    let fred = client(&sim, "fred");
    let free = fred.machines().list().await.unwrap().machines[0]
        .machine_id
        .clone();
    let expensive = TaskFollower::start(
        &fred,
        &MessageRequest::new("Do something expensive", &free),
        Transport::Stream,
    )
    .await
    .unwrap();
    let updates = follow_to_end(&fred, expensive, Answer::Yes).await;
    let (failure, turn_id) = failure(&updates);
    let failure = failure.unwrap();
    assert_eq!(failure.code, Some(EventErrorCode::InsufficientCredits));
    assert!(failure.resets_at.is_some());
    let turn = fred
        .turns()
        .wait(&turn_id.unwrap(), std::time::Duration::from_secs(30))
        .await
        .unwrap();
    assert_eq!(turn.error_code, Some(EventErrorCode::InsufficientCredits));
}

#[tokio::test]
async fn free_computer_time_running_out_is_coded() {
    let sim = sim().await;
    let fred = client(&sim, "fred");
    let free = fred.machines().list().await.unwrap().machines[0]
        .machine_id
        .clone();
    let follower = TaskFollower::start(
        &fred,
        &MessageRequest::new("Run a marathon of edits", &free),
        Transport::Poll,
    )
    .await
    .unwrap();
    let updates = follow_to_end(&fred, follower, Answer::Yes).await;
    let (failure, _) = failure(&updates);
    assert_eq!(
        failure.unwrap().code,
        Some(EventErrorCode::FreeComputerTimeExhausted)
    );
}

#[tokio::test]
async fn an_unreachable_computer_fails_the_turn_with_its_reason() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let follower = TaskFollower::start(
        &ada,
        &MessageRequest::new("Check the unreachable printer", &laptop),
        Transport::Stream,
    )
    .await
    .unwrap();
    let updates = follow_to_end(&ada, follower, Answer::Yes).await;
    let (_, turn_id) = failure(&updates);
    let turn = ada
        .turns()
        .wait(&turn_id.unwrap(), std::time::Duration::from_secs(30))
        .await
        .unwrap();
    assert_eq!(turn.reason_code, Some(ReasonCode::MachineUnavailable));
}

#[tokio::test]
async fn a_computer_being_created_cannot_take_a_message_yet() {
    let sim = sim().await;
    let idp = idp_client(&sim, "ada");
    idp.machines().create(Some("Fresh box")).await.unwrap();
    let fresh = machine(&idp, "Fresh box").await;
    let err = idp
        .messages()
        .send(&MessageRequest::new("Open the calculator", &fresh))
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::MessageNotAccepted);

    let own = idp
        .machines()
        .list()
        .await
        .unwrap()
        .machines
        .into_iter()
        .find(|m| m.kind == MachineKind::Own)
        .unwrap();
    // An own desktop cannot be woken: the answer says so rather than failing.
    let own_wake = idp.machines().wake(&own.machine_id).await.unwrap();
    assert!(!own_wake.can_wake && !own_wake.waking && !own_wake.starting_up);
}
