//! Browser sign-in with the identity provider: OAuth 2.0 authorization code with PKCE
//! (RFC 7636, `S256`) and a loopback redirect (RFC 8252).
//!
//! The app opens [`AuthorizeRequest::url`] in the system browser, catches the redirect on
//! `127.0.0.1`, checks `state`, then calls [`exchange_code`] with the verifier. The issuer is
//! configurable; the simulator plays it at its own base address.
//!
//! Invariant: the verifier and the ID token are [`Secret`]s; neither is printed or logged.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::credential::Secret;
use crate::error::{ApiError, Error, InputError, Operation, Result};

/// The app's OAuth client id at the identity provider.
pub const CLIENT_ID: &str = "porthole";

/// A PKCE pair: the verifier stays in the app, the challenge goes to the browser.
pub struct Pkce {
    verifier: Secret,
    challenge: String,
}

impl Pkce {
    /// A fresh verifier of 32 random bytes (43 characters, within RFC 7636's 43..=128).
    pub fn generate() -> Self {
        Self::from_verifier(&random_url_safe(32))
    }

    /// The pair for a given verifier (tests use RFC 7636's own example).
    pub fn from_verifier(verifier: &str) -> Self {
        Self {
            challenge: challenge_s256(verifier),
            verifier: Secret::new(verifier),
        }
    }

    pub fn challenge(&self) -> &str {
        &self.challenge
    }

    pub fn verifier(&self) -> &Secret {
        &self.verifier
    }
}

/// `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))`, without padding.
pub fn challenge_s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// An unguessable URL-safe string of `bytes` random bytes (for `state` and verifiers).
pub fn random_url_safe(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    URL_SAFE_NO_PAD.encode(buf)
}

/// What the browser is sent to.
pub struct AuthorizeRequest<'a> {
    pub issuer: &'a str,
    pub redirect_uri: &'a str,
    pub state: &'a str,
    pub challenge: &'a str,
}

impl AuthorizeRequest<'_> {
    pub fn url(&self) -> Result<String> {
        let mut url = endpoint(self.issuer, "oauth/authorize")?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", CLIENT_ID)
            .append_pair("redirect_uri", self.redirect_uri)
            .append_pair("state", self.state)
            .append_pair("code_challenge", self.challenge)
            .append_pair("code_challenge_method", "S256");
        Ok(url.into())
    }
}

/// The identity provider's answer to a code exchange or a refresh.
#[derive(Debug, Deserialize)]
pub struct SignedIn {
    pub id_token: Secret,
    /// Seconds the token lives (a number, or a string of digits as Firebase sends it).
    #[serde(default, deserialize_with = "seconds")]
    pub expires_in: Option<u64>,
    /// Gets a new ID token when this one expires ([`refresh`]); not every provider gives one.
    #[serde(default)]
    pub refresh_token: Option<Secret>,
}

fn seconds<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<u64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Seconds {
        Number(u64),
        Text(String),
    }
    Ok(match Option::<Seconds>::deserialize(d)? {
        Some(Seconds::Number(n)) => Some(n),
        Some(Seconds::Text(t)) => t.trim().parse().ok(),
        None => None,
    })
}

#[derive(Deserialize)]
struct TokenError {
    error: String,
}

/// Trades the code the redirect carried for an ID token (`POST {issuer}/oauth/token`).
/// A refused code or verifier (`invalid_grant`, ...) is an [`InputError::Invalid`] on
/// `sign-in`; nothing is retried, since a code is single-use.
pub async fn exchange_code(
    issuer: &str,
    code: &str,
    redirect_uri: &str,
    verifier: &Secret,
) -> Result<SignedIn> {
    post_token(
        issuer,
        &[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("code_verifier", verifier.expose()),
            ("client_id", CLIENT_ID),
        ],
    )
    .await
}

/// Trades a refresh token for a new ID token (`grant_type=refresh_token`). A refresh token
/// the provider no longer takes is an [`InputError::Invalid`] on `sign-in`: the person must
/// sign in again. The answer may carry a new refresh token, to keep instead of the old one.
pub async fn refresh(issuer: &str, refresh_token: &Secret) -> Result<SignedIn> {
    post_token(
        issuer,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token.expose()),
            ("client_id", CLIENT_ID),
        ],
    )
    .await
}

async fn post_token(issuer: &str, form: &[(&str, &str)]) -> Result<SignedIn> {
    let url = endpoint(issuer, "oauth/token")?;
    // No redirects: a 307 would post the code, the verifier or the refresh token elsewhere.
    let http = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(30))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(Error::Network)?;
    let body = form
        .iter()
        .map(|(k, v)| format!("{k}={}", percent_encoding::utf8_percent_encode(v, FORM)))
        .collect::<Vec<_>>()
        .join("&");
    let response = http
        .post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .map_err(Error::Network)?;
    let status = response.status();
    let text = response.text().await.map_err(Error::Network)?;
    if status.is_success() {
        // The body holds the tokens: it is never kept in the error.
        return serde_json::from_str(&text).map_err(|e| Error::BadResponse {
            reason: format!("sign-in answer: {e}"),
            body: Default::default(),
        });
    }
    if status.is_server_error() {
        return Err(ApiError::from_response(
            Operation::SignIn,
            status.as_u16(),
            None,
            String::new(),
        )
        .into());
    }
    let reason = serde_json::from_str::<TokenError>(&text)
        .map(|e| e.error)
        .unwrap_or_else(|_| format!("HTTP {status}"));
    Err(InputError::Invalid {
        field: "sign-in",
        reason,
    }
    .into())
}

