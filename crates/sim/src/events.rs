//! Event rendering and the events poll (`GET /v1/agents/events`).
//!
//! A turn's log is stored once; the two delivery paths render it differently, as the spec
//! says: the stream splits text into several deltas, adds `toolMetadata` to
//! `tool-input-start`, sends `input: null` on `tool-input-available`, and has `data-status`
//! frames and the AI SDK frames the spec does not list (`start-step`, `tool-input-delta`, ...); the poll sends each assistant message as one start, one delta, one end. The
//! poll's cursor is base64url of `<turnId>:<log index>`; a new turn resets it.

use crate::auth::Caller;
use crate::error::ApiError;
use crate::limits::Limit;
use crate::records::{LogEntry, TurnStatus};
use crate::state::AppState;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::Json;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::time::Duration;

/// Which path an event goes out on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    Stream,
    Poll,
}

/// The frames or poll events one log entry becomes.
pub fn render(entry: &LogEntry, path: Path) -> Vec<Value> {
    match entry {
        LogEntry::Status { text, kind } => match path {
            Path::Stream => {
                vec![json!({ "type": "data-status", "data": { "text": text, "kind": kind } })]
            }
            Path::Poll => vec![],
        },
        LogEntry::Frame(frame) => match path {
            Path::Stream => vec![frame.clone()],
            Path::Poll => vec![],
        },
        LogEntry::Text {
            id,
            reasoning,
            text,
        } => {
            let kind = if *reasoning { "reasoning" } else { "text" };
            let mut out = vec![json!({ "type": format!("{kind}-start"), "id": id })];
            let deltas: Vec<String> = match path {
                Path::Poll => vec![text.clone()],
                // Opens with an empty delta, as real streams sometimes do: it says nothing.
                Path::Stream => std::iter::once(String::new())
                    .chain(split_words(text, 3))
                    .collect(),
            };
            for delta in deltas {
                out.push(json!({ "type": format!("{kind}-delta"), "id": id, "delta": delta }));
            }
            out.push(json!({ "type": format!("{kind}-end"), "id": id }));
            out
        }
        LogEntry::Event(ev) => {
            let mut ev = ev.clone();
            if path == Path::Stream {
                match ev["type"].as_str() {
                    Some("tool-input-start") => ev["toolMetadata"] = json!({}),
                    Some("tool-input-available") => ev["input"] = Value::Null,
                    _ => {}
                }
            }
            vec![ev]
        }
    }
}

/// Splits text into up to `n` pieces at word boundaries; the pieces concatenate to `text`.
fn split_words(text: &str, n: usize) -> Vec<String> {
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    if words.len() < n {
        return vec![text.to_owned()];
    }
    words
        .chunks(words.len().div_ceil(n))
        .map(|c| c.concat())
        .collect()
}

/// The poll status of a session whose current turn has this status.
pub fn session_status(turn: Option<(TurnStatus, bool)>) -> &'static str {
    match turn {
        None => "idle",
        Some((TurnStatus::Running | TurnStatus::Finalizing, _)) => "running",
        Some((TurnStatus::NeedsInput, _)) => "needs_approval",
        Some((TurnStatus::Succeeded, _)) | Some((TurnStatus::Failed, true)) => "idle",
        Some((TurnStatus::Failed, false)) => "error",
    }
}

fn encode_cursor(turn_id: &str, index: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("{turn_id}:{index}"))
}

fn decode_cursor(cursor: &str) -> Option<(String, usize)> {
    let raw = String::from_utf8(URL_SAFE_NO_PAD.decode(cursor.trim_end_matches('=')).ok()?).ok()?;
    let (turn, index) = raw.rsplit_once(':')?;
    Some((turn.to_owned(), index.parse().ok()?))
}

fn session_forbidden() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "Session not found or does not belong to your account.",
    )
}

