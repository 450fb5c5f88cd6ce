use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use porthole_client::messages::MessageRequest;
use porthole_client::{
    Client, ClientConfig, Credential, Error, ErrorCode, Limit, Secret, TaskFollower, TaskUpdate,
    TokenFuture, TokenSource, Transport,
};

use crate::support::*;

/// A sign-in that hands out the simulator's ID token and counts how often it was asked.
struct SignIn {
    token: String,
    asked: AtomicUsize,
}

impl TokenSource for SignIn {
    fn token(&self) -> TokenFuture<'_> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let token = Secret::new(self.token.clone());
        Box::pin(async move { Ok(token) })
    }
}

#[tokio::test]
async fn a_token_source_is_asked_before_each_request() {
    let sim = sim().await;
    let source = Arc::new(SignIn {
        token: sim.account("ada").id_token.clone(),
        asked: AtomicUsize::new(0),
    });
    let client = Client::with_config(
        &sim.base_url,
        Credential::IdTokenSource(source.clone()),
        config(),
    )
    .unwrap();
    let keys = client.keys().list().await.unwrap();
    assert!(!keys.keys.is_empty());
    let check = client.auth().check().await.unwrap();
    assert_eq!(check.auth_type, porthole_client::auth::AuthType::Idp);
    assert_eq!(source.asked.load(Ordering::SeqCst), 2);
    assert!(!format!("{client:?}").contains(&sim.account("ada").id_token));
}

#[tokio::test]
async fn the_client_stops_itself_before_the_service_says_429() {
    let sim = sim().await;
    let key = sim.account("ada").api_key.clone().unwrap();
    let strict = Client::with_config(
        &sim.base_url,
        Credential::api_key(&key).unwrap(),
        ClientConfig {
            max_wait: std::time::Duration::ZERO,
            ..config()
        },
    )
    .unwrap();
    let laptop = machine(&strict, "Design laptop").await;
    for _ in 0..Limit::Aborts.per_hour() {
        let outcome = strict.abort().machine(&laptop).await.unwrap();
        assert!(outcome.ok);
    }
    let err = strict.abort().machine(&laptop).await.unwrap_err();
    assert!(
        matches!(
            err,
            Error::BudgetSpent {
                limit: Limit::Aborts,
                ..
            }
        ),
        "refused by the client's own budget, not by a 429: {err:?}"
    );
    assert!(matches!(
        err.code(),
        ErrorCode::RateLimited {
            retry_after_ms: Some(_)
        }
    ));
}

#[tokio::test]
async fn abort_errors_are_typed() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let err = ada.abort().session("cs_someone_elses").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::SessionNotFound);
    let err = ada.abort().machine("m_nobodys").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::MachineNotFound);
    let laptop = machine(&ada, "Design laptop").await;
    let idle = ada.abort().machine(&laptop).await.unwrap();
    assert!(idle.ok && idle.nothing_was_running());
}

#[tokio::test]
async fn a_plain_reply_on_the_stream_path_ends_the_follow() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let follower = TaskFollower::start(
        &ada,
        &MessageRequest::new("Thanks!", &laptop),
        Transport::Stream,
    )
    .await
    .unwrap();
    let updates: Vec<_> = futures_util::StreamExt::collect::<Vec<_>>(follower).await;
    assert_eq!(updates.len(), 1);
    assert!(matches!(
        updates[0].as_ref().unwrap(),
        TaskUpdate::Replied { .. }
    ));
}
