//! Who is signed in with the identity provider, for the calls an API key may not make
//! (key management, creating a computer).
//!
//! Invariants: the ID token lives here (memory) and in the OS keychain, under its own
//! keychain service, per service address; it never reaches the webview, the store or a log.
//! The page only sees [`IdentityInfo`] (address, a display name). In the Demo, the
//! in-process simulator's demo account token is used without any sign-in.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use porthole_client::{Client, Credential, Secret};
use serde::Serialize;
use tauri::{AppHandle, Manager};

use crate::connection::{Connection, ConnectionMode};
use crate::demo::DemoService;
use crate::error::{AppError, AppResult};

const KEYCHAIN_SERVICE: &str = "app.porthole.desktop.id-token";

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

struct SignedIn {
    base_url: String,
    token: Secret,
    demo: bool,
}

#[derive(Default)]
pub struct Identity {
    current: std::sync::Mutex<Option<SignedIn>>,
}

impl Identity {
    fn get(&self) -> Option<(String, Secret, bool)> {
        let current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        current
            .as_ref()
            .map(|s| (s.base_url.clone(), s.token.clone(), s.demo))
    }

    fn set(&self, base_url: &str, token: Secret, demo: bool) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(SignedIn {
            base_url: base_url.to_owned(),
            token,
            demo,
        });
    }

    fn clear(&self) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// Remembers a checked token for `base_url` (memory and keychain).
pub async fn remember(app: &AppHandle, base_url: &str, token: Secret) -> AppResult<IdentityInfo> {
    save_to_keychain(base_url, &token).await?;
    app.state::<Identity>().set(base_url, token.clone(), false);
    Ok(info(base_url, &token, false))
}

/// The current sign-in: one made in this run, else the keychain's for the connected
/// account, else (in the Demo) the demo account's own.
pub async fn current(app: &AppHandle) -> AppResult<Option<IdentityInfo>> {
    Ok(signed_in(app)
        .await?
        .map(|(base_url, token, demo)| info(&base_url, &token, demo)))
}

async fn signed_in(app: &AppHandle) -> AppResult<Option<(String, Secret, bool)>> {
    let connection = app.state::<Connection>();
    let mode = connection.info().mode;
    let active_url = connection
        .active()
        .await
        .ok()
        .map(|a| a.client.base_url().to_owned());
    if let Some((base_url, token, demo)) = app.state::<Identity>().get() {
        // A Demo sign-in belongs to that Demo run only.
        if !demo || (mode == ConnectionMode::Demo && active_url.as_deref() == Some(&base_url)) {
            return Ok(Some((base_url, token, demo)));
        }
    }
    let Some(active_url) = active_url else {
        return Ok(None);
    };
    if mode == ConnectionMode::Demo {
        if let Some(token) = app.state::<DemoService>().id_token().await {
            app.state::<Identity>()
                .set(&active_url, token.clone(), true);
            return Ok(Some((active_url, token, true)));
        }
        return Ok(None);
    }
    match load_from_keychain(&active_url).await? {
        Some(token) => {
            app.state::<Identity>()
                .set(&active_url, token.clone(), false);
            Ok(Some((active_url, token, false)))
        }
        None => Ok(None),
    }
}

/// A client speaking as the signed-in person; `SignInNeeded` when nobody is.
pub async fn client(app: &AppHandle) -> AppResult<(Client, IdentityInfo)> {
    let (base_url, token, demo) = signed_in(app).await?.ok_or(AppError::SignInNeeded)?;
    let info = info(&base_url, &token, demo);
    let client = Client::new(&base_url, Credential::IdToken(token))?;
    Ok((client, info))
}

/// Forgets the sign-in (memory and keychain).
pub async fn forget(app: &AppHandle) -> AppResult<()> {
    if let Some((base_url, _, demo)) = app.state::<Identity>().get() {
        if !demo {
            delete_from_keychain(&base_url).await?;
        }
    }
    app.state::<Identity>().clear();
    Ok(())
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
    let payload = token.split('.').nth(1)?;
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    ["name", "email"]
        .iter()
        .find_map(|k| claims.get(*k).and_then(|v| v.as_str()).map(str::to_owned))
        .filter(|s| !s.trim().is_empty())
}

fn entry(base_url: &str) -> AppResult<keyring::Entry> {
    keyring::Entry::new(KEYCHAIN_SERVICE, base_url).map_err(|e| AppError::Keychain(e.to_string()))
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .map_err(|e| AppError::Keychain(e.to_string()))?
}

async fn save_to_keychain(base_url: &str, token: &Secret) -> AppResult<()> {
    let (base_url, token) = (base_url.to_owned(), token.clone());
    blocking(move || {
        entry(&base_url)?
            .set_password(token.expose())
            .map_err(|e| AppError::Keychain(e.to_string()))
    })
    .await
}

async fn load_from_keychain(base_url: &str) -> AppResult<Option<Secret>> {
    let base_url = base_url.to_owned();
    blocking(move || match entry(&base_url)?.get_password() {
        Ok(token) => Ok(Some(Secret::new(token))),
        Err(keyring::Error::NoEntry) => Ok(None),
        Err(e) => Err(AppError::Keychain(e.to_string())),
    })
    .await
}

async fn delete_from_keychain(base_url: &str) -> AppResult<()> {
    let base_url = base_url.to_owned();
    blocking(move || match entry(&base_url)?.delete_credential() {
        Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
        Err(e) => Err(AppError::Keychain(e.to_string())),
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

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
