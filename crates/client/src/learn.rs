//! Learn (research preview): turn recorded turns into a function, or repair one.
//!
//! A conversion takes about two minutes, so the request timeout is eleven. With an
//! `idempotency_key` the call is retried like a GET (the service returns the earlier result
//! for a repeated key); without one it is never resent.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::budget::Limit;
use crate::client::{segment, Client};
use crate::error::{Operation, Result};
use crate::executor::{Call, Retry};
use crate::open_enum::open_enum;
use crate::turns::TokenUsage;

open_enum! {
    pub enum LearnMode {
        Convert = "convert",
        Heal = "heal",
    }
}

open_enum! {
    pub enum LearnStatus {
        Succeeded = "succeeded",
        Failed = "failed",
    }
}

/// A run of learned code, fed back to a repair.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Evaluation {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(type = Option<std::collections::HashMap<String, specta_typescript::Unknown>>))]
    pub inputs: Option<serde_json::Map<String, serde_json::Value>>,
    /// The run's `result`, `error` and last `logs`; at most 20 KB, no screenshot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
    pub result: Option<serde_json::Value>,
    /// A `judgementId`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgement: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LearnRequest {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_code: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evaluations: Vec<Evaluation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(
        default,
        rename = "idempotency_key",
        skip_serializing_if = "Option::is_none"
    )]
    pub idempotency_key: Option<String>,
}

/// One parameter of learned code: a key of `main`'s `params`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Parameter {
    pub name: String,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Unknown))]
    pub default_value: serde_json::Value,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LearnValidation {
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Vec<specta_typescript::Unknown>))]
    pub errors: Vec<serde_json::Value>,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Vec<specta_typescript::Unknown>))]
    pub warnings: Vec<serde_json::Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LearnResult {
    pub learn_id: String,
    pub mode: LearnMode,
    pub status: LearnStatus,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub template: String,
    #[serde(default)]
    pub parameters: Vec<Parameter>,
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
    pub output_schema: Option<serde_json::Value>,
    #[serde(default)]
    pub validation: LearnValidation,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
    pub changes: Option<serde_json::Value>,
    #[serde(default)]
    pub source_turns: Vec<String>,
    #[serde(default)]
    pub usage: Option<TokenUsage>,
    #[serde(default)]
    pub research_preview: bool,
    /// A repeated `idempotency_key` returned the earlier result.
    #[serde(default, rename = "idempotent_replay")]
    pub idempotent_replay: bool,
    /// `interrupted` when the call stopped mid-way.
    #[serde(default)]
    pub error: Option<String>,
}

pub struct Learn<'c> {
    client: &'c Client,
}

impl Client {
    pub fn learn(&self) -> Learn<'_> {
        Learn { client: self }
    }
}

impl Learn<'_> {
    pub async fn run(&self, request: &LearnRequest) -> Result<LearnResult> {
        let retry = Retry::by_idempotency_key(request.idempotency_key.as_deref());
        let call = Call::post(Operation::Learn, "/v1/agents/learn")
            .json(request)?
            .limit(Limit::Learn)
            .retry(retry)
            .timeout(Duration::from_secs(660));
        self.client.call(call).await
    }

    pub async fn get(&self, learn_id: &str) -> Result<LearnResult> {
        let path = format!("/v1/agents/learn/{}", segment(learn_id));
        self.client.call(Call::get(Operation::GetLearn, path)).await
    }
}
