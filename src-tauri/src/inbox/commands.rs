//! The inbox commands the page may call.

use tauri::{AppHandle, State};

use super::{Inbox, InboxView};
use crate::connection::Connection;
use crate::conversations::Conversations;

/// What needs the person now, newest first.
// Off the main thread: it reads the conversations, which may still be loading.
#[tauri::command(async)]
#[specta::specta]
pub fn get_inbox(
    inbox: State<'_, Inbox>,
    conversations: State<'_, Conversations>,
    connection: State<'_, Connection>,
) -> InboxView {
    inbox.view(&conversations, &connection)
}

/// Puts away a failed task or a computer that cannot be woken (cards leave when answered).
// Off the main thread: it reads the conversations, which may still be loading.
#[tauri::command(async)]
#[specta::specta]
pub fn dismiss_inbox_item(app: AppHandle, inbox: State<'_, Inbox>, key: String) {
    inbox.dismiss(&key);
    super::window::refresh(&app);
}
