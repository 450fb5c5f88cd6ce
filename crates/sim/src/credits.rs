//! Credit balances and the account endpoint. Free accounts get a daily grant refreshed at
//! UTC midnight; paid accounts have a balance the portal would top up; the unlimited plan
//! has no balance (`credits.usd: null`). The billing lookup of `GET /v1/agents/account` has a
//! 5-second (scaled) timeout; the `slow-billing` fault makes it miss and answer `credits: null`.
//! A task asked for with no credit at all is refused with `402` ([`out_of_credit`]); one that
//! runs out on the way ends with the `insufficient_credits` error event.

use crate::accounts::Plan;
use crate::auth::Caller;
use crate::clock::Clock;
use crate::error::ApiError;
use crate::faults::Fault;
use crate::state::{AppState, Credit};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Value};
use std::time::Duration;

/// Spendable credit; `None` on the unlimited plan.
pub fn balance(state: &AppState, owner: &str) -> Option<f64> {
    let plan = state.account(owner)?.plan;
    if plan.is_unlimited() {
        return None;
    }
    let today = Clock::utc_day();
    let mut db = state.db();
    let credit = db.credits.entry(owner.to_owned()).or_insert(Credit {
        usd: plan.starting_credit_usd(),
        day: today,
    });
    if plan == Plan::Free && credit.day != today {
        *credit = Credit {
            usd: plan.starting_credit_usd(),
            day: today,
        };
    }
    Some(credit.usd)
}

/// Takes `usd` from the balance (never below zero).
pub fn charge(state: &AppState, owner: &str, usd: f64) {
    if balance(state, owner).is_none() {
        return;
    }
    if let Some(c) = state.db().credits.get_mut(owner) {
        c.usd = (c.usd - usd).max(0.0);
    }
}

/// Whether the account can start a task that costs money.
pub fn has_credit(state: &AppState, owner: &str) -> bool {
    balance(state, owner).is_none_or(|usd| usd > 0.0)
}

/// `402` for a task asked for with no credit at all, in the spec's `{ error, message }` shape
/// with the event code's `resetsAt` (the free plan's next grant).
pub fn out_of_credit() -> ApiError {
    ApiError::coded(
        StatusCode::PAYMENT_REQUIRED,
        "insufficient_credits",
        "You have no agent credit left. Free credits refresh at midnight UTC; paid accounts top up in the portal.",
    )
    .with("resetsAt", Clock::next_utc_midnight_iso())
}

/// `GET /v1/agents/account`.
pub async fn account(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Value>, ApiError> {
    let account = state
        .account(&caller.user_id)
        .cloned()
        .ok_or_else(ApiError::unauthorized)?;
    let timeout = state.clock().scaled(Duration::from_secs(5));
    let credits = if state.faults().roll(Fault::SlowBilling) {
        // Billing never answers; the lookup gives up at its timeout.
        tokio::time::sleep(timeout).await;
        Value::Null
    } else {
        let usd = balance(&state, &caller.user_id).map(|u| (u * 100.0).round() / 100.0);
        json!({ "usd": usd })
    };
    Ok(Json(json!({
        "userId": account.user_id,
        "userState": account.user_state(),
        "plan": {
            "id": account.plan.id(),
            "title": account.plan.title(),
            "free": account.plan.is_free(),
            "unlimited": account.plan.is_unlimited(),
        },
        "credits": credits,
        "authType": caller.auth_type.as_str(),
    })))
}
