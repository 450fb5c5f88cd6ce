//! What could not be read at start, for the page.

use tauri::State;

use crate::error::UiError;
use crate::persist::SettingsStore;

/// What could not be read at start, in words for the person: each file set aside, where
/// it went, and what the app started with instead.
// Off the main thread: it waits for the conversations' load.
#[tauri::command(async)]
#[specta::specta]
pub fn stored_data_notices(
    settings: State<'_, SettingsStore>,
    conversations: State<'_, crate::conversations::Conversations>,
    library: State<'_, crate::reusable::library::Library>,
    schedules: State<'_, crate::schedules::Schedules>,
    inbox: State<'_, crate::inbox::Inbox>,
) -> Vec<UiError> {
    crate::persist::stored_data_notices(&settings, &conversations, &library, &schedules, &inbox)
}
