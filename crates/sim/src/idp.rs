//! The simulator as identity provider: it issues the Firebase ID tokens the account routes
//! take (at start, for the ready line, and through the Google sign-in and Firebase
//! token exchange it plays: `google` and `firebase`), with refresh tokens.
//!
//! Like the real service's Firebase ID tokens, a token from the sign-in flow lives one hour,
//! scaled by the clock; the refresh token that comes with it gets a new one. The ready line's
//! tokens stand for a sign-in made beforehand: they live a day of real time, so the Demo and
//! tests can use them for a whole run.
//!
//! The sign-in's addresses and credentials are fixed here, so the app knows how to sign in
//! at any simulator (the Demo's, or a test's) without being told.

use std::time::Duration;

use crate::clock::Clock;
use crate::state::{random_token, AppState, IdToken};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::json;
use sha2::{Digest, Sha256};

/// Where the simulator plays Google's authorization page (`GET`, and `POST` for the choice).
pub const GOOGLE_AUTHORIZE_PATH: &str = "/google/o/oauth2/v2/auth";
/// Where it plays Google's token endpoint.
pub const GOOGLE_TOKEN_PATH: &str = "/google/token";
/// The base it plays Firebase's Identity Toolkit at (`…/v1/accounts:signInWithIdp`).
pub const IDENTITY_TOOLKIT_BASE: &str = "/identitytoolkit";
/// The base it plays Firebase's Secure Token service at (`…/v1/token`).
pub const SECURE_TOKEN_BASE: &str = "/securetoken";

/// The only Google OAuth client the simulator knows (the app's client id for the Demo).
pub const GOOGLE_CLIENT_ID: &str = "porthole-sim.apps.googleusercontent.com";
/// That client's secret. Not a secret here, nor (Google says) for a desktop app.
pub const GOOGLE_CLIENT_SECRET: &str = "sim-google-client-secret";
/// The only Firebase web API key the simulator takes.
pub const FIREBASE_API_KEY: &str = "sim-firebase-api-key";

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

/// A Firebase refresh token for `user_id`: good until the simulator stops.
pub fn issue_refresh_token(state: &AppState, user_id: &str) -> String {
    let token = format!("rt_{}", random_token(32));
    state.db().refresh_tokens.insert(
        token.clone(),
        crate::state::RefreshGrant {
            user_id: user_id.to_owned(),
        },
    );
    token
}

/// A Google ID token for `user_id`, as Google's token endpoint gives: JWT-shaped, for
/// [`GOOGLE_CLIENT_ID`], living a scaled hour. Only the Firebase exchange takes it; the
/// service's own routes do not (it is not in `id_tokens`).
pub fn issue_google_id_token(state: &AppState, user_id: &str) -> (String, Duration) {
    let name = state.account(user_id).map(|a| a.name).unwrap_or("");
    let lifetime = signed_in_lifetime(state);
    let now = Clock::now_ms();
    let expires_at = now + lifetime.as_millis() as i64;
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"RS256","typ":"JWT"}"#);
    let claims = json!({
        "iss": "https://accounts.google.com",
        "aud": GOOGLE_CLIENT_ID,
        "sub": format!("g-{user_id}"),
        "email": format!("{name}@example.com"),
        "email_verified": true,
        "name": name,
        "iat": now / 1000,
        "exp": expires_at / 1000,
    });
    let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
    let signature = URL_SAFE_NO_PAD.encode(Sha256::digest(random_token(16)));
    let token = format!("{header}.{payload}.{signature}");
    state.db().google_id_tokens.insert(
        token.clone(),
        crate::state::GoogleIdToken {
            user_id: user_id.to_owned(),
            expires_at,
        },
    );
    (token, lifetime)
}
