//! API keys (`/v1/account/keys`): identity-provider session only. The created key's secret
//! comes back once, as a [`Secret`]; the app stores it in the keychain and nowhere else.

use serde::{Deserialize, Serialize};

use crate::budget::Limit;
use crate::client::{segment, Client};
use crate::credential::Secret;
use crate::error::{InputError, Operation, Result};
use crate::executor::{Call, Retry};

/// Longest key label the service accepts.
pub const MAX_KEY_NAME_CHARS: usize = 100;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct KeyRecord {
    pub key_id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub created_at: i64,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
    pub last_used_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct KeyList {
    /// Newest first.
    pub keys: Vec<KeyRecord>,
}

/// A new key. Not `Serialize`: the secret must not travel by accident.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreatedKey {
    pub key: Secret,
    pub key_id: String,
    #[serde(default)]
    pub name: Option<String>,
}

pub struct Keys<'c> {
    client: &'c Client,
}

impl Client {
    pub fn keys(&self) -> Keys<'_> {
        Keys { client: self }
    }
}

impl Keys<'_> {
    pub async fn create(&self, name: Option<&str>) -> Result<CreatedKey> {
        let name = name.map(str::trim).filter(|n| !n.is_empty());
        if name.is_some_and(|n| n.chars().count() > MAX_KEY_NAME_CHARS) {
            return Err(InputError::Invalid {
                field: "name",
                reason: format!("a key name has at most {MAX_KEY_NAME_CHARS} characters"),
            }
            .into());
        }
        let body = match name {
            Some(name) => serde_json::json!({ "name": name }),
            None => serde_json::json!({}),
        };
        let call = Call::post(Operation::CreateKey, "/v1/account/keys")
            .json(&body)?
            .limit(Limit::KeyCreation);
        self.client.call(call).await
    }

    pub async fn list(&self) -> Result<KeyList> {
        self.client
            .call(Call::get(Operation::ListKeys, "/v1/account/keys"))
            .await
    }

    /// Revokes a key; its next use answers `401`.
    pub async fn revoke(&self, key_id: &str) -> Result<()> {
        let path = format!("/v1/account/keys/{}", segment(key_id));
        let call = Call::new(Operation::RevokeKey, reqwest::Method::DELETE, path);
        self.client.call_empty(call.retry(Retry::Idempotent)).await
    }
}
