//! The control console commands the page may call.

use porthole_client::control::ExecRequest;
use tauri::AppHandle;

use super::{BlockRun, ConsoleState};
use crate::error::UiError;
use crate::replay::ImageBytes;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub async fn console_state(app: AppHandle, machine_id: String) -> Res<ConsoleState> {
    Ok(super::refresh(&app, &machine_id).await?)
}

/// Opens the lease; may take up to three minutes.
#[tauri::command]
#[specta::specta]
pub async fn console_open(app: AppHandle, machine_id: String) -> Res<ConsoleState> {
    Ok(super::open(&app, &machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn console_run(app: AppHandle, machine_id: String, code: String) -> Res<BlockRun> {
    Ok(super::run(&app, &machine_id, &ExecRequest::new(code), false).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn console_interrupt(app: AppHandle, machine_id: String) -> Res<bool> {
    Ok(super::interrupt(&app, &machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn console_close(app: AppHandle, machine_id: String) -> Res<ConsoleState> {
    Ok(super::close(&app, &machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub fn console_screenshot(app: AppHandle, machine_id: String) -> Res<ImageBytes> {
    Ok(super::screenshot(&app, &machine_id)?)
}

/// Every way a lease can end, explained.
#[tauri::command]
#[specta::specta]
pub fn lease_endings() -> Vec<UiError> {
    super::all_endings()
}
