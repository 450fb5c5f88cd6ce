//! The commands the page may call: each unpacks its arguments, calls the app core, maps the
//! error. No logic here.

use porthole_client::account::Account;
use porthole_client::models::ModelList;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_opener::OpenerExt;

use crate::connection::{Connection, ConnectionInfo};
use crate::conversations::{Conversation, ConversationSummary};
use crate::error::{AppError, UiError};
use crate::following::Watchers;
use crate::machines::{self, MachineRow};
use crate::persist::ConversationStore;
use crate::{switching, tasks};

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

#[tauri::command]
#[specta::specta]
pub async fn list_conversations(
    app: AppHandle,
    machine_id: String,
) -> Res<Vec<ConversationSummary>> {
    let scope = app.state::<Connection>().active().await?.scope;
    Ok(app
        .state::<ConversationStore>()
        .read(|b| b.list(&scope, &machine_id)))
}

#[tauri::command]
#[specta::specta]
pub async fn new_conversation(app: AppHandle, machine_id: String) -> Res<Conversation> {
    let scope = app.state::<Connection>().active().await?.scope;
    Ok(tasks::new_conversation(&app, &scope, &machine_id)?)
}

/// Sends the conversation now and after every change, until another is watched.
#[tauri::command]
#[specta::specta]
pub fn watch_conversation(
    app: AppHandle,
    conversation_id: String,
    on_change: Channel<Conversation>,
) -> Res<()> {
    let conversation = app.state::<ConversationStore>().get(&conversation_id)?;
    app.state::<Watchers>().watch(&conversation, on_change);
    Ok(())
}

#[tauri::command]
#[specta::specta]
pub fn unwatch_conversation(watchers: State<'_, Watchers>, conversation_id: String) {
    watchers.unwatch(&conversation_id);
}

#[tauri::command]
#[specta::specta]
pub async fn send_message(
    app: AppHandle,
    conversation_id: String,
    text: String,
    model: Option<String>,
) -> Res<()> {
    Ok(tasks::send(&app, &conversation_id, &text, model).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn stop_task(app: AppHandle, conversation_id: String) -> Res<()> {
    Ok(tasks::stop(&app, &conversation_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn answer_approval(app: AppHandle, conversation_id: String, approve: bool) -> Res<()> {
    Ok(tasks::decide(&app, &conversation_id, approve).await?)
}

/// Answers a choice card: one list of option values per question, in the card's order.
#[tauri::command]
#[specta::specta]
pub async fn choose_approval(
    app: AppHandle,
    conversation_id: String,
    selections: Vec<Vec<String>>,
) -> Res<()> {
    Ok(tasks::choose(&app, &conversation_id, selections).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn open_approval_page(app: AppHandle, conversation_id: String) -> Res<()> {
    let url = tasks::approval_page(&app, &conversation_id).await?;
    app.opener().open_url(url, None::<&str>).map_err(|_| {
        UiError::new(
            "browser",
            "Couldn't open your browser",
            "Porthole could not open the approval page in your web browser.",
            None,
        )
    })
}
