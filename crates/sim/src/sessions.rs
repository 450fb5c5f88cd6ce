//! Sessions: a fresh session on a computer (`POST /v1/agents/sessions`) and stopping the
//! running task of a session or of a computer's conversation (`POST /v1/agents/abort`).
//! Aborting resolves the task's pending approvals as denied.

use crate::auth::Caller;
use crate::body::{object, opt_str, JsonBody};
use crate::clock::Clock;
use crate::error::ApiError;
use crate::limits::Limit;
use crate::machines::machine_not_found;
use crate::messages::{check_model, session_forbidden};
use crate::records::{Channel, Session, Usage};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Map, Value};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/agents/sessions", post(new_session))
        .route("/v1/agents/abort", post(abort))
}

/// A new, empty API session on a computer.
pub fn new_session_record(
    state: &AppState,
    owner: &str,
    machine_id: &str,
    model: Option<String>,
) -> Session {
    Session {
        id: state.new_id("cs_"),
        owner: owner.to_owned(),
        machine_id: machine_id.to_owned(),
        channel: Channel::Api,
        model,
        turns: vec![],
        usage: Usage::default(),
        has_usage: false,
        created_at: Clock::now_ms(),
    }
}

/// `POST /v1/agents/sessions` `{ machineId, model? }` → `201 { sessionId }`.
async fn new_session(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let o = object(body)?;
    let machine_id =
        opt_str(&o, "machineId")?.ok_or_else(|| ApiError::bad_request("machineId is required."))?;
    let model = opt_str(&o, "model")?;
    if let Some(m) = &model {
        check_model(&state, &caller, m)?;
    }
    state
        .machine(&caller.user_id, &machine_id)
        .ok_or_else(machine_not_found)?;
    let s = new_session_record(&state, &caller.user_id, &machine_id, model);
    let id = s.id.clone();
    state.db().sessions.insert(id.clone(), s);
    Ok((StatusCode::CREATED, Json(json!({ "sessionId": id }))))
}

/// `POST /v1/agents/abort`.
async fn abort(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Json<Value>, ApiError> {
    let o = match body {
        Value::Null => Map::new(),
        b => object(b)?,
    };
    let session_id = opt_str(&o, "sessionId")?;
    let machine_id = opt_str(&o, "machineId")?;
    let channel = match opt_str(&o, "channel")? {
        None => Channel::Cli,
        Some(c) => Channel::parse(&c)
            .ok_or_else(|| ApiError::bad_request("channel must be \"api\" or \"cli\"."))?,
    };
    if session_id.is_none() && machine_id.is_none() {
        return Err(ApiError::bad_request(
            "Send sessionId, or machineId with channel.",
        ));
    }
    state
        .limits()
        .hit(&caller.user_id, Limit::Aborts)
        .map_err(|w| {
            ApiError::rate_limited("Abort rate limit exceeded. Maximum 20 aborts per hour.", w)
        })?;
    let session = match (&session_id, &machine_id) {
        (Some(sid), _) => {
            let db = state.db();
            let s = db
                .sessions
                .get(sid)
                .filter(|s| s.owner == caller.user_id)
                .ok_or_else(session_forbidden)?;
            Some(s.id.clone())
        }
        (None, Some(mid)) => {
            state
                .machine(&caller.user_id, mid)
                .ok_or_else(machine_not_found)?;
            let db = state.db();
            db.sessions
                .values()
                .filter(|s| {
                    s.owner == caller.user_id && s.machine_id == *mid && s.channel == channel
                })
                .max_by_key(|s| s.created_at)
                .map(|s| s.id.clone())
        }
        (None, None) => None,
    };
    let Some(sid) = session else {
        return Ok(Json(
            json!({ "ok": true, "aborted": false, "reason": "no active session" }),
        ));
    };
    let turn = {
        let mut db = state.db();
        let current = db
            .sessions
            .get(&sid)
            .and_then(|s| s.current_turn().cloned());
        match current.and_then(|tid| db.turns.get_mut(&tid)) {
            Some(t) if !t.status.is_finished() && !t.aborted => {
                t.aborted = true;
                Some(t.id.clone())
            }
            _ => None,
        }
    };
    match turn {
        Some(tid) => {
            crate::approvals::deny_pending(&state, &tid);
            Ok(Json(json!({ "ok": true, "aborted": true })))
        }
        None => Ok(Json(
            json!({ "ok": true, "aborted": false, "reason": "session already idle or aborting" }),
        )),
    }
}
