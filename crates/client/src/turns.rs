//! Turns: the result of a task, waiting for its final state, its trajectory and screenshots.
//!
//! `finalizing` is not final: [`Turns::wait`] polls (every `turn_poll_interval`, 2 to 5 s by
//! default) until `succeeded` or `failed`.

use std::time::Duration;

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use crate::client::{segment, Client};
use crate::error::{Error, Operation, Result};
use crate::events::EventErrorCode;
use crate::executor::Call;
use crate::open_enum::open_enum;

open_enum! {
    pub enum TurnStatus {
        Running = "running",
        NeedsInput = "needs_input",
        /// Not final: keep polling.
        Finalizing = "finalizing",
        Succeeded = "succeeded",
        Failed = "failed",
    }
}

impl TurnStatus {
    pub fn is_final(&self) -> bool {
        matches!(self, Self::Succeeded | Self::Failed)
    }
}

open_enum! {
    /// Why a turn failed.
    pub enum ReasonCode {
        AgentError = "agent_error",
        MachineUnavailable = "machine_unavailable",
        NotStarted = "not_started",
        OutputInvalid = "output_invalid",
        CriteriaNotMet = "criteria_not_met",
        CriteriaUnchecked = "criteria_unchecked",
    }
}

/// Tokens of the model calls of a turn, a learn or a judgement.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub input_tokens: u64,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub output_tokens: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TrajectoryRef {
    #[serde(default)]
    pub recorded: bool,
    #[serde(default)]
    pub url: String,
}

/// One check of a structured message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub passed: bool,
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default)]
    pub evidence: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Turn {
    pub turn_id: String,
    /// `None` until the message is delivered.
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub machine_id: String,
    pub status: TurnStatus,
    /// An object with `output_schema`, else the final answer; `None` until `succeeded`.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
    pub output: Option<serde_json::Value>,
    #[serde(default, rename = "reason_code")]
    pub reason_code: Option<ReasonCode>,
    #[serde(default, rename = "raw_answer")]
    pub raw_answer: Option<String>,
    #[serde(default, rename = "error_code")]
    pub error_code: Option<EventErrorCode>,
    #[serde(default)]
    pub usage: Option<TokenUsage>,
    #[serde(default)]
    pub record_trajectory: bool,
    #[serde(default)]
    pub trajectory: Option<TrajectoryRef>,
    #[serde(default)]
    pub evidence: Option<Vec<Evidence>>,
    #[serde(default, rename = "output_errors")]
    pub output_errors: Option<Vec<String>>,
    #[serde(default)]
    pub template: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
    pub inputs: Option<serde_json::Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub index: u32,
    #[serde(default)]
    pub timestamp: String,
    #[serde(default, rename = "final")]
    pub is_final: bool,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub rationale: String,
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub error: Option<String>,
    /// Path of the screen before the step; fetch with [`Turns::screenshot_at`].
    #[serde(default)]
    pub screenshot: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Trajectory {
    pub turn_id: String,
    #[serde(default)]
    pub trajectory: Option<TrajectoryRef>,
    #[serde(default)]
    pub steps: Vec<Step>,
}

/// A screenshot as received.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    pub bytes: Bytes,
    /// `image/jpeg` from the service.
    pub content_type: String,
}

pub struct Turns<'c> {
    client: &'c Client,
}

impl Client {
    pub fn turns(&self) -> Turns<'_> {
        Turns { client: self }
    }
}

impl Turns<'_> {
    pub async fn get(&self, turn_id: &str) -> Result<Turn> {
        let path = format!("/v1/agents/turns/{}", segment(turn_id));
        self.client.call(Call::get(Operation::Turn, path)).await
    }

    /// Polls until the turn is `succeeded` or `failed`, or `timeout` passes.
    pub async fn wait(&self, turn_id: &str, timeout: Duration) -> Result<Turn> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let turn = self.get(turn_id).await?;
            if turn.status.is_final() {
                return Ok(turn);
            }
            let interval = self.client.config().turn_poll_interval;
            if tokio::time::Instant::now() + interval > deadline {
                return Err(Error::TimedOut { what: "the turn" });
            }
            tokio::time::sleep(interval).await;
        }
    }

    pub async fn trajectory(&self, turn_id: &str) -> Result<Trajectory> {
        let path = format!("/v1/agents/turns/{}/trajectory", segment(turn_id));
        self.client
            .call(Call::get(Operation::Trajectory, path))
            .await
    }

    /// The JPEG of step `index`.
    pub async fn screenshot(&self, turn_id: &str, index: u32) -> Result<Image> {
        let path = format!(
            "/v1/agents/turns/{}/trajectory/screenshots/{index}",
            segment(turn_id)
        );
        self.image(path).await
    }

    /// A step's `screenshot` path as listed in the trajectory (relative to the base address).
    pub async fn screenshot_at(&self, listed_path: &str) -> Result<Image> {
        let path = listed_path.trim();
        if !path.starts_with("/v1/") || path.contains("..") {
            return Err(crate::error::InputError::Invalid {
                field: "screenshot",
                reason: format!("{path:?} is not a screenshot path of this service"),
            }
            .into());
        }
        self.image(path.to_owned()).await
    }

    async fn image(&self, path: String) -> Result<Image> {
        let response = self
            .client
            .send(Call::get(Operation::Screenshot, path))
            .await?;
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("application/octet-stream")
            .to_owned();
        let bytes = response.bytes().await.map_err(Error::Network)?;
        if !content_type.starts_with("image/") {
            return Err(Error::bad_response(
                format!("expected an image, got {content_type}"),
                &bytes,
            ));
        }
        Ok(Image {
            bytes,
            content_type,
        })
    }
}
