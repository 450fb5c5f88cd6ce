//! Reusable tasks: learning a function from a recorded task, running it with new inputs on a
//! lease, and repairing it ("Fix it") from the runs that went wrong.
//!
//! Learn and repair calls carry the page's idempotency key, so pressing "Try again" after a
//! timeout returns the earlier result instead of paying twice.

use porthole_client::control::ExecResult;
use porthole_client::learn::{Evaluation, LearnRequest};
use porthole_client::learned_exec_block;
use serde::Serialize;
use serde_json::{Map, Value};
use tauri::{AppHandle, Manager};

use crate::connection::Connection;
use crate::conversations::ThreadItem;
use crate::error::{now_ms, AppError, AppResult};
use crate::features::console::{self, BlockRun};
use crate::features::library::{Library, ReusableTask};
use crate::features::placeholders::{self, TemplateSuggestion};
use crate::persist::ConversationStore;

/// An evaluation's `result` may be at most 20 KB.
const MAX_EVALUATION_BYTES: usize = 20_000;

/// Values for a reusable task's parameters, by name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(transparent)]
pub struct Inputs(
    #[specta(type = std::collections::HashMap<String, specta_typescript::Unknown>)]
    pub  Map<String, Value>,
);

/// What "Make this reusable" starts from: the recorded turn, its message, a suggested template.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ReusableDraft {
    pub turn_id: String,
    pub message: String,
    pub suggestion: TemplateSuggestion,
}

pub fn draft(app: &AppHandle, conversation_id: &str) -> AppResult<ReusableDraft> {
    let turn_id = crate::features::replay::latest_turn(app, conversation_id)?;
    let conversation = app.state::<ConversationStore>().get(conversation_id)?;
    // The turn was started by the last message that did not join a running task.
    let message = conversation
        .items
        .iter()
        .rev()
        .find_map(|i| match i {
            // `..`: a message's other parts (its attachments) do not matter here.
            ThreadItem::User {
                text,
                joined: false,
                ..
            } => Some(text.clone()),
            _ => None,
        })
        .ok_or(AppError::NoTurnYet)?;
    Ok(ReusableDraft {
        turn_id,
        suggestion: placeholders::suggest(&message),
        message,
    })
}

pub async fn learn(
    app: &AppHandle,
    turn_id: &str,
    template: &str,
    idempotency_key: String,
) -> AppResult<ReusableTask> {
    let active = app.state::<Connection>().active().await?;
    let request = LearnRequest {
        turns: vec![turn_id.to_owned()],
        template: Some(template.trim().to_owned()).filter(|t| !t.is_empty()),
        idempotency_key: Some(idempotency_key.clone()),
        ..LearnRequest::default()
    };
    let learned = active.client.learn().run(&request).await?;
    let task = ReusableTask::from_learned(
        format!("reusable-{idempotency_key}"),
        &active.scope,
        &learned,
        now_ms(),
    );
    app.state::<Library>()
        .write(|book| book.put(task.clone()))?;
    Ok(task)
}

pub async fn list(app: &AppHandle) -> AppResult<Vec<ReusableTask>> {
    let scope = app.state::<Connection>().active().await?.scope;
    Ok(app.state::<Library>().read(|b| b.list(&scope)))
}

pub fn remove(app: &AppHandle, id: &str) -> AppResult<()> {
    app.state::<Library>().write(|b| b.remove(id))?;
    Ok(())
}

/// Runs the task's function on `machine_id` with `inputs` over its defaults. A run that threw
/// is kept for "Fix it".
pub async fn run(
    app: &AppHandle,
    id: &str,
    machine_id: &str,
    inputs: Map<String, Value>,
) -> AppResult<BlockRun> {
    let library = app.state::<Library>();
    let task = library.get(id)?;
    let block = learned_exec_block(&task.code, &task.parameters, &inputs)?;
    let run = console::run(app, machine_id, &block, true).await?;
    if run.result.error.is_some() {
        // The error travels in the evaluation's result; a note is for the person's words.
        let evaluation = evaluation(&inputs, &run.result, false, None);
        library.write(|b| b.get_mut(id).map(|t| t.record_failure(evaluation)))?;
    }
    Ok(run)
}

