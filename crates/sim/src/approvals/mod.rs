//! Approval requests: the agent asks before a sensitive step and waits for a decision, an
//! expiry or an abort. Decisions come from `POST /v1/agents/approve` (`answer`) or, for
//! link-only approvals, from the page at `approvalUrl` (`page`), which a person opens in a
//! browser.

use crate::clock::Clock;
use crate::error::ApiError;
use crate::records::{Approval, Decision, LogEntry, TurnStatus};
use crate::state::AppState;
use crate::tasks;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use std::time::Duration;

mod answer;
mod card;
mod page;

pub use card::{chosen_words, Card, Choice, Question, Secret};

/// Documented lifetime of an approval request.
pub const APPROVAL_LIFETIME: Duration = Duration::from_secs(600);

/// The decision endpoint (behind the fault layer).
pub fn v1_routes() -> Router<AppState> {
    Router::new().route("/v1/agents/approve", post(answer::approve))
}

/// The page a person opens from `approvalUrl`.
pub fn page_routes() -> Router<AppState> {
    Router::new().route(
        "/approval/{user_id}/{approval_id}",
        get(page::page).post(page::page_decide),
    )
}

/// The approval as the events show it.
pub fn request_json(state: &AppState, a: &Approval) -> Value {
    let mut m = a.card.fields();
    m.insert("approvalId".into(), json!(a.id));
    m.insert("title".into(), json!(a.title));
    m.insert("description".into(), json!(a.description));
    m.insert("isLinkOnly".into(), json!(a.link_only));
    m.insert(
        "approvalUrl".into(),
        json!(format!(
            "{}/approval/{}/{}?from=api",
            state.base_url(),
            a.owner,
            a.id
        )),
    );
    // The makers' client reads a long; a service that sends the number as text must still
    // give a card that expires (`--shapes makers` sends it so).
    let expires = match state.shapes() {
        crate::Shapes::Makers => json!(a.expires_at.to_string()),
        crate::Shapes::Contract => json!(a.expires_at),
    };
    m.insert("expiresAt".into(), expires);
    Value::Object(m)
}

/// What the agent asks before a sensitive step or a choice.
pub struct Ask {
    pub title: String,
    pub description: String,
    pub card: Card,
    /// Answered only on the approval page (always so for a secure input).
    pub link_only: bool,
}

/// How a card was answered: the decision and, for an approved choice, the picks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub decision: Decision,
    pub selections: Vec<Vec<String>>,
}

/// Asks, waits, and returns the answer (`Expired` when nobody answered in time; `Deny`
/// when the task was aborted meanwhile).
pub async fn ask(state: &AppState, turn_id: &str, ask: Ask) -> Reply {
    let lifetime = state.clock().scaled(APPROVAL_LIFETIME);
    let id = state.new_id("ap_");
    let denied = Reply {
        decision: Decision::Deny,
        selections: vec![],
    };
    let owner = match state.db().turns.get(turn_id) {
        Some(t) => t.owner.clone(),
        None => return denied,
    };
    let link_only = ask.link_only || matches!(ask.card, Card::Input { .. });
    let approval = Approval {
        id: id.clone(),
        owner,
        turn_id: turn_id.to_owned(),
        title: ask.title,
        description: ask.description,
        card: ask.card,
        link_only,
        expires_at: Clock::now_ms() + lifetime.as_millis() as i64,
        decision: None,
        selections: None,
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
    let answered = |state: &AppState| {
        let db = state.db();
        let a = db.approvals.get(&id)?;
        Some(Reply {
            decision: a.decision?,
            selections: a.selections.clone().unwrap_or_default(),
        })
    };
    let reply = loop {
        changes.borrow_and_update();
        if let Some(r) = answered(state) {
            break r;
        }
        tokio::select! {
            r = changes.changed() => if r.is_err() { break denied; },
            _ = tokio::time::sleep_until(deadline) => {
                if let Some(a) = state.db().approvals.get_mut(&id) {
                    a.decision.get_or_insert(Decision::Expired);
                }
                break answered(state).unwrap_or(Reply { decision: Decision::Expired, selections: vec![] });
            }
        }
    };
    if !tasks::aborted(state, turn_id) {
        tasks::set_status(state, turn_id, TurnStatus::Running);
    }
    reply
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

/// Records a decision (and an approved choice's picks); `Err` when already answered or
/// expired.
pub(crate) fn resolve(
    state: &AppState,
    approval_id: &str,
    decision: Decision,
    selections: Option<Vec<Vec<String>>>,
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
        a.selections = selections;
    }
    state.notify();
    Ok(())
}
