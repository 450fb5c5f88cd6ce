//! What a [`crate::TaskFollower`] yields: one step of a task, in words the app can show.
//! Serializable, so the app can pass updates to its webview as they come.

use serde::{Deserialize, Serialize};

use crate::approvals::ApprovalRequest;
use crate::events::{EventErrorCode, StatusKind, TaskUsage};
use crate::sessions::ContextMessage;

/// Why a task ended badly, from its `error` event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TaskFailure {
    pub text: String,
    /// `insufficient_credits` or `free_computer_time_exhausted`: do not retry today.
    pub code: Option<EventErrorCode>,
    /// ISO 8601, for `insufficient_credits`.
    pub resets_at: Option<String>,
    /// Why the turn ended, when its result could be read (`machine_unavailable`,
    /// `not_started`, …): the stream's `error` frame does not say.
    #[serde(default)]
    pub reason: Option<crate::turns::ReasonCode>,
}

/// One step of a followed task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TaskUpdate {
    /// The session (and turn, when known) of the task. The turn may be unknown: where the
    /// service says it is not published, so what needs it (steps, checks) must do without.
    Started {
        session_id: String,
        turn_id: Option<String>,
        /// The message joined a task already running.
        queued: bool,
        /// The conversation's name, when the service gave one.
        title: Option<String>,
    },
    /// The service answered with a plain reply and started no task.
    Replied {
        text: String,
    },
    /// Delivery news, for example while the computer wakes (from the service's stream), or
    /// "Sending again…" (`about: Resending`, from this client, on either transport, before a
    /// message the service did not take is sent again): show it first.
    Status {
        text: String,
        /// The service's `kind` (for example `waking`, `agent_offline`).
        about: Option<StatusKind>,
    },
    /// Mid-turn narration (not the answer), one whole message.
    Narration {
        id: String,
        text: String,
    },
    Progress {
        text: String,
        tool: Option<String>,
    },
    /// A tool call began (`input` is only known on the poll path).
    Tool {
        tool_call_id: String,
        tool_name: String,
        #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
        input: Option<serde_json::Value>,
    },
    ToolFailed {
        tool_call_id: String,
        error_text: String,
        code: Option<EventErrorCode>,
        resets_at: Option<String>,
    },
    /// An assistant message, whole, exactly once.
    Message {
        id: String,
        text: String,
    },
    /// The agent waits for this approval.
    NeedsApproval {
        approval: ApprovalRequest,
    },
    /// Model usage and cost so far.
    Usage {
        usage: Option<TaskUsage>,
        session_usage: Option<TaskUsage>,
    },
    /// The connection to the service was lost (a cut stream, a refused or timed-out request,
    /// a 5xx, a 429). The task is not over (the agent may still be working): following goes
    /// on by itself, with backoff, for as long as it takes. Said once per outage; any later
    /// update means the service answered again.
    Reconnecting {
        reason: String,
    },
    /// Just before `Finished`: the conversation's recent history, oldest first, as the service
    /// keeps it (it may hold what was said from elsewhere).
    History {
        messages: Vec<ContextMessage>,
    },
    /// The task ended. `succeeded` comes from the turn's final state when it could be read
    /// (`GET /v1/agents/turns/{id}`), so a stopped or failed task never reads as a success;
    /// read the turn with `turn_id` for its `reason_code` and output.
    Finished {
        succeeded: bool,
        /// The final answer (all assistant messages of the turn).
        text: String,
        failure: Option<TaskFailure>,
        /// `None` when the service never said which turn this was (where it says so is not
        /// published): what needs it (steps, checks, reusable tasks) must do without.
        turn_id: Option<String>,
        usage: Option<TaskUsage>,
    },
}
