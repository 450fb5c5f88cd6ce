//! The pieces the browser sign-in shares: PKCE (RFC 7636, `S256`) and the one way its
//! tokens are posted (no redirects followed, answers never kept in errors).
//!
//! The flow itself is [`crate::google`] (the browser's leg) then [`crate::firebase`] (the
//! Firebase ID token the service takes), at the addresses of a [`crate::SignInConfig`].
//!
//! Hand-written rather than the `oauth2` crate: the Google leg is one URL and one form post,
//! the Firebase leg is not OAuth at all, and `oauth2` would bring its own HTTP client
//! plumbing and token types for less code than it replaces.
//!
//! Invariant: verifiers, codes and tokens are [`Secret`]s or never leave these modules;
//! none is printed or logged.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::credential::Secret;
use crate::error::{ApiError, Error, InputError, Operation, Result};

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

/// Seconds a token lives: a number (Google) or a string of digits (Firebase).
pub(crate) fn seconds<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<u64>, D::Error> {
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

/// A body to post: a form (Google's token endpoint, Secure Token) or JSON (Identity Toolkit).
pub(crate) enum Body<'a> {
    Form(&'a [(&'a str, &'a str)]),
    Json(serde_json::Value),
}

/// Posts `body` to `url` and reads the answer as `T`. A refusal (4xx) is an
/// [`InputError::Invalid`] on `sign-in` whose reason is `refusal(body)` (the provider's
/// error code, never the body itself); a server error is an [`ApiError`] on `SignIn`.
pub(crate) async fn post<T: DeserializeOwned>(
    url: url::Url,
    body: Body<'_>,
    refusal: fn(&str) -> Option<String>,
) -> Result<T> {
    // No redirects: a 307 would post the code, the verifier or a token elsewhere.
    let http = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(30))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(Error::Network)?;
    let request = match body {
        Body::Form(form) => http
            .post(url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(
                form.iter()
                    .map(|(k, v)| format!("{k}={}", percent_encoding::utf8_percent_encode(v, FORM)))
                    .collect::<Vec<_>>()
                    .join("&"),
            ),
        Body::Json(json) => http.post(url).json(&json),
    };
    let response = request.send().await.map_err(Error::Network)?;
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
    let reason = refusal(&text).unwrap_or_else(|| format!("HTTP {status}"));
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

/// `address` as a checked URL (https, or http on loopback), ready to have a path set.
pub(crate) fn endpoint(address: &str) -> Result<url::Url> {
    crate::address::check(address.trim())
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
}
