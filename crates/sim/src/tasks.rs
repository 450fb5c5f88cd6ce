//! Small writes to a turn shared by the agent, messages, approvals and abort: append to its
//! event log, move its status, add usage. Each write bumps the change counter so streams and
//! polls see it.

use crate::records::{Counts, LogEntry, TurnStatus, Usage};
use crate::state::AppState;
use serde_json::Value;

/// Appends an entry to a turn's log.
pub fn push(state: &AppState, turn_id: &str, entry: LogEntry) {
    if let Some(t) = state.db().turns.get_mut(turn_id) {
        t.log.push(entry);
    }
    state.notify();
}

/// Appends an event both the stream and the poll show.
pub fn event(state: &AppState, turn_id: &str, event: Value) {
    push(state, turn_id, LogEntry::Event(event));
}

/// Moves a turn to a status.
pub fn set_status(state: &AppState, turn_id: &str, status: TurnStatus) {
    if let Some(t) = state.db().turns.get_mut(turn_id) {
        t.status = status;
    }
    state.notify();
}

/// Whether the turn was aborted.
pub fn aborted(state: &AppState, turn_id: &str) -> bool {
    state.db().turns.get(turn_id).is_none_or(|t| t.aborted)
}

/// Takes the messages that joined the running task since the agent last looked.
pub fn take_steering(state: &AppState, turn_id: &str) -> Vec<String> {
    state
        .db()
        .turns
        .get_mut(turn_id)
        .map(|t| std::mem::take(&mut t.steering))
        .unwrap_or_default()
}

/// Records one model call: task usage, session usage, and the account's credit.
pub fn model_call(state: &AppState, turn_id: &str, model: &str, counts: Counts) {
    let (owner, cost) = {
        let mut db = state.db();
        let Some(t) = db.turns.get_mut(turn_id) else {
            return;
        };
        t.usage
            .get_or_insert_with(Usage::default)
            .add(model, &counts);
        let (owner, session_id) = (t.owner.clone(), t.session_id.clone());
        if let Some(s) = db.sessions.get_mut(&session_id) {
            s.usage.add(model, &counts);
            s.has_usage = true;
        }
        (owner, counts.cost_usd)
    };
    state.charge(&owner, cost);
    state.notify();
}
