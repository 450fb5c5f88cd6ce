//! The simulator as OAuth 2.0 identity provider (authorization code + PKCE, loopback
//! redirect), so the app's browser sign-in is real:
//!
//! - `GET /oauth/authorize?response_type=code&client_id=…&redirect_uri=http://127.0.0.1:PORT/…&state=…&code_challenge=…&code_challenge_method=S256`
//!   shows a sign-in page listing the accounts; choosing one redirects to
//!   `redirect_uri?code=…&state=…`.
//! - `POST /oauth/token` (form: `grant_type=authorization_code`, `code`, `redirect_uri`,
//!   `code_verifier`, `client_id`) answers
//!   `{ id_token, token_type: "Bearer", expires_in, refresh_token }`; the ID token lives a
//!   scaled hour (`expires_in` seconds, and its `exp` claim).
//! - `POST /oauth/token` (form: `grant_type=refresh_token`, `refresh_token`, `client_id`)
//!   answers the same with a new ID token; an unknown refresh token is `invalid_grant`.
//!
//! Only loopback redirect URIs are accepted; codes are single-use and live one minute.

use crate::clock::Clock;
use crate::idp::{issue_id_token, issue_refresh_token, signed_in_lifetime};
use crate::state::{random_token, AppState, AuthCode};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Form, Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::json;
use sha2::{Digest, Sha256};
use std::collections::HashMap;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/oauth/authorize", get(authorize).post(sign_in))
        .route("/oauth/token", axum::routing::post(token))
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

async fn authorize(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let redirect = q.get("redirect_uri").cloned().unwrap_or_default();
    if !loopback(&redirect) {
        return bad("The app's address must be a loopback address.");
    }
    if q.get("response_type").map(String::as_str) != Some("code")
        || q.get("code_challenge").is_none_or(|c| c.is_empty())
    {
        return bad("This sign-in request is missing its code challenge.");
    }
    let hidden: String = [
        "client_id",
        "redirect_uri",
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
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Sign in to the Demo service</title></head>
<body style="font-family:sans-serif;max-width:30em;margin:3em auto"><h1>Sign in</h1>
<p>Choose a demo account.</p><form method="post">{hidden}{buttons}</form></body></html>"#
    ))
    .into_response()
}

async fn sign_in(
    State(state): State<AppState>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    let redirect = f.get("redirect_uri").cloned().unwrap_or_default();
    let Some(account) = f
        .get("account")
        .and_then(|n| state.accounts().iter().find(|a| a.name == n))
    else {
        return bad("Choose an account.");
    };
    if !loopback(&redirect) {
        return bad("The app's address must be a loopback address.");
    }
    let code = random_token(16);
    state.db().auth_codes.insert(
        code.clone(),
        AuthCode {
            user_id: account.user_id.clone(),
            code_challenge: f.get("code_challenge").cloned().unwrap_or_default(),
            challenge_method: f
                .get("code_challenge_method")
                .cloned()
                .unwrap_or_else(|| "plain".into()),
            redirect_uri: redirect.clone(),
            client_id: f.get("client_id").cloned().unwrap_or_default(),
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

fn token_error(code: &str, description: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({ "error": code, "error_description": description })),
    )
        .into_response()
}

async fn token(State(state): State<AppState>, Form(f): Form<HashMap<String, String>>) -> Response {
    match f.get("grant_type").map(String::as_str) {
        Some("authorization_code") => code_grant(&state, &f),
        Some("refresh_token") => refresh_grant(&state, &f),
        _ => token_error(
            "unsupported_grant_type",
            "Only authorization_code and refresh_token are supported.",
        ),
    }
}

fn code_grant(state: &AppState, f: &HashMap<String, String>) -> Response {
    let code = f.get("code").cloned().unwrap_or_default();
    let Some(entry) = state.db().auth_codes.remove(&code) else {
        return token_error("invalid_grant", "The code is unknown or was already used.");
    };
    if entry.expires_at < Clock::now_ms() || f.get("redirect_uri") != Some(&entry.redirect_uri) {
        return token_error(
            "invalid_grant",
            "The code expired or the redirect address differs.",
        );
    }
    if !entry.client_id.is_empty() && f.get("client_id").is_some_and(|c| *c != entry.client_id) {
        return token_error(
            "invalid_client",
            "The client differs from the one that asked.",
        );
    }
    let verifier = f.get("code_verifier").cloned().unwrap_or_default();
    let computed = if entry.challenge_method == "S256" {
        URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
    } else {
        verifier.clone()
    };
    if verifier.is_empty() || computed != entry.code_challenge {
        return token_error(
            "invalid_grant",
            "The code verifier does not match the challenge.",
        );
    }
    let refresh_token = issue_refresh_token(state, &entry.user_id, &entry.client_id);
    signed_in(state, &entry.user_id, &refresh_token)
}

fn refresh_grant(state: &AppState, f: &HashMap<String, String>) -> Response {
    let token = f.get("refresh_token").cloned().unwrap_or_default();
    let Some(grant) = state.db().refresh_tokens.get(&token).cloned() else {
        return token_error("invalid_grant", "The refresh token is unknown.");
    };
    if !grant.client_id.is_empty() && f.get("client_id").is_some_and(|c| *c != grant.client_id) {
        return token_error(
            "invalid_client",
            "The client differs from the one that signed in.",
        );
    }
    signed_in(state, &grant.user_id, &token)
}

/// A fresh ID token for `user_id`, with the refresh token that can renew it.
fn signed_in(state: &AppState, user_id: &str, refresh_token: &str) -> Response {
    let lifetime = signed_in_lifetime(state);
    let id_token = issue_id_token(state, user_id, lifetime);
    Json(json!({
        "id_token": id_token,
        "token_type": "Bearer",
        "expires_in": lifetime.as_secs().max(1),
        "refresh_token": refresh_token,
    }))
    .into_response()
}
