//! Step-by-step replay of a recorded task: its turn, its steps, and each step's screenshot.
//!
//! Screenshots are fetched here with the account's credential; the shell hands them to the
//! page as raw JPEG bytes, so no URL that needs a credential ever reaches the webview.

use porthole_client::turns::{Step, Turn};
use serde::Serialize;

use crate::connection::Connection;
use crate::error::{AppError, AppResult};

/// A turn and its recorded steps, as the replay shows them.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Recording {
    pub turn: Turn,
    pub steps: Vec<Step>,
    /// The turn was sent with "Record steps" on.
    pub recorded: bool,
}

pub async fn recording(connection: &Connection, turn_id: &str) -> AppResult<Recording> {
    let client = connection.active().await?.client;
    let turn = client.turns().get(turn_id).await?;
    let recorded = turn.record_trajectory;
    let steps = if recorded {
        client.turns().trajectory(turn_id).await?.steps
    } else {
        Vec::new()
    };
    Ok(Recording {
        turn,
        steps,
        recorded,
    })
}

/// The JPEG of one step, fetched by index (the service's documented path).
pub async fn screenshot(connection: &Connection, turn_id: &str, index: u32) -> AppResult<Vec<u8>> {
    let client = connection.active().await?.client;
    let image = client.turns().screenshot(turn_id, index).await?;
    Ok(image.bytes.to_vec())
}

/// The newest turn of a conversation (the one its last task ran).
pub fn latest_turn(
    conversations: &crate::conversations::Conversations,
    conversation_id: &str,
) -> AppResult<String> {
    let conversation = conversations.store().get(conversation_id)?;
    conversation
        .follower
        .and_then(|f| f.turn_id)
        .ok_or(AppError::NoTurnYet)
}
