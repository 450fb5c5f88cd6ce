//! API keys of the signed-in account: list, create, revoke, and "Use in Porthole".
//!
//! Invariant: a new key's secret goes to the webview exactly once, in the answer to
//! [`create`], for the one display with its Copy button; it is never put in the store or a
//! log. Rust keeps it in memory ([`FreshKey`]) only until it is used in Porthole or the
//! display closes, so "Use in Porthole" never needs the page to send it back.

use porthole_client::keys::{KeyRecord, MAX_KEY_NAME_CHARS};
use porthole_client::Secret;
use serde::Serialize;

use super::identity::{self, IdentityInfo};
use crate::connection::switchboard::Switchboard;
use crate::error::{AppError, AppResult};

#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct KeysView {
    pub identity: IdentityInfo,
    /// Newest first.
    pub keys: Vec<KeyRecord>,
}

/// A key just made. Serialized once, to show it; see the module invariant.
#[derive(Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct NewKey {
    pub key_id: String,
    pub name: Option<String>,
    /// The secret, for this one display only.
    pub secret: String,
    /// False in the Demo: its keys belong to a practice service that ends with the app.
    pub can_use_in_porthole: bool,
}

impl std::fmt::Debug for NewKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewKey")
            .field("key_id", &self.key_id)
            .finish_non_exhaustive()
    }
}

/// The last key created, until it is used or its display closes.
#[derive(Default)]
pub struct FreshKey {
    slot: std::sync::Mutex<Option<(String, String, Secret)>>,
}

impl FreshKey {
    fn put(&self, key_id: &str, base_url: &str, secret: Secret) {
        *self.slot.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((key_id.to_owned(), base_url.to_owned(), secret));
    }

    fn take(&self, key_id: &str) -> Option<(String, Secret)> {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        match slot.take() {
            Some((id, url, secret)) if id == key_id => Some((url, secret)),
            other => {
                *slot = other;
                None
            }
        }
    }

    pub fn clear(&self) {
        *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// A key name the service takes: trimmed, at most 100 characters; empty means none.
pub fn checked_name(name: Option<&str>) -> AppResult<Option<String>> {
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    if name.is_some_and(|n| n.chars().count() > MAX_KEY_NAME_CHARS) {
        return Err(AppError::KeyNameTooLong);
    }
    Ok(name.map(str::to_owned))
}

pub async fn list(board: &Switchboard) -> AppResult<KeysView> {
    let (client, identity) = identity::client(board).await?;
    let keys = client.keys().list().await?.keys;
    Ok(KeysView { identity, keys })
}

pub async fn create(board: &Switchboard, name: Option<String>) -> AppResult<NewKey> {
    let name = checked_name(name.as_deref())?;
    let (client, identity) = identity::client(board).await?;
    let created = client.keys().create(name.as_deref()).await?;
    board
        .fresh_key
        .put(&created.key_id, &identity.base_url, created.key.clone());
    Ok(NewKey {
        key_id: created.key_id,
        name: created.name,
        secret: created.key.expose().to_owned(),
        can_use_in_porthole: !identity.demo,
    })
}

/// Connects Porthole with the key just created (checked, then kept in the keychain).
pub async fn use_in_porthole(board: &Switchboard, key_id: &str) -> AppResult<()> {
    let (base_url, secret) = board.fresh_key.take(key_id).ok_or(AppError::NewKeyGone)?;
    // The service revision already chosen, if any, stays.
    let tag = board.version_tag();
    crate::connection::switching::connect_account(board, &base_url, secret.expose(), tag.as_deref())
        .await
}

pub async fn revoke(board: &Switchboard, key_id: &str) -> AppResult<()> {
    let (client, _) = identity::client(board).await?;
    client.keys().revoke(key_id).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_limited_to_100_characters() {
        assert_eq!(
            checked_name(Some("  laptop ")).unwrap().as_deref(),
            Some("laptop")
        );
        assert_eq!(checked_name(Some("   ")).unwrap(), None);
        assert_eq!(checked_name(None).unwrap(), None);
        let hundred = "é".repeat(100);
        assert_eq!(checked_name(Some(&hundred)).unwrap(), Some(hundred.clone()));
        assert!(matches!(
            checked_name(Some(&format!("{hundred}x"))),
            Err(AppError::KeyNameTooLong)
        ));
    }

    #[test]
    fn the_fresh_key_is_handed_out_once_and_only_for_its_id() {
        let fresh = FreshKey::default();
        fresh.put("k_1", "http://x", Secret::new("phk_secret"));
        assert!(fresh.take("k_2").is_none());
        let (url, secret) = fresh.take("k_1").unwrap();
        assert_eq!((url.as_str(), secret.expose()), ("http://x", "phk_secret"));
        assert!(fresh.take("k_1").is_none());
    }

    #[test]
    fn a_new_key_never_prints_its_secret() {
        let key = NewKey {
            key_id: "k_1".into(),
            name: None,
            secret: "phk_secret".into(),
            can_use_in_porthole: true,
        };
        assert!(!format!("{key:?}").contains("phk_secret"));
    }
}
