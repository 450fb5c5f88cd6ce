//! `POST /v1/agents/abort`: stop a running task. Safe to repeat (stopping nothing is an
//! answer, not an error), so it is retried like a GET. Pending approvals become denied.

use serde::{Deserialize, Serialize};

use crate::budget::Limit;
use crate::client::Client;
use crate::error::{Operation, Result};
use crate::executor::{Call, Retry};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AbortOutcome {
    #[serde(default)]
    pub ok: bool,
    /// Whether a running task was stopped; `None` when the answer did not say (the makers'
    /// client reads a blank answer as `{}`), which is not "nothing was running".
    #[serde(default)]
    pub aborted: Option<bool>,
    /// Why nothing was stopped (`no active session`, `session already idle or aborting`).
    #[serde(default)]
    pub reason: Option<String>,
}

impl AbortOutcome {
    /// The service said there was nothing to stop (`aborted: false`); a blank answer does not.
    pub fn nothing_was_running(&self) -> bool {
        self.aborted == Some(false)
    }
}

pub struct Abort<'c> {
    client: &'c Client,
}

impl Client {
    pub fn abort(&self) -> Abort<'_> {
        Abort { client: self }
    }
}

impl Abort<'_> {
    /// Stops the task of a session (the recommended form).
    pub async fn session(&self, session_id: &str) -> Result<AbortOutcome> {
        self.send(serde_json::json!({ "sessionId": session_id }))
            .await
    }

    /// Stops this client's conversation on a machine. Always `channel: "api"`: a missing
    /// channel means the command-line client's conversation.
    pub async fn machine(&self, machine_id: &str) -> Result<AbortOutcome> {
        self.send(serde_json::json!({ "machineId": machine_id, "channel": "api" }))
            .await
    }

    async fn send(&self, body: serde_json::Value) -> Result<AbortOutcome> {
        let call = Call::post(Operation::Abort, "/v1/agents/abort")
            .json(&body)?
            .limit(Limit::Aborts)
            .retry(Retry::Idempotent);
        self.client.call_blank_ok(call).await
    }
}
