//! Learn and judge (research previews) over recorded turns, and running learned code.

use std::time::Duration;

use porthole_client::approvals::Answer;
use porthole_client::judge::{JudgeRequest, Judges, Verdict};
use porthole_client::learn::{LearnMode, LearnRequest, LearnStatus};
use porthole_client::messages::{Criteria, CriterionCheck, MessageOptions, MessageRequest};
use porthole_client::{learned_exec_block, Client, ErrorCode, Lease, TaskFollower, Transport};

use crate::support::*;
use crate::tasks::{finished, follow_to_end};

/// Runs a task to its end and returns its turn id.
async fn finished_turn(client: &Client, machine_id: &str, task: &str, record: bool) -> String {
    let mut request = MessageRequest::new(task, machine_id);
    request.options = Some(MessageOptions {
        record_trajectory: Some(record),
        inputs: None,
    });
    let follower = TaskFollower::start(client, &request, Transport::Poll)
        .await
        .unwrap();
    let updates = follow_to_end(client, follower, Answer::Yes).await;
    let turn_id = finished(&updates).2.expect("the turn id");
    client
        .turns()
        .wait(&turn_id, Duration::from_secs(30))
        .await
        .unwrap();
    turn_id
}

#[tokio::test]
async fn a_recorded_turn_becomes_code_that_runs_with_every_input() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let turn = finished_turn(&ada, &laptop, "Look up the weather in Paris", true).await;
    let request = LearnRequest {
        turns: vec![turn.clone()],
        idempotency_key: Some("learn-paris-1".into()),
        ..LearnRequest::default()
    };
    let learned = ada.learn().run(&request).await.unwrap();
    assert_eq!(learned.mode, LearnMode::Convert);
    assert_eq!(learned.status, LearnStatus::Succeeded);
    assert!(learned.learn_id.starts_with("learn_"));
    assert!(learned.code.contains("function main"));
    assert!(learned.research_preview);
    assert!(!learned.idempotent_replay);
    let replay = ada.learn().run(&request).await.unwrap();
    assert!(replay.idempotent_replay);
    assert_eq!(replay.learn_id, learned.learn_id);
    let read = ada.learn().get(&learned.learn_id).await.unwrap();
    assert_eq!(read.code, learned.code);

    let block =
        learned_exec_block(&learned.code, &learned.parameters, &serde_json::Map::new()).unwrap();
    let mut lease = Lease::open(&ada, &laptop).await.unwrap();
    let result = lease.exec(&block).await.unwrap();
    assert_eq!(result.error, None, "{:?}", result.logs);
    lease.close().await.unwrap();

    // Heal: the same code with feedback.
    let healed = ada
        .learn()
        .run(&LearnRequest {
            initial_code: Some(learned.code.clone()),
            feedback: Some("Also give the temperature.".into()),
            ..LearnRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(healed.mode, LearnMode::Heal);
}

#[tokio::test]
async fn learn_errors_are_typed() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let empty = ada.learn().run(&LearnRequest::default()).await.unwrap_err();
    assert_eq!(empty.code(), ErrorCode::Validation);
    let unrecorded = finished_turn(&ada, &laptop, "Open the calculator", false).await;
    let err = ada
        .learn()
        .run(&LearnRequest {
            turns: vec![unrecorded],
            ..LearnRequest::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::TrajectoryNotRecorded);
    let err = ada
        .learn()
        .run(&LearnRequest {
            turns: vec!["turn_nope".into()],
            ..LearnRequest::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::TurnNotFound);
    let err = ada.learn().get("learn_nope").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::LearnNotFound);
}

#[tokio::test]
async fn judging_a_turn_against_a_sentence_and_checks() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let turn = finished_turn(&ada, &laptop, "Look up the weather in Paris", true).await;
    let sentence = ada
        .judge()
        .run(&JudgeRequest {
            turns: vec![turn.clone()],
            criteria: Criteria::Sentence("The answer gives the weather in Paris.".into()),
            task: None,
            judges: None,
            idempotency_key: Some("judge-1".into()),
        })
        .await
        .unwrap();
    assert!(sentence.judgement_id.starts_with("judgement_"));
    assert_eq!(sentence.verdict, Verdict::Passed);
    assert!(sentence.criteria[0].evidence.is_some());
    let read = ada.judge().get(&sentence.judgement_id).await.unwrap();
    assert_eq!(read.verdict, sentence.verdict);

    let checks = ada
        .judge()
        .run(&JudgeRequest {
            turns: vec![turn.clone()],
            criteria: Criteria::Checks(vec![CriterionCheck {
                id: "moon".into(),
                check: "The agent did the impossible.".into(),
                return_evidence: Some(true),
            }]),
            task: None,
            judges: Some(Judges {
                criteria: Some(true),
                ..Judges::default()
            }),
            idempotency_key: None,
        })
        .await
        .unwrap();
    assert_eq!(checks.verdict, Verdict::Failed);

    let err = ada
        .judge()
        .run(&JudgeRequest {
            turns: vec![turn],
            criteria: Criteria::Sentence("x".into()),
            task: None,
            judges: Some(Judges {
                transitions: Some(true),
                ..Judges::default()
            }),
            idempotency_key: None,
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotSupported);
    let err = ada.judge().get("judgement_nope").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::JudgementNotFound);
}

