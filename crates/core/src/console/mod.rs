//! The control console: one direct-control lease per cloud computer, blocks run on it, and
//! why it ended. Reusable tasks run on the same leases.
//!
//! Invariants: at most one [`Lease`] per machine; a lease belongs to the connection (its
//! generation) that opened it, and a switch of service or account closes it, so the next
//! account never sees or sends to it; a block runs on a copy of the handle so an interrupt
//! (sent straight to the service) is never queued behind the block it stops; the screen a
//! block captured stays here and reaches the page only as bytes. The idle deadline is the
//! service's real one: a scaled Demo's documented 600 s shrink with its clock.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use porthole_client::control::{ClosedReason, ExecRequest, ExecResult};
use porthole_client::{Client, Lease, LeaseState};
use serde::Serialize;
use std::sync::Arc;
use std::sync::Mutex;

use crate::connection::{Active, Connection};
use crate::error::{AppError, AppResult, UiError};

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

/// The leases of the connection in use, and the screens their blocks captured.
#[derive(Default)]
pub struct Consoles {
    /// Never held across an await, so a switch can empty it at once.
    leases: Mutex<HashMap<String, Held>>,
    screens: Mutex<HashMap<String, Vec<u8>>>,
    /// Bumped by every switch: an open or a block still on its way then comes back to find
    /// its lease belongs to a connection that is gone, and closes it instead of keeping it.
    epoch: AtomicU64,
}

/// A lease and the connection it belongs to.
#[derive(Clone)]
struct Held {
    lease: Lease,
    generation: u64,
    epoch: u64,
    /// The idle limit the service reported, in its own (unscaled) seconds.
    idle_ms: i64,
    /// How fast the service's clock runs against ours (below 1 only for a scaled Demo).
    time_scale: f64,
}

impl Held {
    /// When the service will really close the lease for idleness: the handle's deadline
    /// with the idle limit shrunk by the service's time scale, because a scaled Demo
    /// reports the documented 600 s but releases after 600 s × scale.
    fn idle_deadline_ms(&self) -> Option<f64> {
        let deadline = self.lease.idle_deadline_ms()?;
        let last_activity = deadline - self.idle_ms;
        Some(last_activity as f64 + self.idle_ms as f64 * self.time_scale)
    }
}

/// The idle limit the spec names, for when the service cannot be asked.
const REFERENCE_IDLE_MS: i64 = 600_000;

/// How fast the service's clock runs: the client's hour is shortened for a scaled Demo.
fn time_scale(client: &Client) -> f64 {
    let scale = client.config().hour.as_secs_f64() / 3600.0;
    if scale.is_finite() && scale > 0.0 {
        scale.min(1.0)
    } else {
        1.0
    }
}

