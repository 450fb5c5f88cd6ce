//! What could not be read at start, for the page.

use tauri::State;

use crate::error::UiError;
use crate::persist::{SettingsStore, StartedStores};

/// The stores a command reads what was set aside from.
macro_rules! started {
    ($settings:ident, $conversations:ident, $library:ident, $schedules:ident, $inbox:ident, $board:ident) => {
        StartedStores {
            settings: &$settings,
            conversations: &$conversations,
            library: &$library,
            schedules: &$schedules,
            inbox: &$inbox,
            demo: &$board.demo,
        }
    };
}

/// What could not be read at start, in words for the person: each file set aside, and what
/// the app started with instead; each offers "Show the file" (`show_stored_data_file`).
// Off the main thread: it waits for the conversations' load.
#[tauri::command(async)]
#[specta::specta]
pub fn stored_data_notices(
    settings: State<'_, SettingsStore>,
    conversations: State<'_, crate::conversations::Conversations>,
    library: State<'_, crate::reusable::library::Library>,
    schedules: State<'_, crate::schedules::Schedules>,
    inbox: State<'_, crate::inbox::Inbox>,
    board: State<'_, crate::connection::switchboard::Switchboard>,
) -> Vec<UiError> {
    started!(settings, conversations, library, schedules, inbox, board).notices()
}

/// Shows the file of the `index`-th notice of `stored_data_notices` in the file manager. The
/// page names which notice, never a path: only a file the app set aside can be shown.
#[tauri::command]
#[specta::specta]
pub async fn show_stored_data_file(
    settings: State<'_, SettingsStore>,
    conversations: State<'_, crate::conversations::Conversations>,
    library: State<'_, crate::reusable::library::Library>,
    schedules: State<'_, crate::schedules::Schedules>,
    inbox: State<'_, crate::inbox::Inbox>,
    board: State<'_, crate::connection::switchboard::Switchboard>,
    index: u32,
) -> Result<(), UiError> {
    let files = started!(settings, conversations, library, schedules, inbox, board).set_aside();
    if let Some((_, aside)) = files.get(index as usize) {
        super::show::show_file(board.app(), &aside.moved_to).await;
    }
    Ok(())
}
