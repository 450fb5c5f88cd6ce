//! The end of a task: the answer text, the real `finalizing` step (structured output and
//! criteria checked), the final status, and the `finish` or `error` event.

use super::{structured, Ctx, Outcome};
use crate::clock::Clock;
use crate::records::TurnStatus;
use crate::tasks;
use script::Script;
use serde_json::{json, Value};
use std::time::Duration;

/// Documented time the agent spends turning its answer into the turn's result.
const FINALIZING: Duration = Duration::from_secs(3);

use super::script;

/// Ends the turn: answer text, `finalizing`, structured checks, final status and event.
pub(super) async fn finish(ctx: &mut Ctx, script: &Script, outcome: Outcome) {
    let state = ctx.state.clone();
    let final_shot = if ctx.record { ctx.screenshot() } else { None };
    let (schema, criteria) = {
        let db = state.db();
        match db.turns.get(&ctx.turn_id) {
            Some(t) => (t.output_schema.clone(), t.success_criteria.clone()),
            None => return,
        }
    };
    let mut result = TurnResult::default();
    let mut final_answer = String::new();
    match outcome {
        Outcome::Aborted => {
            // As the makers record of the real service, the stream goes on after an abort:
            // the dying turn still says something and finishes. A client must not take
            // either for the task going on or being done.
            ctx.say(false, "Stopping here, as you asked.".into());
            result.status = TurnStatus::Failed;
            result.reason = Some("agent_error");
            result.raw = Some("The task was stopped on request.".into());
            tasks::event(
                &state,
                &ctx.turn_id,
                json!({ "type": "finish", "finishReason": "abort" }),
            );
        }
        Outcome::Fail { reason, code, text } => {
            let mut ev = json!({ "type": "error", "errorText": text });
            if let Some(code) = code {
                ev["code"] = json!(code);
                if code == "insufficient_credits" {
                    ev["resetsAt"] = json!(Clock::next_utc_midnight_iso());
                }
            }
            result.status = TurnStatus::Failed;
            result.reason = Some(reason);
            result.error_code = code;
            result.raw = Some(text);
            tasks::event(&state, &ctx.turn_id, ev);
        }
        Outcome::Answer(answer) => {
            final_answer = answer.clone();
            ctx.say(false, answer.clone());
            tasks::set_status(&state, &ctx.turn_id, TurnStatus::Finalizing);
            state.clock().sleep(FINALIZING).await;
            result.status = TurnStatus::Succeeded;
            result.output = json!(answer);
            if let Some(schema) = &schema {
                let out = if script.invalid_output {
                    structured::garble(schema)
                } else {
                    structured::generate(schema, "Paris")
                };
                let errors = structured::validate(schema, &out);
                if errors.is_empty() {
                    result.output = out;
                } else {
                    result.status = TurnStatus::Failed;
                    result.reason = Some("output_invalid");
                    result.raw = Some(out.to_string());
                    result.output_errors = Some(errors);
                }
            }
            if let Some(c) = &criteria {
                let checked = structured::check_criteria(c, &answer);
                result.evidence = Some(checked.evidence);
                if result.status == TurnStatus::Succeeded && (checked.not_met || checked.unchecked)
                {
                    result.status = TurnStatus::Failed;
                    result.reason = Some(if checked.not_met {
                        "criteria_not_met"
                    } else {
                        "criteria_unchecked"
                    });
                    result.raw = Some(answer.clone());
                }
            }
            if result.status == TurnStatus::Failed {
                tasks::event(
                    &state,
                    &ctx.turn_id,
                    json!({
                        "type": "error",
                        "errorText": result.raw.clone().unwrap_or_default().chars().take(500).collect::<String>(),
                    }),
                );
            } else {
                tasks::event(
                    &state,
                    &ctx.turn_id,
                    json!({ "type": "finish", "finishReason": "stop" }),
                );
            }
        }
    }
    if let Some(t) = state.db().turns.get_mut(&ctx.turn_id) {
        t.final_screenshot = final_shot;
        t.answer = final_answer;
        t.status = result.status;
        t.output = if result.status == TurnStatus::Succeeded {
            result.output
        } else {
            Value::Null
        };
        t.reason_code = result.reason.map(str::to_owned);
        t.error_code = result.error_code.map(str::to_owned);
        t.raw_answer = result.raw;
        t.evidence = result.evidence;
        t.output_errors = result.output_errors;
        t.ended = true;
    }
    state.notify();
}

#[derive(Default)]
struct TurnResult {
    status: TurnStatus,
    output: Value,
    reason: Option<&'static str>,
    error_code: Option<&'static str>,
    raw: Option<String>,
    evidence: Option<Vec<Value>>,
    output_errors: Option<Vec<String>>,
}
