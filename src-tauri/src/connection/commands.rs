//! The connection commands the page may call: which service, Demo or account, and the
//! switches between them. Each unpacks its arguments and calls [`super::switching`].

use tauri::{AppHandle, Manager, State};

use super::{switching, Connection, ConnectionInfo};
use crate::error::UiError;

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
    version_tag: Option<String>,
) -> Res<ConnectionInfo> {
    switching::connect_account(&app, &base_url, &api_key, version_tag.as_deref()).await?;
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
