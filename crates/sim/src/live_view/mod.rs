//! The live view: `POST /v1/agents/machines/{machineId}/live` hands out a `websocketUrl`
//! bound to the caller and the machine, and `GET /live/{machineId}?token=…` serves that
//! machine's desktop as a view-only Apache Guacamole stream (see `stream`).
//!
//! Errors of the spec's Live rows: `404` with no error code for a machine that is not the
//! caller's, `409 machine_not_running` while it sleeps or starts, `502 live_unavailable` when
//! there is no screen to stream (an own desktop), `429` past 120 requests an hour. A bad or
//! expired token still gets its websocket, then `error,<message>,<status>` and a close, which
//! is how a Guacamole viewer learns why. A machine switched to RFB (`rfb`) answers as a VNC
//! server instead.

pub mod rfb;
mod stream;
mod token;
mod wire;

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures::StreamExt;
use serde_json::json;

pub use stream::{StreamOptions, MAX_IN_FLIGHT};

use crate::auth::Caller;
use crate::clock::Clock;
use crate::error::ApiError;
use crate::limits::Limit;
use crate::records::MachineKind;
use crate::state::AppState;
use token::{Grant, TokenProblem};
use wire::status;

/// Documented lifetime of a live-view URL; scaled by the time scale like every delay.
pub const URL_LIFETIME: Duration = Duration::from_secs(15 * 60);

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/agents/machines/{machine_id}/live", post(open))
        .route("/live/{machine_id}", get(connect))
}

/// A status with an empty body, as the spec's Live rows without an error code answer.
fn bare(status: StatusCode) -> Response {
    status.into_response()
}

async fn open(
    State(state): State<AppState>,
    caller: Caller,
    Path(machine_id): Path<String>,
) -> Response {
    if let Err(wait) = state.limits().hit(&caller.user_id, Limit::LiveRequests) {
        let mut res = bare(StatusCode::TOO_MANY_REQUESTS);
        if let Ok(v) = HeaderValue::from_str(&wait.0.to_string()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return res;
    }
    let Some(machine) = state.machine(&caller.user_id, &machine_id) else {
        return bare(StatusCode::NOT_FOUND);
    };
    let desktop = match (machine.kind, machine.desktop) {
        (MachineKind::Cloud, Some(d)) => d,
        _ => {
            return ApiError::coded(
                StatusCode::BAD_GATEWAY,
                "live_unavailable",
                "The live screen could not be set up for this computer.",
            )
            .into_response()
        }
    };
    if !machine.awake {
        return ApiError::coded(
            StatusCode::CONFLICT,
            "machine_not_running",
            "The computer is asleep or still starting. Wake it, then try again.",
        )
        .into_response();
    }
    let lifetime = state.clock().scaled(URL_LIFETIME);
    let grant = Grant {
        owner: caller.user_id,
        machine_id: machine.id.clone(),
        expires_at_ms: Clock::now_ms() + lifetime.as_millis() as i64,
    };
    let ws_base = state.base_url().replacen("http", "ws", 1);
    let url = format!(
        "{ws_base}/live/{}?token={}",
        machine.id,
        token::issue(&grant)
    );
    let (width, height) = desktop.size();
    Json(json!({ "machineId": machine.id, "websocketUrl": url, "width": width, "height": height }))
        .into_response()
}

fn query_pairs(raw: Option<&str>) -> Vec<(String, String)> {
    url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .into_owned()
        .collect()
}

async fn connect(
    State(state): State<AppState>,
    Path(machine_id): Path<String>,
    RawQuery(raw): RawQuery,
    ws: WebSocketUpgrade,
) -> Response {
    let pairs = query_pairs(raw.as_deref());
    let token = pairs
        .iter()
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let opts = StreamOptions::from_query(&pairs);
    let checked = token::verify(&token, Clock::now_ms()).and_then(|g| {
        if g.machine_id == machine_id {
            Ok(g)
        } else {
            Err(TokenProblem::Invalid)
        }
    });
    // A screen that speaks RFB answers as a VNC server would, whoever asks.
    if checked.is_ok() && state.live_speaks_rfb(&machine_id) {
        return ws.protocols([rfb::SUBPROTOCOL]).on_upgrade(rfb::serve);
    }
    ws.protocols(["guacamole"])
        .on_upgrade(move |socket| async move {
            let grant = match checked {
                Ok(g) => g,
                Err(TokenProblem::Expired) => {
                    return refuse(
                        socket,
                        "The live view link expired. Ask for a new one.",
                        status::CLIENT_UNAUTHORIZED,
                    )
                    .await
                }
                Err(TokenProblem::Invalid) => {
                    return refuse(
                        socket,
                        "The live view link is not valid.",
                        status::CLIENT_UNAUTHORIZED,
                    )
                    .await
                }
            };
            let desktop = state
                .machine(&grant.owner, &grant.machine_id)
                .filter(|m| m.awake)
                .and_then(|m| m.desktop);
            match desktop {
                Some(d) => stream::serve(socket, state, grant, d, opts).await,
                None => {
                    refuse(
                        socket,
                        "The computer is not running.",
                        status::UPSTREAM_UNAVAILABLE,
                    )
                    .await
                }
            }
        })
}

async fn refuse(mut socket: WebSocket, message: &str, code: u16) {
    let status = code.to_string();
    let error = wire::single("error", &[message, status.as_str()]);
    let _ = socket.send(Message::Text(error.into())).await;
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code: 1000,
            reason: status.into(),
        })))
        .await;
    // As in `stream`: finish the closing handshake so the viewer's unread pings cannot turn
    // the close into a reset that overtakes the `error`.
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        while let Some(Ok(_)) = socket.next().await {}
    })
    .await;
}
