//! Approval requests and `POST /v1/agents/approvals/{id}` `{ decision }` (path fixed by
//! DESIGN.md, not the spec). Link-only approvals cannot be answered here: the app opens
//! `approval_url` in the browser instead.

use serde::{Deserialize, Serialize};

use crate::client::{segment, Client};
use crate::error::{InputError, Operation, Result};
use crate::executor::{Call, Retry};
use crate::open_enum::open_enum;

open_enum! {
    pub enum ApprovalType {
        Exec = "exec",
    }
}

/// The agent waits for permission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRequest {
    pub approval_id: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub approval_type: Option<ApprovalType>,
    /// When true, a person must answer through `approval_url`.
    #[serde(default)]
    pub is_link_only: bool,
    #[serde(default)]
    pub approval_url: Option<String>,
    #[serde(default)]
    pub command: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    /// ms since the epoch.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
    pub expires_at: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum Decision {
    Approve,
    Deny,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct DecisionOutcome {
    #[serde(default)]
    pub ok: bool,
}

pub struct Approvals<'c> {
    client: &'c Client,
}

impl Client {
    pub fn approvals(&self) -> Approvals<'_> {
        Approvals { client: self }
    }
}

impl Approvals<'_> {
    pub async fn decide(&self, approval_id: &str, decision: Decision) -> Result<DecisionOutcome> {
        if approval_id.trim().is_empty() {
            return Err(InputError::Invalid {
                field: "approvalId",
                reason: "is empty".into(),
            }
            .into());
        }
        let path = self
            .client
            .config()
            .unpublished_paths
            .approval
            .replace("{id}", &segment(approval_id));
        let body = serde_json::json!({ "decision": decision });
        // Deciding twice has the effect of deciding once (the second answer is
        // `approval_resolved`), so a decision lost to a 5xx or a broken connection is resent.
        let call = Call::post(Operation::Approval, path)
            .json(&body)?
            .retry(Retry::Idempotent);
        self.client.call(call).await
    }
}
