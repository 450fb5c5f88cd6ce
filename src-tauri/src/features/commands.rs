//! Commands of replay, reusable tasks, judge, the console and the composer's Advanced part:
//! each unpacks its arguments, calls its module, maps the error.

use porthole_client::control::{ExecRequest, ExecResult};
use porthole_client::judge::Judgement;
use porthole_client::messages::Criteria;
use tauri::AppHandle;

use super::advanced::{self, TurnOutcome};
use super::console::{self, BlockRun, ConsoleState};
use super::learn::{self, Inputs, ReusableDraft};
use super::library::ReusableTask;
use super::replay::{self, ImageBytes, Recording};
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

/// The newest turn of a conversation, if a task ran in it.
#[tauri::command]
#[specta::specta]
pub fn latest_turn(app: AppHandle, conversation_id: String) -> Option<String> {
    replay::latest_turn(&app, &conversation_id).ok()
}

#[tauri::command]
#[specta::specta]
pub async fn get_recording(app: AppHandle, turn_id: String) -> Res<Recording> {
    Ok(replay::recording(&app, &turn_id).await?)
}

/// A step's screenshot, as JPEG bytes.
#[tauri::command]
#[specta::specta]
pub async fn step_screenshot(app: AppHandle, turn_id: String, index: u32) -> Res<ImageBytes> {
    Ok(replay::screenshot(&app, &turn_id, index).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn get_turn_outcome(app: AppHandle, turn_id: String) -> Res<TurnOutcome> {
    Ok(advanced::outcome(&app, &turn_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn check_result(
    app: AppHandle,
    turn_id: String,
    criteria: Criteria,
    idempotency_key: Option<String>,
) -> Res<Judgement> {
    Ok(super::judge::check(&app, &turn_id, criteria, idempotency_key).await?)
}

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

#[tauri::command]
#[specta::specta]
pub async fn console_state(app: AppHandle, machine_id: String) -> Res<ConsoleState> {
    Ok(console::refresh(&app, &machine_id).await?)
}

/// Opens the lease; may take up to three minutes.
#[tauri::command]
#[specta::specta]
pub async fn console_open(app: AppHandle, machine_id: String) -> Res<ConsoleState> {
    Ok(console::open(&app, &machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn console_run(app: AppHandle, machine_id: String, code: String) -> Res<BlockRun> {
    Ok(console::run(&app, &machine_id, &ExecRequest::new(code), false).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn console_interrupt(app: AppHandle, machine_id: String) -> Res<bool> {
    Ok(console::interrupt(&app, &machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn console_close(app: AppHandle, machine_id: String) -> Res<ConsoleState> {
    Ok(console::close(&app, &machine_id).await?)
}

#[tauri::command]
#[specta::specta]
pub fn console_screenshot(app: AppHandle, machine_id: String) -> Res<ImageBytes> {
    Ok(console::screenshot(&app, &machine_id)?)
}

/// Every way a lease can end, explained.
#[tauri::command]
#[specta::specta]
pub fn lease_endings() -> Vec<UiError> {
    console::all_endings()
}
