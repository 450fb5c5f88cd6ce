//! The control console: one direct-control lease per cloud computer, blocks run on it, and
//! why it ended. Reusable tasks run on the same leases.
//!
//! Invariants: at most one [`Lease`] per machine; a block runs on a copy of the handle so an
//! interrupt (sent straight to the service) is never queued behind the block it stops; the
//! screen a block captured stays here and reaches the page only as bytes.

use std::collections::HashMap;

use porthole_client::control::{ClosedReason, ExecRequest, ExecResult};
use porthole_client::{Lease, LeaseState};
use serde::Serialize;
use tauri::{AppHandle, Manager};
use tokio::sync::Mutex;

use crate::connection::Connection;
use crate::error::{AppError, AppResult, UiError};
use crate::error_words::lease_ended;
use crate::features::replay::ImageBytes;

/// The lease of a machine as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ConsoleState {
    pub machine_id: String,
    pub open: bool,
    /// Why the lease ended, in words, when it did.
    pub ended: Option<UiError>,
    /// When the lease will close for idleness (Unix ms), while open.
    pub idle_deadline_ms: Option<f64>,
}

/// One block's outcome, without the screenshot's bytes (fetched with [`screenshot`]).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BlockRun {
    pub result: ExecResult,
    /// A screenshot was captured and can be fetched.
    pub has_screenshot: bool,
    /// The screenshot was too large to return.
    pub screenshot_omitted: bool,
    pub state: ConsoleState,
}

#[derive(Default)]
pub struct Consoles {
    leases: Mutex<HashMap<String, Lease>>,
    screens: std::sync::Mutex<HashMap<String, Vec<u8>>>,
}

fn state_of(machine_id: &str, lease: Option<&Lease>) -> ConsoleState {
    let ended = match lease.map(Lease::state) {
        Some(LeaseState::Closed { reason }) => Some(lease_ended(reason)),
        _ => None,
    };
    ConsoleState {
        machine_id: machine_id.to_owned(),
        open: lease.is_some_and(Lease::is_open),
        ended,
        idle_deadline_ms: lease.and_then(Lease::idle_deadline_ms).map(|ms| ms as f64),
    }
}

impl Consoles {
    fn keep_screen(&self, machine_id: &str, bytes: Option<Vec<u8>>) {
        let mut screens = self.screens.lock().unwrap_or_else(|e| e.into_inner());
        match bytes {
            Some(bytes) => screens.insert(machine_id.to_owned(), bytes),
            None => screens.remove(machine_id),
        };
    }
}

/// Opens (or joins) the lease on `machine_id`. May take up to three minutes.
pub async fn open(app: &AppHandle, machine_id: &str) -> AppResult<ConsoleState> {
    let client = app.state::<Connection>().active().await?.client;
    let consoles = app.state::<Consoles>();
    let lease = Lease::open(&client, machine_id).await?;
    let mut leases = consoles.leases.lock().await;
    leases.insert(machine_id.to_owned(), lease);
    Ok(state_of(machine_id, leases.get(machine_id)))
}

/// Reads the lease from the service: notices an idle timeout, a lost lock or a restart.
pub async fn refresh(app: &AppHandle, machine_id: &str) -> AppResult<ConsoleState> {
    let consoles = app.state::<Consoles>();
    let Some(mut lease) = consoles.leases.lock().await.get(machine_id).cloned() else {
        return Ok(state_of(machine_id, None));
    };
    if lease.is_open() {
        // A failed read leaves what we knew; `refresh` marks the lease closed on a 404/410.
        let _ = lease.refresh().await;
    }
    let mut leases = consoles.leases.lock().await;
    leases.insert(machine_id.to_owned(), lease);
    Ok(state_of(machine_id, leases.get(machine_id)))
}

