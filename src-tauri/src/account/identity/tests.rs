//! The sign-in kept and renewed: memory and keychain, renewal's refusals, the token's only
//! addresses, and what the page is told.

use super::super::sign_in_vault::memory::MemoryVault;
use super::super::signin_config::for_simulator;
use super::*;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

const SVC: &str = "https://svc.example";

fn stored(token: &str, user_id: &str) -> Stored {
    Stored {
        token: Secret::new(token),
        user_id: Some(user_id.to_owned()),
        refresh: None,
    }
}

fn setup() -> (Arc<MemoryVault>, Identity) {
    let vault = Arc::new(MemoryVault::default());
    (vault.clone(), Identity::with_vault(vault))
}

#[tokio::test]
async fn signing_out_drops_the_sign_in_from_memory_and_keychain() {
    let (vault, identity) = setup();
    identity
        .remember("https://idp-svc.example", stored("tok_a", "u_ada"))
        .await
        .unwrap();
    // A sign-in of the account, kept in an earlier run.
    vault
        .save(SVC, &stored("tok_old", "u_ada").to_value())
        .unwrap();
    identity.forget(&[SVC]).await.unwrap();
    assert!(identity.get().is_none(), "nothing in memory");
    assert!(vault.entries().is_empty(), "nothing in the keychain");
}

#[tokio::test]
async fn switching_to_another_account_drops_the_sign_in() {
    let (vault, identity) = setup();
    identity
        .remember(SVC, stored("tok_a", "u_ada"))
        .await
        .unwrap();
    identity.switched_to(SVC, "u_bob").await.unwrap();
    assert!(identity.get().is_none());
    assert!(vault.entries().is_empty());

    // Another address, the same user id: another account all the same.
    identity
        .remember(SVC, stored("tok_a", "u_ada"))
        .await
        .unwrap();
    identity
        .switched_to("https://other.example", "u_ada")
        .await
        .unwrap();
    assert!(identity.get().is_none());
    assert!(vault.entries().is_empty());

    // A sign-in of unknown account kept for the new address is not trusted either.
    vault.save(SVC, "eyJh.eyJz.sig").unwrap();
    identity.switched_to(SVC, "u_ada").await.unwrap();
    assert!(vault.entries().is_empty());
}

/// A browser sign-in of `ada` at a simulator whose hour is 3.6 s.
async fn short_lived_sign_in() -> (porthole_sim::RunningSim, SignedIn, Option<Secret>) {
    let sim = porthole_sim::Sim::start(porthole_sim::Config {
        time_scale: 0.001,
        ..porthole_sim::Config::default()
    })
    .await
    .unwrap();
    let signed = super::super::signin::browser_token(
        &for_simulator(&sim.base_url),
        super::super::signin::tests::browser_choosing("ada"),
        std::time::Duration::from_secs(20),
    )
    .await
    .unwrap();
    let signed_in = SignedIn {
        base_url: sim.base_url.clone(),
        stored: Stored {
            token: signed.id_token,
            user_id: Some(sim.account("ada").user_id.clone()),
            refresh: None,
        },
        demo: false,
    };
    (sim, signed_in, signed.refresh_token)
}

