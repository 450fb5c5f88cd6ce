//! The HTTP side of direct control: checks in the order the spec's Errors rows imply
//! (path, ownership, kind, plan, lease state, limits), then the lease and exec logic.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use tokio::time::Instant;

use super::exec::{self, ExecFailure};
use super::lease::{ClosedReason, Lease, IDLE};
use super::validate;
use super::Leases;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::limits::Limit;
use crate::records::MachineKind;
use crate::state::{AppState, MachineView};

/// Documented longest wait of an open (agent task finishing, computer starting).
pub const OPEN_WAIT: Duration = Duration::from_secs(180);
/// Documented `Retry-After` of `machine_busy` and `machine_unavailable`.
pub const RETRY_AFTER: Duration = Duration::from_secs(30);

fn retry_secs(state: &AppState) -> u64 {
    state
        .clock()
        .scaled(RETRY_AFTER)
        .as_secs_f64()
        .ceil()
        .max(1.0) as u64
}

fn not_found() -> ApiError {
    ApiError::coded(
        StatusCode::NOT_FOUND,
        "machine_not_found",
        "This computer does not exist or is not yours.",
    )
}

fn not_open() -> ApiError {
    ApiError::coded(
        StatusCode::NOT_FOUND,
        "control_not_open",
        "No control session is open on this computer. Open one first.",
    )
}

pub(super) fn closed(reason: ClosedReason) -> ApiError {
    ApiError::coded(StatusCode::GONE, "control_closed", reason.explain())
        .with("reason", reason.as_str())
}

/// The caller's cloud computer, or the Errors row that says why not.
fn machine(state: &AppState, caller: &Caller, machine_id: &str) -> Result<MachineView, ApiError> {
    validate::machine_id(machine_id)?;
    let m = state
        .machine(&caller.user_id, machine_id)
        .ok_or_else(not_found)?;
    if m.kind == MachineKind::Own {
        return Err(ApiError::coded(
            StatusCode::BAD_REQUEST,
            "machine_not_supported",
            "Direct control works only on cloud computers, not on your own desktop.",
        ));
    }
    Ok(m)
}

/// Free plan rules: a verified phone, and today's computer time left.
fn plan_checks(state: &AppState, caller: &Caller, m: &MachineView) -> Result<(), ApiError> {
    let Some(account) = state.account(&caller.user_id) else {
        return Err(ApiError::unauthorized());
    };
    if account.plan.is_free() && !account.phone_verified {
        return Err(ApiError::coded(
            StatusCode::FORBIDDEN,
            "phone_verification_required",
            "Verify your phone number in the portal to use direct control on the free plan.",
        ));
    }
    if account.plan.is_free() && state.faults().roll(crate::faults::Fault::PhoneAllowance) {
        return Err(ApiError::coded(
            StatusCode::FORBIDDEN,
            "phone_allowance_in_use",
            "The free allowance of this phone number is used by another account.",
        ));
    }
    if m.is_free && !account.plan.is_free() {
        return Err(ApiError::coded(
            StatusCode::CONFLICT,
            "not_free_tier",
            "This is the free plan's computer, and your account is no longer on the free plan.",
        ));
    }
    if state
        .free_computer_time_left(&caller.user_id)
        .is_some_and(|left| left.is_zero())
    {
        return Err(ApiError::coded(
            StatusCode::TOO_MANY_REQUESTS,
            "budget_exhausted",
            "Today's free computer time is used up. It resets at midnight UTC.",
        ));
    }
    Ok(())
}

fn lease_body(lease: &Lease) -> serde_json::Value {
    json!({ "machineId": lease.machine_id, "expiresAfterIdleSec": IDLE.as_secs() })
}

