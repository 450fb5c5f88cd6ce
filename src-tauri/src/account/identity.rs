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

use super::sign_in_vault::{self as vault, Keychain, Refresh, Stored, Vault};
use super::{signin_config, token_life};
use crate::connection::account_client::account_client;
use crate::connection::switchboard::Switchboard;
use crate::connection::ConnectionMode;
use crate::error::{AppError, AppResult};

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
    identity: &Identity,
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
    identity.remember(base_url, stored).await?;
    Ok(info(base_url, &token, false))
}

/// The current sign-in: one made in this run, else the keychain's for the connected
/// account, else (in the Demo) the demo account's own.
pub async fn current(board: &Switchboard) -> AppResult<Option<IdentityInfo>> {
    Ok(signed_in(board)
        .await?
        .map(|s| info(&s.base_url, &s.stored.token, s.demo)))
}

async fn signed_in(board: &Switchboard) -> AppResult<Option<SignedIn>> {
    let identity = &board.identity;
    let connection = &board.connection;
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
        if let Some(token) = board.demo.id_token().await {
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
pub async fn client(board: &Switchboard) -> AppResult<(Client, IdentityInfo)> {
    let signed_in = signed_in(board).await?.ok_or(AppError::SignInNeeded)?;
    let config = super::signin_config::for_address(&board.demo, &signed_in.base_url).await;
    let signed_in = board.identity.fresh(signed_in, config.as_ref()).await?;
    let demo = board.demo.base_url().await;
    let tag = board.version_tag();
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
pub async fn forget(identity: &Identity) -> AppResult<()> {
    identity.forget(&[]).await
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
mod tests;