/// Everything but unreserved characters, as form bodies need.
const FORM: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

fn endpoint(issuer: &str, path: &str) -> Result<url::Url> {
    let base = crate::address::check(&format!("{}/", issuer.trim().trim_end_matches('/')))?;
    base.join(path).map_err(|e| {
        InputError::BaseUrl {
            reason: e.to_string(),
        }
        .into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_matches_rfc_7636_appendix_b() {
        let pkce = Pkce::from_verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        assert_eq!(
            pkce.challenge(),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn generated_verifiers_are_long_enough_unreserved_and_fresh() {
        let a = Pkce::generate();
        let b = Pkce::generate();
        let v = a.verifier().expose();
        assert!((43..=128).contains(&v.len()), "{}", v.len());
        assert!(v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c)));
        assert_ne!(v, b.verifier().expose());
        assert_eq!(a.challenge(), challenge_s256(v));
        assert!(!format!("{:?}", a.verifier()).contains(v));
    }

    #[test]
    fn sign_in_answers_read_as_providers_send_them() {
        let firebase: SignedIn = serde_json::from_str(
            r#"{"id_token":"a.b.c","expires_in":"3600","refresh_token":"rt"}"#,
        )
        .unwrap();
        assert_eq!(firebase.expires_in, Some(3600));
        assert_eq!(firebase.refresh_token.unwrap().expose(), "rt");
        let bare: SignedIn = serde_json::from_str(r#"{"id_token":"a.b.c"}"#).unwrap();
        assert!(bare.expires_in.is_none() && bare.refresh_token.is_none());
    }

    /// The person's part in the browser: chooses `account` on the simulator's sign-in page;
    /// returns the code its redirect carries.
    async fn code_from_simulator(issuer: &str, redirect_uri: &str, pkce: &Pkce) -> String {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let chosen = http
            .post(format!("{issuer}/oauth/authorize"))
            .form(&[
                ("account", "ada"),
                ("client_id", CLIENT_ID),
                ("redirect_uri", redirect_uri),
                ("state", "st"),
                ("code_challenge", pkce.challenge()),
                ("code_challenge_method", "S256"),
            ])
            .send()
            .await
            .unwrap();
        let back = url::Url::parse(chosen.headers()["location"].to_str().unwrap()).unwrap();
        let code = back.query_pairs().find(|(k, _)| k == "code").unwrap().1;
        code.into_owned()
    }

    #[tokio::test]
    async fn a_refresh_token_from_the_simulator_gets_a_new_working_id_token() {
        let sim = porthole_sim::Sim::start(porthole_sim::Config {
            time_scale: 0.01,
            ..porthole_sim::Config::default()
        })
        .await
        .unwrap();
        let issuer = sim.base_url.clone();
        let redirect_uri = "http://127.0.0.1:9/callback";
        let pkce = Pkce::generate();
        let code = code_from_simulator(&issuer, redirect_uri, &pkce).await;
        let signed_in = exchange_code(&issuer, &code, redirect_uri, pkce.verifier())
            .await
            .unwrap();
        assert_eq!(signed_in.expires_in, Some(36), "a scaled hour");
        let refresh_token = signed_in.refresh_token.expect("a refresh token");

        let renewed = refresh(&issuer, &refresh_token).await.unwrap();
        assert_ne!(renewed.id_token, signed_in.id_token);
        let client =
            crate::Client::new(&issuer, crate::Credential::IdToken(renewed.id_token)).unwrap();
        let check = client.auth().check().await.unwrap();
        assert_eq!(check.auth_type, crate::auth::AuthType::Idp);

        let refused = refresh(&issuer, &Secret::new("rt_unknown"))
            .await
            .unwrap_err();
        assert!(
            matches!(&refused, Error::Input(InputError::Invalid { reason, .. }) if reason == "invalid_grant"),
            "{refused:?}"
        );
    }

    #[test]
    fn authorize_url_carries_every_pkce_parameter() {
        let url = AuthorizeRequest {
            issuer: "http://127.0.0.1:9/",
            redirect_uri: "http://127.0.0.1:5555/callback",
            state: "st",
            challenge: "ch",
        }
        .url()
        .unwrap();
        let parsed = url::Url::parse(&url).unwrap();
        assert_eq!(parsed.path(), "/oauth/authorize");
        let q: std::collections::HashMap<_, _> = parsed.query_pairs().into_owned().collect();
        assert_eq!(q["response_type"], "code");
        assert_eq!(q["code_challenge_method"], "S256");
        assert_eq!(q["code_challenge"], "ch");
        assert_eq!(q["state"], "st");
        assert_eq!(q["redirect_uri"], "http://127.0.0.1:5555/callback");
        for issuer in ["http://id.example.com", "http://10.1.2.3:8080"] {
            let cleartext = AuthorizeRequest {
                issuer,
                redirect_uri: "http://127.0.0.1:5555/callback",
                state: "st",
                challenge: "ch",
            }
            .url()
            .unwrap_err();
            assert!(matches!(cleartext, Error::Input(InputError::PlainHttp)));
        }
        assert!(AuthorizeRequest {
            issuer: "not a url",
            redirect_uri: "",
            state: "",
            challenge: ""
        }
        .url()
        .is_err());
    }
}
