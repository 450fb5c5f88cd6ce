//! `--shapes makers`: answers in the shapes the makers' own client (`simular-ai/sai-fi`) shows
//! the real service may use, where this simulator otherwise answers in the fuller shapes of the
//! contract. One rewrite of finished answers, so the handlers stay the contract's:
//! - a blank 2xx body on approve, wake, new-session and abort (`VoiceChannelClient.kt` reads
//!   blank as `{}`);
//! - the machine list's first row without `kind` (`ConciergeClient.kt` never reads it);
//! - upload answers with `downloadUrl`, `width` and `height` (`ConciergeClient.kt`,
//!   `HttpAgentBridge.kt` send them back unchanged).

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
