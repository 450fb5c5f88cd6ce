//! `GET /v1/agents/auth`: check that the credential works and whose it is.

use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::error::{Operation, Result};
use crate::executor::Call;
use crate::open_enum::open_enum;

open_enum! {
    /// How a call was authenticated.
    pub enum AuthType {
        ApiKey = "apiKey",
        /// An identity-provider session.
        Idp = "idp",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AuthCheck {
    pub ok: bool,
    pub user_id: String,
    pub auth_type: AuthType,
}

pub struct Auth<'c> {
    client: &'c Client,
}

impl Client {
    pub fn auth(&self) -> Auth<'_> {
        Auth { client: self }
    }
}

impl Auth<'_> {
    /// Checks the credential; a wrong or revoked key is `ErrorCode::Unauthorized`.
    pub async fn check(&self) -> Result<AuthCheck> {
        self.client
            .call(Call::get(Operation::CheckKey, "/v1/agents/auth"))
            .await
    }
}
