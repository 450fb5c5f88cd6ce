//! Agent events (shared by the stream and the poll) and `GET /v1/agents/events`.
//!
//! An event type the spec does not list decodes as [`AgentEvent::Unknown`] (an untagged
//! variant, tried last) instead of failing the whole page or stream.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::approvals::ApprovalRequest;
use crate::budget::Limit;
use crate::client::Client;
use crate::error::{Operation, Result};
use crate::executor::Call;
use crate::open_enum::open_enum;

open_enum! {
    /// `code` on `error` and `tool-output-error`: stop retrying, the same request fails again
    /// today.
    pub enum EventErrorCode {
        InsufficientCredits = "insufficient_credits",
        FreeComputerTimeExhausted = "free_computer_time_exhausted",
    }
}

open_enum! {
    pub enum SessionStatus {
        Running = "running",
        NeedsApproval = "needs_approval",
        Idle = "idle",
        Error = "error",
    }
}

impl SessionStatus {
    /// `idle` and `error` end a follow; the poll returns at once on them.
    pub fn is_final(&self) -> bool {
        matches!(self, Self::Idle | Self::Error)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ProgressData {
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub tool: Option<String>,
}

/// `data-session`: the spec names `sessionId`, the real service was seen sending `id` and
/// `title`; read either.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SessionData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The conversation's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Where the service puts the turn is not published; it may be here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<String>,
}

impl SessionData {
    /// The session named, from `sessionId` or else `id`.
    pub fn session(&self) -> Option<&str> {
        self.session_id
            .as_deref()
            .or(self.id.as_deref())
            .filter(|s| !s.is_empty())
    }
}

open_enum! {
    /// What a `data-status` is about.
    pub enum StatusKind {
        Waking = "waking",
        AgentOffline = "agent_offline",
        /// The person's own computer has not picked the task up: probably asleep or offline
        /// (the makers' client's word for it; `waking` and `agent_offline` are the simulator's).
        Stalled = "stalled",
        /// Set by this client, never by the service: a message whose send got no answer was
        /// not taken, and is being sent again (see `TaskFollower::start`).
        Resending = "resending",
    }
}

/// `data-status`: delivery news (the computer is waking, the agent is offline) to show the
/// person before anything else.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct StatusData {
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub kind: Option<StatusKind>,
}

/// One event of a task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "type",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum AgentEvent {
    /// Stream only. May carry the current `turnId` (where the service puts it is not
    /// published).
    Start {
        #[serde(default)]
        message_id: Option<String>,
        #[serde(default)]
        turn_id: Option<String>,
    },
    /// Stream only.
    DataSession {
        data: SessionData,
    },
    /// Stream only, e.g. while the computer wakes.
    DataStatus {
        data: StatusData,
    },
    TextStart {
        id: String,
    },
    TextDelta {
        id: String,
        delta: String,
    },
    TextEnd {
        id: String,
    },
    ReasoningStart {
        id: String,
    },
    ReasoningDelta {
        id: String,
        delta: String,
    },
    ReasoningEnd {
        id: String,
    },
    DataProgress {
        data: ProgressData,
    },
    ToolInputStart {
        tool_call_id: String,
        #[serde(default)]
        tool_name: String,
        #[serde(default)]
        #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
        tool_metadata: Option<serde_json::Value>,
    },
    ToolInputAvailable {
        tool_call_id: String,
        #[serde(default)]
        tool_name: String,
        #[serde(default)]
        #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
        input: Option<serde_json::Value>,
    },
    ToolOutputError {
        tool_call_id: String,
        #[serde(default)]
        error_text: String,
        #[serde(default)]
        code: Option<EventErrorCode>,
        #[serde(default)]
        resets_at: Option<String>,
    },
    DataApprovalRequest {
        data: ApprovalRequest,
    },
    Finish {
        #[serde(default)]
        finish_reason: Option<String>,
    },
    Error {
        /// The words; the makers' client falls back to `text` when `errorText` is absent.
        #[serde(default)]
        error_text: String,
        #[serde(default)]
        text: String,
        #[serde(default)]
        code: Option<EventErrorCode>,
        #[serde(default)]
        resets_at: Option<String>,
    },
    /// A type the spec does not list (or a listed one in a shape it does not describe),
    /// kept as sent.
    #[serde(untagged)]
    Unknown(
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Unknown))]
        serde_json::Value,
    ),
}

/// Model-call usage of a task or a whole session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct UsageFigures {
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub input_tokens: u64,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub output_tokens: u64,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub cache_read_tokens: u64,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub cache_write_tokens: u64,
    #[serde(default)]
    pub cost_usd: f64,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub model_calls: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TaskUsage {
    #[serde(flatten)]
    pub total: UsageFigures,
    #[serde(default)]
    pub by_model: BTreeMap<String, UsageFigures>,
}

/// One answer of the events poll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct EventsPage {
    pub session_id: String,
    pub status: SessionStatus,
    #[serde(default)]
    pub events: Vec<AgentEvent>,
    /// The final assistant text of the current turn so far; the answer on `idle`.
    #[serde(default)]
    pub text: String,
    /// Pass as `since` on the next poll.
    pub cursor: String,
    /// The first pending approval, on `needs_approval`.
    #[serde(default)]
    pub approval: Option<ApprovalRequest>,
    #[serde(default)]
    pub usage: Option<TaskUsage>,
    #[serde(default)]
    pub session_usage: Option<TaskUsage>,
    /// The current turn, when the service says it here.
    #[serde(default)]
    pub turn_id: Option<String>,
}

/// Longest `wait` the service holds a poll.
pub const MAX_POLL_WAIT_SECS: u32 = 60;

pub struct Events<'c> {
    client: &'c Client,
}

impl Client {
    pub fn events(&self) -> Events<'_> {
        Events { client: self }
    }
}

impl Events<'_> {
    /// One poll: events after `since` (all of the current turn when `None`), held up to
    /// `wait_secs` (at most 60) while nothing is new.
    pub async fn poll(
        &self,
        session_id: &str,
        since: Option<&str>,
        wait_secs: u32,
    ) -> Result<EventsPage> {
        let wait = wait_secs.min(MAX_POLL_WAIT_SECS);
        let mut call = Call::get(Operation::Events, "/v1/agents/events")
            .query("sessionId", session_id)
            .query("wait", wait.to_string())
            .limit(Limit::EventPolls)
            .timeout(std::time::Duration::from_secs(u64::from(wait) + 20));
        if let Some(since) = since {
            call = call.query("since", since);
        }
        self.client.call(call).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_session_names_its_session_by_either_field() {
        let read = |data: serde_json::Value| match serde_json::from_value(
            serde_json::json!({"type": "data-session", "data": data}),
        )
        .unwrap()
        {
            AgentEvent::DataSession { data } => data,
            other => panic!("{other:?}"),
        };
        let spec = read(serde_json::json!({"sessionId": "cs_1"}));
        assert_eq!(spec.session(), Some("cs_1"));
        let seen = read(serde_json::json!({"id": "cs_2", "title": "Weather in Paris"}));
        assert_eq!(seen.session(), Some("cs_2"));
        assert_eq!(seen.title.as_deref(), Some("Weather in Paris"));
        assert_eq!(read(serde_json::json!({"title": null})).session(), None);
    }
}
