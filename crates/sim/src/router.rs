//! Builds the state every simulator starts with and the router of every endpoint, with the
//! fault layer in front of `/v1`.

use crate::accounts::{seed_accounts, SimAccount};
use crate::auth::{key_hash, KEY_PREFIX};
use crate::clock::Clock;
use crate::desktop::Desktop;
use crate::error::ApiError;
use crate::faults::{Fault, Faults};
use crate::records::{ApiKey, Machine, MachineKind, Power};
use crate::state::{random_token, AppState, SCREEN};
use crate::Config;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// Creates the state with the seeded accounts, their computers, keys and ID tokens.
pub fn seed(config: &Config, base_url: &str) -> (AppState, Vec<SimAccount>) {
    let mut accounts = seed_accounts(|| format!("user_{}", random_token(8)));
    if let Some(world) = &config.world {
        crate::world::keep_user_ids(&mut accounts, world);
    }
    let state = AppState::new(
        Clock::new(config.time_scale),
        Faults::new(config.faults.clone(), config.seed),
        config.turn_id_in,
        config.shapes,
        accounts.clone(),
    );
    let _ = state.0.base_url.set(base_url.to_owned());
    let now = Clock::now_ms();
    let mut out = Vec::new();
    for account in &accounts {
        let api_key = account.has_seed_key.then(|| {
            let key = format!("{KEY_PREFIX}{}", random_token(24));
            state.db().keys.push(ApiKey {
                key_id: state.new_id("k_"),
                owner: account.user_id.clone(),
                name: Some("Demo key".into()),
                hash: key_hash(&key),
                created_at: now,
                last_used_at: None,
                revoked: false,
            });
            key
        });
        if config.world.is_none() {
            let mut db = state.db();
            for seed in &account.machines {
                let kind = if seed.cloud {
                    MachineKind::Cloud
                } else {
                    MachineKind::Own
                };
                db.machines.push(Machine {
                    id: format!("m_{}", random_token(8)),
                    owner: account.user_id.clone(),
                    name: Some(seed.name.to_owned()),
                    kind,
                    power: match (seed.cloud, seed.hibernated) {
                        (false, _) => Power::AgentOnline,
                        (true, true) => Power::Hibernated,
                        (true, false) => Power::Active,
                    },
                    updated_at: now,
                    desktop: seed
                        .cloud
                        .then(|| Desktop::new(SCREEN.0, SCREEN.1, seed.name)),
                    is_free: false,
                    wakeable: seed.wakeable,
                });
            }
            if account.plan.is_free() {
                let name = "Free cloud computer";
                db.machines.push(Machine {
                    id: format!("free-{}", account.user_id),
                    owner: account.user_id.clone(),
                    name: Some(name.to_owned()),
                    kind: MachineKind::Cloud,
                    power: Power::Unclaimed,
                    updated_at: 0,
                    desktop: Some(Desktop::new(SCREEN.0, SCREEN.1, name)),
                    is_free: true,
                    wakeable: true,
                });
            }
        }
        out.push(SimAccount {
            name: account.name.to_owned(),
            user_id: account.user_id.clone(),
            plan: account.plan.short_name().to_owned(),
            api_key,
            id_token: crate::idp::issue_id_token(
                &state,
                &account.user_id,
                crate::idp::READY_LINE_TOKEN_LIFETIME,
            ),
        });
    }
    if let Some(world) = config.world.clone() {
        crate::world::restore(&mut state.db(), &accounts, world);
    }
    (state, out)
}

/// Every route of the service.
pub fn build(state: AppState) -> Router {
    let v1 = Router::new()
        .route("/v1/agents/auth", get(check_key))
        .route("/v1/agents/models", get(crate::models::list))
        .route("/v1/agents/account", get(crate::credits::account))
        .route("/v1/agents/events", get(crate::events::poll))
        .merge(crate::machines::routes())
        .merge(crate::messages::routes())
        .merge(crate::sessions::routes())
        .merge(crate::turns::routes())
        .merge(crate::keys::routes())
        .merge(crate::uploads::routes())
        .merge(crate::approvals::v1_routes())
        .merge(crate::control::routes())
        .merge(crate::live_view::routes())
        .merge(crate::learn::routes())
        .merge(crate::judge::routes())
        .layer(middleware::from_fn_with_state(state.clone(), inject_faults))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            crate::shapes::rewrite,
        ));
    Router::new()
        .merge(v1)
        .merge(crate::approvals::page_routes())
        .merge(crate::health::routes())
        .merge(crate::google::routes())
        .merge(crate::firebase::routes())
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            crate::seen::record,
        ))
        .with_state(state)
}

/// `GET /v1/agents/auth`.
async fn check_key(caller: crate::auth::Caller) -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({
        "ok": true,
        "userId": caller.user_id,
        "authType": caller.auth_type.as_str(),
    }))
}

async fn not_found() -> ApiError {
    ApiError::coded(
        StatusCode::NOT_FOUND,
        "not_found",
        "There is nothing at this address.",
    )
}

/// Injects the configured HTTP faults before a `/v1` request is handled.
async fn inject_faults(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let faults = state.faults();
    if faults.roll(Fault::Slow) {
        tokio::time::sleep(faults.slow_delay()).await;
    }
    if faults.roll(Fault::Http500) {
        return ApiError::internal("The service had a problem. Try again.").into_response();
    }
    if faults.roll(Fault::Http429) {
        return ApiError::coded(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "Too many requests. Try again shortly.",
        )
        .retry_after(1)
        .into_response();
    }
    next.run(req).await
}
