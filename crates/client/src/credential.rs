//! Credentials and the secret wrapper that holds them.
//!
//! Invariant: a secret is never printed, logged or serialized by accident. [`Secret`] has no
//! `Serialize`, its `Debug` and `Display` print `<redacted>`, and the only way to read it is
//! the explicitly named [`Secret::expose`].

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::error::{Error, InputError};

/// A secret string (API key, ID token). Cannot be printed or serialized.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Arc<str>);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(Arc::from(value.into()))
    }

    /// The secret itself; call only where it leaves the process on purpose.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Secrets arrive from the service (a created key) but never go back out as JSON.
impl<'de> serde::Deserialize<'de> for Secret {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Secret::new)
    }
}

/// Future returned by a [`TokenSource`].
pub type TokenFuture<'a> = Pin<Box<dyn Future<Output = Result<Secret, Error>> + Send + 'a>>;

/// Supplies a current identity-provider ID token, refreshing it when needed. The app
/// implements this over its sign-in; the client asks for a token before every request.
pub trait TokenSource: Send + Sync {
    fn token(&self) -> TokenFuture<'_>;
}

/// How the client authenticates. Both kinds go out as `Authorization: Bearer ...`.
#[derive(Clone)]
pub enum Credential {
    /// An API key.
    ApiKey(Secret),
    /// A fixed identity-provider ID token (for example one pasted by the user).
    IdToken(Secret),
    /// Identity-provider tokens fetched on demand.
    IdTokenSource(Arc<dyn TokenSource>),
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ApiKey(_) => f.write_str("ApiKey(<redacted>)"),
            Self::IdToken(_) => f.write_str("IdToken(<redacted>)"),
            Self::IdTokenSource(_) => f.write_str("IdTokenSource"),
        }
    }
}

impl Credential {
    /// An API key as typed or pasted: surrounding whitespace and quotes are dropped
    /// ([`cleaned`]); an empty key or one with whitespace or control characters inside is
    /// refused.
    pub fn api_key(raw: &str) -> Result<Self, Error> {
        check_token(raw, "API key").map(Self::ApiKey)
    }

    /// A fixed ID token, checked like an API key.
    pub fn id_token(raw: &str) -> Result<Self, Error> {
        check_token(raw, "sign-in token").map(Self::IdToken)
    }

    /// Whether this credential is an identity-provider session (required for key
    /// management and machine creation).
    pub fn is_identity_session(&self) -> bool {
        !matches!(self, Self::ApiKey(_))
    }

    pub(crate) async fn bearer(&self) -> Result<Secret, Error> {
        match self {
            Self::ApiKey(secret) | Self::IdToken(secret) => Ok(secret.clone()),
            Self::IdTokenSource(source) => {
                let token = source.token().await?;
                check_token(token.expose(), "sign-in token")
            }
        }
    }
}

/// Quotes a key is often pasted with (from a shell line, a chat, a word processor).
const QUOTES: &[char] = &[
    '"', '\'', '`', '\u{201c}', '\u{201d}', '\u{2018}', '\u{2019}', '\u{ab}', '\u{bb}',
];

/// A pasted key or token without what a paste adds around it: spaces, line breaks and
/// quotes (in any order, any number). A key never starts or ends with one of those.
pub fn cleaned(raw: &str) -> &str {
    raw.trim_matches(|c: char| c.is_whitespace() || QUOTES.contains(&c))
}

fn check_token(raw: &str, what: &'static str) -> Result<Secret, Error> {
    let trimmed = cleaned(raw);
    if trimmed.is_empty() {
        return Err(InputError::Credential {
            reason: format!("the {what} is empty"),
        }
        .into());
    }
    if trimmed
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || !c.is_ascii())
    {
        return Err(InputError::Credential {
            reason: format!("the {what} contains spaces or characters a key never has"),
        }
        .into());
    }
    Ok(Secret::new(trimmed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_trimmed_and_never_printed() {
        let credential = Credential::api_key("  sk_live_abc\n").unwrap();
        let Credential::ApiKey(secret) = &credential else {
            panic!("expected an API key");
        };
        assert_eq!(secret.expose(), "sk_live_abc");
        assert!(!format!("{credential:?}").contains("abc"));
        assert_eq!(format!("{secret:?} {secret}"), "<redacted> <redacted>");
    }

    #[test]
    fn a_pasted_key_with_spaces_line_breaks_or_quotes_around_it_is_cleaned() {
        for pasted in [
            "sapi_abc",
            "  sapi_abc \r\n",
            "\"sapi_abc\"",
            "'sapi_abc'\n",
            " \u{201c}sapi_abc\u{201d} ",
            "`sapi_abc`",
            "\n\t\"sapi_abc\n\"",
        ] {
            let Credential::ApiKey(secret) = Credential::api_key(pasted).unwrap() else {
                panic!("expected an API key");
            };
            assert_eq!(secret.expose(), "sapi_abc", "{pasted:?}");
        }
        assert!(
            Credential::api_key(" \"\" ").is_err(),
            "only quotes is no key"
        );
    }

    #[test]
    fn empty_or_broken_keys_are_refused() {
        assert!(Credential::api_key("   ").is_err());
        assert!(Credential::api_key("sk_a b").is_err());
        assert!(Credential::api_key("sk_\u{7f}").is_err());
    }
}
