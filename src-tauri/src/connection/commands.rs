//! The connection commands the page may call: which service, Demo or account, and the
//! switches between them. Each unpacks its arguments and calls [`super::switching`].

use tauri::State;

use super::switchboard::Switchboard;
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
    board: State<'_, Switchboard>,
    base_url: String,
    api_key: String,
    version_tag: Option<String>,
) -> Res<ConnectionInfo> {
    switching::connect_account(&board, &base_url, &api_key, version_tag.as_deref()).await?;
    Ok(board.connection.info())
}

#[tauri::command]
#[specta::specta]
pub async fn use_demo(board: State<'_, Switchboard>) -> Res<ConnectionInfo> {
    switching::use_demo(&board).await?;
    Ok(board.connection.info())
}

/// Starts the Demo fresh: new practice computers, and its conversations removed.
#[tauri::command]
#[specta::specta]
pub async fn reset_demo(board: State<'_, Switchboard>) -> Res<ConnectionInfo> {
    switching::reset_demo(&board).await?;
    Ok(board.connection.info())
}

#[tauri::command]
#[specta::specta]
pub async fn use_account(board: State<'_, Switchboard>) -> Res<ConnectionInfo> {
    switching::use_account(&board).await?;
    Ok(board.connection.info())
}

#[tauri::command]
#[specta::specta]
pub async fn sign_out(board: State<'_, Switchboard>) -> Res<ConnectionInfo> {
    switching::sign_out(&board).await?;
    Ok(board.connection.info())
}