fn state_of(machine_id: &str, held: Option<&Held>) -> ConsoleState {
    let lease = held.map(|h| &h.lease);
    let ended = match lease.map(Lease::state) {
        Some(LeaseState::Closed { reason }) => Some(lease_ended(reason)),
        _ => None,
    };
    ConsoleState {
        machine_id: machine_id.to_owned(),
        open: lease.is_some_and(Lease::is_open),
        ended,
        idle_deadline_ms: held.and_then(Held::idle_deadline_ms),
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

    fn leases(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.leases.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The machine's lease, only if it belongs to the connection in use.
    fn held(&self, active: &Active, machine_id: &str) -> Option<Held> {
        self.leases()
            .get(machine_id)
            .filter(|h| h.generation == active.generation)
            .cloned()
    }

    /// Keeps `held` unless its connection was retired meanwhile (a switch while it was
    /// opening or running a block): then it is closed instead. Returns its state.
    async fn keep(&self, machine_id: &str, mut held: Held) -> ConsoleState {
        if held.epoch != self.epoch.load(Ordering::SeqCst) {
            close_quietly(&mut held.lease).await;
            return state_of(machine_id, Some(&held));
        }
        let state = state_of(machine_id, Some(&held));
        self.leases().insert(machine_id.to_owned(), held);
        state
    }

    /// Opens (or joins) the lease on `machine_id`. May take up to three minutes.
    pub async fn open(&self, active: &Active, machine_id: &str) -> AppResult<ConsoleState> {
        let epoch = self.epoch.load(Ordering::SeqCst);
        let mut lease = Lease::open(&active.client, machine_id).await?;
        // The service's own account of the lease: its idle limit and when it started.
        let idle_ms = match lease.refresh().await {
            Ok(info) => i64::from(info.expires_after_idle_sec) * 1000,
            Err(_) => REFERENCE_IDLE_MS,
        };
        let held = Held {
            lease,
            generation: active.generation,
            epoch,
            idle_ms,
            time_scale: time_scale(&active.client),
        };
        Ok(self.keep(machine_id, held).await)
    }

    /// Reads the lease from the service: notices an idle timeout, a lost lock or a restart.
    pub async fn refresh(&self, active: &Active, machine_id: &str) -> AppResult<ConsoleState> {
        let Some(mut held) = self.held(active, machine_id) else {
            return Ok(state_of(machine_id, None));
        };
        if held.lease.is_open() {
            // A failed read leaves what we knew; `refresh` marks the lease closed on a 404/410.
            if let Ok(info) = held.lease.refresh().await {
                held.idle_ms = i64::from(info.expires_after_idle_sec) * 1000;
            }
        }
        Ok(self.keep(machine_id, held).await)
    }

    /// Runs `request` on the machine's lease, opening one first when `open_if_needed`.
    pub async fn run(
        &self,
        active: &Active,
        machine_id: &str,
        request: &ExecRequest,
        open_if_needed: bool,
    ) -> AppResult<BlockRun> {
        let mut held = match self.held(active, machine_id) {
            Some(held) if held.lease.is_open() => held,
            _ if open_if_needed => {
                self.open(active, machine_id).await?;
                self.held(active, machine_id)
                    .ok_or(AppError::LeaseNotOpen)?
            }
            Some(held) => held,
            None => return Err(AppError::LeaseNotOpen),
        };
        let outcome = held.lease.exec(request).await;
        let state = self.keep(machine_id, held).await;
        let mut result = outcome?;
        let observations = result.observations.take().unwrap_or_default();
        let screen = observations
            .screenshot
            .as_ref()
            .and_then(|s| s.decode().ok());
        let has_screenshot = screen.is_some();
        self.keep_screen(machine_id, screen);
        Ok(BlockRun {
            result,
            has_screenshot,
            screenshot_omitted: observations.screenshot_omitted,
            state,
        })
    }

    /// Closes the lease (clears the computer's variables and releases it).
    pub async fn close(&self, active: &Active, machine_id: &str) -> AppResult<ConsoleState> {
        let Some(mut held) = self.held(active, machine_id) else {
            active.client.control().close(machine_id).await?;
            return Ok(state_of(machine_id, None));
        };
        held.lease.close().await?;
        Ok(self.keep(machine_id, held).await)
    }

    /// Forgets every lease at once (a switch to another service or account), so the next
    /// connection can neither see nor send to them. Returns them for [`close_all`].
    pub fn retire_all(&self) -> Vec<Lease> {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.screens
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.leases().drain().map(|(_, held)| held.lease).collect()
    }
}

/// Closes retired leases on their own services, releasing the computers.
pub async fn close_all(leases: Vec<Lease>) {
    for mut lease in leases {
        close_quietly(&mut lease).await;
    }
}

/// Closes a lease nobody will use again; it times out on its own if the service is gone.
async fn close_quietly(lease: &mut Lease) {
    if lease.is_open() {
        let _ = tokio::time::timeout(Duration::from_secs(10), lease.close()).await;
    }
}

/// What the console commands and a reusable task's run touch: the connection and its
/// leases (shared with the switchboard, which closes them at a switch). Built once in
/// `open_state` and managed.
#[derive(Clone)]
pub struct Console {
    pub connection: Connection,
    pub consoles: Arc<Consoles>,
}

impl Console {
    async fn active(&self) -> AppResult<Active> {
        self.connection.active().await
    }

    /// Opens (or joins) the lease on `machine_id`. May take up to three minutes.
    pub async fn open(&self, machine_id: &str) -> AppResult<ConsoleState> {
        let active = self.active().await?;
        self.consoles.open(&active, machine_id).await
    }

    /// Reads the lease from the service: notices an idle timeout, a lost lock or a restart.
    pub async fn refresh(&self, machine_id: &str) -> AppResult<ConsoleState> {
        let active = self.active().await?;
        self.consoles.refresh(&active, machine_id).await
    }

    /// Runs `request` on the machine's lease, opening one first when `open_if_needed`.
    pub async fn run(
        &self,
        machine_id: &str,
        request: &ExecRequest,
        open_if_needed: bool,
    ) -> AppResult<BlockRun> {
        let active = self.active().await?;
        self.consoles
            .run(&active, machine_id, request, open_if_needed)
            .await
    }

    /// Asks the service to stop the running block; `false` when nothing was running.
    pub async fn interrupt(&self, machine_id: &str) -> AppResult<bool> {
        let client = self.active().await?.client;
        Ok(client.control().interrupt(machine_id).await?.interrupted)
    }

    /// Closes the lease (clears the computer's variables and releases it).
    pub async fn close(&self, machine_id: &str) -> AppResult<ConsoleState> {
        let active = self.active().await?;
        self.consoles.close(&active, machine_id).await
    }

    /// The screen the last block on `machine_id` captured.
    pub fn screenshot(&self, machine_id: &str) -> AppResult<Vec<u8>> {
        let screens = self
            .consoles
            .screens
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        screens
            .get(machine_id)
            .cloned()
            .ok_or(AppError::NoScreenshot)
    }
}

/// Why a lease ended, in words.
pub fn lease_ended(reason: &ClosedReason) -> UiError {
    UiError::from(crate::error::problem::of_lease_end(reason))
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
    use crate::error::UiCode;
    use porthole_client::ErrorCode;

    fn for_client_code(code: ErrorCode) -> UiError {
        UiError::from(crate::error::problem::of_code(&code))
    }

    #[test]
    fn every_way_a_lease_ends_has_its_own_words() {
        let endings = all_endings();
        assert_eq!(endings.len(), 5);
        let mut titles: Vec<_> = endings.iter().map(|e| e.title.clone()).collect();
        titles.sort();
        titles.dedup();
        assert_eq!(titles.len(), 5, "each reason reads differently");
        let mut codes: Vec<UiCode> = endings.iter().map(|e| e.code).collect();
        codes.dedup();
        assert_eq!(codes.len(), 5, "each reason has its own code");
    }

    #[test]
    fn a_block_refused_on_a_closed_lease_says_why_it_closed() {
        let lost = for_client_code(ErrorCode::ControlClosed {
            reason: ClosedReason::LockLost,
        });
        assert_eq!(lost, lease_ended(&ClosedReason::LockLost));
        assert!(lost.detail.contains("task"));
        let idle = for_client_code(ErrorCode::ControlClosed {
            reason: ClosedReason::IdleTimeout,
        });
        assert!(idle.detail.contains("10 minutes"));
    }

    #[test]
    fn a_closed_handle_shows_no_countdown() {
        let state = state_of("m1", None);
        assert!(!state.open && state.ended.is_none() && state.idle_deadline_ms.is_none());
    }
}

#[cfg(test)]
mod service_tests;
