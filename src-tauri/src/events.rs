//! App-wide events. They only say "this changed, refetch"; data travels by command or channel.

use serde::{Deserialize, Serialize};

/// The machine list may have changed.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct MachinesChanged;

/// The connection (Demo / account, ready / failed) changed.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct ConnectionChanged;

/// A conversation of this machine changed its title or status, or was created.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
#[serde(rename_all = "camelCase")]
pub struct ConversationsChanged {
    pub machine_id: String,
}

/// Show this conversation (the person came back after a notification).
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
#[serde(rename_all = "camelCase")]
pub struct FocusConversation {
    pub machine_id: String,
    pub conversation_id: String,
}
