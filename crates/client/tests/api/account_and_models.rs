use porthole_client::auth::AuthType;
use porthole_client::models::ModelTier;
use porthole_client::ErrorCode;

use crate::support::*;

#[tokio::test]
async fn key_check_account_and_models() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let check = ada.auth().check().await.unwrap();
    assert!(check.ok);
    assert_eq!(check.user_id, sim.account("ada").user_id);
    assert_eq!(check.auth_type, AuthType::ApiKey);

    let account = ada.account().get().await.unwrap();
    assert_eq!(account.user_id, sim.account("ada").user_id);
    assert!(!account.plan.free);
    assert!(account.credits.is_some_and(|c| c.usd.is_some()));

    let idp = idp_client(&sim, "ada").account().get().await.unwrap();
    assert_eq!(idp.auth_type, AuthType::Idp);

    let fred = client(&sim, "fred").account().get().await.unwrap();
    assert!(fred.plan.free);
    assert_eq!(fred.plan.id, None);

    let models = ada.models().list().await.unwrap();
    assert_eq!(models.default, "auto");
    let auto = models.models.iter().find(|m| m.id == "auto").unwrap();
    assert!(auto.allowed);
    assert!(models
        .models
        .iter()
        .all(|m| !matches!(m.tier, ModelTier::Other(_))));
}

#[tokio::test]
async fn a_wrong_or_revoked_key_is_unauthorized() {
    let sim = sim().await;
    let wrong = porthole_client::Client::with_config(
        &sim.base_url,
        porthole_client::Credential::api_key("not-a-real-key").unwrap(),
        config(),
    )
    .unwrap();
    let err = wrong.auth().check().await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::Unauthorized);
    assert_eq!(err.api().unwrap().status, 401);
}

#[tokio::test]
async fn a_key_with_stray_whitespace_still_works() {
    let sim = sim().await;
    let key = sim.account("ada").api_key.clone().unwrap();
    let padded = format!("  {key}\n");
    let client = porthole_client::Client::with_config(
        &format!("{}/", sim.base_url),
        porthole_client::Credential::api_key(&padded).unwrap(),
        config(),
    )
    .unwrap();
    assert!(client.auth().check().await.unwrap().ok);
}
