//! Reading conversations back. `GET /v1/agents/context?machineId&limit&channel` is the real
//! service's catch-up read: `{ messages: [{ role, content }] }`, the current session's person
//! messages (`user`, joined messages included) and agent answers (`assistant`), oldest first,
//! the last `limit` (default 20, at most 100). A missing channel means `cli`, as on the real
//! service. The real service also has `GET /v1/agents/sessions`, whose answer's shape it does
//! not publish: the simulator does not serve it (a `404`), so no client can come to depend on
//! a shape of our invention.

use crate::auth::Caller;
use crate::error::ApiError;
use crate::machines::machine_not_found;
use crate::records::{Channel, Session};
use crate::sessions::{current, parse_channel};
use crate::state::{AppState, Db};
use axum::extract::{Query, State};
use axum::Json;
use serde_json::{json, Value};
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
