//! The commands that check a finished task's result.

use porthole_client::judge::Judgement;
use porthole_client::messages::Criteria;
use tauri::AppHandle;

use super::outcome::{self, TurnOutcome};
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub async fn get_turn_outcome(app: AppHandle, turn_id: String) -> Res<TurnOutcome> {
    Ok(outcome::outcome(&app, &turn_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn check_result(
    app: AppHandle,
    turn_id: String,
    criteria: Criteria,
    idempotency_key: Option<String>,
) -> Res<Judgement> {
    Ok(super::check(&app, &turn_id, criteria, idempotency_key).await?)
}
