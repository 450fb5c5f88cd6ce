//! `GET /v1/agents/models`: the models a session may use.

use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::error::{Operation, Result};
use crate::executor::Call;
use crate::open_enum::open_enum;

open_enum! {
    pub enum ModelTier {
        Reasoning = "reasoning",
        Balanced = "balanced",
        Fast = "fast",
    }
}

open_enum! {
    /// Relative credit cost per task.
    pub enum CostTier {
        Free = "free",
        Low = "$",
        Medium = "$$",
        High = "$$$",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Model {
    /// Passed as `model`; `auto` lets the service pick.
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub provider: String,
    pub tier: ModelTier,
    pub cost_tier: CostTier,
    /// Whether the caller's plan may use it.
    pub allowed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ModelList {
    pub models: Vec<Model>,
    /// The id used when a session has no model set.
    #[serde(default = "auto")]
    pub default: String,
}

fn auto() -> String {
    "auto".into()
}

pub struct Models<'c> {
    client: &'c Client,
}

impl Client {
    pub fn models(&self) -> Models<'_> {
        Models { client: self }
    }
}

impl Models<'_> {
    pub async fn list(&self) -> Result<ModelList> {
        self.client
            .call(Call::get(Operation::Models, "/v1/agents/models"))
            .await
    }
}
