//! The search command the page may call: one line over [`super::Search`].

use tauri::State;

use super::{Search, SearchHit};
use crate::connection::Connection;
use crate::error::UiError;

/// The lines of the active service's conversations that match what was typed, best first.
#[tauri::command]
#[specta::specta]
pub async fn search_history(
    search: State<'_, Search>,
    connection: State<'_, Connection>,
    typed: String,
) -> Result<Vec<SearchHit>, UiError> {
    Ok(search.find(&connection, &typed).await?)
}
