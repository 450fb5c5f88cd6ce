//! Commands of the account and file features: thin adapters over the modules beside this one.

use std::path::PathBuf;

use porthole_client::uploads::Upload;
use porthole_client::Secret;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager};
use tauri_plugin_dialog::DialogExt;
use tauri_plugin_opener::OpenerExt;

use super::computers::{self, CreationProgress};
use super::identity::{self, IdentityInfo};
use super::keys::{self, FreshKey, KeysView, NewKey};
use super::signin;
use super::uploads::{self, FileCheck, OfferedFiles, UploadProgress};
use super::usage::{self, UsageView};
use crate::error::{AppError, UiError};

type Res<T> = Result<T, UiError>;

/// The current sign-in with the identity provider, if any (never the token).
#[tauri::command]
#[specta::specta]
pub async fn identity_info(app: AppHandle) -> Res<Option<IdentityInfo>> {
    Ok(identity::current(&app).await?)
}

/// Signs in through the system browser; `issuer` defaults to the service address.
#[tauri::command]
#[specta::specta]
pub async fn sign_in_with_browser(
    app: AppHandle,
    base_url: String,
    issuer: Option<String>,
) -> Res<IdentityInfo> {
    let issuer = issuer
        .filter(|i| !i.trim().is_empty())
        .unwrap_or_else(|| base_url.clone());
    let open = |url: String| {
        app.opener()
            .open_url(url, None::<&str>)
            .map_err(|e| AppError::SignInUnavailable(e.to_string()))
    };
    signin::with_browser(&app, &base_url, issuer.trim(), open).await
}

/// Stops waiting for the browser: the loopback listener closes and nothing is kept.
/// Returns whether a sign-in was waiting.
#[tauri::command]
#[specta::specta]
pub fn cancel_sign_in(wait: tauri::State<'_, signin::BrowserWait>) -> bool {
    wait.cancel()
}

/// Signs in with a pasted identity-provider token.
#[tauri::command]
#[specta::specta]
pub async fn sign_in_with_token(
    app: AppHandle,
    base_url: String,
    token: String,
) -> Res<IdentityInfo> {
    Ok(signin::accept_token(&app, &base_url, Secret::new(token)).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn forget_sign_in(app: AppHandle) -> Res<()> {
    app.state::<FreshKey>().clear();
    Ok(identity::forget(&app).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn list_keys(app: AppHandle) -> Res<KeysView> {
    Ok(keys::list(&app).await?)
}

/// The answer carries the new key's secret for its one display (see `keys`).
#[tauri::command]
#[specta::specta]
pub async fn create_key(app: AppHandle, name: Option<String>) -> Res<NewKey> {
    Ok(keys::create(&app, name).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn use_new_key(app: AppHandle, key_id: String) -> Res<()> {
    Ok(keys::use_in_porthole(&app, &key_id).await?)
}

/// The new key's display closed: Rust forgets its secret too.
#[tauri::command]
#[specta::specta]
pub fn close_new_key(fresh: tauri::State<'_, FreshKey>) {
    fresh.clear();
}

#[tauri::command]
#[specta::specta]
pub async fn revoke_key(app: AppHandle, key_id: String) -> Res<()> {
    Ok(keys::revoke(&app, &key_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn create_computer(
    app: AppHandle,
    name: Option<String>,
    on_progress: Channel<CreationProgress>,
) -> Res<String> {
    Ok(computers::create(&app, name, &on_progress).await?)
}

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
// Only those the window itself saw dropped are read (account/uploads.rs).
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

#[tauri::command]
#[specta::specta]
pub async fn conversation_usage(app: AppHandle, conversation_id: String) -> Res<UsageView> {
    Ok(usage::for_conversation(&app, &conversation_id).await?)
}
