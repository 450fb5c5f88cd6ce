//! The crate's one error type.
//!
//! Invariant: every failure the app may want to word differently has its own [`ErrorCode`]
//! (see `error_code.rs`), so the app never matches message text. Errors from the service keep
//! the status, the documented code, the message, the extra fields and the raw body.

use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use crate::error_code::{ErrorCode, Operation};
use crate::machines::MachineChoice;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The service answered with an error status.
    #[error("{0}")]
    Api(Box<ApiError>),
    /// The service could not be reached, or the connection broke. Printed without the
    /// request's address: it holds what the person typed as the service address.
    #[error("could not reach the service: {}", network_text(.0))]
    Network(#[source] reqwest::Error),
    /// The service answered something this client cannot read.
    #[error("the service sent a response that could not be read ({reason})")]
    BadResponse { reason: String, body: RawBody },
    /// The caller passed something invalid; nothing was sent.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The client's own hourly budget for this kind of call is spent; nothing was sent.
    #[error("too many {limit} requests this hour; try again in {} s", retry_after.as_secs())]
    BudgetSpent {
        limit: crate::budget::Limit,
        retry_after: Duration,
    },
    /// The service did not take a message: every send allowed got no answer and the
    /// conversation did not hold it afterwards, or a send again was refused (`last`). Nothing
    /// started: keep the words and offer to send them again.
    #[error("the message was not sent ({sends} tries): {last}")]
    NotSent { sends: u32, last: Box<Error> },
    /// A task's event stream ended before `[DONE]`.
    #[error("the connection to the task broke before it finished")]
    StreamCut,
    /// The service took a message, but its updates were lost (`cut`) before the follower
    /// learned which session the task runs in, and nothing known names it: the follow ends
    /// here. The agent may still be working; the conversation's history shows what it did.
    #[error("the task's updates were lost before it said where it runs: {cut}")]
    UpdatesLost { cut: Box<Error> },
    /// A wait (for a turn, a lease, an upload) took longer than allowed.
    #[error("gave up waiting for {what}")]
    TimedOut { what: &'static str },
    /// A lease that this handle refers to has closed.
    #[error("the direct-control session has ended ({reason})")]
    LeaseClosed {
        reason: crate::control::ClosedReason,
    },
}

/// What went wrong on the way, without the URL reqwest's own text carries: the kind, then the
/// causes (connection refused, DNS, TLS), which never hold the address.
fn network_text(err: &reqwest::Error) -> String {
    let mut text = String::from(if err.is_timeout() {
        "timed out"
    } else if err.is_connect() {
        "could not connect"
    } else if err.is_body() || err.is_decode() {
        "the answer broke off"
    } else {
        "the request failed"
    });
    let mut cause = std::error::Error::source(err);
    while let Some(inner) = cause {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        cause = inner.source();
    }
    text
}

/// Bad input caught before anything was sent.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum InputError {
    /// Says why, never what was typed: a key pasted into the address field would otherwise
    /// reach the log with the error.
    #[error("the service address is not a web address: {reason}")]
    BaseUrl { reason: String },
    /// Plain `http://` to another computer: the key or token would cross the network
    /// readable (see `address`).
    #[error("plain http:// is only for addresses on this computer; this one needs https://")]
    PlainHttp,
    #[error("{reason}")]
    Credential { reason: String },
    #[error("the file is empty")]
    EmptyFile,
    #[error("the file is {size} bytes; the limit is {limit} bytes")]
    FileTooLarge { size: u64, limit: u64 },
    #[error("{field}: {reason}")]
    Invalid { field: &'static str, reason: String },
}

/// An error answer from the service.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{operation} failed with HTTP {status}: {}", self.message())]
pub struct ApiError {
    pub operation: Operation,
    pub status: u16,
    /// What the app acts on.
    pub code: ErrorCode,
    /// The body's `error` field: a code or a message.
    pub error: Option<String>,
    /// The body's `message` field.
    pub detail: Option<String>,
    pub extra: ErrorExtra,
    /// `Retry-After`, when the service sent one.
    pub retry_after: Option<Duration>,
    /// The body exactly as received.
    pub body: RawBody,
}

/// A response body as received. Its `Debug` shows only the length: a body that failed to
/// decode can hold a secret (a new key, a live-view address with its token), and errors are
/// printed with `{:?}` in panics and logs.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct RawBody(String);

impl RawBody {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for RawBody {
    fn from(body: String) -> Self {
        Self(body)
    }
}

impl std::fmt::Debug for RawBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{} bytes>", self.0.len())
    }
}

impl ApiError {
    /// The most specific human text the service gave.
    pub fn message(&self) -> &str {
        self.detail
            .as_deref()
            .or(self.error.as_deref())
            .unwrap_or("no details")
    }
}

/// Extra fields some error bodies carry.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ErrorExtra {
    #[serde(default)]
    pub details: Option<serde_json::Value>,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub create_url: Option<String>,
    #[serde(default)]
    pub allowed_models: Option<Vec<String>>,
    #[serde(default)]
    pub machines: Option<Vec<MachineChoice>>,
    #[serde(default)]
    pub resets_at: Option<serde_json::Value>,
}

/// Both body shapes: `{ error }` and `{ error, message }`, plus extras.
#[derive(Deserialize)]
struct ErrorBody {
    #[serde(default)]
    error: Option<serde_json::Value>,
    #[serde(default)]
    message: Option<String>,
    #[serde(flatten)]
    extra: ErrorExtra,
}

