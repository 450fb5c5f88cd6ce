//! The live screen's commands: thin adapters over [`super`].

use tauri::{AppHandle, State};

use super::status::LiveStats;
use super::LiveTicket;
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

/// Opens a live view of a computer. The page connects to the ticket's `socketUrl` (once) to
/// receive its frames (binary, see `live::frame_bytes`) and send back a 4-byte acknowledgement
/// per drawn frame; states arrive as `LiveStatusChanged` events.
#[tauri::command]
#[specta::specta]
pub async fn live_open(app: AppHandle, machine_id: String) -> Res<LiveTicket> {
    super::open(&app, machine_id).await
}

#[tauri::command]
#[specta::specta]
pub fn live_close(app: AppHandle, view_id: u32) {
    super::close(&app, view_id);
}

/// Holds frames back (window hidden); they coalesce in Rust meanwhile.
#[tauri::command]
#[specta::specta]
pub fn live_pause(app: AppHandle, view_id: u32) {
    super::with_control(&app, view_id, |c| c.pause());
}

#[tauri::command]
#[specta::specta]
pub fn live_resume(app: AppHandle, view_id: u32) {
    super::with_control(&app, view_id, |c| c.resume());
}

/// `null` once the view has ended.
#[tauri::command]
#[specta::specta]
pub fn live_stats(app: AppHandle, view_id: u32) -> Option<LiveStats> {
    super::stats(&app, view_id)
}

/// Saves a snapshot of the live screen (PNG, base64) where the person picks; returns its file
/// name, or `null` if they cancelled.
#[tauri::command]
#[specta::specta]
pub async fn live_save_snapshot(
    app: AppHandle,
    last: State<'_, super::snapshot::LastSnapshot>,
    png_base64: String,
) -> Res<Option<String>> {
    super::snapshot::save(&app, &last, &png_base64).await
}

/// Shows the snapshot saved last, selected in the file manager ("Show the file").
#[tauri::command]
#[specta::specta]
pub async fn live_show_snapshot(
    app: AppHandle,
    last: State<'_, super::snapshot::LastSnapshot>,
) -> Res<()> {
    let path = last.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(path) = path {
        crate::data_folder::show::show_file(&app, &path).await;
    }
    Ok(())
}
