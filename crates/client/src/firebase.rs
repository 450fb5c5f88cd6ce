//! The second leg of sign-in: Firebase Authentication's REST API turns the Google ID token
//! into a Firebase ID token (`accounts:signInWithIdp`), the `Authorization: Bearer` of the
//! service's identity-provider calls, and renews it with its refresh token (Secure Token).
//! A Firebase ID token lives about an hour.
//!
//! Firebase's refusals (`{ error: { message: "INVALID_REFRESH_TOKEN" | … } }`) are
//! `InputError::Invalid` on `sign-in` with the message's code as reason: the app words them.

use serde::Deserialize;
use serde_json::json;

use crate::credential::Secret;
use crate::error::Result;
use crate::oauth::{endpoint, post, seconds, Body};
use crate::signin_config::SignInConfig;

/// A Firebase sign-in: the ID token, how long it lives, and how to renew it.
#[derive(Debug, Deserialize)]
pub struct SignedIn {
    pub id_token: Secret,
    /// Seconds the ID token lives (Firebase sends a string of digits).
    #[serde(default, deserialize_with = "seconds")]
    pub expires_in: Option<u64>,
    pub refresh_token: Option<Secret>,
}

/// `accounts:signInWithIdp`'s answer, in its own (camelCase) names.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct IdpAnswer {
    id_token: Secret,
    #[serde(default, deserialize_with = "seconds")]
    expires_in: Option<u64>,
    refresh_token: Option<Secret>,
}

#[derive(Deserialize)]
struct FirebaseError {
    error: FirebaseErrorBody,
}

#[derive(Deserialize)]
struct FirebaseErrorBody {
    message: String,
    #[serde(default)]
    details: Vec<serde_json::Value>,
}

/// The refusal's code: `INVALID_REFRESH_TOKEN`, `TOKEN_EXPIRED`, `INVALID_IDP_RESPONSE`, or
/// `API_KEY_INVALID` (a reason under `details`, the message being a sentence).
fn refusal(body: &str) -> Option<String> {
    let error = serde_json::from_str::<FirebaseError>(body).ok()?.error;
    let reason = error
        .details
        .iter()
        .find_map(|d| d.get("reason").and_then(|r| r.as_str()).map(str::to_owned));
    let code = error.message.split([' ', ':']).next().map(str::to_owned);
    reason.or(code).filter(|c| !c.is_empty())
}

fn with_key(base: &str, path: &str, config: &SignInConfig) -> Result<url::Url> {
    let mut url = endpoint(&format!("{}{path}", base.trim().trim_end_matches('/')))?;
    url.query_pairs_mut()
        .append_pair("key", config.firebase_api_key.expose());
    Ok(url)
}

/// Signs in to Firebase with a Google ID token ("Sign in with OAuth credential").
pub async fn sign_in_with_google(
    config: &SignInConfig,
    google_id_token: &Secret,
) -> Result<SignedIn> {
    let url = with_key(
        &config.identity_toolkit_base,
        "/v1/accounts:signInWithIdp",
        config,
    )?;
    let body = json!({
        "postBody": format!("id_token={}&providerId=google.com", google_id_token.expose()),
        "requestUri": "http://localhost",
        "returnIdpCredential": true,
        "returnSecureToken": true,
    });
    let answer: IdpAnswer = post(url, Body::Json(body), refusal).await?;
    Ok(SignedIn {
        id_token: answer.id_token,
        expires_in: answer.expires_in,
        refresh_token: answer.refresh_token,
    })
}

/// A new Firebase ID token for a refresh token ("Exchange a refresh token for an ID token").
/// A refresh token Firebase no longer takes is an `InputError::Invalid` on `sign-in`: the
/// person signs in again. The answer carries the refresh token to keep from now on.
pub async fn refresh(config: &SignInConfig, refresh_token: &Secret) -> Result<SignedIn> {
    let url = with_key(&config.secure_token_base, "/v1/token", config)?;
    let form = [
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh_token.expose()),
    ];
    post(url, Body::Form(&form), refusal).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_read_as_firebase_sends_them() {
        let expired =
            r#"{"error":{"code":400,"message":"TOKEN_EXPIRED","status":"INVALID_ARGUMENT"}}"#;
        assert_eq!(refusal(expired).as_deref(), Some("TOKEN_EXPIRED"));
        let idp =
            r#"{"error":{"code":400,"message":"INVALID_IDP_RESPONSE : Invalid Idp Response"}}"#;
        assert_eq!(refusal(idp).as_deref(), Some("INVALID_IDP_RESPONSE"));
        let key = r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","details":[{"reason":"API_KEY_INVALID"}]}}"#;
        assert_eq!(refusal(key).as_deref(), Some("API_KEY_INVALID"));
        assert_eq!(refusal("<html>"), None);
        let answer: SignedIn = serde_json::from_str(
            r#"{"id_token":"a.b.c","expires_in":"3600","refresh_token":"rt","user_id":"u"}"#,
        )
        .unwrap();
        assert_eq!(answer.expires_in, Some(3600));
        assert!(!format!("{answer:?}").contains("rt\""), "no token printed");
    }
}
