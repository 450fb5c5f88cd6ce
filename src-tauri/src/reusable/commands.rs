//! The reusable-task commands the page may call: draft, learn, list, run, report, heal.

use porthole_client::control::ExecResult;
use tauri::State;

use super::learn::{self, Inputs, ReusableDraft};
use super::library::Library;
use super::library::ReusableTask;
use crate::connection::Connection;
use crate::console::{BlockRun, Console};
use crate::conversations::Conversations;
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

// Off the main thread: it reads the conversations, which may still be loading.
#[tauri::command(async)]
#[specta::specta]
pub fn draft_reusable(
    conversations: State<'_, Conversations>,
    conversation_id: String,
) -> Res<ReusableDraft> {
    Ok(learn::draft(&conversations, &conversation_id)?)
}

/// Learns a reusable task; about two minutes.
#[tauri::command]
#[specta::specta]
pub async fn learn_reusable(
    connection: State<'_, Connection>,
    library: State<'_, Library>,
    turn_id: String,
    template: String,
    idempotency_key: String,
) -> Res<ReusableTask> {
    Ok(learn::learn(&connection, &library, &turn_id, &template, idempotency_key).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn list_reusable(
    connection: State<'_, Connection>,
    library: State<'_, Library>,
) -> Res<Vec<ReusableTask>> {
    Ok(learn::list(&connection, &library).await?)
}

#[tauri::command]
#[specta::specta]
pub fn remove_reusable(library: State<'_, Library>, id: String) -> Res<()> {
    Ok(learn::remove(&library, &id)?)
}

#[tauri::command]
#[specta::specta]
pub async fn run_reusable(
    console: State<'_, Console>,
    library: State<'_, Library>,
    id: String,
    machine_id: String,
    inputs: Inputs,
) -> Res<BlockRun> {
    Ok(learn::run(&console, &library, &id, &machine_id, inputs.0).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn report_wrong_result(
    library: State<'_, Library>,
    id: String,
    inputs: Inputs,
    result: ExecResult,
    note: String,
) -> Res<ReusableTask> {
    Ok(learn::report_wrong_result(&library, &id, inputs.0, result, note).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn heal_reusable(
    connection: State<'_, Connection>,
    library: State<'_, Library>,
    id: String,
    feedback: String,
    idempotency_key: String,
) -> Res<ReusableTask> {
    Ok(learn::heal(&connection, &library, &id, feedback, idempotency_key).await?)
}
