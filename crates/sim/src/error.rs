//! The one error answer of every endpoint. The spec has two body shapes, `{ error }` (a code
//! or a sentence) and `{ error, message }`, and some bodies add fields (`details`, `reason`,
//! `createUrl`, `allowedModels`, `machines`, `resetsAt`); 429s and some 409/503s carry
//! `Retry-After`.

use crate::limits::RetryAfter;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};

/// An HTTP error answer in the spec's shape.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    body: Map<String, Value>,
    retry_after: Option<u64>,
}

impl ApiError {
    /// `{ error }` where the string is a code or a sentence.
    pub fn new(status: StatusCode, error: impl Into<String>) -> Self {
        let mut body = Map::new();
        body.insert("error".into(), Value::String(error.into()));
        Self {
            status,
            body,
            retry_after: None,
        }
    }

    /// `{ error: <code>, message }`.
    pub fn coded(status: StatusCode, code: &str, message: impl Into<String>) -> Self {
        Self::new(status, code).with("message", message.into())
    }

    /// Adds a field to the body.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.body.insert(key.to_owned(), value.into());
        self
    }

    /// Adds a `Retry-After` header (whole seconds).
    pub fn retry_after(mut self, secs: u64) -> Self {
        self.retry_after = Some(secs.max(1));
        self
    }

    /// A 429 with the given body string and the limit's `Retry-After`.
    pub fn rate_limited(error: impl Into<String>, wait: RetryAfter) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, error).retry_after(wait.0)
    }

    /// 400 for a body that is not the JSON the endpoint takes.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn unauthorized() -> Self {
        Self::coded(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "Sign in or use a valid API key.",
        )
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::coded(StatusCode::INTERNAL_SERVER_ERROR, "internal_error", message)
    }

    /// The `error` string of the body.
    pub fn error(&self) -> &str {
        self.body.get("error").and_then(Value::as_str).unwrap_or("")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = (self.status, axum::Json(Value::Object(self.body))).into_response();
        if let Some(secs) = self.retry_after {
            if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
                res.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        res
    }
}
