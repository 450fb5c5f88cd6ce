//! The control console commands the page may call.

use porthole_client::control::ExecRequest;
use tauri::State;

use super::{BlockRun, Console, ConsoleState};
use crate::error::UiError;
use crate::replay::ImageBytes;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub async fn console_state(console: State<'_, Console>, machine_id: String) -> Res<ConsoleState> {
    Ok(console.refresh(&machine_id).await?)
}

/// Opens the lease; may take up to three minutes.
#[tauri::command]
#[specta::specta]
pub async fn console_open(console: State<'_, Console>, machine_id: String) -> Res<ConsoleState> {
    Ok(console.open(&machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn console_run(
    console: State<'_, Console>,
    machine_id: String,
    code: String,
) -> Res<BlockRun> {
    Ok(console
        .run(&machine_id, &ExecRequest::new(code), false)
        .await?)
}

#[tauri::command]
#[specta::specta]
pub async fn console_interrupt(console: State<'_, Console>, machine_id: String) -> Res<bool> {
    Ok(console.interrupt(&machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn console_close(console: State<'_, Console>, machine_id: String) -> Res<ConsoleState> {
    Ok(console.close(&machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub fn console_screenshot(console: State<'_, Console>, machine_id: String) -> Res<ImageBytes> {
    Ok(ImageBytes(console.screenshot(&machine_id)?))
}

/// Every way a lease can end, explained.
#[tauri::command]
#[specta::specta]
pub fn lease_endings() -> Vec<UiError> {
    super::all_endings()
}
