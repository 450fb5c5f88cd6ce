//! A finished turn's structured outcome: the turn, and why a structured task failed in words.

use porthole_client::turns::Turn;
use serde::Serialize;

use crate::connection::Connection;
use crate::error::problem::of_turn_reason;
use crate::error::{AppResult, UiError};

/// A finished turn with its failure, if any, in words.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TurnOutcome {
    pub turn: Turn,
    /// Why a structured task failed (`output_invalid`, `criteria_not_met`, ...).
    pub explanation: Option<UiError>,
}

pub async fn outcome(connection: &Connection, turn_id: &str) -> AppResult<TurnOutcome> {
    let client = connection.active().await?.client;
    let turn = client.turns().get(turn_id).await?;
    let explanation = turn
        .reason_code
        .as_ref()
        .and_then(of_turn_reason)
        .map(UiError::from);
    Ok(TurnOutcome { turn, explanation })
}
