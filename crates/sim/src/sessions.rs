//! Sessions: one current session per (account, machine, channel), as on the real service; a
//! fresh one on request (`POST /v1/agents/new-session`), and stopping the running task of a
//! session or of a channel's current session (`POST /v1/agents/abort`). Aborting resolves the
//! task's pending approvals as denied.

use crate::auth::Caller;
use crate::body::{object, opt_str, JsonBody};
use crate::clock::Clock;
use crate::error::ApiError;
use crate::limits::Limit;
use crate::machines::machine_not_found;
use crate::messages::{check_model, session_forbidden};
use crate::records::{Channel, Session, Usage};
use crate::state::{AppState, Db};
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Map, Value};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/agents/new-session", post(new_session))
        .route("/v1/agents/context", get(crate::conversations::context))
        .route("/v1/agents/abort", post(abort))
}

/// Creates an empty session and makes it the current one of its (account, machine, channel).
pub fn open(
    state: &AppState,
    db: &mut Db,
    owner: &str,
    machine_id: &str,
    channel: Channel,
    model: Option<String>,
) -> String {
    db.sessions_created += 1;
    let s = Session {
        id: state.new_id("cs_"),
        owner: owner.to_owned(),
        machine_id: machine_id.to_owned(),
        channel,
        model,
        turns: vec![],
        usage: Usage::default(),
        has_usage: false,
        created_at: Clock::now_ms(),
        title: None,
        seq: db.sessions_created,
    };
    let id = s.id.clone();
    db.sessions.insert(id.clone(), s);
    db.current_sessions.insert(
        (owner.to_owned(), machine_id.to_owned(), channel),
        id.clone(),
    );
    id
}

/// The current session of (account, machine, channel), if one was ever opened.
pub fn current(db: &Db, owner: &str, machine_id: &str, channel: Channel) -> Option<String> {
    db.current_sessions
        .get(&(owner.to_owned(), machine_id.to_owned(), channel))
        .cloned()
}

/// The makers' other reading of sessions (fault `retire-on-move`): the `api` channel keeps one
/// live conversation, on the computer it was last used from, so a message to `machine_id`
/// retires the caller's current `api` session on every other computer. The sessions stay in
/// the records (a task still running there runs on); they are only no longer current.
pub fn retire_elsewhere(db: &mut Db, owner: &str, machine_id: &str) {
    db.current_sessions.retain(|(who, machine, channel), _| {
        who != owner || machine == machine_id || *channel != Channel::Api
    });
}

/// The conversation's name, from its first task: the first line, cut at 60 characters.
pub fn title_of(message: &str) -> String {
    let line = message
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if line.chars().count() <= 60 {
        return line.to_owned();
    }
    let cut: String = line.chars().take(59).collect();
    format!("{}…", cut.trim_end())
}

/// A `channel` field or query value: `api` or `cli`, missing means `cli`.
pub fn parse_channel(value: Option<&str>) -> Result<Channel, ApiError> {
    Channel::parse_or_cli(value)
        .ok_or_else(|| ApiError::bad_request("channel must be \"api\" or \"cli\"."))
}

/// `POST /v1/agents/new-session` `{ machineId, channel?, model? }` → `200 { sessionId }`: a
/// fresh, empty conversation becomes the channel's current one (a missing channel is `cli`).
async fn new_session(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Json<Value>, ApiError> {
    let o = object(body)?;
    let machine_id =
        opt_str(&o, "machineId")?.ok_or_else(|| ApiError::bad_request("machineId is required."))?;
    let channel = parse_channel(opt_str(&o, "channel")?.as_deref())?;
    let model = opt_str(&o, "model")?;
    if let Some(m) = &model {
        check_model(&state, &caller, m)?;
    }
    state
        .machine(&caller.user_id, &machine_id)
        .ok_or_else(machine_not_found)?;
    state
        .limits()
        .hit(&caller.user_id, Limit::NewSessions)
        .map_err(|w| {
            ApiError::rate_limited(
                "New session rate limit exceeded. Maximum 30 new sessions per hour.",
                w,
            )
        })?;
    let id = open(
        &state,
        &mut state.db(),
        &caller.user_id,
        &machine_id,
        channel,
        model,
    );
    Ok(Json(json!({ "sessionId": id })))
}

/// `POST /v1/agents/abort`.
async fn abort(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Json<Value>, ApiError> {
    if state.faults().roll(crate::faults::Fault::Abort500) {
        return Err(ApiError::internal("The service had a problem. Try again."));
    }
    let o = match body {
        Value::Null => Map::new(),
        b => object(b)?,
    };
    let session_id = opt_str(&o, "sessionId")?;
    let machine_id = opt_str(&o, "machineId")?;
    let channel = parse_channel(opt_str(&o, "channel")?.as_deref())?;
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
            current(&state.db(), &caller.user_id, mid, channel)
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
