//! `POST /v1/agents/wake { machineId }` → `200 { waking, startingUp, status, canWake }`, as the
//! service's makers' own client reads it: `waking` says this call dispatched the start,
//! `startingUp` that the computer is on its way up (also when an earlier call started it). An
//! awake computer, an own desktop, the unclaimed free computer and a computer with
//! `canWake: false` are left as they are. Another account's computer answers 404.

use super::{machine_not_found, power};
use crate::auth::Caller;
use crate::body::{object, opt_str, JsonBody};
use crate::error::ApiError;
use crate::records::Power;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

pub async fn wake(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Json<Value>, ApiError> {
    let o = object(body)?;
    let machine_id =
        opt_str(&o, "machineId")?.ok_or_else(|| ApiError::bad_request("machineId is required."))?;
    let (power, can_wake) = {
        let db = state.db();
        let m = db
            .machine(&machine_id)
            .filter(|m| m.owner == caller.user_id)
            .ok_or_else(machine_not_found)?;
        (m.power, m.can_wake())
    };
    let waking = can_wake
        && matches!(power, Power::Hibernated | Power::Hibernating)
        && power::begin_start(&state, &caller.user_id, &machine_id).is_ok();
    let db = state.db();
    let m = db.machine(&machine_id).ok_or_else(machine_not_found)?;
    Ok(Json(json!({
        "waking": waking,
        "startingUp": matches!(m.power, Power::Starting | Power::Provisioning),
        "status": m.status(),
        "canWake": m.can_wake(),
    })))
}
