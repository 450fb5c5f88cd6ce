//! The three kinds of approval card and how each is answered (`POST /v1/agents/approve`).

use futures_util::StreamExt;
use porthole_client::approvals::{Answer, ApprovalKind, ApprovalRequest};
use porthole_client::messages::MessageRequest;
use porthole_client::{Client, ErrorCode, TaskFollower, TaskUpdate, Transport};

use crate::support::*;
use crate::tasks::finished;

/// Starts `text` on ada's laptop and reads up to the first card.
async fn card_of(
    ada: &Client,
    text: &str,
    transport: Transport,
) -> (TaskFollower, ApprovalRequest) {
    let laptop = machine(ada, "Design laptop").await;
    let mut follower = TaskFollower::start(ada, &MessageRequest::new(text, &laptop), transport)
        .await
        .unwrap();
    loop {
        match follower
            .next()
            .await
            .expect("a card before the end")
            .unwrap()
        {
            TaskUpdate::NeedsApproval { approval } => return (follower, approval),
            TaskUpdate::Finished { .. } => panic!("the task ended without a card"),
            _ => {}
        }
    }
}

async fn rest(mut follower: TaskFollower) -> Vec<TaskUpdate> {
    let mut out = Vec::new();
    while let Some(update) = follower.next().await {
        out.push(update.expect("the follow goes on"));
    }
    out
}

fn pick(values: &[&[&str]]) -> Answer {
    Answer::Choose(
        values
            .iter()
            .map(|q| q.iter().map(|v| (*v).to_owned()).collect())
            .collect(),
    )
}

#[tokio::test]
async fn a_yes_no_card_is_answered_yes_or_no() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let (follower, card) =
        card_of(&ada, "Delete the old screenshots folder", Transport::Stream).await;
    assert_eq!(card.kind, ApprovalKind::YesNo);
    assert!(card.questions.is_empty() && card.command.is_some());
    ada.approvals()
        .answer(&card.approval_id, &Answer::No)
        .await
        .unwrap();
    assert!(
        finished(&rest(follower).await).0,
        "a denied step is skipped, the task goes on"
    );
    let again = ada
        .approvals()
        .answer(&card.approval_id, &Answer::Yes)
        .await
        .unwrap_err();
    assert_eq!(again.code(), ErrorCode::ApprovalResolved);
}

#[tokio::test]
async fn a_one_question_choice_takes_a_pick_and_a_refused_pick_leaves_it_waiting() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let (follower, card) = card_of(
        &ada,
        "Look up the weather, which city is up to you",
        Transport::Poll,
    )
    .await;
    assert_eq!(card.kind, ApprovalKind::Choice);
    assert_eq!(card.questions.len(), 1);
    let question = &card.questions[0];
    assert!(!question.multiple && !question.allow_other);
    let options: Vec<_> = question
        .options
        .iter()
        .map(|o| (o.value.as_str(), o.label.as_str()))
        .collect();
    assert_eq!(
        options,
        [("Paris", "Paris"), ("Rome", "Rome"), ("Lisbon", "Lisbon")],
        "plain strings become value and label"
    );

    for refused in [
        pick(&[&["Berlin"]]),
        pick(&[&["Paris", "Rome"]]),
        Answer::Yes,
    ] {
        let err = ada
            .approvals()
            .answer(&card.approval_id, &refused)
            .await
            .unwrap_err();
        assert_eq!(err.code(), ErrorCode::SelectionRejected, "{refused:?}");
    }
    // Still waiting: a good pick is taken, and the agent follows it.
    ada.approvals()
        .answer(&card.approval_id, &pick(&[&["Rome"]]))
        .await
        .unwrap();
    let (succeeded, text, _) = finished(&rest(follower).await);
    assert!(succeeded);
    assert!(text.contains("Rome"), "{text}");
}

#[tokio::test]
async fn several_questions_take_one_list_each_with_labels_free_text_and_several_picks() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let (follower, card) = card_of(&ada, "Plan a trip for me", Transport::Stream).await;
    assert_eq!(card.kind, ApprovalKind::Choice);
    assert_eq!(card.questions.len(), 2);
    let (city, days) = (&card.questions[0], &card.questions[1]);
    assert!(city.allow_other && !city.multiple);
    assert!(days.multiple && !days.allow_other);
    assert!(city.question.is_some() && days.question.is_some());
    assert!(city
        .options
        .iter()
        .any(|o| o.value == "rome" && o.label != o.value));

    for refused in [
        pick(&[&["rome"]]),
        pick(&[&["rome"], &[]]),
        pick(&[&["rome", "paris"], &["sat"]]),
        pick(&[&["rome"], &["monday"]]),
    ] {
        let err = ada.approvals().answer(&card.approval_id, &refused).await;
        match err {
            Err(err) => assert!(
                matches!(
                    err.code(),
                    ErrorCode::SelectionRejected | ErrorCode::InvalidInput
                ),
                "{refused:?}: {err:?}"
            ),
            Ok(ok) => panic!("{refused:?} was taken: {ok:?}"),
        }
    }
    ada.approvals()
        .answer(&card.approval_id, &pick(&[&["Porto"], &["sat", "sun"]]))
        .await
        .unwrap();
    let (succeeded, text, _) = finished(&rest(follower).await);
    assert!(succeeded);
    assert!(
        text.contains("Porto"),
        "free text is taken where allowed: {text}"
    );
}

#[tokio::test]
async fn a_choice_card_may_be_declined() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let (follower, card) = card_of(
        &ada,
        "Look up the weather, which city is up to you",
        Transport::Stream,
    )
    .await;
    ada.approvals()
        .answer(&card.approval_id, &Answer::No)
        .await
        .unwrap();
    let updates = rest(follower).await;
    assert!(matches!(updates.last(), Some(TaskUpdate::Finished { .. })));
}

#[tokio::test]
async fn a_secure_input_card_is_link_only_and_never_answered_through_the_api() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let (follower, card) = card_of(&ada, "Sign in to my bank account", Transport::Stream).await;
    assert_eq!(card.kind, ApprovalKind::LinkOnly);
    assert!(card.is_link_only);
    assert!(card
        .approval_url
        .as_deref()
        .is_some_and(|u| u.contains(&card.approval_id)));
    let refused = ada
        .approvals()
        .answer(&card.approval_id, &Answer::Yes)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), ErrorCode::ApprovalLinkOnly);
    let laptop = machine(&ada, "Design laptop").await;
    assert_eq!(
        ada.abort().machine(&laptop).await.unwrap().aborted,
        Some(true)
    );
    assert!(
        !finished(&rest(follower).await).0,
        "a stopped task is not a success"
    );
}

#[tokio::test]
async fn a_card_without_an_id_is_never_surfaced() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    for transport in [Transport::Stream, Transport::Poll] {
        let request = MessageRequest::new("Show me a broken card", &laptop);
        let follower = TaskFollower::start(&ada, &request, transport)
            .await
            .unwrap();
        let updates = rest(follower).await;
        assert!(
            !updates
                .iter()
                .any(|u| matches!(u, TaskUpdate::NeedsApproval { .. })),
            "{transport:?}: {updates:?}"
        );
        assert!(matches!(updates.last(), Some(TaskUpdate::Finished { .. })));
    }
}
