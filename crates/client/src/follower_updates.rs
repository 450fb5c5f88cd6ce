//! Turns agent events into [`TaskUpdate`]s, remembering what was delivered so that a replay of
//! the same turn (the poll read from the start after a broken stream) repeats nothing.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::events::AgentEvent;
use crate::follower::{TaskFailure, TaskUpdate};

/// What a follower already yielded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Delivered {
    /// Ids of assistant messages yielded.
    pub message_ids: Vec<String>,
    /// Ids of narration yielded.
    pub narration_ids: Vec<String>,
    pub approval_ids: Vec<String>,
    /// Count of progress, tool and tool-error events yielded (the same on both paths).
    pub replayable: u32,
}

impl Delivered {
    /// Records an approval; `false` if it was already surfaced.
    pub(crate) fn note_approval(&mut self, id: &str) -> bool {
        if self.approval_ids.iter().any(|a| a == id) {
            return false;
        }
        self.approval_ids.push(id.to_owned());
        true
    }
}

/// Text and narration being assembled from deltas, by id.
#[derive(Debug, Default)]
pub(crate) struct TextBuffers {
    text: HashMap<String, String>,
    narration: HashMap<String, String>,
}

pub(crate) struct Applied {
    /// The event is one of the replayable kinds counted in [`Delivered::replayable`].
    pub replayable: bool,
    pub failure: Option<TaskFailure>,
}

