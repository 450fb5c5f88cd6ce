//! The browser's leg of sign-in: Google's OAuth 2.0 for desktop apps, authorization code with
//! PKCE (`S256`) and a loopback redirect (RFC 8252). The app opens [`AuthorizeRequest::url`]
//! in the system browser, catches the redirect on `127.0.0.1`, checks `state`, then trades
//! the code with [`exchange_code`] for a Google ID token, which [`crate::firebase`] turns
//! into the Firebase ID token the service takes.

use serde::Deserialize;

use crate::credential::Secret;
use crate::error::Result;
use crate::oauth::{endpoint, post, Body};
use crate::signin_config::SignInConfig;

/// What the browser is sent to.
pub struct AuthorizeRequest<'a> {
    pub config: &'a SignInConfig,
    pub redirect_uri: &'a str,
    pub state: &'a str,
    pub challenge: &'a str,
}

impl AuthorizeRequest<'_> {
    pub fn url(&self) -> Result<String> {
        let mut url = endpoint(&self.config.google_authorize_url)?;
        url.query_pairs_mut()
            .append_pair("client_id", &self.config.google_client_id)
            .append_pair("redirect_uri", self.redirect_uri)
            .append_pair("response_type", "code")
            .append_pair("scope", "openid email profile")
            .append_pair("code_challenge", self.challenge)
            .append_pair("code_challenge_method", "S256")
            .append_pair("state", self.state);
        Ok(url.into())
    }
}

/// Google's answer to a code exchange; only the ID token matters to Porthole.
/// Its `Debug` shows no token (a [`Secret`]).
#[derive(Debug, Deserialize)]
pub struct GoogleTokens {
    pub id_token: Secret,
}

#[derive(Deserialize)]
struct GoogleError {
    error: String,
}

/// Trades the code the redirect carried (`POST {google_token_url}`). A refused code,
/// verifier or client (`invalid_grant`, `invalid_client`) is an `InputError::Invalid` on
/// `sign-in`; nothing is retried, since a code is single-use.
pub async fn exchange_code(
    config: &SignInConfig,
    code: &str,
    redirect_uri: &str,
    verifier: &Secret,
) -> Result<GoogleTokens> {
    let form = [
        ("code", code),
        ("client_id", config.google_client_id.as_str()),
        ("client_secret", config.google_client_secret.expose()),
        ("code_verifier", verifier.expose()),
        ("redirect_uri", redirect_uri),
        ("grant_type", "authorization_code"),
    ];
    post(
        endpoint(&config.google_token_url)?,
        Body::Form(&form),
        |body| {
            serde_json::from_str::<GoogleError>(body)
                .ok()
                .map(|e| e.error)
        },
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, InputError};

    fn config(authorize: &str) -> SignInConfig {
        SignInConfig {
            google_authorize_url: authorize.to_owned(),
            ..SignInConfig::google_and_firebase("cid.apps.googleusercontent.com", "cs", "key")
        }
    }

    #[test]
    fn the_authorize_url_is_googles_with_every_pkce_parameter() {
        let real = config(crate::signin_config::GOOGLE_AUTHORIZE_URL);
        let url = AuthorizeRequest {
            config: &real,
            redirect_uri: "http://127.0.0.1:5555",
            state: "st",
            challenge: "ch",
        }
        .url()
        .unwrap();
        let parsed = url::Url::parse(&url).unwrap();
        assert_eq!(parsed.host_str(), Some("accounts.google.com"));
        assert_eq!(parsed.path(), "/o/oauth2/v2/auth");
        let q: std::collections::HashMap<_, _> = parsed.query_pairs().into_owned().collect();
        assert_eq!(q["client_id"], "cid.apps.googleusercontent.com");
        assert_eq!(q["response_type"], "code");
        assert_eq!(q["scope"], "openid email profile");
        assert_eq!(q["code_challenge_method"], "S256");
        assert_eq!(q["code_challenge"], "ch");
        assert_eq!(q["state"], "st");
        assert_eq!(q["redirect_uri"], "http://127.0.0.1:5555");
        assert!(
            !url.contains("cs"),
            "the client secret stays out of the browser"
        );
        for cleartext in ["http://id.example.com/auth", "http://10.1.2.3:8080/auth"] {
            let refused = AuthorizeRequest {
                config: &config(cleartext),
                redirect_uri: "http://127.0.0.1:5555",
                state: "st",
                challenge: "ch",
            }
            .url()
            .unwrap_err();
            assert!(matches!(refused, Error::Input(InputError::PlainHttp)));
        }
    }
}
