//! A direct-control lease as a handle with the spec's state machine.
//!
//! States: `Open` → `Closed(reason)`. Closing (`closed`), going idle (`idle_timeout`), an
//! agent task taking the machine (`lock_lost`), an unanswered block (`unresponsive`) and a
//! service restart (`shutdown`) all end it; the handle learns of it from a `410
//! control_closed` answer, a `404 control_not_open`, or [`Lease::refresh`]. A closed handle
//! refuses to send blocks (nothing is sent) until [`Lease::reopen`] starts a fresh lease.
//! The idle deadline is `lastExecAt` (or the opening time) plus `expiresAfterIdleSec`, in the
//! service's milliseconds, so the app can show a countdown.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::control::{ClosedReason, ExecRequest, ExecResult, Interrupted, LeaseInfo, LeaseStatus};
use crate::error::{Error, ErrorCode, Result};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum LeaseState {
    Open,
    Closed { reason: ClosedReason },
}

/// An open (or ended) lease on one machine.
#[derive(Debug, Clone)]
pub struct Lease {
    client: Client,
    machine_id: String,
    state: LeaseState,
    idle_sec: u32,
    /// ms since the epoch of the last activity the service counts.
    last_activity_ms: i64,
    newly_opened: bool,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl Lease {
    /// Opens a lease (or joins the caller's open one). May take minutes.
    pub async fn open(client: &Client, machine_id: &str) -> Result<Self> {
        let opened = client.control().open(machine_id).await?;
        Ok(Self {
            client: client.clone(),
            machine_id: opened.machine_id,
            state: LeaseState::Open,
            idle_sec: opened.expires_after_idle_sec,
            last_activity_ms: now_ms(),
            newly_opened: opened.newly_opened,
        })
    }

    pub fn machine_id(&self) -> &str {
        &self.machine_id
    }

    pub fn state(&self) -> &LeaseState {
        &self.state
    }

    pub fn is_open(&self) -> bool {
        self.state == LeaseState::Open
    }

    /// Whether opening created a lease (`201`) rather than joining one (`200`).
    pub fn newly_opened(&self) -> bool {
        self.newly_opened
    }

    /// When the lease will close for idleness if no block runs (ms since the epoch).
    pub fn idle_deadline_ms(&self) -> Option<i64> {
        self.is_open()
            .then(|| self.last_activity_ms + i64::from(self.idle_sec) * 1000)
    }

    /// Runs a block. On a closed lease nothing is sent and the error says why it closed.
    pub async fn exec(&mut self, request: &ExecRequest) -> Result<ExecResult> {
        if let LeaseState::Closed { reason } = &self.state {
            return Err(Error::LeaseClosed {
                reason: reason.clone(),
            });
        }
        let outcome = self.client.control().exec(&self.machine_id, request).await;
        match &outcome {
            Ok(_) => self.last_activity_ms = now_ms(),
            Err(err) => self.observe(err),
        }
        outcome
    }

    pub async fn interrupt(&mut self) -> Result<Interrupted> {
        let outcome = self.client.control().interrupt(&self.machine_id).await;
        if let Err(err) = &outcome {
            self.observe(err);
        }
        outcome
    }

    /// Reads the lease from the service and updates the state and idle deadline.
    pub async fn refresh(&mut self) -> Result<LeaseInfo> {
        let info = match self.client.control().get(&self.machine_id).await {
            Ok(info) => info,
            Err(err) => {
                self.observe(&err);
                return Err(err);
            }
        };
        self.idle_sec = info.expires_after_idle_sec;
        if let Some(at) = info.last_exec_at {
            self.last_activity_ms = at;
        } else if info.created_at > 0 {
            self.last_activity_ms = info.created_at;
        }
        self.state = match info.status {
            LeaseStatus::Open => LeaseState::Open,
            _ => LeaseState::Closed {
                reason: info.closed_reason.clone().unwrap_or(ClosedReason::Closed),
            },
        };
        Ok(info)
    }

    /// Closes the lease (clears the REPL, releases the computer).
    pub async fn close(&mut self) -> Result<()> {
        self.client.control().close(&self.machine_id).await?;
        self.state = LeaseState::Closed {
            reason: ClosedReason::Closed,
        };
        Ok(())
    }

    /// Starts a fresh lease on the same machine after this one closed.
    pub async fn reopen(&mut self) -> Result<()> {
        let fresh = Self::open(&self.client, &self.machine_id).await?;
        *self = fresh;
        Ok(())
    }

    fn observe(&mut self, err: &Error) {
        match err.code() {
            ErrorCode::ControlClosed { reason } => self.state = LeaseState::Closed { reason },
            ErrorCode::ControlNotOpen => {
                self.state = LeaseState::Closed {
                    reason: ClosedReason::Closed,
                }
            }
            _ => {}
        }
    }
}
