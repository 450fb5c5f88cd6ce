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
        | AgentEvent::Unknown => {}
    }
    applied
}