/// Applies one event. `skip` says a replayable event was already delivered by the stream.
pub(crate) fn apply_event(
    event: AgentEvent,
    delivered: &mut Delivered,
    buffers: &mut TextBuffers,
    skip: bool,
    out: &mut std::collections::VecDeque<TaskUpdate>,
) -> Applied {
    let mut applied = Applied {
        replayable: false,
        failure: None,
    };
    match event {
        AgentEvent::TextStart { id } => {
            buffers.text.insert(id, String::new());
        }
        AgentEvent::TextDelta { id, delta } => buffers.text.entry(id).or_default().push_str(&delta),
        AgentEvent::TextEnd { id } => {
            let text = buffers.text.remove(&id).unwrap_or_default();
            if !delivered.message_ids.contains(&id) {
                delivered.message_ids.push(id.clone());
                out.push_back(TaskUpdate::Message { id, text });
            }
        }
        AgentEvent::ReasoningStart { id } => {
            buffers.narration.insert(id, String::new());
        }
        AgentEvent::ReasoningDelta { id, delta } => {
            buffers.narration.entry(id).or_default().push_str(&delta)
        }
        AgentEvent::ReasoningEnd { id } => {
            let text = buffers.narration.remove(&id).unwrap_or_default();
            if !delivered.narration_ids.contains(&id) {
                delivered.narration_ids.push(id.clone());
                out.push_back(TaskUpdate::Narration { id, text });
            }
        }
        AgentEvent::DataApprovalRequest { data } => {
            applied.replayable = true;
            if !skip {
                delivered.replayable += 1;
            }
            if delivered.note_approval(&data.approval_id) {
                out.push_back(TaskUpdate::NeedsApproval { approval: data });
            }
        }
        AgentEvent::DataProgress { data } => {
            applied.replayable = true;
            if !skip {
                delivered.replayable += 1;
                out.push_back(TaskUpdate::Progress {
                    text: data.text,
                    tool: data.tool,
                });
            }
        }
        AgentEvent::ToolInputStart { .. } => {
            applied.replayable = true;
            if !skip {
                delivered.replayable += 1;
            }
        }
        AgentEvent::ToolInputAvailable {
            tool_call_id,
            tool_name,
            input,
        } => {
            applied.replayable = true;
            if !skip {
                delivered.replayable += 1;
                out.push_back(TaskUpdate::Tool {
                    tool_call_id,
                    tool_name,
                    input,
                });
            }
        }
        AgentEvent::ToolOutputError {
            tool_call_id,
            error_text,
            code,
            resets_at,
        } => {
            applied.replayable = true;
            if !skip {
                delivered.replayable += 1;
                out.push_back(TaskUpdate::ToolFailed {
                    tool_call_id,
                    error_text,
                    code,
                    resets_at,
                });
            }
        }
        AgentEvent::Error {
            error_text,
            code,
            resets_at,
        } => {
            applied.failure = Some(TaskFailure {
                text: error_text,
                code,
                resets_at,
            });
        }
        AgentEvent::Start { .. }
        | AgentEvent::DataSession { .. }
        | AgentEvent::DataStatus { .. }
        | AgentEvent::Finish { .. }
        | AgentEvent::Unknown(_) => {}
    }
    applied
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::*;
    use crate::events::ProgressData;

    fn progress(text: &str) -> AgentEvent {
        AgentEvent::DataProgress {
            data: ProgressData {
                text: text.into(),
                tool: None,
            },
        }
    }

    fn decode(json: &str) -> AgentEvent {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn stream_deltas_and_poll_replay_give_each_message_once() {
        let mut delivered = Delivered::default();
        let mut buffers = TextBuffers::default();
        let mut out = VecDeque::new();
        // The stream: a progress line, one whole message, half of another, then a cut.
        for event in [
            progress("Opening the browser"),
            decode(r#"{"type":"text-start","id":"m1"}"#),
            decode(r#"{"type":"text-delta","id":"m1","delta":"Hel"}"#),
            decode(r#"{"type":"text-delta","id":"m1","delta":"lo"}"#),
            decode(r#"{"type":"text-end","id":"m1"}"#),
            decode(r#"{"type":"text-start","id":"m2"}"#),
            decode(r#"{"type":"text-delta","id":"m2","delta":"Do"}"#),
        ] {
            apply_event(event, &mut delivered, &mut buffers, false, &mut out);
        }
        // The poll from the turn's start: the same events, whole, plus what came after.
        let mut skip = delivered.replayable;
        for event in [
            progress("Opening the browser"),
            decode(r#"{"type":"text-start","id":"m1"}"#),
            decode(r#"{"type":"text-delta","id":"m1","delta":"Hello"}"#),
            decode(r#"{"type":"text-end","id":"m1"}"#),
            decode(r#"{"type":"text-start","id":"m2"}"#),
            decode(r#"{"type":"text-delta","id":"m2","delta":"Done."}"#),
            decode(r#"{"type":"text-end","id":"m2"}"#),
            progress("Closing"),
        ] {
            let applied = apply_event(event, &mut delivered, &mut buffers, skip > 0, &mut out);
            if applied.replayable && skip > 0 {
                skip -= 1;
            }
        }
        let updates: Vec<_> = out.into_iter().collect();
        assert_eq!(
            updates,
            vec![
                TaskUpdate::Progress {
                    text: "Opening the browser".into(),
                    tool: None
                },
                TaskUpdate::Message {
                    id: "m1".into(),
                    text: "Hello".into()
                },
                TaskUpdate::Message {
                    id: "m2".into(),
                    text: "Done.".into()
                },
                TaskUpdate::Progress {
                    text: "Closing".into(),
                    tool: None
                },
            ]
        );
    }

    #[test]
    fn unknown_event_types_do_not_fail() {
        assert_eq!(
            decode(r#"{"type":"data-weather","data":{}}"#),
            AgentEvent::Unknown(serde_json::json!({"type":"data-weather","data":{}}))
        );
        let error = decode(
            r#"{"type":"error","errorText":"No credit","code":"insufficient_credits","resetsAt":"2026-11-23T00:00:00Z"}"#,
        );
        let mut out = VecDeque::new();
        let applied = apply_event(
            error,
            &mut Delivered::default(),
            &mut TextBuffers::default(),
            false,
            &mut out,
        );
        assert_eq!(
            applied.failure.unwrap().code,
            Some(crate::events::EventErrorCode::InsufficientCredits)
        );
    }
}