/// One look at the session: `Some(body)` when the poll should answer now.
fn look(
    state: &AppState,
    session_id: &str,
    since: Option<&(String, usize)>,
    force: bool,
) -> Option<Value> {
    let db = state.db();
    let session = db.sessions.get(session_id)?;
    let turn = session.current_turn().and_then(|id| db.turns.get(id));
    let status = session_status(turn.map(|t| (t.status, t.aborted)));
    let (events, cursor) = match turn {
        Some(t) => {
            let start = match since {
                Some((tid, i)) if *tid == t.id => (*i).min(t.log.len()),
                _ => 0,
            };
            let events: Vec<Value> = t.log[start..]
                .iter()
                .flat_map(|e| render(e, Path::Poll))
                .collect();
            (events, encode_cursor(&t.id, t.log.len()))
        }
        None => (vec![], encode_cursor("", 0)),
    };
    let settled = matches!(status, "idle" | "error");
    if events.is_empty() && !settled && !force {
        return None;
    }
    let mut body = Map::new();
    body.insert("sessionId".into(), json!(session_id));
    if state.turn_id_in().poll {
        body.insert("turnId".into(), json!(turn.map(|t| t.id.clone())));
    }
    body.insert("status".into(), json!(status));
    body.insert("events".into(), Value::Array(events));
    let text: String = turn
        .map(|t| {
            t.log
                .iter()
                .filter_map(|e| match e {
                    LogEntry::Text {
                        reasoning: false,
                        text,
                        ..
                    } => Some(text.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n\n")
        })
        .unwrap_or_default();
    body.insert("text".into(), json!(text));
    body.insert("cursor".into(), json!(cursor));
    if status == "needs_approval" {
        if let Some(t) = turn {
            let mut pending: Vec<_> = db
                .approvals
                .values()
                .filter(|a| a.turn_id == t.id && a.decision.is_none())
                .collect();
            pending.sort_by_key(|a| a.expires_at);
            if let Some(a) = pending.first() {
                body.insert("approval".into(), crate::approvals::request_json(state, a));
            }
        }
    }
    if let Some(u) = turn.and_then(|t| t.usage.as_ref()) {
        body.insert("usage".into(), u.json());
    }
    if session.has_usage {
        body.insert("sessionUsage".into(), session.usage.json());
    }
    Some(Value::Object(body))
}

/// `GET /v1/agents/events?sessionId&since&wait`.
pub async fn poll(
    State(state): State<AppState>,
    caller: Caller,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let session_id = q
        .get("sessionId")
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::bad_request("sessionId is required."))?
        .clone();
    state
        .limits()
        .hit(&caller.user_id, Limit::EventPolls)
        .map_err(|w| {
            ApiError::rate_limited("Event poll rate limit exceeded. Use wait= to long-poll.", w)
        })?;
    let owned = state
        .db()
        .sessions
        .get(&session_id)
        .is_some_and(|s| s.owner == caller.user_id);
    if !owned {
        return Err(session_forbidden());
    }
    let since = match q.get("since").filter(|s| !s.is_empty()) {
        Some(c) => Some(
            decode_cursor(c)
                .ok_or_else(|| ApiError::bad_request("since is not a cursor from this service."))?,
        ),
        None => None,
    };
    let wait = match q.get("wait").filter(|s| !s.is_empty()) {
        Some(w) => w
            .parse::<f64>()
            .ok()
            .filter(|w| w.is_finite() && *w >= 0.0)
            .ok_or_else(|| ApiError::bad_request("wait must be a number of seconds from 0 to 60."))?
            .min(60.0),
        None => 0.0,
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(wait);
    let mut changes = state.changes();
    loop {
        changes.borrow_and_update();
        let expired = tokio::time::Instant::now() >= deadline;
        if let Some(body) = look(&state, &session_id, since.as_ref(), expired) {
            return Ok(Json(body));
        }
        tokio::select! {
            r = changes.changed() => if r.is_err() { return Err(ApiError::internal("The service is stopping.")); },
            _ = tokio::time::sleep_until(deadline) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_round_trips_and_rejects_junk() {
        let c = encode_cursor("turn_abc", 17);
        assert!(c
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'));
        assert_eq!(decode_cursor(&c), Some(("turn_abc".into(), 17)));
        assert_eq!(decode_cursor("%%%"), None);
    }

    #[test]
    fn stream_deltas_concatenate_to_the_message() {
        let text = "The weather in Paris is sunny and 21 degrees today.";
        assert_eq!(split_words(text, 3).concat(), text);
    }
}
