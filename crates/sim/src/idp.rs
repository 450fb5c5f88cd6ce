//! The simulator as identity provider: it issues ID tokens for its accounts (at start, for
//! the ready line, and through a minimal OAuth 2.0 authorization-code + PKCE flow).

use crate::clock::Clock;
use crate::state::{random_token, AppState, IdToken};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::json;
use sha2::{Digest, Sha256};

/// Lifetime of an ID token, in seconds (real time: sign-ins outlast scaled hours).
pub const ID_TOKEN_SECS: i64 = 24 * 3600;

/// Issues an ID token carrying the account's current phone claim. The token is shaped like
/// a JWT (so tools can read its claims) but the simulator checks it by lookup.
pub fn issue_id_token(state: &AppState, user_id: &str) -> String {
    let (name, phone_verified) = state
        .account(user_id)
        .map(|a| (a.name, a.phone_verified))
        .unwrap_or(("", false));
    let now = Clock::now_ms();
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let claims = json!({
        "iss": state.base_url(),
        "aud": "porthole",
        "sub": user_id,
        "name": name,
        "email": format!("{name}@example.com"),
        "phone_number_verified": phone_verified,
        "iat": now / 1000,
        "exp": now / 1000 + ID_TOKEN_SECS,
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
            expires_at: now + ID_TOKEN_SECS * 1000,
        },
    );
    token
}
