//! Turns agent events into [`TaskUpdate`]s, remembering what was delivered so that a replay of
//! the same turn (the poll read from the start after a broken stream) repeats nothing.
//!
//! Assistant messages, narration and approvals carry ids. The other replayable events
//! (progress lines, tool calls, tool errors) do not, so each delivered one is remembered as a
//! short fingerprint, in order; a replay skips the events that line up with that sequence.
//! Lining up (rather than counting) also holds when the stream began mid-turn, as it does for
//! a message that joined a running task: the replay's earlier events simply do not match.

use std::collections::{HashMap, VecDeque};

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
    /// Fingerprints of those events, in order; what a replay lines up with. Rust-side only
    /// (left out of the app's TypeScript).
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub fingerprints: Vec<String>,
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

/// Where a replay stands against what was delivered before it began.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Replay {
    matched: usize,
    /// How many fingerprints existed when the replay began; later ones are new.
    limit: usize,
}

impl Replay {
    /// A replay of the turn from its start.
    pub(crate) fn from_start(delivered: &Delivered) -> Self {
        Self {
            matched: 0,
            limit: delivered.fingerprints.len(),
        }
    }

    /// Whether this event was already delivered; if not, remembers it as delivered now.
    fn seen(&mut self, fingerprint: String, delivered: &mut Delivered) -> bool {
        if self.matched < self.limit && delivered.fingerprints[self.matched] == fingerprint {
            self.matched += 1;
            return true;
        }
        delivered.fingerprints.push(fingerprint);
        delivered.replayable += 1;
        false
    }
}

/// FNV-1a over the parts: stable across builds (a saved state outlives the binary).
fn fingerprint(kind: &str, parts: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in kind
        .bytes()
        .chain(parts.iter().flat_map(|p| p.bytes().chain([0xff])))
    {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// Text and narration being assembled from deltas, by id.
#[derive(Debug, Default)]
pub(crate) struct TextBuffers {
    text: HashMap<String, String>,
    narration: HashMap<String, String>,
}

/// Applies one event; returns the failure an `error` event reports.
pub(crate) fn apply_event(
    event: AgentEvent,
    delivered: &mut Delivered,
    buffers: &mut TextBuffers,
    replay: &mut Replay,
    out: &mut VecDeque<TaskUpdate>,
) -> Option<TaskFailure> {
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
        // A card without an id has nothing to answer.
        AgentEvent::DataApprovalRequest { data } if data.approval_id.is_empty() => {}
        AgentEvent::DataApprovalRequest { data } => {
            replay.seen(fingerprint("approval", &[&data.approval_id]), delivered);
            if delivered.note_approval(&data.approval_id) {
                out.push_back(TaskUpdate::NeedsApproval { approval: data });
            }
        }
        AgentEvent::DataProgress { data } => {
            let tool = data.tool.as_deref().unwrap_or("");
            if !replay.seen(fingerprint("progress", &[&data.text, tool]), delivered) {
                out.push_back(TaskUpdate::Progress {
                    text: data.text,
                    tool: data.tool,
                });
            }
        }
        AgentEvent::ToolInputStart { tool_call_id, .. } => {
            replay.seen(fingerprint("tool-start", &[&tool_call_id]), delivered);
        }
        AgentEvent::ToolInputAvailable {
            tool_call_id,
            tool_name,
            input,
        } => {
            if !replay.seen(fingerprint("tool", &[&tool_call_id]), delivered) {
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
            let print = fingerprint("tool-error", &[&tool_call_id, &error_text]);
            if !replay.seen(print, delivered) {
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
            text,
            code,
            resets_at,
        } => {
            // `errorText`, else `text`, as the makers' client reads it.
            return Some(TaskFailure {
                text: if error_text.is_empty() {
                    text
                } else {
                    error_text
                },
                code,
                resets_at,
                reason: None,
            });
        }
        AgentEvent::Start { .. }
        | AgentEvent::DataSession { .. }
        | AgentEvent::DataStatus { .. }
        | AgentEvent::Finish { .. }
        | AgentEvent::Unknown(_) => {}
    }
    None
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
            apply_event(
                event,
                &mut delivered,
                &mut buffers,
                &mut Replay::default(),
                &mut out,
            );
        }
        // The poll from the turn's start: the same events, whole, plus what came after.
        let mut replay = Replay::from_start(&delivered);
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
            apply_event(event, &mut delivered, &mut buffers, &mut replay, &mut out);
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
    fn a_stream_that_began_mid_turn_lines_up_with_the_replay() {
        let mut delivered = Delivered::default();
        let mut buffers = TextBuffers::default();
        let mut out = VecDeque::new();
        // The stream joined after "one" and "two" and saw "three" before it broke.
        apply_event(
            progress("three"),
            &mut delivered,
            &mut buffers,
            &mut Replay::default(),
            &mut out,
        );
        let mut replay = Replay::from_start(&delivered);
        for line in ["one", "two", "three", "four"] {
            apply_event(
                progress(line),
                &mut delivered,
                &mut buffers,
                &mut replay,
                &mut out,
            );
        }
        let lines: Vec<_> = out
            .into_iter()
            .filter_map(|u| match u {
                TaskUpdate::Progress { text, .. } => Some(text),
                _ => None,
            })
            .collect();
        assert_eq!(lines, ["three", "one", "two", "four"], "each line once");
    }

    #[test]
    fn a_card_without_an_id_is_dropped() {
        let mut out = VecDeque::new();
        let mut delivered = Delivered::default();
        for card in [
            r#"{"type":"data-approval-request","data":{"title":"Allow?"}}"#,
            r#"{"type":"data-approval-request","data":{"approvalId":"","title":"Allow?"}}"#,
        ] {
            apply_event(
                decode(card),
                &mut delivered,
                &mut TextBuffers::default(),
                &mut Replay::default(),
                &mut out,
            );
        }
        assert!(out.is_empty(), "{out:?}");
        assert!(delivered.approval_ids.is_empty() && delivered.fingerprints.is_empty());
    }

    #[test]
    fn the_ai_sdk_frames_beyond_the_spec_are_dropped() {
        let mut out = VecDeque::new();
        for frame in [
            r#"{"type":"start-step"}"#,
            r#"{"type":"tool-input-delta","toolCallId":"t1","inputTextDelta":"{\"ti"}"#,
            r#"{"type":"tool-output-available","toolCallId":"t1","output":{"ok":true}}"#,
            r#"{"type":"finish-step"}"#,
            r#"{"type":"message-metadata","messageMetadata":{"model":"m"}}"#,
            r#"{"type":"text-delta","id":"m1","delta":""}"#,
        ] {
            let failure = apply_event(
                decode(frame),
                &mut Delivered::default(),
                &mut TextBuffers::default(),
                &mut Replay::default(),
                &mut out,
            );
            assert!(failure.is_none());
        }
        assert!(out.is_empty(), "{out:?}");
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
        let failure = apply_event(
            error,
            &mut Delivered::default(),
            &mut TextBuffers::default(),
            &mut Replay::default(),
            &mut out,
        );
        assert_eq!(
            failure.unwrap().code,
            Some(crate::events::EventErrorCode::InsufficientCredits)
        );
    }
}
