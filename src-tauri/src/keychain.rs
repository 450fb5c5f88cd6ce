//! The API key at rest: the OS keychain, one entry per service address.
//!
//! Invariant: the key goes from here into a [`Credential`] and nowhere else; errors carry
//! the keychain's complaint, never the key.

use porthole_client::{Credential, Secret};

use crate::error::{AppError, AppResult};

const SERVICE: &str = "app.porthole.desktop";

fn entry(base_url: &str) -> AppResult<keyring::Entry> {
    keyring::Entry::new(SERVICE, base_url).map_err(|e| AppError::Keychain(e.to_string()))
}

/// Keychain calls block (D-Bus); run them off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .map_err(|e| AppError::Keychain(e.to_string()))?
}

pub async fn save(base_url: &str, key: &Secret) -> AppResult<()> {
    let (base_url, key) = (base_url.to_owned(), key.clone());
    blocking(move || {
        entry(&base_url)?
            .set_password(key.expose())
            .map_err(|e| AppError::Keychain(e.to_string()))
    })
    .await
}

/// The saved key as a credential; `None` when there is none.
pub async fn load(base_url: &str) -> AppResult<Option<Credential>> {
    let base_url = base_url.to_owned();
    blocking(move || match entry(&base_url)?.get_password() {
        Ok(key) => Credential::api_key(&key)
            .map(Some)
            .map_err(AppError::Client),
        Err(keyring::Error::NoEntry) => Ok(None),
        Err(e) => Err(AppError::Keychain(e.to_string())),
    })
    .await
}

pub async fn delete(base_url: &str) -> AppResult<()> {
    let base_url = base_url.to_owned();
    blocking(move || match entry(&base_url)?.delete_credential() {
        Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
        Err(e) => Err(AppError::Keychain(e.to_string())),
    })
    .await
}
