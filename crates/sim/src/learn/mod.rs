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

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Map, Value};

use crate::auth::Caller;
use crate::body::JsonBody;
use crate::control::PerState;
use crate::error::ApiError;
use crate::limits::Limit;
use crate::state::{AppState, TurnRecord};
use request::LearnRequest;
use store::{Outcome, ResultStore};

/// Documented time a conversion takes, and a repair.
pub const CONVERT_TIME: Duration = Duration::from_secs(120);
pub const HEAL_TIME: Duration = Duration::from_secs(60);

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
            .run(&o, key.as_deref(), "learnId", work(&s, &o, req, model))
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

/// Looks up and checks the source turns.
fn source_turns(
    state: &AppState,
    owner: &str,
    ids: &[String],
) -> Result<Vec<TurnRecord>, ApiError> {
    let mut turns = Vec::new();
    for id in ids {
        let t = state.turn_record(owner, id).ok_or_else(|| {
            coded(
                StatusCode::NOT_FOUND,
                "turn_not_found",
                &format!("Turn {id} is not on your account."),
            )
        })?;
        turns.push(t);
    }
    if turns.windows(2).any(|w| w[0].session_id != w[1].session_id) {
        return Err(coded(
            StatusCode::BAD_REQUEST,
            "mixed_sessions",
            "The turns come from more than one session; learn from one session at a time.",
        ));
    }
    if let Some(t) = turns.iter().find(|t| !t.finished) {
        return Err(coded(
            StatusCode::CONFLICT,
            "turn_not_finished",
            &format!("Turn {} has not ended yet.", t.turn_id),
        ));
    }
    if let Some(t) = turns.iter().find(|t| !t.record_trajectory) {
        return Err(coded(
            StatusCode::CONFLICT,
            "trajectory_not_recorded",
            &format!("Turn {} was not sent with options.recordTrajectory, so it has no steps to learn from.", t.turn_id),
        ));
    }
    Ok(turns)
}

/// The template and parameter defaults: the given template matched against the first turn,
/// else the turn's own template and inputs, else one inferred from its message.
fn template_for(
    req: &LearnRequest,
    first: &TurnRecord,
) -> Result<(String, Map<String, Value>), ApiError> {
    if let Some(t) = &req.template {
        return template::matches(t, &first.message)
            .map(|d| (t.clone(), d))
            .ok_or_else(|| {
                coded(
                    StatusCode::BAD_REQUEST,
                    "template_mismatch",
                    "The template does not match the first turn's message.",
                )
            });
    }
    if let Some(t) = &first.template {
        let mut defaults = template::matches(t, &first.message).unwrap_or_default();
        for (k, v) in first
            .inputs
            .as_ref()
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            defaults.insert(k.clone(), v.clone());
        }
        return Ok((t.clone(), defaults));
    }
    Ok(template::infer(&first.message))
}

fn title(text: &str) -> String {
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| !w.starts_with("{{"))
        .take(5)
        .collect();
    let t = words
        .join(" ")
        .trim_end_matches(['.', ',', '!', '?', ':'])
        .to_owned();
    let mut c = t.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => "Learned task".into(),
    }
}

