use porthole_client::{Client, Credential, ErrorCode};

use crate::support::*;

#[tokio::test]
async fn create_use_list_and_revoke_a_key() {
    let sim = sim().await;
    let ada = idp_client(&sim, "ada");
    let created = ada.keys().create(Some("Laptop app")).await.unwrap();
    assert!(created.key_id.starts_with("k_"));
    assert!(!format!("{created:?}").contains(created.key.expose()));
    let listed = ada.keys().list().await.unwrap().keys;
    assert_eq!(listed[0].key_id, created.key_id, "newest first");
    assert_eq!(listed[0].name.as_deref(), Some("Laptop app"));

    let with_new_key = Client::with_config(
        &sim.base_url,
        Credential::ApiKey(created.key.clone()),
        config(),
    )
    .unwrap();
    assert!(with_new_key.auth().check().await.unwrap().ok);
    ada.keys().revoke(&created.key_id).await.unwrap();
    let revoked = with_new_key.auth().check().await.unwrap_err();
    assert_eq!(revoked.code(), ErrorCode::Unauthorized);
    let again = ada.keys().revoke(&created.key_id).await.unwrap_err();
    assert_eq!(again.code(), ErrorCode::KeyNotFound);
}

#[tokio::test]
async fn key_errors_are_typed() {
    let sim = sim().await;
    let with_key = client(&sim, "ada").keys().list().await.unwrap_err();
    assert!(
        matches!(with_key.code(), ErrorCode::SessionRequired { .. }),
        "{with_key:?}"
    );
    let nophone = idp_client(&sim, "nophone")
        .keys()
        .create(None)
        .await
        .unwrap_err();
    assert_eq!(nophone.code(), ErrorCode::PhoneVerificationRequired);
    // fred already holds the free plan's one key.
    let fred = idp_client(&sim, "fred")
        .keys()
        .create(None)
        .await
        .unwrap_err();
    assert_eq!(fred.code(), ErrorCode::KeyLimitReached);
    let long = "x".repeat(101);
    let local = idp_client(&sim, "ada")
        .keys()
        .create(Some(&long))
        .await
        .unwrap_err();
    assert_eq!(local.code(), ErrorCode::InvalidInput);
}
