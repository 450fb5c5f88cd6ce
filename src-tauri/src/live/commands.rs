//! The live screen's commands: thin adapters over [`super`].

use tauri::ipc::Channel;
use tauri::AppHandle;

use super::status::LiveStats;
use super::FrameBytes;
use crate::error::{AppError, UiError};

type Res<T> = Result<T, UiError>;

/// Opens a live view of a computer; returns its id. Frames arrive on `frames` (binary, see
/// `live::frame_bytes`), states as `LiveStatusChanged` events.
#[tauri::command]
#[specta::specta]
pub async fn live_open(
    app: AppHandle,
    machine_id: String,
    frames: Channel<FrameBytes>,
) -> Res<u32> {
    super::open(&app, machine_id, frames)
        .await
        .map_err(|e: AppError| e.into())
}

#[tauri::command]
#[specta::specta]
pub fn live_close(app: AppHandle, view_id: u32) {
    super::close(&app, view_id);
}

/// Frame `seq` is drawn: its `sync` goes upstream and the next frame may come.
#[tauri::command]
#[specta::specta]
pub fn live_ack(app: AppHandle, view_id: u32, seq: u32) {
    super::with_control(&app, view_id, |c| c.ack(u64::from(seq)));
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

/// Saves a snapshot of the live screen (PNG, base64) where the person picks; returns the path,
/// or `null` if they cancelled.
#[tauri::command]
#[specta::specta]
pub async fn live_save_snapshot(app: AppHandle, png_base64: String) -> Res<Option<String>> {
    super::snapshot::save(&app, &png_base64).await
}