/// Keeps a run that finished but gave the wrong answer, with the person's note.
pub fn report_wrong_result(
    app: &AppHandle,
    id: &str,
    inputs: Map<String, Value>,
    result: ExecResult,
    note: String,
) -> AppResult<ReusableTask> {
    let evaluation = evaluation(
        &inputs,
        &result,
        false,
        Some(note).filter(|n| !n.trim().is_empty()),
    );
    app.state::<Library>()
        .write(|b| {
            b.get_mut(id).map(|t| {
                t.record_failure(evaluation);
                t.clone()
            })
        })?
        .ok_or(AppError::UnknownReusableTask)
}

/// Repairs the task from its failed runs and the person's feedback.
pub async fn heal(
    app: &AppHandle,
    id: &str,
    feedback: String,
    idempotency_key: String,
) -> AppResult<ReusableTask> {
    let client = app.state::<Connection>().active().await?.client;
    let library = app.state::<Library>();
    let task = library.get(id)?;
    let request = LearnRequest {
        initial_code: Some(task.code.clone()),
        template: Some(task.template.clone()).filter(|t| !t.is_empty()),
        evaluations: task.failed_runs.clone(),
        feedback: Some(feedback.trim().to_owned()).filter(|f| !f.is_empty()),
        idempotency_key: Some(idempotency_key),
        ..LearnRequest::default()
    };
    let healed = client.learn().run(&request).await?;
    library
        .write(|b| {
            b.get_mut(id).map(|t| {
                t.repaired(&healed);
                t.clone()
            })
        })?
        .ok_or(AppError::UnknownReusableTask)
}

/// An evaluation of a run: its result, error and last logs, cut to fit 20 KB.
pub fn evaluation(
    inputs: &Map<String, Value>,
    result: &ExecResult,
    passed: bool,
    note: Option<String>,
) -> Evaluation {
    let mut logs: Vec<String> = result.logs.iter().rev().take(20).rev().cloned().collect();
    let mut value = result.result.clone();
    let body = |value: &Value, logs: &[String]| serde_json::json!({ "result": value, "error": result.error, "logs": logs });
    while body(&value, &logs).to_string().len() > MAX_EVALUATION_BYTES {
        if !logs.is_empty() {
            logs.remove(0);
        } else {
            let text = value.to_string();
            value = Value::String(text.chars().take(MAX_EVALUATION_BYTES / 2).collect());
            if body(&value, &logs).to_string().len() > MAX_EVALUATION_BYTES {
                value = Value::Null;
            }
        }
    }
    Evaluation {
        inputs: Some(inputs.clone()),
        result: Some(body(&value, &logs)),
        judgement: None,
        passed: Some(passed),
        note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(value: Value, logs: Vec<String>) -> ExecResult {
        serde_json::from_value(
            json!({ "result": value, "logs": logs, "variables": [], "durationMs": 5 }),
        )
        .unwrap()
    }

    #[test]
    fn an_evaluation_fits_in_twenty_kilobytes_keeping_the_newest_logs() {
        let logs: Vec<String> = (0..200)
            .map(|i| format!("{i}:{}", "x".repeat(1990)))
            .collect();
        let e = evaluation(
            &Map::new(),
            &result(json!("ok"), logs),
            false,
            Some("wrong".into()),
        );
        let body = e.result.unwrap();
        assert!(body.to_string().len() <= MAX_EVALUATION_BYTES);
        let kept = body["logs"].as_array().unwrap();
        assert!(kept.last().unwrap().as_str().unwrap().starts_with("199:"));
        assert_eq!(body["result"], json!("ok"));
        assert_eq!(e.passed, Some(false));
    }

    #[test]
    fn a_huge_result_is_cut_rather_than_sent() {
        let e = evaluation(
            &Map::new(),
            &result(json!("y".repeat(100_000)), vec![]),
            false,
            None,
        );
        assert!(e.result.unwrap().to_string().len() <= MAX_EVALUATION_BYTES);
    }
}
