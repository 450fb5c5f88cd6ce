//! The work of one learn call: checking the source turns, choosing the template, converting
//! or healing, the documented work time (cut short by a service restart: `error:
//! interrupted`), validation and the Learn result.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Map, Value};

use super::request::{self, LearnRequest};
use super::{check, coded, convert, heal, template};
use crate::error::ApiError;
use crate::state::{AppState, TurnRecord};

/// Documented time a conversion takes, and a repair.
pub const CONVERT_TIME: Duration = Duration::from_secs(120);
pub const HEAL_TIME: Duration = Duration::from_secs(60);

/// Spends the documented work time; `true` when the service restarted meanwhile.
async fn spend(state: &AppState, documented: Duration) -> bool {
    let clock = state.clock();
    tokio::select! {
        _ = clock.sleep(documented) => false,
        _ = crate::control::restarted(state) => true,
    }
}

/// The result of a call that stopped mid-way.
fn interrupted(state: &AppState, mode: &str, template: &str, req: &LearnRequest) -> Value {
    json!({
        "learnId": state.new_id("learn_"),
        "mode": mode,
        "status": "failed",
        "error": "interrupted",
        "title": title(if template.is_empty() { "Repaired task" } else { template }),
        "template": template,
        "parameters": [],
        "code": "",
        "validation": { "errors": ["The service restarted while learning; nothing was produced. Try again."], "warnings": [] },
        "sourceTurns": req.turns,
        "usage": { "inputTokens": 0, "outputTokens": 0 },
        "researchPreview": true,
        "idempotent_replay": false,
    })
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
    // Learned from the task's words, as the agent read them: not a client's bracketed context
    // line after them (the person's local time), which no run would repeat word for word.
    let message = crate::task_words::task_words(&first.message);
    if let Some(t) = &req.template {
        return template::matches(t, &message)
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
        let mut defaults = template::matches(t, &message).unwrap_or_default();
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
    Ok(template::infer(&message))
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
pub async fn work(
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
            if spend(state, CONVERT_TIME).await {
                return Ok(interrupted(state, "convert", &template, &req));
            }
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
            if spend(state, HEAL_TIME).await {
                return Ok(interrupted(state, "heal", &template, &req));
            }
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
