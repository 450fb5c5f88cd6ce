//! Direct control (research preview): `/v1/machines/{machineId}/control` leases with a real
//! JavaScript REPL acting on the machine's synthetic desktop.
//!
//! - `open` (`POST`): `201` newly opened, `200` when already open. May wait (a scaled up to three
//!   minutes) for an agent task to finish or the computer to start; `409 machine_busy` with
//!   `Retry-After` when the task still holds it, `503 machine_unavailable` when the computer
//!   did not come up.
//! - `exec`, `interrupt`, `GET` (the latest lease, open or closed), `DELETE` (`204`, also when
//!   nothing is open).
//! - The lease state machine lives in `lease`, the exec timing rules in `exec`, the engine in
//!   `repl`.
//!
//! Test hooks (documented in the crate README): `machine.hang(ms, { wholeComputer })` in a
//! block, and [`shutdown_all`] for the `shutdown` reason.

mod exec;
mod handlers;
mod lease;
mod per_state;
pub mod repl;
mod validate;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::routing::post;
use axum::Router;

pub(crate) use per_state::PerState;

use crate::state::AppState;
use lease::{ClosedReason, Lease};

/// Leases of one simulator: the latest per machine, and a gate that serialises opens.
#[derive(Default)]
struct Leases {
    latest: Mutex<HashMap<String, Arc<Lease>>>,
    opening: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

static LEASES: PerState<Leases> = PerState::new();

impl Leases {
    fn of(state: &AppState) -> Arc<Leases> {
        LEASES.get(state)
    }

    fn latest(&self, machine_id: &str) -> Option<Arc<Lease>> {
        self.latest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(machine_id)
            .cloned()
    }

    fn open_lease(&self, machine_id: &str) -> Option<Arc<Lease>> {
        self.latest(machine_id)
            .filter(|l| l.closed_reason().is_none())
    }

    fn set(&self, lease: Arc<Lease>) {
        self.latest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(lease.machine_id.clone(), lease);
    }

    fn gate(&self, machine_id: &str) -> Arc<tokio::sync::Mutex<()>> {
        self.opening
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(machine_id.to_owned())
            .or_default()
            .clone()
    }
}

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/v1/machines/{machine_id}/control",
            post(handlers::open)
                .get(handlers::get)
                .delete(handlers::close),
        )
        .route(
            "/v1/machines/{machine_id}/control/exec",
            post(handlers::exec),
        )
        .route(
            "/v1/machines/{machine_id}/control/interrupt",
            post(handlers::interrupt),
        )
}

/// Wakes whoever waits for a service restart (learn calls in progress).
#[derive(Default)]
struct Restarts(tokio::sync::Notify);

static RESTARTS: PerState<Restarts> = PerState::new();

/// Resolves when the service restarts ([`shutdown_all`]).
pub(crate) async fn restarted(state: &AppState) {
    let restarts = RESTARTS.get(state);
    restarts.0.notified().await;
}

/// The service restarted: every open lease closes with `shutdown`, and learn calls in
/// progress stop (`status: failed`, `error: interrupted`). Call it when the simulator stops;
/// tests call it to reach those transitions.
pub fn shutdown_all(state: &AppState) {
    RESTARTS.get(state).0.notify_waiters();
    let leases: Vec<Arc<Lease>> = Leases::of(state)
        .latest
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .cloned()
        .collect();
    for lease in leases {
        lease.close(ClosedReason::Shutdown);
    }
}