/// Runs `request` on the machine's lease, opening one first when `open_if_needed`.
pub async fn run(
    app: &AppHandle,
    machine_id: &str,
    request: &ExecRequest,
    open_if_needed: bool,
) -> AppResult<BlockRun> {
    let consoles = app.state::<Consoles>();
    let current = consoles.leases.lock().await.get(machine_id).cloned();
    let mut lease = match current {
        Some(lease) if lease.is_open() => lease,
        _ if open_if_needed => {
            open(app, machine_id).await?;
            consoles
                .leases
                .lock()
                .await
                .get(machine_id)
                .cloned()
                .ok_or(AppError::LeaseNotOpen)?
        }
        Some(lease) => lease,
        None => return Err(AppError::LeaseNotOpen),
    };
    let outcome = lease.exec(request).await;
    consoles
        .leases
        .lock()
        .await
        .insert(machine_id.to_owned(), lease.clone());
    let mut result = outcome?;
    let observations = result.observations.take().unwrap_or_default();
    let screen = observations
        .screenshot
        .as_ref()
        .and_then(|s| s.decode().ok());
    let has_screenshot = screen.is_some();
    consoles.keep_screen(machine_id, screen);
    Ok(BlockRun {
        result,
        has_screenshot,
        screenshot_omitted: observations.screenshot_omitted,
        state: state_of(machine_id, Some(&lease)),
    })
}

/// Asks the service to stop the running block; `false` when nothing was running.
pub async fn interrupt(app: &AppHandle, machine_id: &str) -> AppResult<bool> {
    let client = app.state::<Connection>().active().await?.client;
    Ok(client.control().interrupt(machine_id).await?.interrupted)
}

/// Closes the lease (clears the computer's variables and releases it).
pub async fn close(app: &AppHandle, machine_id: &str) -> AppResult<ConsoleState> {
    let client = app.state::<Connection>().active().await?.client;
    let consoles = app.state::<Consoles>();
    let current = consoles.leases.lock().await.get(machine_id).cloned();
    let mut lease = match current {
        Some(lease) => lease,
        None => {
            client.control().close(machine_id).await?;
            return Ok(state_of(machine_id, None));
        }
    };
    lease.close().await?;
    let mut leases = consoles.leases.lock().await;
    leases.insert(machine_id.to_owned(), lease);
    Ok(state_of(machine_id, leases.get(machine_id)))
}

/// The screen the last block on `machine_id` captured.
pub fn screenshot(app: &AppHandle, machine_id: &str) -> AppResult<ImageBytes> {
    let consoles = app.state::<Consoles>();
    let screens = consoles.screens.lock().unwrap_or_else(|e| e.into_inner());
    screens
        .get(machine_id)
        .cloned()
        .map(ImageBytes)
        .ok_or(AppError::NoScreenshot)
}

/// Every way a lease ends, for the page's "what these mean" list.
pub fn all_endings() -> Vec<UiError> {
    [
        ClosedReason::Closed,
        ClosedReason::IdleTimeout,
        ClosedReason::LockLost,
        ClosedReason::Unresponsive,
        ClosedReason::Shutdown,
    ]
    .iter()
    .map(lease_ended)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error_words::for_client_code;
    use porthole_client::ErrorCode;

    #[test]
    fn every_way_a_lease_ends_has_its_own_words() {
        let endings = all_endings();
        assert_eq!(endings.len(), 5);
        let mut titles: Vec<_> = endings.iter().map(|e| e.title.clone()).collect();
        titles.sort();
        titles.dedup();
        assert_eq!(titles.len(), 5, "each reason reads differently");
        assert!(endings
            .iter()
            .all(|e| e.code == "control_closed" && !e.detail.is_empty()));
    }

    #[test]
    fn a_block_refused_on_a_closed_lease_says_why_it_closed() {
        let lost = for_client_code(
            &ErrorCode::ControlClosed {
                reason: ClosedReason::LockLost,
            },
            None,
        );
        assert_eq!(lost, lease_ended(&ClosedReason::LockLost));
        assert!(lost.detail.contains("task"));
        let idle = for_client_code(
            &ErrorCode::ControlClosed {
                reason: ClosedReason::IdleTimeout,
            },
            None,
        );
        assert!(idle.detail.contains("10 minutes"));
    }

    #[test]
    fn a_closed_handle_shows_no_countdown() {
        let state = state_of("m1", None);
        assert!(!state.open && state.ended.is_none() && state.idle_deadline_ms.is_none());
    }
}
