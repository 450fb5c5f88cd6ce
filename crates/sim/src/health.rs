//! `GET /health`: the real service answers `{"status":"ok", …}` without a credential
//! (the makers' `docs/ON_DEVICE_CHECK.md`). Clients ask it before sending a key to an address
//! typed by hand, to know it is the service at all.

use axum::routing::get;
use axum::{Json, Router};

use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/health", get(health))
}

async fn health() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok" }))
}
