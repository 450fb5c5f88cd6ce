//! Every request the simulator served, with the `x-sai-version` tag it carried. The real
//! service takes that optional header on every route to pin one server revision, and a
//! client must send it on every request once set; tests read this record to prove it.

use crate::state::AppState;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use std::collections::VecDeque;
use std::sync::Mutex;

/// The header that pins a server revision.
pub const SAI_VERSION: &str = "x-sai-version";

/// How many requests are remembered (the oldest go first).
const KEEP: usize = 10_000;

/// One request as it arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenRequest {
    pub method: String,
    /// The path without its query string.
    pub path: String,
    /// The `x-sai-version` header, if sent.
    pub sai_version: Option<String>,
}

/// The record kept in the state.
#[derive(Default)]
pub struct Seen(Mutex<VecDeque<SeenRequest>>);

impl Seen {
    pub fn all(&self) -> Vec<SeenRequest> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }

    fn push(&self, r: SeenRequest) {
        let mut seen = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() == KEEP {
            seen.pop_front();
        }
        seen.push_back(r);
    }
}

/// Notes the request, then serves it: the tag changes nothing else.
pub async fn record(State(state): State<AppState>, req: Request, next: Next) -> Response {
    state.seen().push(SeenRequest {
        method: req.method().as_str().to_owned(),
        path: req.uri().path().to_owned(),
        sai_version: req
            .headers()
            .get(SAI_VERSION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
    });
    next.run(req).await
}
