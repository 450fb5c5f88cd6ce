//! The attachment commands the page may call: pick and upload the files that go out with the
//! next message. Dropped files come from the window's own drop event instead (`offer_dropped`).

use std::path::PathBuf;

use porthole_client::uploads::Upload;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_dialog::DialogExt;
use tauri_specta::Event;

use super::uploads::{self, FileCheck, OfferedFiles, UploadProgress};
use crate::error::UiError;
use crate::navigation::events::FilesDropped;

type Res<T> = Result<T, UiError>;

/// Opens the system file dialog (from Rust: the page needs no dialog permission).
#[tauri::command]
#[specta::specta]
pub async fn pick_files(app: AppHandle, offered: State<'_, OfferedFiles>) -> Res<Vec<FileCheck>> {
    // End-to-end tests cannot drive the system's file dialog (it is not part of the page):
    // they name the files it would return (debug builds only). Everything after the dialog
    // runs as usual.
    if let Some(picked) = crate::test_switch::var("PORTHOLE_E2E_PICKED_FILES") {
        let picked = picked.lines().map(PathBuf::from).collect();
        return Ok(offered.picked(picked));
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title(crate::words::window::attach_files())
        .pick_files(move |paths| {
            let _ = tx.send(paths);
        });
    let paths = rx.await.ok().flatten().unwrap_or_default();
    let paths = paths
        .into_iter()
        .filter_map(|p| p.into_path().ok())
        .collect();
    Ok(offered.picked(paths))
}

/// Offers the files dropped on `window` and tells its page their checks. The paths come from
/// the window's own drop event, so the page never names a file for Rust to read.
pub fn offer_dropped(window: &tauri::Window, paths: Vec<PathBuf>) {
    if paths.is_empty() {
        return;
    }
    let app = window.app_handle().clone();
    let label = window.label().to_owned();
    // Checking opens each file, which can be slow (a network drive); the event loop must not wait.
    tauri::async_runtime::spawn(async move {
        let checking = {
            let app = app.clone();
            move || app.state::<OfferedFiles>().picked(paths)
        };
        let Ok(checks) = tauri::async_runtime::spawn_blocking(checking).await else {
            return;
        };
        let dropped = FilesDropped { checks };
        if let Err(err) = dropped.emit_to(&app, label) {
            tracing::warn!("could not tell the page about dropped files: {err}");
        }
    });
}

#[tauri::command]
#[specta::specta]
pub async fn upload_file(
    offered: State<'_, OfferedFiles>,
    connection: State<'_, crate::connection::Connection>,
    conversations: State<'_, crate::conversations::Conversations>,
    path: String,
    on_progress: Channel<UploadProgress>,
) -> Res<Upload> {
    // `path` is the token the picker or the drop (`FilesDropped`) gave the file, never a path.
    Ok(uploads::upload(&offered, &connection, &conversations, &path, on_progress).await?)
}
