//! The machine commands the page may call: the list, waking one, creating a cloud computer.

use tauri::ipc::Channel;
use tauri::State;

use super::computers::{self, CreationProgress};
use super::{MachineRow, Machines};
use crate::connection::switchboard::Switchboard;
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub async fn list_machines(machines: State<'_, Machines>) -> Res<Vec<MachineRow>> {
    Ok(machines.list().await?)
}

#[tauri::command]
#[specta::specta]
pub async fn wake_machine(machines: State<'_, Machines>, machine_id: String) -> Res<()> {
    Ok(machines.wake(&machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn create_computer(
    board: State<'_, Switchboard>,
    name: Option<String>,
    on_progress: Channel<CreationProgress>,
) -> Res<String> {
    Ok(computers::create(&board, name, &on_progress).await?)
}
