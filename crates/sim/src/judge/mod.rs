//! Judge (research preview): `POST /v1/agents/judge` checks recorded turns against a sentence
//! or up to 20 checks and answers a Judgement; `GET /v1/agents/judge/{judgementId}` reads it.
//! A judgement never changes the turns it judged.
//!
//! Errors, in the order they are checked: `400 validation`, `400 not_supported` (the
//! `transitions` and `probe` judges), `429` (120 an hour, no body), `402` (no credit, no
//! body), `404 turn_not_found`, `400 mixed_sessions`, `409 turn_not_finished`.

mod criteria;

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
use crate::learn::store::{Outcome, ResultStore};
use crate::limits::Limit;
use crate::state::{AppState, TurnRecord};

const MAX_TURNS: usize = 20;
const MAX_CHECKS: usize = 20;
const MAX_SENTENCE: usize = 4000;
const FIELDS: [&str; 5] = ["turns", "criteria", "task", "judges", "idempotency_key"];

static RESULTS: PerState<ResultStore> = PerState::new();

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/agents/judge", post(judge))
        .route("/v1/agents/judge/{judgement_id}", get(read))
}

/// The caller's judgement by id (learn's heal reads verdicts through this).
pub fn lookup(state: &AppState, owner: &str, judgement_id: &str) -> Option<Value> {
    RESULTS.get(state).get(owner, judgement_id)
}

async fn read(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    lookup(&state, &caller.user_id, &id)
        .map(Json)
        .ok_or_else(|| {
            ApiError::coded(
                StatusCode::NOT_FOUND,
                "judgement_not_found",
                "No judgement with this id on your account.",
            )
        })
}

fn validation(details: Vec<String>) -> ApiError {
    let message = details.first().cloned().unwrap_or_default();
    ApiError::coded(StatusCode::BAD_REQUEST, "validation", message).with("details", details)
}

/// One criterion to judge: `id` and `returnEvidence` only for checks.
struct Criterion {
    id: Option<String>,
    check: String,
    evidence: bool,
}

struct JudgeRequest {
    turns: Vec<String>,
    criteria: Vec<Criterion>,
    sentence: bool,
    task: Option<String>,
    key: Option<String>,
}

fn parse(body: Value) -> Result<JudgeRequest, ApiError> {
    let Value::Object(o) = body else {
        return Err(validation(vec!["The body must be a JSON object.".into()]));
    };
    let mut p: Vec<String> = o
        .keys()
        .filter(|k| !FIELDS.contains(&k.as_str()))
        .map(|k| format!("Unknown field `{k}`."))
        .collect();
    let mut turns = Vec::new();
    match o.get("turns") {
        Some(Value::Array(a)) if !a.is_empty() => {
            if a.len() > MAX_TURNS {
                p.push(format!("At most {MAX_TURNS} turns."));
            }
            for t in a {
                match t.as_str() {
                    Some(s) => turns.push(s.to_owned()),
                    None => p.push("`turns` must be turn ids (strings).".into()),
                }
            }
        }
        _ => p.push("`turns` is required: a non-empty array of turn ids.".into()),
    }
    let mut criteria = Vec::new();
    let mut sentence = false;
    match o.get("criteria") {
        Some(Value::String(s)) if !s.trim().is_empty() => {
            if s.chars().count() > MAX_SENTENCE {
                p.push(format!(
                    "A sentence criterion is at most {MAX_SENTENCE} characters."
                ));
            }
            sentence = true;
            criteria.push(Criterion {
                id: None,
                check: s.clone(),
                evidence: true,
            });
        }
        Some(Value::Array(a)) if !a.is_empty() => {
            if a.len() > MAX_CHECKS {
                p.push(format!("At most {MAX_CHECKS} checks."));
            }
            for (i, c) in a.iter().enumerate() {
                let id = c
                    .get("id")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty());
                let check = c
                    .get("check")
                    .and_then(Value::as_str)
                    .filter(|s| !s.trim().is_empty());
                let evidence = match c.get("returnEvidence") {
                    None | Some(Value::Null) => Some(false),
                    Some(Value::Bool(b)) => Some(*b),
                    Some(_) => None,
                };
                let extra = c
                    .as_object()
                    .map(|o| {
                        o.keys()
                            .any(|k| !["id", "check", "returnEvidence"].contains(&k.as_str()))
                    })
                    .unwrap_or(true);
                match (id, check, evidence, extra) {
                    (Some(id), Some(check), Some(evidence), false) => {
                        if criteria.iter().any(|c: &Criterion| c.id.as_deref() == Some(id)) {
                            p.push(format!("criteria[{i}]: the id `{id}` is used twice."));
                        }
                        criteria.push(Criterion { id: Some(id.to_owned()), check: check.to_owned(), evidence });
                    }
                    _ => p.push(format!("criteria[{i}] must be {{ id, check, returnEvidence? }} with a non-empty id and check.")),
                }
            }
        }
        _ => {
            p.push("`criteria` is required: a sentence, or a list of { id, check } checks.".into())
        }
    }
    let task = match o.get("task") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            p.push("`task` must be a string.".into());
            None
        }
    };
    let key = match o.get("idempotency_key") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            p.push("`idempotency_key` must be a string.".into());
            None
        }
    };
    match o.get("judges") {
        None | Some(Value::Null) => {}
        Some(Value::Object(j)) => {
            for k in j
                .keys()
                .filter(|k| !["criteria", "transitions", "probe"].contains(&k.as_str()))
            {
                p.push(format!("Unknown judge `{k}`."));
            }
            if p.is_empty() {
                for name in ["transitions", "probe"] {
                    if j.get(name)
                        .is_some_and(|v| !matches!(v, Value::Null | Value::Bool(false)))
                    {
                        return Err(ApiError::coded(
                            StatusCode::BAD_REQUEST,
                            "not_supported",
                            if name == "transitions" {
                                "Step-by-step screenshot judging (transitions) is not supported."
                            } else {
                                "Checking the live computer (probe) is not supported."
                            },
                        ));
                    }
                }
            }
        }
        Some(_) => p.push("`judges` must be an object like { criteria: true }.".into()),
    }
    if p.is_empty() {
        Ok(JudgeRequest {
            turns,
            criteria,
            sentence,
            task,
            key,
        })
    } else {
        Err(validation(p))
    }
}

