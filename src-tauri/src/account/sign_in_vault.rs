//! Where a sign-in rests between runs: the OS keychain, one entry per service address, under
//! its own keychain service (apart from the API keys).
//!
//! Invariant: the entry is the only place a sign-in is written; its value (JSON with the
//! token and the refresh token) never leaves this file except as a [`Stored`], whose secrets
//! are [`Secret`]s.

use std::sync::Arc;

use porthole_client::Secret;
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult};

const KEYCHAIN_SERVICE: &str = "app.porthole.desktop.id-token";

/// A sign-in as kept for one service address.
#[derive(Clone)]
pub struct Stored {
    pub token: Secret,
    /// The account the token speaks for, as the service said when it was checked; `None` for
    /// entries written before it was kept. Lets a switch of account tell whose sign-in it is.
    pub user_id: Option<String>,
    /// How to get a new token when this one expires, where the provider gave a way.
    pub refresh: Option<Refresh>,
}

/// Firebase's refresh token, traded at the Secure Token service of the address's sign-in
/// (`signin_config`).
#[derive(Clone)]
pub struct Refresh {
    pub token: Secret,
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stored")
            .field("user_id", &self.user_id)
            .field("refresh", &self.refresh.is_some())
            .finish_non_exhaustive()
    }
}

/// The entry's value. Entries of earlier versions also hold an `issuer` (where the sign-in of
/// that version renewed its token); it is ignored, and their refresh token, which Firebase
/// does not know, ends in signing in again.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    id_token: String,
    #[serde(default)]
    user_id: Option<String>,
    #[serde(default)]
    refresh_token: Option<String>,
}

impl Stored {
    pub(crate) fn to_value(&self) -> String {
        let entry = Entry {
            id_token: self.token.expose().to_owned(),
            user_id: self.user_id.clone(),
            refresh_token: self.refresh.as_ref().map(|r| r.token.expose().to_owned()),
        };
        serde_json::to_string(&entry).unwrap_or_default()
    }

    /// Earlier versions kept the bare token; it is read as a sign-in of an unknown account.
    pub(crate) fn from_value(value: &str) -> Self {
        match serde_json::from_str::<Entry>(value) {
            Ok(entry) => Self {
                token: Secret::new(entry.id_token),
                user_id: entry.user_id,
                refresh: entry.refresh_token.map(|token| Refresh {
                    token: Secret::new(token),
                }),
            },
            Err(_) => Self {
                token: Secret::new(value),
                user_id: None,
                refresh: None,
            },
        }
    }
}

/// Storage of sign-ins by service address. The app uses [`Keychain`]; tests use an in-memory
/// one, since a test must never touch the person's keychain.
pub trait Vault: Send + Sync + 'static {
    fn save(&self, base_url: &str, value: &str) -> AppResult<()>;
    fn load(&self, base_url: &str) -> AppResult<Option<String>>;
    fn delete(&self, base_url: &str) -> AppResult<()>;
}

/// The OS keychain.
pub struct Keychain;

fn entry(base_url: &str) -> AppResult<keyring::Entry> {
    keyring::Entry::new(KEYCHAIN_SERVICE, base_url).map_err(|e| AppError::Keychain(e.to_string()))
}

impl Vault for Keychain {
    fn save(&self, base_url: &str, value: &str) -> AppResult<()> {
        entry(base_url)?
            .set_password(value)
            .map_err(|e| AppError::Keychain(e.to_string()))
    }

    fn load(&self, base_url: &str) -> AppResult<Option<String>> {
        match entry(base_url)?.get_password() {
            Ok(value) => Ok(Some(value)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(AppError::Keychain(e.to_string())),
        }
    }

    fn delete(&self, base_url: &str) -> AppResult<()> {
        match entry(base_url)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(AppError::Keychain(e.to_string())),
        }
    }
}

/// Keychain calls block (D-Bus); they run off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| AppError::Keychain(e.to_string()))?
}

pub async fn save(vault: &Arc<dyn Vault>, base_url: &str, stored: &Stored) -> AppResult<()> {
    let (vault, base_url, value) = (vault.clone(), base_url.to_owned(), stored.to_value());
    blocking(move || vault.save(&base_url, &value)).await
}

pub async fn load(vault: &Arc<dyn Vault>, base_url: &str) -> AppResult<Option<Stored>> {
    let (vault, base_url) = (vault.clone(), base_url.to_owned());
    let value = blocking(move || vault.load(&base_url)).await?;
    Ok(value.as_deref().map(Stored::from_value))
}

pub async fn delete(vault: &Arc<dyn Vault>, base_url: &str) -> AppResult<()> {
    let (vault, base_url) = (vault.clone(), base_url.to_owned());
    blocking(move || vault.delete(&base_url)).await
}

#[cfg(test)]
pub mod memory {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use super::*;

    /// A vault in memory, for tests: the real keychain is the person's.
    #[derive(Default)]
    pub struct MemoryVault(pub Mutex<HashMap<String, String>>);

    impl MemoryVault {
        pub fn entries(&self) -> HashMap<String, String> {
            self.0.lock().unwrap().clone()
        }
    }

    impl Vault for MemoryVault {
        fn save(&self, base_url: &str, value: &str) -> AppResult<()> {
            self.0
                .lock()
                .unwrap()
                .insert(base_url.to_owned(), value.to_owned());
            Ok(())
        }

        fn load(&self, base_url: &str) -> AppResult<Option<String>> {
            Ok(self.0.lock().unwrap().get(base_url).cloned())
        }

        fn delete(&self, base_url: &str) -> AppResult<()> {
            self.0.lock().unwrap().remove(base_url);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_written_before_the_account_was_kept_still_read() {
        let legacy = Stored::from_value("eyJh.eyJz.sig");
        assert_eq!(legacy.token.expose(), "eyJh.eyJz.sig");
        assert_eq!(legacy.user_id, None);
        let stored = Stored {
            token: Secret::new("tok"),
            user_id: Some("u_1".into()),
            refresh: Some(Refresh {
                token: Secret::new("rt_1"),
            }),
        };
        let back = Stored::from_value(&stored.to_value());
        assert_eq!(back.token.expose(), "tok");
        assert_eq!(back.user_id.as_deref(), Some("u_1"));
        let refresh = back
            .refresh
            .expect("the refresh token is kept beside the token");
        assert_eq!(refresh.token.expose(), "rt_1");
        // An entry of the version whose sign-in named its own issuer still reads.
        let older = Stored::from_value(
            r#"{"idToken":"tok","userId":"u_1","refreshToken":"rt_0","issuer":"https://idp.example"}"#,
        );
        assert_eq!(older.token.expose(), "tok");
        assert_eq!(older.refresh.map(|r| r.token), Some(Secret::new("rt_0")));
        let printed = format!("{stored:?}");
        assert!(
            !printed.contains("tok") && !printed.contains("rt_1"),
            "{printed}"
        );
    }
}
