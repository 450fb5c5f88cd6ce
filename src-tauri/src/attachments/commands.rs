//! The attachment commands the page may call: pick, check and upload the files that go out
//! with the next message.

use std::path::PathBuf;

use porthole_client::uploads::Upload;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager};
use tauri_plugin_dialog::DialogExt;

use super::uploads::{self, FileCheck, OfferedFiles, UploadProgress};
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

/// Opens the system file dialog (from Rust: the page needs no dialog permission).
#[tauri::command]
#[specta::specta]
pub async fn pick_files(app: AppHandle) -> Res<Vec<FileCheck>> {
    // End-to-end tests cannot drive the system's file dialog (it is not part of the page):
    // they name the files it would return. Everything after the dialog runs as usual.
    if let Ok(picked) = std::env::var("PORTHOLE_E2E_PICKED_FILES") {
        let picked = picked.lines().map(PathBuf::from).collect();
        return Ok(app.state::<OfferedFiles>().picked(picked));
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Attach files")
        .pick_files(move |paths| {
            let _ = tx.send(paths);
        });
    let paths = rx.await.ok().flatten().unwrap_or_default();
    let paths = paths
        .into_iter()
        .filter_map(|p| p.into_path().ok())
        .collect();
    Ok(app.state::<OfferedFiles>().picked(paths))
}

/// Checks dropped files before anything is uploaded.
// Only those the window itself saw dropped are read (uploads.rs).
#[tauri::command]
#[specta::specta]
pub async fn check_files(app: AppHandle, paths: Vec<String>) -> Vec<FileCheck> {
    let checking = move || app.state::<OfferedFiles>().check_dropped(paths);
    tauri::async_runtime::spawn_blocking(checking)
        .await
        .unwrap_or_default()
}

#[tauri::command]
#[specta::specta]
pub async fn upload_file(
    app: AppHandle,
    path: String,
    on_progress: Channel<UploadProgress>,
) -> Res<Upload> {
    // `path` is the token `pick_files` or `check_files` gave the file, never a path.
    Ok(uploads::upload(&app, &path, on_progress).await?)
}