fn bare(status: StatusCode, retry_after: Option<u64>) -> Response {
    let mut res = status.into_response();
    if let Some(v) = retry_after.and_then(|s| HeaderValue::from_str(&s.to_string()).ok()) {
        res.headers_mut().insert(header::RETRY_AFTER, v);
    }
    res
}

async fn judge(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let req = parse(body)?;
    let owner = caller.user_id.clone();
    let store = RESULTS.get(&state);
    if let Some(done) = req.key.as_deref().and_then(|k| store.replay(&owner, k)) {
        return Ok(Json(done).into_response());
    }
    if let Err(wait) = state.limits().hit(&owner, Limit::Judge) {
        return Ok(bare(StatusCode::TOO_MANY_REQUESTS, Some(wait.0)));
    }
    if state.credits_usd(&owner).is_some_and(|usd| usd <= 0.0) {
        return Ok(bare(StatusCode::PAYMENT_REQUIRED, None));
    }
    let key = req.key.clone();
    let outcome = store
        .run(&owner, key.as_deref(), "judgementId", async {
            work(&state, &owner, req)
        })
        .await?;
    let v = match outcome {
        Outcome::Fresh(v) | Outcome::Replayed(v) => v,
    };
    Ok(Json(v).into_response())
}

fn turns(state: &AppState, owner: &str, ids: &[String]) -> Result<Vec<TurnRecord>, ApiError> {
    let mut out = Vec::new();
    for id in ids {
        out.push(state.turn_record(owner, id).ok_or_else(|| {
            ApiError::coded(
                StatusCode::NOT_FOUND,
                "turn_not_found",
                format!("Turn {id} is not on your account."),
            )
        })?);
    }
    if out.windows(2).any(|w| w[0].session_id != w[1].session_id) {
        return Err(ApiError::coded(
            StatusCode::BAD_REQUEST,
            "mixed_sessions",
            "The turns come from more than one session.",
        ));
    }
    if let Some(t) = out.iter().find(|t| !t.finished) {
        return Err(ApiError::coded(
            StatusCode::CONFLICT,
            "turn_not_finished",
            format!("Turn {} has not ended yet.", t.turn_id),
        ));
    }
    Ok(out)
}

fn work(state: &AppState, owner: &str, req: JudgeRequest) -> Result<Value, ApiError> {
    let turns = turns(state, owner, &req.turns)?;
    let task = req.task.clone().unwrap_or_else(|| {
        turns
            .first()
            .map(|t| crate::task_words::task_words(&t.message))
            .unwrap_or_default()
    });
    let mut verdicts = Vec::new();
    let (mut passed, mut failed, mut unverifiable) = (0, 0, 0);
    for c in &req.criteria {
        let f = criteria::judge(&c.check, &turns);
        match f.verdict {
            "passed" => passed += 1,
            "failed" => failed += 1,
            _ => unverifiable += 1,
        }
        let mut v = json!({ "id": c.id, "check": c.check, "verdict": f.verdict, "score": f.score });
        if c.evidence || req.sentence {
            v["evidence"] = json!(f.evidence);
        }
        verdicts.push(v);
    }
    let verdict = if failed > 0 {
        "failed"
    } else if unverifiable > 0 {
        "unverifiable"
    } else {
        "passed"
    };
    let total = req.criteria.len();
    let mut summary = format!(
        "{passed} of {total} {} passed",
        if total == 1 { "check" } else { "checks" }
    );
    if unverifiable > 0 {
        summary.push_str(&format!("; {unverifiable} could not be checked"));
    }
    summary.push('.');
    let reading: usize = turns
        .iter()
        .map(|t| {
            t.message.len()
                + t.answer.len()
                + t.steps
                    .iter()
                    .map(|s| s.code.len() + s.title.len() + s.rationale.len())
                    .sum::<usize>()
        })
        .sum();
    let input_tokens = 600
        + reading / 4
        + req
            .criteria
            .iter()
            .map(|c| c.check.len() / 4)
            .sum::<usize>();
    let output_tokens = 80 * total;
    state.charge(
        owner,
        (input_tokens as f64 * 3.0 + output_tokens as f64 * 15.0) / 1e6,
    );
    Ok(json!({
        "judgementId": state.new_id("judgement_"),
        "verdict": verdict,
        "summary": summary,
        "task": task,
        "criteria": verdicts,
        "turns": req.turns,
        "usage": { "inputTokens": input_tokens, "outputTokens": output_tokens },
        "researchPreview": true,
    }))
}
