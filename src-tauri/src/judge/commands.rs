//! The commands that check a finished task's result.

use porthole_client::judge::Judgement;
use porthole_client::messages::Criteria;
use tauri::State;

use super::outcome::{self, TurnOutcome};
use crate::connection::Connection;
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub async fn get_turn_outcome(
    connection: State<'_, Connection>,
    turn_id: String,
) -> Res<TurnOutcome> {
    Ok(outcome::outcome(&connection, &turn_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn check_result(
    connection: State<'_, Connection>,
    turn_id: String,
    criteria: Criteria,
    idempotency_key: Option<String>,
) -> Res<Judgement> {
    Ok(super::check(&connection, &turn_id, criteria, idempotency_key).await?)
}
