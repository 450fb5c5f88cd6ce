//! Machines: the list, creation of a paid cloud computer, and wake.

pub mod power;
mod wake;

use crate::auth::Caller;
use crate::body::JsonBody;
use crate::error::ApiError;
use crate::limits::Limit;

use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/agents/machines", get(list).post(create))
        .route("/v1/agents/wake", post(wake::wake))
}

/// The answer for a machine that is missing or another account's.
pub fn machine_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "Machine not found or does not belong to your account.",
    )
}

/// `GET /v1/agents/machines`, sorted by name (rows without a name last).
async fn list(State(state): State<AppState>, caller: Caller) -> Json<Value> {
    power::expire_free_claim(&state, &caller.user_id);
    let mut rows: Vec<(Option<String>, Value)> = state
        .db()
        .machines
        .iter()
        .filter(|m| m.owner == caller.user_id)
        .map(|m| (m.name.clone(), m.row()))
        .collect();
    rows.sort_by(|a, b| match (&a.0, &b.0) {
        (Some(x), Some(y)) => x.to_lowercase().cmp(&y.to_lowercase()),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    Json(json!({ "machines": rows.into_iter().map(|r| r.1).collect::<Vec<_>>() }))
}

/// `POST /v1/agents/machines`: a paid account's new cloud computer.
async fn create(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    if !caller.is_idp() {
        return Err(ApiError::coded(
            StatusCode::FORBIDDEN,
            "session_required",
            "Creating a computer needs a signed-in session. Create it in the portal instead.",
        )
        .with(
            "createUrl",
            format!("{}/portal/computers/new", state.base_url()),
        ));
    }
    let account = state
        .account(&caller.user_id)
        .cloned()
        .ok_or_else(ApiError::unauthorized)?;
    let name = match body {
        Value::Null => None,
        Value::Object(mut o) => match o.remove("name") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.chars().count() <= 100 => Some(s),
            Some(_) => {
                return Err(ApiError::bad_request(
                    "name must be a string of up to 100 characters.",
                ))
            }
        },
        _ => return Err(ApiError::bad_request("The body must be a JSON object.")),
    };
    if account.plan.is_free() {
        return Err(ApiError::coded(
            StatusCode::CONFLICT,
            "free_plan_computer",
            "The free plan comes with one pooled cloud computer; upgrade to create more.",
        ));
    }
    if !account.billable {
        return Err(ApiError::coded(
            StatusCode::FORBIDDEN,
            "not_billable",
            "This account cannot pay for a computer now. Add a payment method in the portal.",
        ));
    }
    if state.db().creating.contains(&caller.user_id) {
        return Err(ApiError::coded(
            StatusCode::TOO_MANY_REQUESTS,
            "busy",
            "A computer is already being created. Wait until it is online.",
        )
        .retry_after(
            state
                .clock()
                .scaled(std::time::Duration::from_secs(30))
                .as_secs()
                + 1,
        ));
    }
    state
        .limits()
        .hit(&caller.user_id, Limit::MachineCreation)
        .map_err(|w| {
            ApiError::rate_limited(
                "Machine creation rate limit exceeded. Maximum 3 per hour.",
                w,
            )
        })?;
    let count = state
        .db()
        .machines
        .iter()
        .filter(|m| m.owner == caller.user_id)
        .count();
    let name = name.unwrap_or_else(|| format!("Cloud computer {}", count + 1));
    let machine_id = power::provision(&state, &caller.user_id, name);
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({
            "taskId": format!("task_{machine_id}"),
            "message": "Your computer is being created. It will be online in a few minutes.",
        })),
    ))
}
