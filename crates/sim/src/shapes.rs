//! `--shapes makers`: answers in the shapes the makers' own client (`simular-ai/sai-fi`) shows
//! the real service may use, where this simulator otherwise answers in the fuller shapes of the
//! contract. One rewrite of finished answers, so the handlers stay the contract's:
//! - a blank 2xx body on approve, wake, new-session and abort (`VoiceChannelClient.kt` reads
//!   blank as `{}`);
//! - the machine list's first row without `kind` (`ConciergeClient.kt` never reads it);
//! - upload answers with `downloadUrl`, `width` and `height` (`ConciergeClient.kt`,
//!   `HttpAgentBridge.kt` send them back unchanged);
//! - an approval's `expiresAt` as its number in text (`fsm/Concierge.kt` reads a long; approvals/mod.rs);
//! - a history ending in an item with `content: null` and one without `role`
//!   (`ConciergeClient.kt` reads both leniently);
//! - a bare `403` for another account's computer on agent routes, where the contract's
//!   simulator answers `404` (`CONCIERGE_CLIENT_PROTOCOL.md`, `SAI_GLASSES_APP.md`: 403 is
//!   "machine not owned");
//!
//! and, in the handlers themselves:
//! - `data-session` with `{id, title}` only (stream.rs; `VoiceChannelClient.kt` and its test
//!   `VoiceChannelClientTest.kt` record the live service sending exactly those two fields);
//! - a `: keepalive` comment before every stream frame (stream.rs; `VoiceChannelClient.kt`'s
//!   SSE reader skips `:` lines as keep-alives);
//! - `stalled` where this simulator says `agent_offline`: a task on the person's own computer
//!   that it has not picked up (agent; `ConciergeProtocol.kt` words `stalled` as "their
//!   computer has not picked the task up", `GoldenFixtures.kt` carries one).

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;

use crate::state::AppState;

/// Which answer shapes the simulator speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Shapes {
    /// The contract's shapes (`service-api.md`), as full as it describes them.
    #[default]
    Contract,
    /// What the makers' client shows the real service may send.
    Makers,
}

impl Shapes {
    pub fn parse(value: &str) -> Result<Self, crate::SimError> {
        match value.trim() {
            "" | "contract" => Ok(Self::Contract),
            "makers" => Ok(Self::Makers),
            other => Err(crate::SimError::BadShapes(other.to_owned())),
        }
    }
}

/// Routes whose 2xx answer the makers' client takes blank.
const BLANK_ON_SUCCESS: [&str; 4] = [
    "/v1/agents/approve",
    "/v1/agents/wake",
    "/v1/agents/new-session",
    "/v1/agents/abort",
];

/// Largest answer rewritten (the rewritten ones are small JSON objects).
const MAX_REWRITTEN: usize = 4 * 1024 * 1024;

pub(crate) async fn rewrite(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if state.shapes() != Shapes::Makers {
        return next.run(req).await;
    }
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let response = next.run(req).await;
    if response.status() == axum::http::StatusCode::NOT_FOUND && path.starts_with("/v1/agents/") {
        return not_owned(response).await;
    }
    if !response.status().is_success() || method != Method::POST && method != Method::GET {
        return response;
    }
    if method == Method::POST && BLANK_ON_SUCCESS.contains(&path.as_str()) {
        let (mut parts, _) = response.into_parts();
        parts.headers.remove(axum::http::header::CONTENT_TYPE);
        parts.headers.remove(axum::http::header::CONTENT_LENGTH);
        return Response::from_parts(parts, Body::empty());
    }
    let edit: fn(&mut Value) = match (&method, path.as_str()) {
        (&Method::GET, "/v1/agents/machines") => drop_first_kind,
        (&Method::POST, "/v1/agents/upload") => add_upload_fields,
        (&Method::GET, "/v1/agents/context") => add_odd_items,
        _ => return response,
    };
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_REWRITTEN).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let Ok(mut value) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    edit(&mut value);
    let out = serde_json::to_vec(&value).unwrap_or_else(|_| bytes.to_vec());
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(out))
}

/// Another account's computer: this simulator answers `404` as the contract lists; the makers
/// write that the real service answers `403` on agent routes (ownership is checked on every
/// call) with no code of its own.
async fn not_owned(response: Response) -> Response {
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_REWRITTEN).await else {
        return Response::from_parts(parts, Body::empty());
    };
    if !String::from_utf8_lossy(&bytes).contains("Machine not found") {
        return Response::from_parts(parts, Body::from(bytes));
    }
    let mut forbidden = Response::new(Body::from(r#"{"error":"Forbidden"}"#));
    *forbidden.status_mut() = axum::http::StatusCode::FORBIDDEN;
    forbidden.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    forbidden
}

fn drop_first_kind(list: &mut Value) {
    if let Some(row) = list
        .get_mut("machines")
        .and_then(Value::as_array_mut)
        .and_then(|rows| rows.first_mut())
        .and_then(Value::as_object_mut)
    {
        row.remove("kind");
    }
}

fn add_upload_fields(upload: &mut Value) {
    let Some(fields) = upload.as_object_mut() else {
        return;
    };
    let path = fields
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    // The real service's is a storage address; `.invalid` says nothing is ever fetched here.
    fields.insert(
        "downloadUrl".into(),
        Value::String(format!("https://files.sim.invalid/{path}")),
    );
    fields.insert("width".into(), Value::from(640));
    fields.insert("height".into(), Value::from(480));
}

/// The real service's history can hold items the person never wrote: an assistant item with
/// `content: null` (a tool call's) and one without `role`. Both go last, where a client that
/// reads the newest item first meets them.
fn add_odd_items(context: &mut Value) {
    let Some(items) = context.get_mut("messages").and_then(Value::as_array_mut) else {
        return;
    };
    if items.is_empty() {
        return;
    }
    items.push(serde_json::json!({ "role": "assistant", "content": null }));
    items.push(serde_json::json!({ "content": "Working on it." }));
}
