//! `POST /v1/agents/approve { approvalId, response, selections? }` → `200 { ok: true }`, the
//! way the service's makers' own client answers a card: `response` is `yes`, `no`, or
//! `always` (one yes, nothing remembered). A yes to a choice card needs `selections` the card
//! accepts (see `card::check`); a refused pick is `400 { error: "<sentence>" }` and the card
//! waits on. Another account's or an unknown approval is `404 approval_not_found`; an
//! answered, aborted or expired one `409 approval_resolved`; a link-only card (a secure input
//! included) `403 link_only`: a person answers it on its page.

use super::card::{check, parse_selections};
use super::{not_found, resolve, Card};
use crate::auth::Caller;
use crate::body::{object, opt_str, JsonBody};
use crate::error::ApiError;
use crate::faults::Fault;
use crate::records::Decision;
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Value};

fn parse_response(s: &str) -> Option<Decision> {
    match s {
        "yes" | "always" => Some(Decision::Approve),
        "no" => Some(Decision::Deny),
        _ => None,
    }
}

/// The `reject-pick` fault's sentence: it names the first pick, as a refusal of the service's
/// own would, and asks for another.
fn refused_pick(questions: &[super::card::Question], picks: &[Vec<String>]) -> String {
    let text = questions
        .first()
        .map(|q| q.text.as_str())
        .unwrap_or_default();
    let pick = picks
        .first()
        .and_then(|g| g.first())
        .map(String::as_str)
        .unwrap_or_default();
    format!("Question 1 ({text}): \"{pick}\" cannot be chosen right now. Choose again.")
}

pub(super) async fn approve(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Json<Value>, ApiError> {
    let o = object(body)?;
    let approval_id = opt_str(&o, "approvalId")?
        .ok_or_else(|| ApiError::bad_request("approvalId is required."))?;
    let decision = opt_str(&o, "response")?
        .as_deref()
        .and_then(parse_response)
        .ok_or_else(|| ApiError::bad_request("response must be \"yes\" or \"no\"."))?;
    let (link_only, card) = {
        let db = state.db();
        let a = db
            .approvals
            .get(&approval_id)
            .filter(|a| a.owner == caller.user_id)
            .ok_or_else(not_found)?;
        (a.link_only, a.card.clone())
    };
    if link_only {
        return Err(ApiError::coded(
            StatusCode::FORBIDDEN,
            "link_only",
            "A person must answer this request on its approval page.",
        ));
    }
    let selections = match (&card, decision) {
        (Card::Choice { questions }, Decision::Approve) => {
            let picks = parse_selections(o.get("selections").unwrap_or(&Value::Null))
                .and_then(|picks| check(questions, &picks).map(|()| picks))
                .map_err(ApiError::bad_request)?;
            // Drawn only for a pick the card accepts, so the seed decides which valid picks
            // the service turns down and nothing else moves the draws.
            if state.faults().roll(Fault::RejectPick) {
                return Err(ApiError::bad_request(refused_pick(questions, &picks)));
            }
            Some(picks)
        }
        _ => None,
    };
    resolve(&state, &approval_id, decision, selections)?;
    Ok(Json(json!({ "ok": true })))
}
