//! Who is signed in with the identity provider, for the calls an API key may not make
//! (key management, creating a computer).
//!
//! Invariants: the ID token lives here (memory) and in the OS keychain (`sign_in_vault`), per
//! service address; it never reaches the webview, the store or a log. Signing out, or
//! switching to another account, drops it from both.
//! The page only sees [`IdentityInfo`] (address, a display name). In the Demo, the
//! in-process simulator's demo account token is used without any sign-in.

use std::sync::Arc;

use porthole_client::firebase;
use porthole_client::{Client, Credential, Secret, SignInConfig};
use serde::Serialize;
use tauri::{AppHandle, Manager};

use super::sign_in_vault::{self as vault, Keychain, Refresh, Stored, Vault};
use super::{signin_config, token_life};
use crate::connection::account_client::account_client;
use crate::connection::demo::DemoService;
use crate::connection::{Connection, ConnectionMode};
use crate::error::{AppError, AppResult};
use crate::persist::SettingsStore;

/// What the page knows about the sign-in. No token in here.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct IdentityInfo {
    /// The service address key management and computer creation go to.
    pub base_url: String,
    /// The name or email on the sign-in, when the token carries one.
    pub display_name: Option<String>,
    /// The Demo's own sign-in (its keys cannot be used as a real account).
    pub demo: bool,
}

/// Its `Debug` shows no token (see [`Stored`]).
#[derive(Clone, Debug)]
struct SignedIn {
    base_url: String,
    stored: Stored,
    demo: bool,
}

/// The sign-in of this run, and where sign-ins rest between runs.
pub struct Identity {
    current: std::sync::Mutex<Option<SignedIn>>,
    vault: Arc<dyn Vault>,
}

impl Default for Identity {
    fn default() -> Self {
        Self::with_vault(Arc::new(Keychain))
    }
}

impl Identity {
    pub fn with_vault(vault: Arc<dyn Vault>) -> Self {
        Self {
            current: std::sync::Mutex::new(None),
            vault,
        }
    }

    fn get(&self) -> Option<SignedIn> {
        self.current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn set(&self, base_url: &str, stored: Stored, demo: bool) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(SignedIn {
            base_url: base_url.to_owned(),
            stored,
            demo,
        });
    }

    fn clear(&self) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Keeps a checked sign-in for `base_url`, in memory and in the keychain.
    pub async fn remember(&self, base_url: &str, stored: Stored) -> AppResult<()> {
        vault::save(&self.vault, base_url, &stored).await?;
        self.set(base_url, stored, false);
        Ok(())
    }

    /// The sign-in kept for `base_url` in an earlier run, now in memory too.
    async fn restore(&self, base_url: &str) -> AppResult<Option<SignedIn>> {
        let Some(stored) = vault::load(&self.vault, base_url).await? else {
            return Ok(None);
        };
        self.set(base_url, stored, false);
        Ok(self.get())
    }

    /// Drops the sign-in from memory and the keychain: this run's, and any kept for the
    /// addresses in `also` (the account being signed out of).
    pub async fn forget(&self, also: &[&str]) -> AppResult<()> {
        let current = self.get();
        self.clear();
        if let Some(signed_in) = current.filter(|s| !s.demo) {
            vault::delete(&self.vault, &signed_in.base_url).await?;
        }
        for base_url in also {
            vault::delete(&self.vault, base_url).await?;
        }
        Ok(())
    }

    /// `signed_in` with a token that will not expire during the next call: renewed with
    /// Firebase's refresh token (at `config`, the address's sign-in) when it is about to, else
    /// dropped with [`AppError::SignInExpired`], so the person is asked to sign in again
    /// before a call fails, not after. A provider that cannot be reached keeps the sign-in
    /// for a retry.
    async fn fresh(
        &self,
        signed_in: SignedIn,
        config: Option<&SignInConfig>,
    ) -> AppResult<SignedIn> {
        let token = signed_in.stored.token.expose();
        if signed_in.demo || !token_life::needs_renewal(token, token_life::now_secs()) {
            return Ok(signed_in);
        }
        let (Some(refresh), Some(config)) = (signed_in.stored.refresh.clone(), config) else {
            self.forget(&[]).await?;
            return Err(AppError::SignInExpired);
        };
        let renewed = match firebase::refresh(config, &refresh.token).await {
            Ok(renewed) => renewed,
            Err(err) if sign_in_is_over(&err) => {
                // The provider no longer takes the refresh token (revoked, or signed out
                // elsewhere).
                self.forget(&[]).await?;
                return Err(AppError::SignInExpired);
            }
            // Anything else (try later, a proxy's refusal) may pass: the sign-in is kept.
            Err(err) => return Err(err.into()),
        };
        let stored = Stored {
            token: renewed.id_token,
            user_id: signed_in.stored.user_id,
            refresh: Some(Refresh {
                // Firebase may send the next refresh token to keep.
                token: renewed.refresh_token.unwrap_or(refresh.token),
            }),
        };
        self.remember(&signed_in.base_url, stored).await?;
        self.get().ok_or(AppError::SignInExpired)
    }

