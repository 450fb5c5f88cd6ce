//! The machine commands the page may call: the list, waking one, creating a cloud computer.

use tauri::ipc::Channel;
use tauri::AppHandle;

use super::computers::{self, CreationProgress};
use super::{list, wake, MachineRow};
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub async fn list_machines(app: AppHandle) -> Res<Vec<MachineRow>> {
    Ok(list(&app).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn wake_machine(app: AppHandle, machine_id: String) -> Res<()> {
    Ok(wake(&app, &machine_id).await?)
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
