//! Reading conversations back. `GET /v1/agents/context?machineId&limit&channel` is the real
//! service's catch-up read: `{ messages: [{ role, content }] }`, the current session's person
//! messages (`user`, joined messages included) and agent answers (`assistant`), oldest first,
//! the last `limit` (default 20, at most 100). `GET /v1/agents/sessions?machineId&channel`
//! exists on the real service with an unpublished shape; ours is
//! `{ sessions: [{ sessionId, createdAt, updatedAt, title? }] }`, newest first. Both default a
//! missing channel to `cli`, as the real service does.

use crate::auth::Caller;
use crate::error::ApiError;
use crate::machines::machine_not_found;
use crate::records::{Channel, Session};
use crate::sessions::{current, parse_channel};
use crate::state::{AppState, Db};
use axum::extract::{Query, State};
use axum::Json;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

const DEFAULT_LIMIT: usize = 20;
const MAX_LIMIT: usize = 100;

/// The caller's machine and channel named by the query.
fn target(
    state: &AppState,
    caller: &Caller,
    q: &HashMap<String, String>,
) -> Result<(String, Channel), ApiError> {
    let machine_id = q
        .get("machineId")
        .filter(|m| !m.is_empty())
        .ok_or_else(|| ApiError::bad_request("machineId is required."))?
        .clone();
    let channel = parse_channel(q.get("channel").map(String::as_str))?;
    state
        .machine(&caller.user_id, &machine_id)
        .ok_or_else(machine_not_found)?;
    Ok((machine_id, channel))
}

/// A session's history, oldest first.
fn history(db: &Db, session: &Session) -> Vec<Value> {
    let mut out = Vec::new();
    for t in session.turns.iter().filter_map(|id| db.turns.get(id)) {
        for text in std::iter::once(&t.message).chain(t.joined.iter()) {
            out.push(json!({ "role": "user", "content": text }));
        }
        if t.ended && !t.answer.is_empty() {
            out.push(json!({ "role": "assistant", "content": t.answer }));
        }
    }
    out
}

/// `GET /v1/agents/context`.
pub async fn context(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let limit = match q.get("limit") {
        None => DEFAULT_LIMIT,
        Some(l) => l
            .parse::<usize>()
            .ok()
            .filter(|l| (1..=MAX_LIMIT).contains(l))
            .ok_or_else(|| ApiError::bad_request("limit must be a number from 1 to 100."))?,
    };
    let (machine_id, channel) = target(&state, &caller, &q)?;
    let db = state.db();
    let messages = current(&db, &caller.user_id, &machine_id, channel)
        .and_then(|sid| db.sessions.get(&sid))
        .map(|s| history(&db, s))
        .unwrap_or_default();
    let skip = messages.len().saturating_sub(limit);
    Ok(Json(json!({ "messages": messages[skip..] })))
}

/// When the session last changed: its newest task, or its creation.
fn updated_at(db: &Db, s: &Session) -> i64 {
    s.turns
        .iter()
        .filter_map(|id| db.turns.get(id))
        .map(|t| t.steps.last().map_or(t.created_at, |st| st.timestamp_ms))
        .fold(s.created_at, i64::max)
}

/// `GET /v1/agents/sessions`.
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let (machine_id, channel) = target(&state, &caller, &q)?;
    let db = state.db();
    let mut mine: Vec<&Session> = db
        .sessions
        .values()
        .filter(|s| s.owner == caller.user_id && s.machine_id == machine_id && s.channel == channel)
        .collect();
    mine.sort_by_key(|s| std::cmp::Reverse(s.seq));
    let rows: Vec<Value> = mine
        .into_iter()
        .map(|s| {
            let mut row = Map::new();
            row.insert("sessionId".into(), json!(s.id));
            row.insert("createdAt".into(), json!(s.created_at));
            row.insert("updatedAt".into(), json!(updated_at(&db, s)));
            if let Some(t) = &s.title {
                row.insert("title".into(), json!(t));
            }
            Value::Object(row)
        })
        .collect();
    Ok(Json(json!({ "sessions": rows })))
}
