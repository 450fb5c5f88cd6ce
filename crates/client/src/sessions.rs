//! Conversations. The service keeps one current session per machine and channel; messages
//! always land in the `api` channel's current one. These routes default a missing channel to
//! `cli` (the command-line client's conversation), so every call here sends `channel: "api"`.
//!
//! - `POST /v1/agents/new-session` starts a new conversation (only when a person asks).
//! - `GET /v1/agents/context` reads the current conversation's recent history: how to catch up
//!   at a task's boundaries on what happened while nothing was listening.
//!
//! The service also has `GET /v1/agents/sessions`, but does not publish its answer's shape, so
//! this client never calls it: the session a new task runs in is the one the conversation last
//! named (`new` answers it, and each task's stream or poll says it again).

use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::error::{Operation, Result};
use crate::executor::Call;
use crate::open_enum::open_enum;

/// This client's channel.
const CHANNEL: &str = "api";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct NewSession {
    /// The new session, when the service says it (the makers' client never reads it and takes
    /// a blank answer): without it, the next task's stream names the session.
    #[serde(default)]
    pub session_id: Option<String>,
}

open_enum! {
    /// Who said a line of the history.
    pub enum ContextRole {
        User = "user",
        Assistant = "assistant",
    }
}

/// One line of a conversation's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ContextMessage {
    /// Missing on some lines (the makers' client reads it leniently): a role of no known kind.
    #[serde(default = "crate::lenient::unknown")]
    pub role: ContextRole,
    /// Missing, null or not text is empty text, as the makers' client reads it.
    #[serde(default, deserialize_with = "crate::lenient::text")]
    #[cfg_attr(feature = "specta", specta(type = String))]
    pub content: String,
}

/// The current conversation's recent history, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Context {
    /// A line that cannot be read at all (not an object) is left out, not the whole history.
    #[serde(default, deserialize_with = "crate::lenient::rows")]
    #[cfg_attr(feature = "specta", specta(type = Vec<ContextMessage>))]
    pub messages: Vec<ContextMessage>,
}

pub struct Sessions<'c> {
    client: &'c Client,
}

impl Client {
    pub fn sessions(&self) -> Sessions<'_> {
        Sessions { client: self }
    }
}

impl Sessions<'_> {
    /// Starts a new conversation on a machine: the next message begins it. (`new` after the
    /// service's `new-session`: it makes a session, not a `Sessions`.)
    #[allow(clippy::new_ret_no_self)]
    pub async fn new(&self, machine_id: &str) -> Result<NewSession> {
        let body = serde_json::json!({ "machineId": machine_id, "channel": CHANNEL });
        let call = Call::post(Operation::NewSession, "/v1/agents/new-session").json(&body)?;
        self.client.call_blank_ok(call).await
    }

    /// The last `limit` lines of the current conversation on a machine, oldest first.
    pub async fn context(&self, machine_id: &str, limit: u32) -> Result<Context> {
        let call = Call::get(Operation::Context, "/v1/agents/context")
            .query("machineId", machine_id)
            .query("limit", limit.to_string())
            .query("channel", CHANNEL);
        self.client.call(call).await
    }
}
