//! The commands the page may call: each unpacks its arguments, calls the app core, maps the
//! error. No logic here.

use porthole_client::account::Account;
use porthole_client::models::ModelList;
use tauri::{AppHandle, Manager, State};

use crate::connection::{Connection, ConnectionInfo};
use crate::error::{AppError, UiError};
use crate::machines::{self, MachineRow};
use crate::switching;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub fn connection_info(connection: State<'_, Connection>) -> ConnectionInfo {
    connection.info()
}

#[tauri::command]
#[specta::specta]
pub async fn connect_account(
    app: AppHandle,
    base_url: String,
    api_key: String,
) -> Res<ConnectionInfo> {
    switching::connect_account(&app, &base_url, &api_key).await?;
    Ok(app.state::<Connection>().info())
}

#[tauri::command]
#[specta::specta]
pub async fn use_demo(app: AppHandle) -> Res<ConnectionInfo> {
    switching::use_demo(&app).await?;
    Ok(app.state::<Connection>().info())
}

#[tauri::command]
#[specta::specta]
pub async fn use_account(app: AppHandle) -> Res<ConnectionInfo> {
    switching::use_account(&app).await?;
    Ok(app.state::<Connection>().info())
}

#[tauri::command]
#[specta::specta]
pub async fn sign_out(app: AppHandle) -> Res<ConnectionInfo> {
    switching::sign_out(&app).await?;
    Ok(app.state::<Connection>().info())
}

#[tauri::command]
#[specta::specta]
pub async fn list_machines(app: AppHandle) -> Res<Vec<MachineRow>> {
    Ok(machines::list(&app).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn wake_machine(app: AppHandle, machine_id: String) -> Res<()> {
    Ok(machines::wake(&app, &machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn get_account(connection: State<'_, Connection>) -> Res<Account> {
    let active = connection.active().await?;
    Ok(active
        .client
        .account()
        .get()
        .await
        .map_err(AppError::from)?)
}

#[tauri::command]
#[specta::specta]
pub async fn list_models(connection: State<'_, Connection>) -> Res<ModelList> {
    let active = connection.active().await?;
    Ok(active
        .client
        .models()
        .list()
        .await
        .map_err(AppError::from)?)
}