#[tokio::test]
async fn learn_and_judge_refuse_unfinished_mixed_and_mismatched_turns() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let first = finished_turn(&ada, &laptop, "Look up the weather in Paris", true).await;
    // A new conversation: the next message lands in another session.
    ada.sessions().new(&laptop).await.unwrap();
    let mut request = MessageRequest::new("Look up the weather in Rome", &laptop);
    request.options = Some(MessageOptions {
        record_trajectory: Some(true),
        inputs: None,
    });
    let follower = TaskFollower::start(&ada, &request, Transport::Poll)
        .await
        .unwrap();
    let second = finished(&follow_to_end(&ada, follower, Answer::Yes).await)
        .2
        .unwrap();
    ada.turns()
        .wait(&second, Duration::from_secs(30))
        .await
        .unwrap();

    let mixed = ada
        .learn()
        .run(&LearnRequest {
            turns: vec![first.clone(), second],
            ..LearnRequest::default()
        })
        .await
        .unwrap_err();
    assert_eq!(mixed.code(), ErrorCode::MixedSessions);
    let mismatch = ada
        .learn()
        .run(&LearnRequest {
            turns: vec![first.clone()],
            template: Some("Order {{count}} pizzas for {{name}}".into()),
            ..LearnRequest::default()
        })
        .await
        .unwrap_err();
    assert_eq!(mismatch.code(), ErrorCode::TemplateMismatch);

    let unverifiable = ada
        .judge()
        .run(&JudgeRequest {
            turns: vec![first],
            criteria: Criteria::Checks(vec![CriterionCheck {
                id: "feel".into(),
                check: "The screenshot shows a blue icon.".into(),
                return_evidence: None,
            }]),
            task: None,
            judges: None,
            idempotency_key: None,
        })
        .await
        .unwrap();
    assert_eq!(unverifiable.verdict, Verdict::Unverifiable);

    let running = match ada
        .messages()
        .send(&MessageRequest::new(
            "Take your time and count to 3",
            &laptop,
        ))
        .await
        .unwrap()
    {
        porthole_client::messages::MessageOutcome::Started(s) => s,
        other => panic!("{other:?}"),
    };
    let unfinished = ada
        .judge()
        .run(&JudgeRequest {
            turns: vec![running.turn_id.clone().unwrap()],
            criteria: Criteria::Sentence("Done.".into()),
            task: None,
            judges: None,
            idempotency_key: None,
        })
        .await
        .unwrap_err();
    assert_eq!(unfinished.code(), ErrorCode::TurnNotFinished);
    ada.abort().session(&running.session_id).await.unwrap();
}
