//! The update commands the page may call: what is on offer, install it, put it off.

use tauri::AppHandle;

use super::UpdateStatus;

#[tauri::command]
#[specta::specta]
pub async fn update_status(app: AppHandle) -> UpdateStatus {
    super::status(&app).await
}

#[tauri::command]
#[specta::specta]
pub async fn install_update(app: AppHandle) -> UpdateStatus {
    super::install(&app).await
}

#[tauri::command]
#[specta::specta]
pub async fn dismiss_update(app: AppHandle) -> UpdateStatus {
    super::dismiss(&app).await
}