impl ApiError {
    pub(crate) fn from_response(
        operation: Operation,
        status: u16,
        retry_after: Option<Duration>,
        body: String,
    ) -> Self {
        let parsed: Option<ErrorBody> = serde_json::from_str(&body).ok();
        let (error, detail, extra) = match parsed {
            Some(parsed) => {
                let error = parsed.error.map(|value| match value {
                    serde_json::Value::String(text) => text,
                    other => other.to_string(),
                });
                (error, parsed.message, parsed.extra)
            }
            // A non-JSON error body (a proxy page, plain text) still tells something.
            None => {
                let text = body.trim();
                let error = (!text.is_empty()).then(|| text.chars().take(500).collect());
                (error, None, ErrorExtra::default())
            }
        };
        let code = ErrorCode::classify(
            operation,
            status,
            error.as_deref(),
            detail.as_deref(),
            &extra,
            retry_after,
        );
        Self {
            operation,
            status,
            code,
            error,
            detail,
            extra,
            retry_after,
            body: body.into(),
        }
    }
}

impl From<ApiError> for Error {
    fn from(error: ApiError) -> Self {
        Self::Api(Box::new(error))
    }
}

impl Error {
    /// What the app should act on; every variant maps to one code.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::Api(api) => api.code.clone(),
            Self::Network(err) if err.is_timeout() => ErrorCode::NetworkTimeout,
            Self::Network(_) => ErrorCode::Network,
            Self::BadResponse { .. } => ErrorCode::BadResponse,
            Self::StreamCut => ErrorCode::Network,
            Self::NotSent { .. } => ErrorCode::MessageNotSent,
            Self::UpdatesLost { .. } => ErrorCode::UpdatesLost,
            Self::Input(InputError::BaseUrl { .. }) => ErrorCode::InvalidBaseUrl,
            Self::Input(InputError::PlainHttp) => ErrorCode::InsecureAddress,
            Self::Input(InputError::Credential { .. }) => ErrorCode::InvalidCredential,
            Self::Input(InputError::EmptyFile) => ErrorCode::EmptyFile,
            Self::Input(InputError::FileTooLarge { .. }) => ErrorCode::FileTooLarge,
            Self::Input(InputError::Invalid { .. }) => ErrorCode::InvalidInput,
            Self::BudgetSpent { retry_after, .. } => ErrorCode::RateLimited {
                retry_after_ms: Some(retry_after.as_millis() as u64),
            },
            Self::TimedOut { .. } => ErrorCode::TimedOut,
            Self::LeaseClosed { reason } => ErrorCode::ControlClosed {
                reason: reason.clone(),
            },
        }
    }

    /// The service's answer, when this error is one.
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            Self::Api(api) => Some(api),
            _ => None,
        }
    }

    /// When to try again, if the service or the budget said.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Api(api) => api.retry_after,
            Self::BudgetSpent { retry_after, .. } => Some(*retry_after),
            Self::NotSent { last, .. } => last.retry_after(),
            _ => None,
        }
    }

    pub(crate) fn bad_response(reason: impl std::fmt::Display, body: &[u8]) -> Self {
        Self::BadResponse {
            reason: reason.to_string(),
            body: String::from_utf8_lossy(&body[..body.len().min(2000)])
                .into_owned()
                .into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Client, Credential};

    #[test]
    fn raw_bodies_are_left_out_of_debug() {
        let api = ApiError::from_response(
            Operation::Live,
            500,
            None,
            r#"{"error":"x","websocketUrl":"wss://h/?token=lv_secret"}"#.into(),
        );
        assert!(api.body.as_str().contains("lv_secret"), "still kept");
        let printed = format!("{api:?} {:?}", Error::from(api.clone()));
        assert!(!printed.contains("lv_secret"), "{printed}");

        let bad = Error::bad_response("missing field `width`", br#"{"key":"sapi_new_key"}"#);
        let printed = format!("{bad:?} {bad}");
        assert!(!printed.contains("sapi_new_key"), "{printed}");
        assert!(printed.contains("22 bytes"), "{printed}");
    }

    #[tokio::test]
    async fn an_unreachable_address_is_not_repeated_in_the_error() {
        // A port nothing listens on: bound, then released.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = closed.local_addr().unwrap().port();
        drop(closed);
        let config = crate::ClientConfig {
            max_retries: 0,
            ..crate::ClientConfig::default()
        };
        let typed = format!("http://127.0.0.1:{port}/sapi_pasted_by_mistake");
        let client =
            Client::with_config(&typed, Credential::api_key("k").unwrap(), config).unwrap();
        let err = client.auth().check().await.unwrap_err();
        assert_eq!(err.code(), ErrorCode::Network);
        let printed = err.to_string();
        assert!(!printed.contains("sapi_pasted"), "{printed}");
        assert!(
            printed.starts_with("could not reach the service: could not connect"),
            "{printed}"
        );
    }

    #[test]
    fn what_was_typed_as_an_address_is_never_printed() {
        for typed in [
            "sapi_pasted_by_mistake",
            "http://127.0.0.1/?k=sapi_pasted_by_mistake",
        ] {
            let key = Credential::api_key("k").unwrap();
            let err = Client::new(typed, key).unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidBaseUrl);
            let printed = format!("{err} {err:?}");
            assert!(!printed.contains("sapi_pasted"), "{printed}");
        }
    }
}
