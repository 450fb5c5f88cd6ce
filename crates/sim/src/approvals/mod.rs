//! Approval requests: the agent asks before a sensitive step and waits for a decision, an
//! expiry or an abort. Decisions come from `POST /v1/agents/approve` (`answer`) or, for
//! link-only approvals, from the page at `approvalUrl` (`page`), which a person opens in a
//! browser. `POST /v1/agents/approvals/{id}` (`{decision}`) is the path we guessed before the
//! real one was known; it goes once no caller uses it.

use crate::auth::Caller;
use crate::body::{object, opt_str, JsonBody};
use crate::clock::Clock;
use crate::error::ApiError;
use crate::records::{Approval, Decision, LogEntry, TurnStatus};
use crate::state::AppState;
use crate::tasks;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use std::time::Duration;

mod answer;
mod page;

/// Documented lifetime of an approval request.
pub const APPROVAL_LIFETIME: Duration = Duration::from_secs(600);

/// The decision endpoint (behind the fault layer).
pub fn v1_routes() -> Router<AppState> {
    Router::new()
        .route("/v1/agents/approvals/{approval_id}", post(decide))
        .route("/v1/agents/approve", post(answer::approve))
}

/// The page a person opens from `approvalUrl`.
pub fn page_routes() -> Router<AppState> {
    Router::new().route(
        "/approve/{user_id}/{approval_id}",
        get(page::page).post(page::page_decide),
    )
}

/// The approval as the events show it.
pub fn request_json(state: &AppState, a: &Approval) -> Value {
    json!({
        "approvalId": a.id,
        "title": a.title,
        "description": a.description,
        "approvalType": "exec",
        "isLinkOnly": a.link_only,
        "approvalUrl": format!("{}/approve/{}/{}?from=api", state.base_url(), a.owner, a.id),
        "command": a.command,
        "cwd": "/home/agent",
        "expiresAt": a.expires_at,
    })
}

/// What the agent asks before a sensitive step.
pub struct Ask {
    pub title: String,
    pub description: String,
    pub command: String,
    pub link_only: bool,
}

/// Asks, waits, and returns the decision (`Expired` when nobody answered in time; `Deny`
/// when the task was aborted meanwhile).
pub async fn ask(state: &AppState, turn_id: &str, ask: Ask) -> Decision {
    let lifetime = state.clock().scaled(APPROVAL_LIFETIME);
    let id = state.new_id("ap_");
    let owner = match state.db().turns.get(turn_id) {
        Some(t) => t.owner.clone(),
        None => return Decision::Deny,
    };
    let approval = Approval {
        id: id.clone(),
        owner,
        turn_id: turn_id.to_owned(),
        title: ask.title,
        description: ask.description,
        command: ask.command,
        link_only: ask.link_only,
        expires_at: Clock::now_ms() + lifetime.as_millis() as i64,
        decision: None,
    };
    let data = request_json(state, &approval);
    state.db().approvals.insert(id.clone(), approval);
    tasks::set_status(state, turn_id, TurnStatus::NeedsInput);
    tasks::push(
        state,
        turn_id,
        LogEntry::Event(json!({ "type": "data-approval-request", "data": data })),
    );
    let deadline = tokio::time::Instant::now() + lifetime;
    let mut changes = state.changes();
    let decision = loop {
        changes.borrow_and_update();
        if let Some(d) = state.db().approvals.get(&id).and_then(|a| a.decision) {
            break d;
        }
        tokio::select! {
            r = changes.changed() => if r.is_err() { break Decision::Deny; },
            _ = tokio::time::sleep_until(deadline) => {
                let mut db = state.db();
                if let Some(a) = db.approvals.get_mut(&id) {
                    break *a.decision.get_or_insert(Decision::Expired);
                }
                break Decision::Expired;
            }
        }
    };
    if !tasks::aborted(state, turn_id) {
        tasks::set_status(state, turn_id, TurnStatus::Running);
    }
    decision
}

/// Resolves every pending approval of a turn as denied (abort).
pub fn deny_pending(state: &AppState, turn_id: &str) {
    for a in state.db().approvals.values_mut() {
        if a.turn_id == turn_id && a.decision.is_none() {
            a.decision = Some(Decision::Deny);
        }
    }
    state.notify();
}

pub(crate) fn parse_decision(s: &str) -> Option<Decision> {
    match s {
        "approve" => Some(Decision::Approve),
        "deny" => Some(Decision::Deny),
        _ => None,
    }
}

pub(crate) fn not_found() -> ApiError {
    ApiError::coded(
        StatusCode::NOT_FOUND,
        "approval_not_found",
        "This approval request does not exist or is not yours.",
    )
}

/// Records a decision; `Err` when already answered or expired.
pub(crate) fn resolve(
    state: &AppState,
    approval_id: &str,
    decision: Decision,
) -> Result<(), ApiError> {
    {
        let mut db = state.db();
        let a = db.approvals.get_mut(approval_id).ok_or_else(not_found)?;
        if a.decision.is_some() || a.expires_at <= Clock::now_ms() {
            return Err(ApiError::coded(
                StatusCode::CONFLICT,
                "approval_resolved",
                "This approval request was already answered or has expired.",
            ));
        }
        a.decision = Some(decision);
    }
    state.notify();
    Ok(())
}

/// `POST /v1/agents/approvals/{approvalId}` `{ decision: "approve" | "deny" }`.
async fn decide(
    State(state): State<AppState>,
    caller: Caller,
    Path(approval_id): Path<String>,
    JsonBody(body): JsonBody,
) -> Result<Json<Value>, ApiError> {
    let body = object(body)?;
    let decision = opt_str(&body, "decision")?
        .as_deref()
        .and_then(parse_decision)
        .ok_or_else(|| ApiError::bad_request("decision must be \"approve\" or \"deny\"."))?;
    let link_only = {
        let db = state.db();
        let a = db
            .approvals
            .get(&approval_id)
            .filter(|a| a.owner == caller.user_id)
            .ok_or_else(not_found)?;
        a.link_only
    };
    if link_only {
        return Err(ApiError::coded(
            StatusCode::FORBIDDEN,
            "link_only",
            "A person must answer this request on its approval page.",
        ));
    }
    resolve(&state, &approval_id, decision)?;
    Ok(Json(json!({ "ok": true })))
}
