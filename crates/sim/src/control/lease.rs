//! One control lease: its state (open or closed and why), its REPL, its exec queue, the idle
//! watchdog, and what it tells the agent through [`LeaseHold`].
//!
//! Invariants:
//! - A lease closes once; the first reason wins, and closing clears the REPL, releases the
//!   machine for the agent, and gives the free plan's computer back.
//! - `pending` counts blocks queued or running; a lease with pending blocks is never idle and
//!   never "quiet" (the agent cannot take the machine from under a block).
//! - Nothing here holds an `AppState` for longer than a call, except the watchdog task, which
//!   ends when the lease closes.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::{oneshot, watch, Notify};
use tokio::time::Instant;

use super::per_state::{downgrade, upgrade};
use super::repl::{BlockOutput, Host, Repl};
use crate::clock::Clock;
use crate::desktop::Desktop;
use crate::state::{AppState, Inner, LeaseHold};

/// Documented idle time before a lease releases the machine.
pub const IDLE: Duration = Duration::from_secs(600);
/// Documented idle time when an agent task waits for the machine.
pub const IDLE_AGENT_WAITING: Duration = Duration::from_secs(120);

/// `closedReason` of a closed lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClosedReason {
    Closed,
    IdleTimeout,
    LockLost,
    Unresponsive,
    Shutdown,
}

impl ClosedReason {
    pub fn as_str(self) -> &'static str {
        match self {
            ClosedReason::Closed => "closed",
            ClosedReason::IdleTimeout => "idle_timeout",
            ClosedReason::LockLost => "lock_lost",
            ClosedReason::Unresponsive => "unresponsive",
            ClosedReason::Shutdown => "shutdown",
        }
    }

    /// A sentence for the `410 control_closed` message.
    pub fn explain(self) -> &'static str {
        match self {
            ClosedReason::Closed => "The control session was closed.",
            ClosedReason::IdleTimeout => {
                "The control session ended after being idle, and the computer was released."
            }
            ClosedReason::LockLost => {
                "The agent took over the computer while the control session was quiet."
            }
            ClosedReason::Unresponsive => {
                "The computer stopped answering, so the control session was closed."
            }
            ClosedReason::Shutdown => "The service behind the control session restarted.",
        }
    }
}

struct State {
    closed: Option<ClosedReason>,
    last_exec_at: Option<i64>,
    last_activity: Instant,
    pending: usize,
    running: bool,
    repl: Option<Arc<Repl>>,
}

pub struct Lease {
    pub machine_id: String,
    pub owner: String,
    pub created_at: i64,
    pub is_free: bool,
    host: Host,
    app: Weak<Inner>,
    state: Mutex<State>,
    /// Blocks run one at a time, in arrival order (tokio's mutex is fair).
    pub queue: tokio::sync::Mutex<()>,
    closed_tx: watch::Sender<Option<ClosedReason>>,
    /// Wakes the exec that runs the current block when `interrupt` is called.
    pub interrupted: Notify,
}

