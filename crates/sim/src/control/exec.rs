//! Running one exec block on a lease, with the spec's timing rules:
//! - blocks wait in a fair queue; the wait counts toward the block's own `timeoutMs`, and a
//!   block whose time runs out in the queue answers `timeout` without running;
//! - a running block past `timeoutMs` (or interrupted) is asked to stop; one that does not stop
//!   within a few seconds costs the REPL (a fresh one starts, earlier variables are gone);
//! - a computer that answers nothing at all within `timeoutMs` + 30 s closes the lease
//!   `unresponsive`, and the exec answers `410 control_closed`.
//!
//! Every duration is documented time, scaled by the simulator's time scale.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use serde_json::{json, Value};
use tokio::time::Instant;

use super::lease::{ClosedReason, Lease};
use super::repl::{BlockOutput, ErrorKind, StopReason};
use super::validate::ExecRequest;
use crate::state::AppState;

/// Documented time a stopped block gets before its REPL is restarted.
pub const STOP_GRACE: Duration = Duration::from_secs(3);
/// Documented extra time before a silent computer makes the lease `unresponsive`.
pub const UNRESPONSIVE_AFTER: Duration = Duration::from_secs(30);
/// Screenshots bigger than this come back as `screenshotOmitted: true`.
pub const MAX_SCREENSHOT_BYTES: usize = 8 * 1024 * 1024;
/// Scaled waits never go below this, so a tiny time scale still lets real work happen.
const MIN_REAL: Duration = Duration::from_millis(50);

/// Why an exec did not produce a result.
pub enum ExecFailure {
    /// The lease closed before or while the block ran (`410 control_closed`).
    Closed(ClosedReason),
}

fn scaled(state: &AppState, documented: Duration) -> Duration {
    state.clock().scaled(documented).max(MIN_REAL)
}

/// Runs one block and builds the Exec result body.
pub async fn run(
    state: &AppState,
    lease: &Arc<Lease>,
    req: ExecRequest,
) -> Result<Value, ExecFailure> {
    let arrived = Instant::now();
    let budget = scaled(state, Duration::from_millis(req.timeout_ms));
    let deadline = arrived + budget;
    lease.block_arrived();
    let queued = tokio::select! {
        guard = lease.queue.lock() => Some(guard),
        _ = tokio::time::sleep_until(deadline) => None,
        reason = lease.wait_closed() => {
            lease.block_done(false);
            return Err(ExecFailure::Closed(reason));
        }
    };
    let Some(_turn) = queued else {
        lease.block_done(false);
        return Ok(queue_timeout());
    };
    // Listen for an interrupt before the block can be seen running, so none is missed.
    let interrupted = lease.interrupted.notified();
    tokio::pin!(interrupted);
    interrupted.as_mut().enable();
    let started = Instant::now();
    let Some((repl, mut answer)) = lease.begin_running(req.code) else {
        lease.block_done(false);
        return Err(ExecFailure::Closed(
            lease.closed_reason().unwrap_or(ClosedReason::Closed),
        ));
    };
    let mut stop_reason = None;
    let first = tokio::select! {
        out = &mut answer => out.ok(),
        _ = tokio::time::sleep_until(deadline) => None,
        _ = &mut interrupted => { stop_reason = Some(StopReason::Interrupted); None },
        reason = lease.wait_closed() => {
            lease.block_done(true);
            return Err(ExecFailure::Closed(reason));
        }
    };
    let output = match first {
        Some(out) => out,
        None => {
            let reason = stop_reason.unwrap_or(StopReason::Timeout);
            repl.stop(reason);
            let grace = scaled(state, STOP_GRACE);
            match tokio::time::timeout(grace, &mut answer).await {
                Ok(Ok(out)) => out,
                _ => {
                    // The block ignores the stop: the REPL is lost. A frozen computer cannot
                    // even restart it; wait for an answer until timeoutMs + 30 s.
                    if lease.host().frozen.load(Ordering::SeqCst) {
                        let silent_until = arrived + budget + scaled(state, UNRESPONSIVE_AFTER);
                        let late = tokio::time::timeout_at(silent_until, async {
                            while lease.host().frozen.load(Ordering::SeqCst) {
                                tokio::time::sleep(Duration::from_millis(5)).await;
                            }
                        })
                        .await;
                        if late.is_err() {
                            lease.close(ClosedReason::Unresponsive);
                            lease.block_done(true);
                            return Err(ExecFailure::Closed(ClosedReason::Unresponsive));
                        }
                    }
                    drop(repl);
                    lease.restart_repl();
                    restarted(reason, started.elapsed())
                }
            }
        }
    };
    lease.block_done(true);
    if lease.is_free {
        let documented = output.duration.as_secs_f64() / state.clock().scale();
        state.spend_free_time(&lease.owner, documented);
    }
    Ok(result_body(output))
}

fn queue_timeout() -> Value {
    json!({
        "result": null,
        "logs": [],
        "error": { "kind": "timeout", "message": "The block waited for earlier blocks past its timeoutMs and did not run." },
        "observations": {},
        "variables": [],
        "durationMs": 0,
    })
}

fn restarted(reason: StopReason, ran: Duration) -> BlockOutput {
    let (kind, what) = match reason {
        StopReason::Timeout => (ErrorKind::Timeout, "ran past its timeoutMs"),
        StopReason::Interrupted => (ErrorKind::Interrupted, "was interrupted"),
    };
    BlockOutput {
        result: Value::Null,
        logs: Vec::new(),
        error: Some((kind, format!("The block {what} and did not stop, so the REPL was restarted; earlier variables are gone."))),
        screenshot: None,
        variables: Vec::new(),
        duration: ran,
    }
}

/// The Exec result object of the spec.
pub fn result_body(out: BlockOutput) -> Value {
    let mut observations = serde_json::Map::new();
    match out.screenshot {
        Some(jpeg) if jpeg.len() > MAX_SCREENSHOT_BYTES => {
            observations.insert("screenshotOmitted".into(), json!(true));
        }
        Some(jpeg) => {
            observations.insert(
                "screenshot".into(),
                json!({ "base64": STANDARD.encode(jpeg), "mimeType": "image/jpeg" }),
            );
        }
        None => {}
    }
    let mut body = json!({
        "result": out.result,
        "logs": out.logs,
        "observations": observations,
        "variables": out.variables,
        "durationMs": out.duration.as_millis() as u64,
    });
    if let Some((kind, message)) = out.error {
        body["error"] = json!({ "kind": kind.as_str(), "message": message });
    }
    body
}
