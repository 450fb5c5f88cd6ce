//! App-wide events. They mostly say "this changed, refetch"; data travels by command or channel.
//! `FilesDropped` is the exception: a drop is the window's event, not a call from the page, so
//! its checks can only reach the page this way.

use serde::{Deserialize, Serialize};

use crate::attachments::uploads::FileCheck;

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

/// Files were dropped on the window: their checks, with the tokens of those that may be sent.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct FilesDropped {
    pub checks: Vec<FileCheck>,
}

/// What needs the person changed: read the inbox again. Its count comes along for the badge.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct InboxChanged {
    pub count: u32,
}

/// Show the inbox (the tray's "things need you" was clicked).
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct ShowInbox;
