//! Learn (research preview): `POST /v1/agents/learn` converts recorded turns into
//! `async function main(params = {...})` or, with `initialCode`, repairs code (heal);
//! `GET /v1/agents/learn/{learnId}` reads a result again.
//!
//! The call does the work before answering: about two documented minutes for a conversion,
//! one for a repair, scaled. The work runs in its own task, so a client that times out still
//! gets the result later through the same `idempotency_key` (or by GET).
//!
//! Errors, in the order they are checked: `400 validation` (shape, combinations, unknown model),
//! `429` (30 an hour, no body), `403 model_refused` (plan), `402 model_refused` (credit),
//! `404 turn_not_found` / `judgement_not_found`, `400 mixed_sessions`, `409 turn_not_finished`,
//! `409 trajectory_not_recorded`, `400 template_mismatch`, `400 no_steps`.

mod check;
mod convert;
mod heal;
mod jsx;
mod request;
pub mod store;
mod template;
mod work;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::auth::Caller;
use crate::body::JsonBody;
use crate::control::PerState;
use crate::error::ApiError;
use crate::limits::Limit;
use crate::state::AppState;
use store::{Outcome, ResultStore};

static RESULTS: PerState<ResultStore> = PerState::new();

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/agents/learn", post(learn))
        .route("/v1/agents/learn/{learn_id}", get(read))
}

fn coded(status: StatusCode, code: &str, message: &str) -> ApiError {
    ApiError::coded(status, code, message)
}

async fn read(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    RESULTS
        .get(&state)
        .get(&caller.user_id, &id)
        .map(Json)
        .ok_or_else(|| {
            coded(
                StatusCode::NOT_FOUND,
                "learn_not_found",
                "No learn result with this id on your account.",
            )
        })
}

async fn learn(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let req = request::parse(body)?;
    let plan = state
        .account(&caller.user_id)
        .map(|a| a.plan)
        .ok_or_else(ApiError::unauthorized)?;
    let model = match &req.model {
        Some(m) => m.clone(),
        None => default_model(plan),
    };
    let allowed = state
        .model_allowed(&caller.user_id, &model)
        .ok_or_else(|| {
            request::validation(vec![format!(
                "Unknown model `{model}`; pick one from the models list."
            )])
        })?;
    let store = RESULTS.get(&state);
    if let Some(done) = req
        .idempotency_key
        .as_deref()
        .and_then(|k| store.replay(&caller.user_id, k))
    {
        return Ok(replayed(done));
    }
    if let Err(wait) = state.limits().hit(&caller.user_id, Limit::Learn) {
        let mut res = StatusCode::TOO_MANY_REQUESTS.into_response();
        if let Ok(v) = HeaderValue::from_str(&wait.0.to_string()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return Ok(res);
    }
    if !allowed {
        return Err(coded(
            StatusCode::FORBIDDEN,
            "model_refused",
            "Your plan does not allow this model. Pick another one from the models list.",
        ));
    }
    if state
        .credits_usd(&caller.user_id)
        .is_some_and(|usd| usd <= 0.0)
    {
        return Err(coded(
            StatusCode::PAYMENT_REQUIRED,
            "model_refused",
            "You are out of credits. Add credits, or wait for the free daily grant.",
        ));
    }
    let owner = caller.user_id.clone();
    let key = req.idempotency_key.clone();
    let (s, o) = (state.clone(), owner.clone());
    // The work outlives a client that gives up, so the same key finds the result later.
    let job = tokio::spawn(async move {
        let store = RESULTS.get(&s);
        store
            .run(
                &o,
                key.as_deref(),
                "learnId",
                work::work(&s, &o, req, model),
            )
            .await
    });
    match job.await {
        Ok(Ok(Outcome::Fresh(v))) => Ok(Json(v).into_response()),
        Ok(Ok(Outcome::Replayed(v))) => Ok(replayed(v)),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(coded(
            StatusCode::BAD_GATEWAY,
            "learn_failed",
            "Learning stopped unexpectedly. Try again.",
        )),
    }
}

fn replayed(mut v: Value) -> Response {
    v["idempotent_replay"] = json!(true);
    Json(v).into_response()
}

/// A reasoning-tier model the plan allows (the spec's default), else `auto`.
fn default_model(plan: crate::accounts::Plan) -> String {
    crate::models::MODELS
        .iter()
        .find(|m| m.tier == "reasoning" && m.allowed_on(plan))
        .map_or_else(
            || crate::models::DEFAULT_MODEL.to_owned(),
            |m| m.id.to_owned(),
        )
}
