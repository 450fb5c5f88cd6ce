//! Who is calling. Every `/v1` endpoint takes `Authorization: Bearer <credential>`, where the
//! credential is an API key (`KEY_PREFIX` + secret) or an ID token the simulator issued as
//! identity provider. `Caller` accepts either; `IdpCaller` accepts only an ID token (key
//! management). Anything else, including junk headers, is `401`.

use crate::clock::Clock;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use sha2::{Digest, Sha256};

/// Every API key starts with this.
pub const KEY_PREFIX: &str = "phk_sim_";

/// How the call was authenticated (`authType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthType {
    ApiKey,
    Idp,
}

impl AuthType {
    pub fn as_str(self) -> &'static str {
        match self {
            AuthType::ApiKey => "apiKey",
            AuthType::Idp => "idp",
        }
    }
}

/// An authenticated caller.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user_id: String,
    pub auth_type: AuthType,
    /// The phone claim of the ID token (identity-provider sessions only).
    pub phone_verified_claim: bool,
}

impl Caller {
    pub fn is_idp(&self) -> bool {
        self.auth_type == AuthType::Idp
    }
}

/// SHA-256 of an API key secret, as stored.
pub fn key_hash(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let token = token.trim();
    (!token.is_empty()).then_some(token)
}

/// Resolves a credential to its account; `None` when unknown, revoked or expired.
pub fn authenticate(state: &AppState, credential: &str) -> Option<Caller> {
    let now = Clock::now_ms();
    let mut db = state.db();
    if credential.starts_with(KEY_PREFIX) {
        let hash = key_hash(credential);
        let key = db.keys.iter_mut().find(|k| k.hash == hash && !k.revoked)?;
        key.last_used_at = Some(now);
        return Some(Caller {
            user_id: key.owner.clone(),
            auth_type: AuthType::ApiKey,
            phone_verified_claim: false,
        });
    }
    let token = db.id_tokens.get(credential)?;
    if token.expires_at <= now {
        return None;
    }
    Some(Caller {
        user_id: token.user_id.clone(),
        auth_type: AuthType::Idp,
        phone_verified_claim: token.phone_verified,
    })
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let credential = bearer(parts).ok_or_else(ApiError::unauthorized)?;
        authenticate(state, credential).ok_or_else(ApiError::unauthorized)
    }
}

/// A caller authenticated by an identity-provider session; an API key gets `403`.
#[derive(Debug, Clone)]
pub struct IdpCaller(pub Caller);

impl FromRequestParts<AppState> for IdpCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let caller = Caller::from_request_parts(parts, state).await?;
        if !caller.is_idp() {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "This needs a signed-in session. API keys cannot manage API keys; sign in and try again.",
            ));
        }
        Ok(IdpCaller(caller))
    }
}
