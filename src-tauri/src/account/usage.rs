//! Usage of a conversation: the current task's and the whole session's tokens and cost, by
//! model, read from one events poll (`usage`, `sessionUsage`). The poll does not wait and does
//! not move any follower's cursor, so it can be asked at any time.

use porthole_client::events::TaskUsage;
use serde::Serialize;
use tauri::{AppHandle, Manager};

use crate::connection::Connection;
use crate::error::AppResult;
use crate::persist::ConversationStore;

#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UsageView {
    /// The task the last message started; `None` before its first model call.
    pub task: Option<TaskUsage>,
    /// The whole conversation (service session).
    pub session: Option<TaskUsage>,
}

pub async fn for_conversation(app: &AppHandle, conversation_id: &str) -> AppResult<UsageView> {
    let conversation = app.state::<ConversationStore>().get(conversation_id)?;
    let Some(session_id) = conversation.session_id else {
        return Ok(UsageView {
            task: conversation.usage,
            session: None,
        });
    };
    let client = app.state::<Connection>().active().await?.client;
    let page = client.events().poll(&session_id, None, 0).await?;
    Ok(UsageView {
        task: page.usage.or(conversation.usage),
        session: page.session_usage,
    })
}