    /// Porthole now speaks as `user_id` at `base_url`: a sign-in of anyone else, or at another
    /// address, is dropped (memory and keychain), so key management never acts as the account
    /// that was left. A sign-in of the same account stays (signing in, making a key and using
    /// it in Porthole is one flow).
    pub async fn switched_to(&self, base_url: &str, user_id: &str) -> AppResult<()> {
        let same = |s: &Stored| s.user_id.as_deref() == Some(user_id);
        let current = self.get();
        if let Some(signed_in) = &current {
            if signed_in.demo || signed_in.base_url != base_url || !same(&signed_in.stored) {
                self.forget(&[]).await?;
            }
        }
        let kept_here =
            current.is_some_and(|s| !s.demo && s.base_url == base_url && same(&s.stored));
        if !kept_here {
            if let Some(stored) = vault::load(&self.vault, base_url).await? {
                if !same(&stored) {
                    vault::delete(&self.vault, base_url).await?;
                }
            }
        }
        Ok(())
    }
}

/// Whether Firebase's refusal of a renewal means the sign-in is over for good: only its own
/// words for that (security review N12). A 429 "try later" or a proxy's 403 does not sign the
/// person out.
fn sign_in_is_over(err: &porthole_client::Error) -> bool {
    const OVER: [&str; 4] = [
        "INVALID_REFRESH_TOKEN",
        "TOKEN_EXPIRED",
        "USER_DISABLED",
        "USER_NOT_FOUND",
    ];
    matches!(
        err,
        porthole_client::Error::Input(porthole_client::InputError::Invalid { reason, .. })
            if OVER.contains(&reason.as_str())
    )
}

/// Remembers a checked token for `base_url` (memory and keychain), with the account it is of
/// and, where the provider gave one, the way to renew it.
pub async fn remember(
    app: &AppHandle,
    base_url: &str,
    token: Secret,
    user_id: &str,
    refresh: Option<Refresh>,
) -> AppResult<IdentityInfo> {
    let stored = Stored {
        token: token.clone(),
        user_id: Some(user_id.to_owned()),
        refresh,
    };
    app.state::<Identity>().remember(base_url, stored).await?;
    Ok(info(base_url, &token, false))
}

/// The current sign-in: one made in this run, else the keychain's for the connected
/// account, else (in the Demo) the demo account's own.
pub async fn current(app: &AppHandle) -> AppResult<Option<IdentityInfo>> {
    Ok(signed_in(app)
        .await?
        .map(|s| info(&s.base_url, &s.stored.token, s.demo)))
}

async fn signed_in(app: &AppHandle) -> AppResult<Option<SignedIn>> {
    let identity = app.state::<Identity>();
    let connection = app.state::<Connection>();
    let mode = connection.info().mode;
    let active_url = connection
        .active()
        .await
        .ok()
        .map(|a| a.client.base_url().to_owned());
    if let Some(signed_in) = identity.get() {
        // A Demo sign-in belongs to that Demo run only.
        if !signed_in.demo
            || (mode == ConnectionMode::Demo && active_url.as_deref() == Some(&signed_in.base_url))
        {
            return Ok(Some(signed_in));
        }
    }
    let Some(active_url) = active_url else {
        return Ok(None);
    };
    if mode == ConnectionMode::Demo {
        if let Some(token) = app.state::<DemoService>().id_token().await {
            let stored = Stored {
                token,
                user_id: None,
                refresh: None,
            };
            identity.set(&active_url, stored, true);
            return Ok(identity.get());
        }
        return Ok(None);
    }
    identity.restore(&active_url).await
}

/// A client speaking as the signed-in person, with a token good for the call ahead;
/// `SignInNeeded` when nobody is, `SignInExpired` when the sign-in ran out.
pub async fn client(app: &AppHandle) -> AppResult<(Client, IdentityInfo)> {
    let signed_in = signed_in(app).await?.ok_or(AppError::SignInNeeded)?;
    let config = super::signin_config::for_address(app, &signed_in.base_url).await;
    let signed_in = app
        .state::<Identity>()
        .fresh(signed_in, config.as_ref())
        .await?;
    let demo = app.state::<DemoService>().base_url().await;
    let tag = app.state::<SettingsStore>().get().version_tag;
    let client = token_client(&signed_in, demo.as_deref(), tag.as_deref())?;
    let info = info(&signed_in.base_url, &signed_in.stored.token, signed_in.demo);
    Ok((client, info))
}

/// The client that speaks with the sign-in's ID token, built like every client of the
/// account (the version tag on every call). Refused, before anything is sent, where the
/// token may not go: only the service's known address and the Demo take a sign-in.
fn token_client(signed_in: &SignedIn, demo: Option<&str>, tag: Option<&str>) -> AppResult<Client> {
    if !signed_in.demo && !signin_config::takes_sign_in(&signed_in.base_url, demo) {
        return Err(AppError::SignInNotHere);
    }
    let token = Credential::IdToken(signed_in.stored.token.clone());
    account_client(&signed_in.base_url, token, tag)
}

/// Forgets the sign-in (memory and keychain).
pub async fn forget(app: &AppHandle) -> AppResult<()> {
    app.state::<Identity>().forget(&[]).await
}

fn info(base_url: &str, token: &Secret, demo: bool) -> IdentityInfo {
    IdentityInfo {
        base_url: base_url.to_owned(),
        display_name: display_name(token.expose()),
        demo,
    }
}

/// The `name` (else `email`) claim of a JWT-shaped token, read without trusting it: it is
/// only a label for the person's own sign-in.
pub fn display_name(token: &str) -> Option<String> {
    let claims = token_life::claims(token)?;
    ["name", "email"]
        .iter()
        .find_map(|k| claims.get(*k).and_then(|v| v.as_str()).map(str::to_owned))
        .filter(|s| !s.trim().is_empty())
}

#[cfg(test)]
mod tests {
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
}
