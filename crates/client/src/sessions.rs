//! `POST /v1/agents/sessions` (path fixed by DESIGN.md, not the spec): start a new session on
//! a machine, so the next message does not continue the previous conversation.

use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::error::{Operation, Result};
use crate::executor::Call;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct NewSessionRequest {
    pub machine_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct NewSession {
    pub session_id: String,
}

pub struct Sessions<'c> {
    client: &'c Client,
}

impl Client {
    pub fn sessions(&self) -> Sessions<'_> {
        Sessions { client: self }
    }
}

impl Sessions<'_> {
    pub async fn create(&self, request: &NewSessionRequest) -> Result<NewSession> {
        let path = self.client.config().unpublished_paths.new_session.clone();
        self.client
            .call(Call::post(Operation::NewSession, path).json(request)?)
            .await
    }
}
