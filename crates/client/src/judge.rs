//! Judge (research preview): check finished turns against criteria. Retried like a GET only
//! with an `idempotency_key`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::budget::Limit;
use crate::client::{segment, Client};
use crate::error::{Operation, Result};
use crate::executor::{Call, Retry};
use crate::messages::Criteria;
use crate::open_enum::open_enum;
use crate::turns::TokenUsage;

open_enum! {
    pub enum Verdict {
        Passed = "passed",
        Failed = "failed",
        /// A criterion could not be checked.
        Unverifiable = "unverifiable",
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Judges {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criteria: Option<bool>,
    /// Not supported by the service (`400 not_supported`); here so that answer can be seen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transitions: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct JudgeRequest {
    pub turns: Vec<String>,
    pub criteria: Criteria,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judges: Option<Judges>,
    #[serde(
        default,
        rename = "idempotency_key",
        skip_serializing_if = "Option::is_none"
    )]
    pub idempotency_key: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct CriterionVerdict {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub check: Option<String>,
    pub verdict: Verdict,
    /// Probability that the check holds.
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default)]
    pub evidence: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Judgement {
    pub judgement_id: String,
    pub verdict: Verdict,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub task: String,
    #[serde(default)]
    pub criteria: Vec<CriterionVerdict>,
    #[serde(default)]
    pub turns: Vec<String>,
    #[serde(default)]
    pub usage: Option<TokenUsage>,
    #[serde(default)]
    pub research_preview: bool,
}

pub struct Judge<'c> {
    client: &'c Client,
}

impl Client {
    pub fn judge(&self) -> Judge<'_> {
        Judge { client: self }
    }
}

impl Judge<'_> {
    pub async fn run(&self, request: &JudgeRequest) -> Result<Judgement> {
        let retry = Retry::by_idempotency_key(request.idempotency_key.as_deref());
        let call = Call::post(Operation::Judge, "/v1/agents/judge")
            .json(request)?
            .limit(Limit::Judge)
            .retry(retry)
            .timeout(Duration::from_secs(660));
        self.client.call(call).await
    }

    pub async fn get(&self, judgement_id: &str) -> Result<Judgement> {
        let path = format!("/v1/agents/judge/{}", segment(judgement_id));
        self.client
            .call(Call::get(Operation::GetJudgement, path))
            .await
    }
}