/// Waits (a few scaled seconds) until the token is due for renewal by its own `exp`.
async fn until_due(token: &Secret) {
    for _ in 0..300 {
        if token_life::needs_renewal(token.expose(), token_life::now_secs()) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the token never came due");
}

#[tokio::test]
async fn a_sign_in_about_to_expire_is_renewed_with_its_refresh_token_before_the_call() {
    let (sim, mut signed_in, refresh_token) = short_lived_sign_in().await;
    signed_in.stored.refresh = Some(Refresh {
        token: refresh_token.expect("the simulator gives a refresh token"),
    });
    let (vault, identity) = setup();
    identity
        .remember(&sim.base_url, signed_in.stored.clone())
        .await
        .unwrap();
    until_due(&signed_in.stored.token).await;

    let config = for_simulator(&sim.base_url);
    let fresh = identity
        .fresh(identity.get().unwrap(), Some(&config))
        .await
        .unwrap();
    assert_ne!(fresh.stored.token, signed_in.stored.token, "a new token");
    assert!(!token_life::needs_renewal(
        fresh.stored.token.expose(),
        token_life::now_secs()
    ));
    let client = Client::new(
        &sim.base_url,
        Credential::IdToken(fresh.stored.token.clone()),
    )
    .unwrap();
    client.keys().list().await.expect("key management works");
    // The new token and the refresh token are what the keychain keeps.
    let kept = Stored::from_value(&vault.entries()[&sim.base_url]);
    assert_eq!(kept.token, fresh.stored.token);
    assert!(kept.refresh.is_some());
    assert_eq!(kept.user_id, signed_in.stored.user_id);
}

#[tokio::test]
async fn an_expired_sign_in_without_a_way_to_renew_asks_to_sign_in_again_before_the_call() {
    let (sim, signed_in, _) = short_lived_sign_in().await;
    for refresh in [
        None,
        // One Firebase does not take (revoked, or signed out elsewhere).
        Some(Refresh {
            token: Secret::new("rt_unknown"),
        }),
    ] {
        let (vault, identity) = setup();
        let stored = Stored {
            refresh,
            ..signed_in.stored.clone()
        };
        identity.remember(&sim.base_url, stored).await.unwrap();
        until_due(&signed_in.stored.token).await;

        let config = for_simulator(&sim.base_url);
        let refused = identity
            .fresh(identity.get().unwrap(), Some(&config))
            .await
            .unwrap_err();
        assert!(matches!(refused, AppError::SignInExpired), "{refused:?}");
        let words = crate::error::UiError::from(&refused);
        assert_eq!(words.code, crate::UiCode::SignInExpired);
        assert_eq!(words.action, Some(crate::error::UiAction::SignIn));
        assert!(words.detail.contains("Sign in again"), "{}", words.detail);
        assert!(identity.get().is_none(), "the dead token is dropped");
        assert!(vault.entries().is_empty());
    }
}

#[tokio::test]
async fn using_a_new_key_of_the_signed_in_account_keeps_the_sign_in() {
    let (vault, identity) = setup();
    identity
        .remember(SVC, stored("tok_a", "u_ada"))
        .await
        .unwrap();
    identity.switched_to(SVC, "u_ada").await.unwrap();
    let kept = identity.get().expect("still signed in");
    assert_eq!(kept.stored.token.expose(), "tok_a");
    assert!(vault.entries().contains_key(SVC));
}

#[tokio::test]
async fn no_id_token_goes_to_a_typed_address_and_the_sign_in_client_carries_the_tag() {
    let sim = porthole_sim::Sim::start(porthole_sim::Config::default())
        .await
        .unwrap();
    let signed_in = SignedIn {
        base_url: sim.base_url.clone(),
        stored: stored(&sim.account("ulla").id_token, "u_ulla"),
        demo: false,
    };
    // The simulator's address typed by hand, neither the service's nor this run's Demo.
    let refused = token_client(&signed_in, Some("http://127.0.0.1:9"), None).unwrap_err();
    assert!(matches!(refused, AppError::SignInNotHere), "{refused:?}");
    assert!(
        sim.state().requests_seen().is_empty(),
        "nothing was sent there"
    );
    let words = crate::error::UiError::from(&refused);
    assert_eq!(words.code, crate::UiCode::SignInNotHere);
    assert!(words.detail.contains("API key"), "{}", words.detail);

    // As the Demo it is: key management, the new computer and the token check all carry
    // the version tag.
    let client = token_client(&signed_in, Some(&sim.base_url), Some(" rev-7 ")).unwrap();
    client.auth().check().await.unwrap();
    client.keys().list().await.unwrap();
    let seen = sim.state().requests_seen();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(
        seen.iter()
            .all(|r| r.sai_version.as_deref() == Some("rev-7")),
        "{seen:?}"
    );
}

#[test]
fn only_firebase_s_own_words_for_it_end_a_sign_in() {
    let refused = |reason: &str| {
        porthole_client::Error::from(porthole_client::InputError::Invalid {
            field: "sign-in",
            reason: reason.to_owned(),
        })
    };
    for over in [
        "INVALID_REFRESH_TOKEN",
        "TOKEN_EXPIRED",
        "USER_DISABLED",
        "USER_NOT_FOUND",
    ] {
        assert!(sign_in_is_over(&refused(over)), "{over}");
    }
    for passing in [
        "TOO_MANY_ATTEMPTS_TRY_LATER",
        "HTTP 403 Forbidden",
        "QUOTA_EXCEEDED",
    ] {
        assert!(!sign_in_is_over(&refused(passing)), "{passing}");
    }
}

#[test]
fn display_name_reads_the_name_claim_and_tolerates_garbage() {
    let claims = URL_SAFE_NO_PAD.encode(br#"{"sub":"u1","name":"Ada","email":"a@x"}"#);
    assert_eq!(
        display_name(&format!("h.{claims}.s")).as_deref(),
        Some("Ada")
    );
    let email_only = URL_SAFE_NO_PAD.encode(br#"{"email":"a@x"}"#);
    assert_eq!(
        display_name(&format!("h.{email_only}.s")).as_deref(),
        Some("a@x")
    );
    assert_eq!(display_name("opaque-token"), None);
    assert_eq!(display_name("a.!!!.c"), None);
}
