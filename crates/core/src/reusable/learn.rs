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

use crate::connection::Connection;
use crate::console::{BlockRun, Console};
use crate::conversations::Conversations;
use crate::conversations::ThreadItem;
use crate::error::{now_ms, AppError, AppResult};
use crate::reusable::library::{Library, ReusableTask};
use crate::reusable::placeholders::{self, TemplateSuggestion};

/// An evaluation's `result` may be at most 20 KB.
const MAX_EVALUATION_BYTES: usize = 20_000;
/// The error's share of those 20 KB; the rest leaves room for the value and the newest logs.
const MAX_ERROR_MESSAGE_BYTES: usize = 8_000;
/// The newest logs an evaluation keeps.
const MAX_LOGS: usize = 20;

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

pub fn draft(conversations: &Conversations, conversation_id: &str) -> AppResult<ReusableDraft> {
    let turn_id = crate::replay::latest_turn(conversations, conversation_id)?;
    let conversation = conversations.store().get(conversation_id)?;
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
    connection: &Connection,
    library: &Library,
    turn_id: &str,
    template: &str,
    idempotency_key: String,
) -> AppResult<ReusableTask> {
    let active = connection.active().await?;
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
    library.write(|book| book.put(task.clone()))?;
    Ok(task)
}

pub async fn list(connection: &Connection, library: &Library) -> AppResult<Vec<ReusableTask>> {
    let scope = connection.active().await?.scope;
    Ok(library.read(|b| b.list(&scope)))
}

pub fn remove(library: &Library, id: &str) -> AppResult<()> {
    library.write(|b| b.remove(id))?;
    Ok(())
}

/// Runs the task's function on `machine_id` with `inputs` over its defaults. A run that threw
/// is kept for "Fix it" (saved through `app`, see [`record_failure`]).
pub async fn run(
    console: &Console,
    library: &Library,
    id: &str,
    machine_id: &str,
    inputs: Map<String, Value>,
) -> AppResult<BlockRun> {
    let task = library.get(id)?;
    let block = learned_exec_block(&task.code, &task.parameters, &inputs)?;
    let run = console.run(machine_id, &block, true).await?;
    if run.result.error.is_some() {
        // The error travels in the evaluation's result; a note is for the person's words.
        record_failure(library, id, inputs, run.result.clone(), None).await?;
    }
    Ok(run)
}

/// Keeps a run that finished but gave the wrong answer, with the person's note.
pub async fn report_wrong_result(
    library: &Library,
    id: &str,
    inputs: Map<String, Value>,
    result: ExecResult,
    note: String,
) -> AppResult<ReusableTask> {
    let note = Some(note).filter(|n| !n.trim().is_empty());
    record_failure(library, id, inputs, result, note)
        .await?
        .ok_or(AppError::UnknownReusableTask)
}

/// Cuts the run down to an evaluation and saves it with the task. Both can take a while with a
/// big result (serializing, rewriting the library file), so they run on a blocking thread, never
/// on the window's thread or an async worker; the thread holds its own handle on the library.
async fn record_failure(
    library: &Library,
    id: &str,
    inputs: Map<String, Value>,
    result: ExecResult,
    note: Option<String>,
) -> AppResult<Option<ReusableTask>> {
    let (library, id) = (library.clone(), id.to_owned());
    tokio::task::spawn_blocking(move || {
        let evaluation = evaluation(&inputs, &result, false, note);
        library.write(|b| {
            b.get_mut(&id).map(|t| {
                t.record_failure(evaluation);
                t.clone()
            })
        })
    })
    .await
    .map_err(|e| AppError::Store(e.to_string()))?
}

/// Repairs the task from its failed runs and the person's feedback.
pub async fn heal(
    connection: &Connection,
    library: &Library,
    id: &str,
    feedback: String,
    idempotency_key: String,
) -> AppResult<ReusableTask> {
    let client = connection.active().await?.client;
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
///
/// The error message is cut first, to a fixed share of the budget, so that the rest of the
/// cutting (oldest logs, then the value) always ends with a body that fits, whatever the
/// service or the learned code threw.
pub fn evaluation(
    inputs: &Map<String, Value>,
    result: &ExecResult,
    passed: bool,
    note: Option<String>,
) -> Evaluation {
    let error = result.error.clone().map(|mut e| {
        e.message = cut_to_json_len(&e.message, MAX_ERROR_MESSAGE_BYTES);
        e
    });
    let body = |value: &Value, logs: &[String]| serde_json::json!({ "result": value, "error": error, "logs": logs });
    let fits = |value: &Value, logs: &[String]| {
        body(value, logs).to_string().len() <= MAX_EVALUATION_BYTES
    };
    let mut logs: Vec<String> = result
        .logs
        .iter()
        .rev()
        .take(MAX_LOGS)
        .rev()
        .cloned()
        .collect();
    let mut value = result.result.clone();
    // At most MAX_LOGS turns: each drops one log.
    while !fits(&value, &logs) && !logs.is_empty() {
        logs.remove(0);
    }
    if !fits(&value, &logs) {
        let text = value.to_string();
        value = Value::String(cut_to_json_len(&text, MAX_EVALUATION_BYTES / 2));
        if !fits(&value, &logs) {
            value = Value::Null;
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

/// The longest start of `text` whose JSON string form takes at most `max` bytes.
fn cut_to_json_len(text: &str, max: usize) -> String {
    let json_len = |s: &str| Value::from(s).to_string().len();
    if json_len(text) <= max {
        return text.to_owned();
    }
    // Escaping only lengthens text, so the answer lies within the first `max` bytes: the
    // search below works on at most that much, however long the message.
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let candidates: Vec<usize> = text[..end]
        .char_indices()
        .map(|(i, _)| i)
        .chain([end])
        .collect();
    let fitting = candidates.partition_point(|&i| json_len(&text[..i]) <= max);
    text[..candidates[fitting.saturating_sub(1)]].to_owned()
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

    fn failed(message: &str, logs: Vec<String>) -> ExecResult {
        serde_json::from_value(json!({
            "result": null,
            "error": { "kind": "exception", "message": message },
            "logs": logs,
            "variables": [],
            "durationMs": 5
        }))
        .unwrap()
    }

    #[test]
    fn a_megabyte_error_message_is_cut_and_the_evaluation_still_fits() {
        let logs = vec!["last".to_owned()];
        let e = evaluation(
            &Map::new(),
            &failed(&"e".repeat(1_000_000), logs),
            false,
            None,
        );
        let body = e.result.unwrap();
        assert!(body.to_string().len() <= MAX_EVALUATION_BYTES);
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.len() > 1_000 && message.chars().all(|c| c == 'e'));
        assert_eq!(body["logs"], json!(["last"]));
    }

    #[test]
    fn an_error_message_of_escaped_characters_is_cut_by_its_json_length() {
        // Each control character takes 6 bytes as JSON; each "é" 2 bytes of UTF-8.
        let message = "\u{1}é\"".repeat(200_000);
        let e = evaluation(&Map::new(), &failed(&message, vec![]), false, None);
        let body = e.result.unwrap();
        assert!(body.to_string().len() <= MAX_EVALUATION_BYTES);
        let kept = body["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(kept) && !kept.is_empty());
    }

    #[test]
    fn cutting_keeps_whole_characters_and_what_already_fits() {
        assert_eq!(cut_to_json_len("short", 100), "short");
        // "ééé" is 8 bytes as JSON with its quotes; 7 bytes leave room for two.
        assert_eq!(cut_to_json_len("ééé", 7), "éé");
        assert_eq!(cut_to_json_len("ééé", 2), "");
    }
}
