//! The step-by-step replay commands the page may call.

use tauri::State;

use super::{ImageBytes, Recording};
use crate::connection::Connection;
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

/// The newest turn of a conversation, if a task ran in it.
// Off the main thread: it reads the conversations, which may still be loading.
#[tauri::command(async)]
#[specta::specta]
pub fn latest_turn(
    conversations: State<'_, crate::conversations::Conversations>,
    conversation_id: String,
) -> Option<String> {
    super::latest_turn(&conversations, &conversation_id).ok()
}

#[tauri::command]
#[specta::specta]
pub async fn get_recording(connection: State<'_, Connection>, turn_id: String) -> Res<Recording> {
    Ok(super::recording(&connection, &turn_id).await?)
}

/// A step's screenshot, as JPEG bytes.
#[tauri::command]
#[specta::specta]
pub async fn step_screenshot(
    connection: State<'_, Connection>,
    turn_id: String,
    index: u32,
) -> Res<ImageBytes> {
    Ok(ImageBytes(
        super::screenshot(&connection, &turn_id, index).await?,
    ))
}
