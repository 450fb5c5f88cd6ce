//! The simulator as identity provider: it issues ID tokens for its accounts (at start, for
//! the ready line, and through a minimal OAuth 2.0 authorization-code + PKCE flow, with
//! refresh tokens).
//!
//! Like the real service's Firebase ID tokens, a token from the sign-in flow lives one hour,
//! scaled by the clock; the refresh token that comes with it gets a new one. The ready line's
//! tokens stand for a sign-in made beforehand: they live a day of real time, so the Demo and
//! tests can use them for a whole run.

use std::time::Duration;

use crate::clock::Clock;
use crate::state::{random_token, AppState, IdToken};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::json;
use sha2::{Digest, Sha256};

/// Documented lifetime of a signed-in ID token (scaled by the clock).
pub const ID_TOKEN_LIFETIME: Duration = Duration::from_secs(3600);

/// Real lifetime of the ready line's tokens.
pub const READY_LINE_TOKEN_LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// The real lifetime of a token from the sign-in flow: a scaled hour.
pub fn signed_in_lifetime(state: &AppState) -> Duration {
    state.clock().scaled(ID_TOKEN_LIFETIME)
}

/// Issues an ID token carrying the account's current phone claim, valid for `lifetime` of
/// real time. The token is shaped like a JWT (so tools can read its claims, `exp` among them)
/// but the simulator checks it by lookup.
pub fn issue_id_token(state: &AppState, user_id: &str, lifetime: Duration) -> String {
    let (name, phone_verified) = state
        .account(user_id)
        .map(|a| (a.name, a.phone_verified))
        .unwrap_or(("", false));
    let now = Clock::now_ms();
    let expires_at = now + lifetime.as_millis() as i64;
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let claims = json!({
        "iss": state.base_url(),
        "aud": "porthole",
        "sub": user_id,
        "name": name,
        "email": format!("{name}@example.com"),
        "phone_number_verified": phone_verified,
        "iat": now / 1000,
        // Rounded down: a client that reads it is never told the token lives longer.
        "exp": expires_at / 1000,
        "nonce": random_token(8),
    });
    let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
    let signature = URL_SAFE_NO_PAD.encode(Sha256::digest(format!(
        "{header}.{payload}.{}",
        random_token(16)
    )));
    let token = format!("{header}.{payload}.{signature}");
    state.db().id_tokens.insert(
        token.clone(),
        IdToken {
            user_id: user_id.to_owned(),
            phone_verified,
            expires_at,
        },
    );
    token
}

/// A refresh token for `user_id` at `client_id`: good until the simulator stops.
pub fn issue_refresh_token(state: &AppState, user_id: &str, client_id: &str) -> String {
    let token = format!("rt_{}", random_token(32));
    state.db().refresh_tokens.insert(
        token.clone(),
        crate::state::RefreshGrant {
            user_id: user_id.to_owned(),
            client_id: client_id.to_owned(),
        },
    );
    token
}