pub async fn open(
    State(state): State<AppState>,
    caller: Caller,
    Path(machine_id): Path<String>,
) -> Result<Response, ApiError> {
    let m = machine(&state, &caller, &machine_id)?;
    plan_checks(&state, &caller, &m)?;
    let leases = Leases::of(&state);
    if let Some(lease) = leases.open_lease(&m.id) {
        return Ok((StatusCode::OK, Json(lease_body(&lease))).into_response());
    }
    let gate = leases.gate(&m.id);
    let _opening = gate.lock().await;
    if let Some(lease) = leases.open_lease(&m.id) {
        return Ok((StatusCode::OK, Json(lease_body(&lease))).into_response());
    }
    if let Err(wait) = state.limits().hit(&caller.user_id, Limit::ControlLeases) {
        return Err(ApiError::coded(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "More than 30 control sessions were opened in an hour. Try again later.",
        )
        .retry_after(wait.0));
    }
    let deadline = Instant::now() + state.clock().scaled(OPEN_WAIT);
    wait_for_agent(&state, &m.id, deadline).await?;
    if !m.awake {
        let woke =
            tokio::time::timeout_at(deadline, state.ensure_awake(&caller.user_id, &m.id)).await;
        if !matches!(woke, Ok(Ok(()))) {
            return Err(ApiError::coded(
                StatusCode::SERVICE_UNAVAILABLE,
                "machine_unavailable",
                "The computer did not come online in time. Try again shortly.",
            )
            .retry_after(retry_secs(&state)));
        }
    }
    let desktop = state
        .machine(&caller.user_id, &m.id)
        .and_then(|m| m.desktop)
        .ok_or_else(unreachable_computer)?;
    let lease = Lease::open(&state, &m.id, &caller.user_id, m.is_free, desktop)
        .ok_or_else(unreachable_computer)?;
    leases.set(lease.clone());
    Ok((StatusCode::CREATED, Json(lease_body(&lease))).into_response())
}

fn unreachable_computer() -> ApiError {
    ApiError::coded(
        StatusCode::BAD_GATEWAY,
        "dispatcher_unavailable",
        "The computer could not be reached. Try again.",
    )
}

/// Waits for a running agent task to let go of the machine; `machine_busy` past `deadline`.
async fn wait_for_agent(
    state: &AppState,
    machine_id: &str,
    deadline: Instant,
) -> Result<(), ApiError> {
    let mut changes = state.changes();
    loop {
        changes.borrow_and_update();
        if !state.agent_activity(machine_id).running {
            return Ok(());
        }
        let tick = state
            .clock()
            .scaled(Duration::from_secs(5))
            .max(Duration::from_millis(5));
        let woke =
            tokio::time::timeout_at(deadline.min(Instant::now() + tick), changes.changed()).await;
        if Instant::now() >= deadline || matches!(woke, Ok(Err(_))) {
            return Err(ApiError::coded(
                StatusCode::CONFLICT,
                "machine_busy",
                "The agent is working on this computer. Try again when its task is done.",
            )
            .retry_after(retry_secs(state)));
        }
    }
}

pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(machine_id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let m = machine(&state, &caller, &machine_id)?;
    let lease = Leases::of(&state).latest(&m.id).ok_or_else(not_open)?;
    Ok(Json(lease.body()))
}

pub async fn close(
    State(state): State<AppState>,
    caller: Caller,
    Path(machine_id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let m = machine(&state, &caller, &machine_id)?;
    if let Some(lease) = Leases::of(&state).open_lease(&m.id) {
        lease.close(ClosedReason::Closed);
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The lease an exec or interrupt acts on: `404 control_not_open` when there never was one,
/// `410 control_closed` with the reason when it ended.
fn current(state: &AppState, machine_id: &str) -> Result<Arc<Lease>, ApiError> {
    let lease = Leases::of(state).latest(machine_id).ok_or_else(not_open)?;
    match lease.closed_reason() {
        Some(reason) => Err(closed(reason)),
        None => Ok(lease),
    }
}

pub async fn exec(
    State(state): State<AppState>,
    caller: Caller,
    Path(machine_id): Path<String>,
    body: Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    let m = machine(&state, &caller, &machine_id)?;
    let req = validate::exec_body(&body).map_err(validate::invalid_body)?;
    let lease = current(&state, &m.id)?;
    if let Err(wait) = state.limits().hit(&caller.user_id, Limit::ControlExec) {
        return Err(ApiError::coded(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "More than 3,000 code blocks ran in an hour. Try again later.",
        )
        .retry_after(wait.0));
    }
    plan_checks(&state, &caller, &m)?;
    match exec::run(&state, &lease, req).await {
        Ok(body) => Ok(Json(body)),
        Err(ExecFailure::Closed(reason)) => Err(closed(reason)),
    }
}

pub async fn interrupt(
    State(state): State<AppState>,
    caller: Caller,
    Path(machine_id): Path<String>,
) -> Result<Response, ApiError> {
    let m = machine(&state, &caller, &machine_id)?;
    let lease = current(&state, &m.id)?;
    let interrupted = lease.interrupt();
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({ "interrupted": interrupted })),
    )
        .into_response())
}
