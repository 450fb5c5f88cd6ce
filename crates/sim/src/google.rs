//! The simulator as Google's OAuth 2.0 for desktop apps (authorization code + PKCE, loopback
//! redirect), the first leg of the real service's sign-in; `firebase` plays the second.
//!
//! - `GET /google/o/oauth2/v2/auth?client_id=…&redirect_uri=http://127.0.0.1:PORT&response_type=code&scope=openid%20email%20profile&code_challenge=…&code_challenge_method=S256&state=…`
//!   shows a sign-in page listing the accounts; choosing one (`POST` to the same path)
//!   redirects to `redirect_uri?code=…&state=…`.
//! - `POST /google/token` (form: `code`, `client_id`, `client_secret`, `code_verifier`,
//!   `redirect_uri`, `grant_type=authorization_code`) answers
//!   `{ access_token, expires_in, id_token, scope, token_type }`: the Google ID token is for
//!   the Firebase exchange only.
//!
//! The checks the real one makes that matter to Porthole: only [`GOOGLE_CLIENT_ID`] (with its
//! secret at the token endpoint), only loopback redirects, PKCE `S256` verified, codes
//! single-use and living one minute, the redirect address the same at both ends.

use crate::clock::Clock;
use crate::idp::{issue_google_id_token, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET};
use crate::state::{random_token, AppState, AuthCode};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::json;
use sha2::{Digest, Sha256};
use std::collections::HashMap;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            crate::idp::GOOGLE_AUTHORIZE_PATH,
            get(authorize).post(sign_in),
        )
        .route(crate::idp::GOOGLE_TOKEN_PATH, post(token))
}

fn loopback(uri: &str) -> bool {
    url::Url::parse(uri).is_ok_and(|u| {
        u.scheme() == "http"
            && matches!(
                u.host_str(),
                Some("127.0.0.1") | Some("localhost") | Some("[::1]")
            )
    })
}

fn bad(msg: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Html(format!("<h1>Sign-in failed</h1><p>{msg}</p>")),
    )
        .into_response()
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

/// What the page refuses before showing anything, as Google's error pages do.
fn refusal(q: &HashMap<String, String>) -> Option<Response> {
    if q.get("client_id").map(String::as_str) != Some(GOOGLE_CLIENT_ID) {
        return Some(bad(
            "Error 401: invalid_client. The OAuth client was not found.",
        ));
    }
    if !loopback(q.get("redirect_uri").map(String::as_str).unwrap_or("")) {
        return Some(bad("The app's address must be a loopback address."));
    }
    if q.get("response_type").map(String::as_str) != Some("code")
        || q.get("code_challenge").is_none_or(|c| c.is_empty())
        || q.get("code_challenge_method").map(String::as_str) != Some("S256")
    {
        return Some(bad(
            "This sign-in request is missing its S256 code challenge.",
        ));
    }
    None
}

async fn authorize(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if let Some(refused) = refusal(&q) {
        return refused;
    }
    let hidden: String = [
        "client_id",
        "redirect_uri",
        "response_type",
        "scope",
        "state",
        "code_challenge",
        "code_challenge_method",
    ]
    .iter()
    .map(|k| {
        format!(
            r#"<input type="hidden" name="{k}" value="{}">"#,
            esc(q.get(*k).map(String::as_str).unwrap_or(""))
        )
    })
    .collect();
    let buttons: String = state
        .accounts()
        .iter()
        .map(|a| {
            format!(
                r#"<p><button name="account" value="{}">Sign in as {} ({})</button></p>"#,
                a.name,
                a.name,
                a.plan.title()
            )
        })
        .collect();
    Html(format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Sign in with Google (Demo)</title></head>
<body style="font-family:sans-serif;max-width:30em;margin:3em auto"><h1>Sign in with Google</h1>
<p>Choose a demo account.</p><form method="post">{hidden}{buttons}</form></body></html>"#
    ))
    .into_response()
}

async fn sign_in(
    State(state): State<AppState>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    if let Some(refused) = refusal(&f) {
        return refused;
    }
    let Some(account) = f
        .get("account")
        .and_then(|n| state.accounts().iter().find(|a| a.name == n))
    else {
        return bad("Choose an account.");
    };
    let redirect = f.get("redirect_uri").cloned().unwrap_or_default();
    let code = format!("4/{}", random_token(16));
    state.db().auth_codes.insert(
        code.clone(),
        AuthCode {
            user_id: account.user_id.clone(),
            code_challenge: f.get("code_challenge").cloned().unwrap_or_default(),
            challenge_method: "S256".into(),
            redirect_uri: redirect.clone(),
            client_id: GOOGLE_CLIENT_ID.into(),
            expires_at: Clock::now_ms() + 60_000,
        },
    );
    let Ok(mut url) = url::Url::parse(&redirect) else {
        return bad("The app's address is not valid.");
    };
    url.query_pairs_mut().append_pair("code", &code);
    if let Some(s) = f.get("state") {
        url.query_pairs_mut().append_pair("state", s);
    }
    (StatusCode::FOUND, [(header::LOCATION, url.to_string())]).into_response()
}

/// Google's token errors: `{ error, error_description }`.
fn token_error(status: StatusCode, code: &str, description: &str) -> Response {
    (
        status,
        Json(json!({ "error": code, "error_description": description })),
    )
        .into_response()
}

async fn token(State(state): State<AppState>, Form(f): Form<HashMap<String, String>>) -> Response {
    if f.get("grant_type").map(String::as_str) != Some("authorization_code") {
        return token_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Invalid grant_type.",
        );
    }
    if f.get("client_id").map(String::as_str) != Some(GOOGLE_CLIENT_ID)
        || f.get("client_secret").map(String::as_str) != Some(GOOGLE_CLIENT_SECRET)
    {
        return token_error(StatusCode::UNAUTHORIZED, "invalid_client", "Unauthorized");
    }
    let code = f.get("code").cloned().unwrap_or_default();
    // Removed at once: a code is spent by its first use, right or wrong.
    let Some(entry) = state.db().auth_codes.remove(&code) else {
        return token_error(StatusCode::BAD_REQUEST, "invalid_grant", "Bad Request");
    };
    if entry.expires_at < Clock::now_ms() || f.get("redirect_uri") != Some(&entry.redirect_uri) {
        return token_error(StatusCode::BAD_REQUEST, "invalid_grant", "Bad Request");
    }
    let verifier = f.get("code_verifier").cloned().unwrap_or_default();
    let computed = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    if verifier.is_empty() || computed != entry.code_challenge {
        return token_error(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "Invalid code verifier.",
        );
    }
    let (id_token, lifetime) = issue_google_id_token(&state, &entry.user_id);
    Json(json!({
        "access_token": format!("ya29.{}", random_token(16)),
        "expires_in": lifetime.as_secs().max(1),
        "id_token": id_token,
        "scope": "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
        "token_type": "Bearer",
    }))
    .into_response()
}