/// Does the work of one call and builds the Learn result.
async fn work(
    state: &AppState,
    owner: &str,
    req: LearnRequest,
    model: String,
) -> Result<Value, ApiError> {
    let turns = source_turns(state, owner, &req.turns)?;
    let (mode, template, code, changes, step_errors, output_schema) = match &req.initial_code {
        None => {
            let first = turns
                .first()
                .ok_or_else(|| request::validation(vec!["Send at least one turn.".into()]))?;
            let (template, defaults) = template_for(&req, first)?;
            let steps: Vec<_> = turns
                .iter()
                .flat_map(|t| t.steps.iter())
                .filter(|s| !s.code.trim().is_empty())
                .collect();
            if steps.is_empty() {
                return Err(coded(
                    StatusCode::BAD_REQUEST,
                    "no_steps",
                    "The turns have no agent steps to convert.",
                ));
            }
            let order = template::names(&template);
            let mut params: Vec<(String, Value)> = order
                .iter()
                .filter_map(|n| defaults.get(n).map(|v| (n.clone(), v.clone())))
                .collect();
            for (k, v) in &defaults {
                if !order.contains(k) {
                    params.push((k.clone(), v.clone()));
                }
            }
            let step_errors: Vec<String> = steps
                .iter()
                .filter_map(|s| {
                    s.error.as_ref().map(|e| {
                        format!(
                            "Step {} (“{}”) failed in the recorded turn: {e}",
                            s.index, s.title
                        )
                    })
                })
                .collect();
            let src = convert::Source {
                steps,
                params,
                output_schema: first.output_schema.as_ref(),
            };
            let code = convert::write(&src);
            state.clock().sleep(CONVERT_TIME).await;
            (
                "convert",
                template,
                code,
                None,
                step_errors,
                first.output_schema.clone(),
            )
        }
        Some(initial) => {
            let mut notes = Vec::new();
            for e in &req.evaluations {
                notes.push(match &e.judgement {
                    None => None,
                    Some(id) => {
                        let j = crate::judge::lookup(state, owner, id).ok_or_else(|| {
                            coded(
                                StatusCode::NOT_FOUND,
                                "judgement_not_found",
                                &format!("Judgement {id} is not on your account."),
                            )
                        })?;
                        Some(heal::JudgementNote {
                            verdict: j["verdict"].as_str().unwrap_or("").to_owned(),
                            summary: j["summary"].as_str().unwrap_or("").to_owned(),
                        })
                    }
                });
            }
            let healed = heal::heal(initial, &req.evaluations, &notes, req.feedback.as_deref());
            let template = match (&req.template, turns.first()) {
                (Some(t), _) => t.clone(),
                (None, Some(first)) => template_for(&req, first)?.0,
                (None, None) => String::new(),
            };
            state.clock().sleep(HEAL_TIME).await;
            let schema = turns.first().and_then(|t| t.output_schema.clone());
            (
                "heal",
                template,
                healed.code,
                Some(Value::Array(healed.changes)),
                Vec::new(),
                schema,
            )
        }
    };
    let report = check::check(code.clone(), template::names(&template), step_errors).await;
    let input_tokens = 1_200
        + (turns
            .iter()
            .map(|t| {
                t.steps
                    .iter()
                    .map(|s| s.code.len() + s.title.len() + s.rationale.len())
                    .sum::<usize>()
            })
            .sum::<usize>()
            + req.initial_code.as_ref().map_or(0, String::len))
            / 4;
    let output_tokens = 300 + code.len() / 4;
    if let Some(m) = crate::models::find(&model) {
        let (pin, pout) = m.price_per_mtok();
        state.charge(
            owner,
            (input_tokens as f64 * pin + output_tokens as f64 * pout) / 1e6,
        );
    }
    let mut body = json!({
        "learnId": state.new_id("learn_"),
        "mode": mode,
        "status": if report.errors.is_empty() { "succeeded" } else { "failed" },
        "title": title(if template.is_empty() { "Repaired task" } else { &template }),
        "template": template,
        "parameters": report.parameters.iter().map(|(n, v)| json!({ "name": n, "defaultValue": v })).collect::<Vec<_>>(),
        "code": code,
        "validation": { "errors": report.errors, "warnings": report.warnings },
        "sourceTurns": req.turns,
        "usage": { "inputTokens": input_tokens, "outputTokens": output_tokens },
        "researchPreview": true,
        "idempotent_replay": false,
    });
    if let Some(schema) = output_schema {
        body["outputSchema"] = schema;
    }
    if let Some(changes) = changes {
        body["changes"] = changes;
    }
    Ok(body)
}