impl Lease {
    /// Opens a lease with a fresh REPL on `desktop`. `None` when the engine cannot start.
    pub fn open(
        app: &AppState,
        machine_id: &str,
        owner: &str,
        is_free: bool,
        desktop: Desktop,
    ) -> Option<Arc<Lease>> {
        let host = Host {
            desktop,
            time_scale: app.clock().scale(),
            frozen: Arc::new(AtomicBool::new(false)),
        };
        let repl = Repl::start(host.clone())?;
        let lease = Arc::new(Lease {
            machine_id: machine_id.to_owned(),
            owner: owner.to_owned(),
            created_at: Clock::now_ms(),
            is_free,
            host,
            app: downgrade(app),
            state: Mutex::new(State {
                closed: None,
                last_exec_at: None,
                last_activity: Instant::now(),
                pending: 0,
                running: false,
                repl: Some(Arc::new(repl)),
            }),
            queue: tokio::sync::Mutex::new(()),
            closed_tx: watch::channel(None).0,
            interrupted: Notify::new(),
        });
        app.set_lease_hold(machine_id, Some(Arc::new(Hold(Arc::downgrade(&lease)))));
        tokio::spawn(watchdog(app.clone(), lease.clone()));
        Some(lease)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn closed_reason(&self) -> Option<ClosedReason> {
        self.lock().closed
    }

    /// Resolves when the lease closes, with the reason.
    pub async fn wait_closed(&self) -> ClosedReason {
        let mut rx = self.closed_tx.subscribe();
        loop {
            if let Some(r) = *rx.borrow_and_update() {
                return r;
            }
            if rx.changed().await.is_err() {
                return ClosedReason::Shutdown;
            }
        }
    }

    /// The Control lease object of the spec.
    pub fn body(&self) -> Value {
        let s = self.lock();
        let mut body = json!({
            "machineId": self.machine_id,
            "status": if s.closed.is_some() { "closed" } else { "open" },
            "createdAt": self.created_at,
            "lastExecAt": s.last_exec_at,
            "expiresAfterIdleSec": IDLE.as_secs(),
        });
        if let Some(r) = s.closed {
            body["closedReason"] = json!(r.as_str());
        }
        body
    }

    pub fn host(&self) -> &Host {
        &self.host
    }

    /// A block arrived (queued): counts as activity.
    pub fn block_arrived(&self) {
        let mut s = self.lock();
        s.pending += 1;
        s.last_activity = Instant::now();
    }

    /// A block left the queue or finished. `ran` marks that it executed (sets `lastExecAt`).
    pub fn block_done(&self, ran: bool) {
        let mut s = self.lock();
        s.pending = s.pending.saturating_sub(1);
        s.running = false;
        s.last_activity = Instant::now();
        if ran {
            s.last_exec_at = Some(Clock::now_ms());
        }
        drop(s);
        self.touch_watchdog();
    }

    /// Hands `code` to the REPL and marks it running, under the lease's lock so an interrupt
    /// either finds nothing running or reaches this very block. `None` once closed.
    pub fn begin_running(
        &self,
        code: String,
    ) -> Option<(Arc<Repl>, oneshot::Receiver<BlockOutput>)> {
        let mut s = self.lock();
        if s.closed.is_some() {
            return None;
        }
        let repl = s.repl.clone()?;
        let answer = repl.run(code);
        s.running = true;
        Some((repl, answer))
    }

    /// Replaces a REPL that did not stop: earlier variables are gone. `false` when no fresh
    /// REPL could be started or the lease closed meanwhile.
    pub fn restart_repl(&self) -> bool {
        let fresh = Repl::start(self.host.clone()).map(Arc::new);
        let mut s = self.lock();
        if s.closed.is_some() {
            return false;
        }
        let ok = fresh.is_some();
        s.repl = fresh;
        ok
    }

    /// Asks the running block to stop. `false` when nothing was running.
    pub fn interrupt(&self) -> bool {
        let s = self.lock();
        let Some(repl) = s.repl.as_ref().filter(|_| s.running) else {
            return false;
        };
        repl.stop(super::repl::StopReason::Interrupted);
        drop(s);
        self.interrupted.notify_waiters();
        true
    }

    /// Closes the lease once; later calls do nothing and return `false`.
    pub fn close(&self, reason: ClosedReason) -> bool {
        let repl = {
            let mut s = self.lock();
            if s.closed.is_some() {
                return false;
            }
            s.closed = Some(reason);
            s.running = false;
            s.repl.take()
        };
        // Dropping the REPL handle stops its block and ends its thread.
        drop(repl);
        self.closed_tx.send_replace(Some(reason));
        if let Some(app) = upgrade(&self.app) {
            // Only an open lease registers a hold, and at most one is open per machine, so
            // the registered hold is this lease's.
            app.set_lease_hold(&self.machine_id, None);
            if self.is_free {
                app.release_free_computer(&self.owner);
            }
            app.notify();
        }
        true
    }

    fn touch_watchdog(&self) {
        if let Some(app) = upgrade(&self.app) {
            app.notify();
        }
    }

    fn is_quiet(&self, app: &AppState) -> bool {
        let s = self.lock();
        s.closed.is_none()
            && s.pending == 0
            && s.last_activity.elapsed() >= app.clock().scaled(IDLE_AGENT_WAITING)
            && !app.agent_activity(&self.machine_id).waiting
    }
}

/// What the agent sees of a lease.
struct Hold(Weak<Lease>);

impl LeaseHold for Hold {
    /// Quiet: no block queued or running, no exec for two minutes, and no agent task already
    /// waiting (a waiting task gets the machine through the idle timeout instead).
    fn is_quiet(&self) -> bool {
        let Some(lease) = self.0.upgrade() else {
            return true;
        };
        match upgrade(&lease.app) {
            Some(app) => lease.is_quiet(&app),
            None => true,
        }
    }

    fn take_over(&self) {
        if let Some(lease) = self.0.upgrade() {
            lease.close(ClosedReason::LockLost);
        }
    }
}

/// Closes the lease after the idle time: 10 minutes since the last activity, or 2 while an
/// agent task waits for the machine. Wakes on every change so a waiting agent shortens it.
async fn watchdog(app: AppState, lease: Arc<Lease>) {
    let mut changes = app.changes();
    loop {
        if lease.closed_reason().is_some() {
            return;
        }
        let (pending, last) = {
            let s = lease.lock();
            (s.pending, s.last_activity)
        };
        let limit = if app.agent_activity(&lease.machine_id).waiting {
            IDLE_AGENT_WAITING
        } else {
            IDLE
        };
        let deadline = last + app.clock().scaled(limit);
        if pending == 0 && Instant::now() >= deadline {
            lease.close(ClosedReason::IdleTimeout);
            return;
        }
        changes.borrow_and_update();
        tokio::select! {
            _ = tokio::time::sleep_until(deadline.max(Instant::now() + Duration::from_millis(5))) => {}
            r = changes.changed() => if r.is_err() { return },
        }
    }
}
