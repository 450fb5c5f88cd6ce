//! Direct control endpoints (`/v1/machines/{id}/control`, research preview) and their types.
//! The [`crate::Lease`] handle wraps them with the lease's state machine.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::budget::Limit;
use crate::client::{segment, Client};
use crate::error::{InputError, Operation, Result};
use crate::executor::{Call, Retry};
use crate::open_enum::open_enum;

/// Longest `code` of a block, in characters.
pub const MAX_CODE_CHARS: usize = 200_000;
/// Bounds of a block's `timeoutMs`.
pub const TIMEOUT_MS_RANGE: std::ops::RangeInclusive<u32> = 1_000..=300_000;
/// A block's `timeoutMs` when none is sent.
pub const DEFAULT_TIMEOUT_MS: u32 = 120_000;

open_enum! {
    /// Why a lease closed.
    pub enum ClosedReason {
        /// Closed by the caller.
        Closed = "closed",
        /// No block for the idle time.
        IdleTimeout = "idle_timeout",
        /// An agent task took the machine.
        LockLost = "lock_lost",
        /// The computer did not answer a block in time.
        Unresponsive = "unresponsive",
        /// The service behind the lease restarted.
        Shutdown = "shutdown",
    }
}

open_enum! {
    pub enum LeaseStatus {
        Open = "open",
        Closed = "closed",
    }
}

open_enum! {
    pub enum ExecErrorKind {
        Exception = "exception",
        Timeout = "timeout",
        Interrupted = "interrupted",
    }
}

/// The latest lease on a machine (`GET`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LeaseInfo {
    pub machine_id: String,
    pub status: LeaseStatus,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub created_at: i64,
    /// `None` before the first block.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
    pub last_exec_at: Option<i64>,
    #[serde(default = "default_idle")]
    pub expires_after_idle_sec: u32,
    #[serde(default)]
    pub closed_reason: Option<ClosedReason>,
}

fn default_idle() -> u32 {
    600
}

/// The answer to open.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LeaseOpened {
    pub machine_id: String,
    #[serde(default = "default_idle")]
    pub expires_after_idle_sec: u32,
    /// `true` for `201` (a new lease), `false` for `200` (already open).
    #[serde(default)]
    pub newly_opened: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ExecRequest {
    pub code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u32>,
}

impl ExecRequest {
    pub fn new(code: impl Into<String>) -> Self {
        Self {
            code: code.into(),
            timeout_ms: None,
        }
    }

    fn check(&self) -> Result<()> {
        let chars = self.code.chars().count();
        if self.code.trim().is_empty() || chars > MAX_CODE_CHARS {
            return Err(InputError::Invalid {
                field: "code",
                reason: format!("must have 1 to {MAX_CODE_CHARS} characters (has {chars})"),
            }
            .into());
        }
        if let Some(timeout) = self.timeout_ms.filter(|t| !TIMEOUT_MS_RANGE.contains(t)) {
            return Err(InputError::Invalid {
                field: "timeoutMs",
                reason: format!("{timeout} is outside 1000 to 300000"),
            }
            .into());
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ExecError {
    pub kind: ExecErrorKind,
    #[serde(default)]
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ScreenshotData {
    pub base64: String,
    #[serde(default)]
    pub mime_type: String,
}

impl ScreenshotData {
    /// The image bytes; a malformed base64 payload is an error, not a panic.
    pub fn decode(&self) -> Result<Vec<u8>> {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(self.base64.trim())
            .map_err(|e| crate::error::Error::bad_response(e, b""))
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Observations {
    #[serde(default)]
    pub screenshot: Option<ScreenshotData>,
    #[serde(default)]
    pub screenshot_omitted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Variable {
    pub name: String,
    #[serde(default, rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub preview: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ExecResult {
    /// The block's last expression as JSON (a string when over 256 KB).
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Unknown))]
    pub result: serde_json::Value,
    #[serde(default)]
    pub logs: Vec<String>,
    /// Set when the block did not finish.
    #[serde(default)]
    pub error: Option<ExecError>,
    #[serde(default)]
    pub observations: Option<Observations>,
    #[serde(default)]
    pub variables: Vec<Variable>,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub duration_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Interrupted {
    /// `false` when nothing was running.
    pub interrupted: bool,
}

pub struct Control<'c> {
    client: &'c Client,
}

impl Client {
    pub fn control(&self) -> Control<'_> {
        Control { client: self }
    }
}

fn base(machine_id: &str) -> String {
    format!("/v1/machines/{}/control", segment(machine_id))
}

impl Control<'_> {
    /// Opens (or joins) the lease. May take up to 3 minutes; safe to repeat, since an open
    /// lease answers `200` with the same body.
    pub async fn open(&self, machine_id: &str) -> Result<LeaseOpened> {
        let call = Call::post(Operation::ControlOpen, base(machine_id))
            .limit(Limit::LeasesOpened)
            .timeout(Duration::from_secs(240));
        let response = self.client.send(call).await?;
        let newly_opened = response.status() == reqwest::StatusCode::CREATED;
        let mut opened: LeaseOpened = crate::executor::decode(response).await?;
        opened.newly_opened = newly_opened;
        Ok(opened)
    }

    /// Runs a block. A block that throws is still `Ok` with `error` set.
    pub async fn exec(&self, machine_id: &str, request: &ExecRequest) -> Result<ExecResult> {
        request.check()?;
        let timeout_ms = request.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
        // The service closes an unresponsive lease `timeoutMs` + 30 s in; wait a bit longer.
        let timeout = Duration::from_millis(u64::from(timeout_ms)) + Duration::from_secs(45);
        let call = Call::post(Operation::ControlExec, format!("{}/exec", base(machine_id)))
            .json(request)?
            .limit(Limit::ExecBlocks)
            .timeout(timeout);
        self.client.call(call).await
    }

    pub async fn interrupt(&self, machine_id: &str) -> Result<Interrupted> {
        let call = Call::post(
            Operation::ControlInterrupt,
            format!("{}/interrupt", base(machine_id)),
        )
        .retry(Retry::Idempotent);
        self.client.call(call).await
    }

    /// The latest lease, open or closed.
    pub async fn get(&self, machine_id: &str) -> Result<LeaseInfo> {
        self.client
            .call(Call::get(Operation::ControlGet, base(machine_id)))
            .await
    }

    /// Closes the lease; succeeds also when none is open.
    pub async fn close(&self, machine_id: &str) -> Result<()> {
        let call = Call::new(
            Operation::ControlClose,
            reqwest::Method::DELETE,
            base(machine_id),
        );
        self.client.call_empty(call).await
    }
}
