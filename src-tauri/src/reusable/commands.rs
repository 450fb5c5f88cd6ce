//! The reusable-task commands the page may call: draft, learn, list, run, report, heal.

use porthole_client::control::ExecResult;
use tauri::AppHandle;

use super::learn::{self, Inputs, ReusableDraft};
use super::library::ReusableTask;
use crate::console::BlockRun;
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub fn draft_reusable(app: AppHandle, conversation_id: String) -> Res<ReusableDraft> {
    Ok(learn::draft(&app, &conversation_id)?)
}

/// Learns a reusable task; about two minutes.
#[tauri::command]
#[specta::specta]
pub async fn learn_reusable(
    app: AppHandle,
    turn_id: String,
    template: String,
    idempotency_key: String,
) -> Res<ReusableTask> {
    Ok(learn::learn(&app, &turn_id, &template, idempotency_key).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn list_reusable(app: AppHandle) -> Res<Vec<ReusableTask>> {
    Ok(learn::list(&app).await?)
}

#[tauri::command]
#[specta::specta]
pub fn remove_reusable(app: AppHandle, id: String) -> Res<()> {
    Ok(learn::remove(&app, &id)?)
}

#[tauri::command]
#[specta::specta]
pub async fn run_reusable(
    app: AppHandle,
    id: String,
    machine_id: String,
    inputs: Inputs,
) -> Res<BlockRun> {
    Ok(learn::run(&app, &id, &machine_id, inputs.0).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn report_wrong_result(
    app: AppHandle,
    id: String,
    inputs: Inputs,
    result: ExecResult,
    note: String,
) -> Res<ReusableTask> {
    Ok(learn::report_wrong_result(&app, &id, inputs.0, result, note).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn heal_reusable(
    app: AppHandle,
    id: String,
    feedback: String,
    idempotency_key: String,
) -> Res<ReusableTask> {
    Ok(learn::heal(&app, &id, feedback, idempotency_key).await?)
}
