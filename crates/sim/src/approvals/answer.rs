//! `POST /v1/agents/approve { approvalId, response, selections? }` → `200 { ok: true }`, the
//! way the service's makers' own client answers a card: `response` is `yes`, `no`, or
//! `always` (one yes, nothing remembered). Another account's or an unknown approval is
//! `404 approval_not_found`; an answered, aborted or expired one `409 approval_resolved`; a
//! link-only card `403 link_only` (a person answers it on its page).

use super::{not_found, resolve};
use crate::auth::Caller;
use crate::body::{object, opt_str, JsonBody};
use crate::error::ApiError;
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
