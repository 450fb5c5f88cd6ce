use futures_util::StreamExt;
use porthole_client::messages::MessageRequest;
use porthole_client::{Client, Credential, Error, ErrorCode};

use crate::support::*;

#[tokio::test]
async fn message_errors_are_typed() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let mut no_machine = MessageRequest::new("Open the calculator", "x");
    no_machine.machine_id = None;
    match ada.messages().send(&no_machine).await.unwrap_err().code() {
        ErrorCode::SeveralMachines { machines } => assert!(machines.len() >= 2),
        other => panic!("expected several machines, got {other:?}"),
    }
    let pat = client(&sim, "pat")
        .messages()
        .send(&no_machine)
        .await
        .unwrap_err();
    assert_eq!(pat.code(), ErrorCode::NoMachine);

    let fred = client(&sim, "fred");
    let models = fred.models().list().await.unwrap().models;
    let refused = models
        .iter()
        .find(|m| !m.allowed)
        .expect("a model fred may not use");
    let free_machine = fred.machines().list().await.unwrap().machines[0]
        .machine_id
        .clone();
    let mut request = MessageRequest::new("Open the calculator", &free_machine);
    request.model = Some(refused.id.clone());
    match fred.messages().send(&request).await.unwrap_err().code() {
        ErrorCode::ModelNotAllowedForPlan { allowed_models } => {
            assert!(allowed_models.contains(&"auto".to_owned()))
        }
        other => panic!("expected model_not_allowed_for_plan, got {other:?}"),
    }
    let empty = ada
        .messages()
        .send(&MessageRequest::new("  ", "m"))
        .await
        .unwrap_err();
    assert_eq!(empty.code(), ErrorCode::InvalidInput);
}

#[tokio::test]
async fn bad_base_urls_and_unreachable_services_are_typed() {
    let key = Credential::api_key("k").unwrap();
    for bad in ["", "localhost:8080", "ftp://x", "http://"] {
        let err = Client::new(bad, key.clone()).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidBaseUrl, "{bad}");
    }
    // A port nobody listens on: a network error, after retries, not a panic.
    let sim = sim().await;
    let port = sim.base_url.rsplit(':').next().unwrap().to_owned();
    sim.shutdown().await;
    let gone = Client::with_config(&format!("http://127.0.0.1:{port}"), key, config()).unwrap();
    let err = gone.models().list().await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::Network);
}

#[tokio::test]
async fn malformed_frames_from_the_service_are_typed_errors() {
    let sim = sim_with_faults("bad-frame=1", 1).await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut stream = ada
        .messages()
        .stream(&MessageRequest::new("Open the calculator", &laptop))
        .await
        .unwrap();
    let first = stream.next().await.unwrap().unwrap_err();
    assert!(matches!(first, Error::BadResponse { .. }), "{first:?}");
    assert_eq!(first.code(), ErrorCode::BadResponse);
    // The stream goes on after a bad frame.
    assert!(stream.next().await.unwrap().is_ok());
}
