//! What reaches the person before the work: delivery news (`data-status` with its kind) and
//! running out of credit (`402`).

use porthole_client::approvals::Answer;
use porthole_client::events::StatusKind;
use porthole_client::messages::MessageRequest;
use porthole_client::{ErrorCode, TaskFollower, TaskUpdate, Transport};

use crate::support::*;
use crate::tasks::follow_to_end;

fn status_kinds(updates: &[TaskUpdate]) -> Vec<Option<StatusKind>> {
    updates
        .iter()
        .filter_map(|u| match u {
            TaskUpdate::Status { about, .. } => Some(about.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_sleeping_computer_says_it_is_waking_and_one_that_cannot_wake_says_it_is_offline() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let research = machine(&ada, "Research box").await;
    let request = MessageRequest::new("Open the calculator", &research);
    let follower = TaskFollower::start(&ada, &request, Transport::Stream)
        .await
        .unwrap();
    let updates = follow_to_end(&ada, follower, Answer::Yes).await;
    assert!(
        status_kinds(&updates).contains(&Some(StatusKind::Waking)),
        "{updates:?}"
    );
    let first_status = updates
        .iter()
        .position(|u| matches!(u, TaskUpdate::Status { .. }))
        .unwrap();
    let first_work = updates
        .iter()
        .position(|u| matches!(u, TaskUpdate::Progress { .. } | TaskUpdate::Message { .. }))
        .unwrap();
    assert!(first_status < first_work, "the news comes before the work");

    let archive = machine(&ada, "Studio archive").await;
    let request = MessageRequest::new("Open the calculator", &archive);
    let follower = TaskFollower::start(&ada, &request, Transport::Stream)
        .await
        .unwrap();
    let updates = follow_to_end(&ada, follower, Answer::Yes).await;
    assert!(
        status_kinds(&updates).contains(&Some(StatusKind::AgentOffline)),
        "{updates:?}"
    );
    assert!(matches!(
        updates.last(),
        Some(TaskUpdate::Finished {
            succeeded: false,
            ..
        })
    ));
}

#[tokio::test]
async fn no_credit_at_all_is_out_of_credit_before_any_task() {
    let sim = sim().await;
    let fred = client(&sim, "fred");
    let free = fred.machines().list().await.unwrap().machines[0]
        .machine_id
        .clone();
    // A task that spends the day's credit on the way ends with the coded error event.
    let spend = MessageRequest::new("Do something expensive", &free);
    let follower = TaskFollower::start(&fred, &spend, Transport::Poll)
        .await
        .unwrap();
    follow_to_end(&fred, follower, Answer::Yes).await;
    // The next task is refused outright, on both paths.
    let next = MessageRequest::new("Open the calculator", &free);
    for transport in [Transport::Poll, Transport::Stream] {
        let refused = match TaskFollower::start(&fred, &next, transport).await {
            Err(err) => err,
            Ok(_) => panic!("a task started with no credit"),
        };
        assert_eq!(refused.code(), ErrorCode::InsufficientCredits);
        assert_eq!(refused.api().map(|a| a.status), Some(402));
    }
}
