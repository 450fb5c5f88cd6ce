//! The simulator as Firebase Authentication's REST API, the second leg of the real service's
//! sign-in: a Google ID token (from `google`) becomes a Firebase ID token, the identity the
//! account routes take, and a refresh token renews it.
//!
//! - `POST /identitytoolkit/v1/accounts:signInWithIdp?key=API_KEY` JSON
//!   `{ postBody: "id_token=…&providerId=google.com", requestUri, returnSecureToken: true, … }`
//!   → `{ kind, federatedId, providerId, localId, email, emailVerified, displayName,
//!   idToken, refreshToken, expiresIn: "<seconds>", oauthIdToken }`.
//! - `POST /securetoken/v1/token?key=API_KEY` form `grant_type=refresh_token&refresh_token=…`
//!   → `{ access_token, expires_in: "<seconds>", token_type, refresh_token, id_token,
//!   user_id, project_id }`.
//!
//! Errors are Google's shape, `{ error: { code, message, status } }`: a missing key is `403`,
//! a wrong one `400` "API key not valid" (reason `API_KEY_INVALID`), a Google ID token the
//! simulator did not issue (or expired) `INVALID_IDP_RESPONSE`, an unknown refresh token
//! `INVALID_REFRESH_TOKEN`.

use crate::clock::Clock;
use crate::idp::{issue_id_token, issue_refresh_token, signed_in_lifetime, FIREBASE_API_KEY};
use crate::state::AppState;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Form, Json, Router};
use serde::Deserialize;
use serde_json::json;
use std::collections::HashMap;

/// The simulator's Firebase project, as the real answers name one.
const PROJECT_ID: &str = "porthole-sim";

pub fn routes() -> Router<AppState> {
    let toolkit = format!(
        "{}/v1/accounts:signInWithIdp",
        crate::idp::IDENTITY_TOOLKIT_BASE
    );
    let secure = format!("{}/v1/token", crate::idp::SECURE_TOKEN_BASE);
    Router::new()
        .route(&toolkit, post(sign_in_with_idp))
        .route(&secure, post(refresh))
}

fn error(status: StatusCode, message: &str, reason: Option<&str>) -> Response {
    let state = if status == StatusCode::FORBIDDEN {
        "PERMISSION_DENIED"
    } else {
        "INVALID_ARGUMENT"
    };
    let details = reason.map(|r| {
        json!([{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": r,
                 "domain": "googleapis.com" }])
    });
    let mut body = json!({ "code": status.as_u16(), "message": message, "status": state });
    if let Some(details) = details {
        body["details"] = details;
    }
    (status, Json(json!({ "error": body }))).into_response()
}

/// Every Firebase call names the project by its web API key.
fn key_refusal(q: &HashMap<String, String>) -> Option<Response> {
    match q.get("key").map(String::as_str) {
        None | Some("") => Some(error(
            StatusCode::FORBIDDEN,
            "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
            None,
        )),
        Some(FIREBASE_API_KEY) => None,
        Some(_) => Some(error(
            StatusCode::BAD_REQUEST,
            "API key not valid. Please pass a valid API key.",
            Some("API_KEY_INVALID"),
        )),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct IdpRequest {
    #[serde(default)]
    post_body: String,
    #[serde(default)]
    request_uri: String,
    #[serde(default)]
    return_secure_token: bool,
}

async fn sign_in_with_idp(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
    Json(request): Json<IdpRequest>,
) -> Response {
    if let Some(refused) = key_refusal(&q) {
        return refused;
    }
    if request.request_uri.is_empty() {
        return error(StatusCode::BAD_REQUEST, "MISSING_REQUEST_URI", None);
    }
    let post: HashMap<String, String> = url::form_urlencoded::parse(request.post_body.as_bytes())
        .into_owned()
        .collect();
    if post.get("providerId").map(String::as_str) != Some("google.com") {
        return error(
            StatusCode::BAD_REQUEST,
            "INVALID_PROVIDER_ID : Provider Id is not supported.",
            None,
        );
    }
    let google_token = post.get("id_token").cloned().unwrap_or_default();
    let grant = state.db().google_id_tokens.get(&google_token).cloned();
    let Some(grant) = grant.filter(|g| g.expires_at > Clock::now_ms()) else {
        return error(
            StatusCode::BAD_REQUEST,
            "INVALID_IDP_RESPONSE : Invalid Idp Response: the Google id_token is not allowed to be used with this application.",
            None,
        );
    };
    let name = state.account(&grant.user_id).map(|a| a.name).unwrap_or("");
    let lifetime = signed_in_lifetime(&state);
    let id_token = issue_id_token(&state, &grant.user_id, lifetime);
    let mut answer = json!({
        "kind": "identitytoolkit#VerifyAssertionResponse",
        "federatedId": format!("https://accounts.google.com/g-{}", grant.user_id),
        "providerId": "google.com",
        "localId": grant.user_id,
        "email": format!("{name}@example.com"),
        "emailVerified": true,
        "displayName": name,
        "oauthIdToken": google_token,
    });
    if request.return_secure_token {
        answer["idToken"] = json!(id_token);
        answer["refreshToken"] = json!(issue_refresh_token(&state, &grant.user_id));
        answer["expiresIn"] = json!(lifetime.as_secs().max(1).to_string());
    }
    Json(answer).into_response()
}

async fn refresh(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    if let Some(refused) = key_refusal(&q) {
        return refused;
    }
    if f.get("grant_type").map(String::as_str) != Some("refresh_token") {
        return error(StatusCode::BAD_REQUEST, "INVALID_GRANT_TYPE", None);
    }
    let token = f.get("refresh_token").cloned().unwrap_or_default();
    if token.is_empty() {
        return error(StatusCode::BAD_REQUEST, "MISSING_REFRESH_TOKEN", None);
    }
    let Some(grant) = state.db().refresh_tokens.get(&token).cloned() else {
        return error(StatusCode::BAD_REQUEST, "INVALID_REFRESH_TOKEN", None);
    };
    let lifetime = signed_in_lifetime(&state);
    let id_token = issue_id_token(&state, &grant.user_id, lifetime);
    Json(json!({
        "access_token": id_token,
        "expires_in": lifetime.as_secs().max(1).to_string(),
        "token_type": "Bearer",
        "refresh_token": token,
        "id_token": id_token,
        "user_id": grant.user_id,
        "project_id": PROJECT_ID,
    }))
    .into_response()
}
