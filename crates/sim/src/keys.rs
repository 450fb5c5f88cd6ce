//! API keys, managed only with an identity-provider session: create (secret shown once,
//! only its hash kept), list newest first, revoke. Free accounts may hold one live key and
//! only with a phone verified before the current sign-in; paid accounts twenty.

use crate::auth::{key_hash, IdpCaller, KEY_PREFIX};
use crate::body::{object, JsonBody};
use crate::clock::Clock;
use crate::error::ApiError;
use crate::limits::Limit;
use crate::records::ApiKey;
use crate::state::{random_token, AppState};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{delete, get};
use axum::{Json, Router};
use serde_json::{json, Value};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/account/keys", get(list).post(create))
        .route("/v1/account/keys/{key_id}", delete(revoke))
}

async fn create(
    State(state): State<AppState>,
    IdpCaller(caller): IdpCaller,
    JsonBody(body): JsonBody,
) -> Result<impl IntoResponse, ApiError> {
    let name = match body {
        Value::Null => None,
        b => match object(b)?.get("name") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.chars().count() <= 100 => Some(s.clone()),
            Some(Value::String(_)) => {
                return Err(ApiError::bad_request(
                    "Key name is too long. Maximum is 100 characters.",
                ))
            }
            Some(_) => return Err(ApiError::bad_request("name must be a string.")),
        },
    };
    let plan = state
        .account(&caller.user_id)
        .map(|a| a.plan)
        .ok_or_else(ApiError::unauthorized)?;
    if plan.is_free() && !caller.phone_verified_claim {
        return Err(ApiError::coded(
            StatusCode::FORBIDDEN,
            "phone_verification_required",
            "Verify your phone number in the portal, then sign in again and create the key.",
        ));
    }
    let live = state
        .db()
        .keys
        .iter()
        .filter(|k| k.owner == caller.user_id && !k.revoked)
        .count();
    if live >= plan.max_keys() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "API key limit reached. Maximum {} keys per account. Revoke an existing key first.",
                plan.max_keys()
            ),
        ));
    }
    state
        .limits()
        .hit(&caller.user_id, Limit::KeyCreation)
        .map_err(|w| {
            ApiError::rate_limited(
                "Key generation rate limit exceeded. Maximum 5 keys per hour.",
                w,
            )
        })?;
    let key = format!("{KEY_PREFIX}{}", random_token(24));
    let key_id = state.new_id("k_");
    state.db().keys.push(ApiKey {
        key_id: key_id.clone(),
        owner: caller.user_id.clone(),
        name: name.clone(),
        hash: key_hash(&key),
        created_at: Clock::now_ms(),
        last_used_at: None,
        revoked: false,
    });
    Ok((
        StatusCode::CREATED,
        Json(json!({ "key": key, "keyId": key_id, "name": name })),
    ))
}

async fn list(State(state): State<AppState>, IdpCaller(caller): IdpCaller) -> Json<Value> {
    let db = state.db();
    let mut keys: Vec<&ApiKey> = db
        .keys
        .iter()
        .filter(|k| k.owner == caller.user_id && !k.revoked)
        .collect();
    keys.sort_by_key(|k| std::cmp::Reverse(k.created_at));
    let keys: Vec<Value> = keys
        .iter()
        .map(|k| json!({ "keyId": k.key_id, "name": k.name, "createdAt": k.created_at, "lastUsedAt": k.last_used_at }))
        .collect();
    Json(json!({ "keys": keys }))
}

async fn revoke(
    State(state): State<AppState>,
    IdpCaller(caller): IdpCaller,
    Path(key_id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let mut db = state.db();
    let key = db
        .keys
        .iter_mut()
        .find(|k| k.key_id == key_id && k.owner == caller.user_id && !k.revoked)
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "API key not found."))?;
    key.revoked = true;
    Ok(StatusCode::NO_CONTENT)
}
