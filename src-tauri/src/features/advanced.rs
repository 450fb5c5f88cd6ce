//! The composer's extra settings — "Record steps", an output schema and success criteria —
//! and the finished turn's structured outcome.
//!
//! The page sets the options for a computer before it sends; `tasks::send` lays them over a
//! new task's message with [`apply`]. Invariant: an output schema is stored only once it
//! parsed as a JSON object, so a send never fails on the page's typing.

use std::collections::HashMap;
use std::sync::Mutex;

use porthole_client::messages::{Criteria, MessageOptions, MessageRequest};
use porthole_client::turns::Turn;
use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Manager};

use crate::connection::Connection;
use crate::error::{AppError, AppResult, UiError};
use crate::error_words::for_turn_reason;
use crate::features::judge::tidy;

/// What the composer asks for besides the text.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SendOptions {
    pub record_steps: bool,
    /// JSON Schema text; blank for none.
    pub output_schema: String,
    pub success_criteria: Option<Criteria>,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct Parsed {
    record_steps: bool,
    output_schema: Option<serde_json::Value>,
    success_criteria: Option<Criteria>,
}

/// Options by machine id.
#[derive(Default)]
pub struct ComposerOptions {
    by_machine: Mutex<HashMap<String, Parsed>>,
}

impl ComposerOptions {
    pub fn set(&self, machine_id: &str, options: SendOptions) -> AppResult<()> {
        let parsed = parse(options)?;
        self.by_machine
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(machine_id.to_owned(), parsed);
        Ok(())
    }

    /// Lays the machine's options over a new task's message.
    pub fn apply(&self, request: &mut MessageRequest) {
        let Some(machine_id) = request.machine_id.clone() else {
            return;
        };
        let map = self.by_machine.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(parsed) = map.get(&machine_id) {
            apply_parsed(parsed, request);
        }
    }
}

fn parse(options: SendOptions) -> AppResult<Parsed> {
    let schema = options.output_schema.trim();
    let output_schema = if schema.is_empty() {
        None
    } else {
        match serde_json::from_str::<serde_json::Value>(schema) {
            Ok(value @ serde_json::Value::Object(_)) => Some(value),
            _ => return Err(AppError::InvalidSchema),
        }
    };
    Ok(Parsed {
        record_steps: options.record_steps,
        output_schema,
        success_criteria: options.success_criteria.and_then(tidy),
    })
}

fn apply_parsed(parsed: &Parsed, request: &mut MessageRequest) {
    if parsed.record_steps {
        request
            .options
            .get_or_insert_with(MessageOptions::default)
            .record_trajectory = Some(true);
    }
    request.output_schema = parsed.output_schema.clone();
    request.success_criteria = parsed.success_criteria.clone();
}

/// Lays the composer's options for this message's computer over it (used by `tasks::send`).
pub fn apply(app: &AppHandle, request: &mut MessageRequest) {
    if let Some(options) = app.try_state::<ComposerOptions>() {
        options.apply(request);
    }
}

/// A finished turn with its failure, if any, in words.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TurnOutcome {
    pub turn: Turn,
    /// Why a structured task failed (`output_invalid`, `criteria_not_met`, ...).
    pub explanation: Option<UiError>,
}

pub async fn outcome(app: &AppHandle, turn_id: &str) -> AppResult<TurnOutcome> {
    let client = app.state::<Connection>().active().await?.client;
    let turn = client.turns().get(turn_id).await?;
    let explanation = turn.reason_code.as_ref().and_then(for_turn_reason);
    Ok(TurnOutcome { turn, explanation })
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_client::messages::CriterionCheck;

    #[test]
    fn record_steps_schema_and_criteria_reach_the_message() {
        let options = ComposerOptions::default();
        options
            .set(
                "m1",
                SendOptions {
                    record_steps: true,
                    output_schema: r#"{"type":"object"}"#.into(),
                    success_criteria: Some(Criteria::Checks(vec![CriterionCheck {
                        id: String::new(),
                        check: "mentions Paris".into(),
                        return_evidence: Some(true),
                    }])),
                },
            )
            .unwrap();
        let mut request = MessageRequest::new("hi", "m1");
        options.apply(&mut request);
        let body = serde_json::to_value(&request).unwrap();
        assert_eq!(body["options"]["recordTrajectory"], true);
        assert_eq!(body["output_schema"]["type"], "object");
        assert_eq!(body["success_criteria"][0]["id"], "check-1");
        let mut other = MessageRequest::new("hi", "m2");
        options.apply(&mut other);
        assert_eq!(other.options, None);
    }

    #[test]
    fn a_schema_that_is_not_a_json_object_is_refused_and_blank_means_none() {
        let options = ComposerOptions::default();
        for bad in ["{", "[1]", "\"text\""] {
            let set = options.set(
                "m1",
                SendOptions {
                    output_schema: bad.into(),
                    ..Default::default()
                },
            );
            assert!(matches!(set, Err(AppError::InvalidSchema)), "{bad}");
        }
        options
            .set(
                "m1",
                SendOptions {
                    output_schema: "  ".into(),
                    ..Default::default()
                },
            )
            .unwrap();
        let mut request = MessageRequest::new("hi", "m1");
        options.apply(&mut request);
        assert_eq!(request.output_schema, None);
        assert_eq!(request.options, None);
    }
}
