//! Turn results: `GET /v1/agents/turns/{id}`, its trajectory and per-step JPEG screenshots.
//! Another account's turn answers exactly like a missing one (`404 turn_not_found`).

use crate::auth::Caller;
use crate::clock::iso8601;
use crate::error::ApiError;
use crate::records::{Turn, TurnStatus};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Map, Value};

/// Steps a trajectory lists at most (the last one is the final screen).
pub const MAX_STEPS: usize = 500;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/agents/turns/{turn_id}", get(get_turn))
        .route("/v1/agents/turns/{turn_id}/trajectory", get(trajectory))
        .route(
            "/v1/agents/turns/{turn_id}/trajectory/screenshots/{index}",
            get(screenshot),
        )
}

fn not_found() -> ApiError {
    ApiError::coded(
        StatusCode::NOT_FOUND,
        "turn_not_found",
        "This turn does not exist on your account.",
    )
}

fn with_turn<T>(
    state: &AppState,
    caller: &Caller,
    id: &str,
    f: impl FnOnce(&Turn) -> T,
) -> Result<T, ApiError> {
    let db = state.db();
    let t = db
        .turns
        .get(id)
        .filter(|t| t.owner == caller.user_id)
        .ok_or_else(not_found)?;
    Ok(f(t))
}

fn trajectory_ref(t: &Turn) -> Value {
    json!({
        "recorded": t.record_trajectory && !t.steps.is_empty(),
        "url": format!("/v1/agents/turns/{}/trajectory", t.id),
    })
}

/// The Turn object.
pub fn turn_json(t: &Turn) -> Value {
    let mut m = Map::new();
    m.insert("turnId".into(), json!(t.id));
    m.insert("sessionId".into(), json!(t.session_id));
    m.insert("machineId".into(), json!(t.machine_id));
    m.insert("status".into(), json!(t.status.as_str()));
    let output = if t.status == TurnStatus::Succeeded {
        t.output.clone()
    } else {
        Value::Null
    };
    m.insert("output".into(), output);
    if t.status == TurnStatus::Failed {
        if let Some(r) = &t.reason_code {
            m.insert("reason_code".into(), json!(r));
        }
        if let Some(r) = &t.raw_answer {
            m.insert("raw_answer".into(), json!(r));
        }
        if let Some(c) = &t.error_code {
            m.insert("error_code".into(), json!(c));
        }
    }
    let usage = match (&t.usage, t.status.is_finished()) {
        (Some(u), true) => {
            json!({ "inputTokens": u.total.input_tokens, "outputTokens": u.total.output_tokens })
        }
        (None, true) => json!({ "inputTokens": 0, "outputTokens": 0 }),
        _ => Value::Null,
    };
    m.insert("usage".into(), usage);
    m.insert("recordTrajectory".into(), json!(t.record_trajectory));
    m.insert("trajectory".into(), trajectory_ref(t));
    let structured =
        t.output_schema.is_some() || t.success_criteria.is_some() || t.template.is_some();
    if structured {
        if let Some(e) = &t.evidence {
            m.insert("evidence".into(), json!(e));
        } else {
            m.insert("evidence".into(), json!([]));
        }
        if let Some(e) = &t.output_errors {
            m.insert("output_errors".into(), json!(e));
        }
        if let Some(tpl) = &t.template {
            m.insert("template".into(), json!(tpl));
            m.insert("inputs".into(), t.inputs.clone().unwrap_or(json!({})));
        }
    }
    Value::Object(m)
}

async fn get_turn(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    with_turn(&state, &caller, &id, turn_json).map(Json)
}

async fn trajectory(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    with_turn(&state, &caller, &id, |t| {
        let shot = |i: usize| format!("/v1/agents/turns/{}/trajectory/screenshots/{i}", t.id);
        let mut steps: Vec<Value> = Vec::new();
        if t.record_trajectory {
            let ended = t.status.is_finished();
            let keep = if ended { MAX_STEPS - 1 } else { MAX_STEPS };
            for (i, s) in t.steps.iter().take(keep).enumerate() {
                let mut step = json!({
                    "index": i, "timestamp": iso8601(s.timestamp_ms), "final": false,
                    "title": s.title, "rationale": s.rationale, "code": s.code,
                    "screenshot": s.screenshot.as_ref().map(|_| shot(i)),
                });
                if let Some(e) = &s.error {
                    step["error"] = json!(e);
                }
                steps.push(step);
            }
            if ended {
                let i = steps.len();
                steps.push(json!({
                    "index": i, "timestamp": iso8601(t.steps.last().map(|s| s.timestamp_ms).unwrap_or(t.created_at)),
                    "final": true, "title": "Final screen", "rationale": "The screen when the turn ended.",
                    "code": "", "screenshot": t.final_screenshot.as_ref().map(|_| shot(i)),
                }));
            }
        }
        json!({ "turnId": t.id, "trajectory": trajectory_ref(t), "steps": steps })
    })
    .map(Json)
}

async fn screenshot(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, index)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let index: usize = index.parse().map_err(|_| not_found())?;
    let jpeg = with_turn(&state, &caller, &id, |t| {
        if !t.record_trajectory {
            return None;
        }
        let listed = t.steps.len().min(if t.status.is_finished() {
            MAX_STEPS - 1
        } else {
            MAX_STEPS
        });
        if index < listed {
            t.steps[index].screenshot.clone()
        } else if index == listed && t.status.is_finished() {
            t.final_screenshot.clone()
        } else {
            None
        }
    })?
    .ok_or_else(not_found)?;
    Ok((
        [(header::CONTENT_TYPE, "image/jpeg")],
        jpeg.as_ref().clone(),
    )
        .into_response())
}
