//! `x-sai-version` pins one server revision, so once set it goes on every request: the
//! simulator records the tag of each request it served, and every operation is called here.

use porthole_client::approvals::Answer;
use porthole_client::control::ExecRequest;
use porthole_client::judge::JudgeRequest;
use porthole_client::learn::LearnRequest;
use porthole_client::messages::{Criteria, MessageOptions, MessageRequest};
use porthole_client::{Client, ClientConfig, Credential, TaskFollower, Transport};

use crate::support::*;
use crate::tasks::{finished, follow_to_end};

const TAG: &str = "pr-1234";

fn tagged(sim: &porthole_sim::RunningSim, credential: Credential) -> Client {
    Client::with_config(
        &sim.base_url,
        credential,
        ClientConfig {
            version_tag: Some(TAG.into()),
            ..config()
        },
    )
    .unwrap()
}

#[tokio::test]
async fn every_operation_carries_the_version_tag() {
    let sim = sim().await;
    let account = sim.account("ada");
    let ada = tagged(
        &sim,
        Credential::api_key(account.api_key.as_deref().unwrap()).unwrap(),
    );
    let signed_in = ada.with_credential(Credential::id_token(&account.id_token).unwrap());

    ada.auth().check().await.unwrap();
    ada.account().get().await.unwrap();
    ada.models().list().await.unwrap();
    let laptop = machine(&ada, "Design laptop").await;
    let research = machine(&ada, "Research box").await;
    ada.machines().live(&laptop).await.unwrap();
    ada.machines().wake(&research).await.unwrap();
    let _ = signed_in.machines().create(Some("Tagged box")).await;

    // A recorded task, followed on the stream (which ends on the poll) and on the poll.
    let mut request = MessageRequest::new("Look up the weather in Oslo", &laptop);
    request.options = Some(MessageOptions {
        record_trajectory: Some(true),
        inputs: None,
    });
    let follower = TaskFollower::start(&ada, &request, Transport::Stream)
        .await
        .unwrap();
    let turn_id = finished(&follow_to_end(&ada, follower, Answer::Yes).await)
        .2
        .unwrap();
    let follower = TaskFollower::start(
        &ada,
        &MessageRequest::new("Delete the old screenshots folder", &laptop),
        Transport::Poll,
    )
    .await
    .unwrap();
    follow_to_end(&ada, follower, Answer::Yes).await;
    ada.turns().trajectory(&turn_id).await.unwrap();
    let _ = ada.turns().screenshot(&turn_id, 0).await;
    let _ = ada.approvals().answer("ap_none", &Answer::No).await;

    ada.sessions().new(&laptop).await.unwrap();
    ada.sessions().context(&laptop, 5).await.unwrap();
    ada.abort().machine(&laptop).await.unwrap();
    let upload = ada
        .uploads()
        .upload("notes.txt", b"hello".to_vec(), None)
        .await
        .unwrap();
    assert!(upload.file_id.is_some());

    let _ = ada
        .learn()
        .run(&LearnRequest {
            turns: vec![turn_id.clone()],
            ..LearnRequest::default()
        })
        .await;
    let _ = ada.learn().get("learn_none").await;
    let _ = ada
        .judge()
        .run(&JudgeRequest {
            turns: vec![turn_id.clone()],
            criteria: Criteria::Sentence("It names the weather".into()),
            task: None,
            judges: None,
            idempotency_key: None,
        })
        .await;
    let _ = ada.judge().get("judgement_none").await;

    ada.control().open(&laptop).await.unwrap();
    ada.control()
        .exec(&laptop, &ExecRequest::new("1 + 1"))
        .await
        .unwrap();
    ada.control().get(&laptop).await.unwrap();
    let _ = ada.control().interrupt(&laptop).await;
    ada.control().close(&laptop).await.unwrap();

    let key = signed_in.keys().create(Some("tagged")).await.unwrap();
    signed_in.keys().list().await.unwrap();
    signed_in.keys().revoke(&key.key_id).await.unwrap();

    let seen = sim.state().requests_seen();
    let untagged: Vec<_> = seen
        .iter()
        .filter(|r| r.sai_version.as_deref() != Some(TAG))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(untagged.is_empty(), "sent without the tag: {untagged:?}");
    // The calls above did reach every route of the service.
    for route in [
        "/v1/agents/auth",
        "/v1/agents/account",
        "/v1/agents/models",
        "/v1/agents/machines",
        "/live",
        "/v1/agents/wake",
        "/v1/agents/message",
        "/v1/agents/events",
        "/v1/agents/turns/",
        "/trajectory",
        "/screenshots",
        "/v1/agents/approve",
        "/v1/agents/new-session",
        "/v1/agents/context",
        "/v1/agents/abort",
        "/v1/agents/upload",
        "/v1/agents/learn",
        "/v1/agents/judge",
        "/control",
        "/v1/account/keys",
    ] {
        assert!(
            seen.iter().any(|r| r.path.contains(route)),
            "no request reached {route}"
        );
    }
}
