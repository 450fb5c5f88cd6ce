//! The one layer that sends requests: budget, credential, retries, error mapping.
//!
//! Retry rules:
//! - Every attempt rebuilds the request from a [`Call`], so nothing half-consumed is resent.
//! - A refused request (`429`, or a connection that never opened) did no work, so it is
//!   retried whatever it is, after `Retry-After` when given (if within `max_wait`).
//! - `5xx` answers and broken connections are retried only for [`Retry::Idempotent`] calls
//!   (GETs, DELETEs, learn and judge with an `idempotency_key`), with jittered exponential
//!   backoff. A POST that starts work ([`Retry::RefusedOnly`]) is never resent blindly.

use std::time::Duration;

use bytes::Bytes;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC};
use rand::Rng;
use reqwest::{header, Method, Response, StatusCode};
use serde::de::DeserializeOwned;

use crate::budget::Limit;
use crate::client::Client;
use crate::error::{ApiError, Error, Operation};

pub(crate) const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'~');

/// Whether a call may be sent again when the outcome is unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Retry {
    Idempotent,
    RefusedOnly,
}

impl Retry {
    /// Work-starting calls that carry an `idempotency_key` (learn, judge) may be sent again:
    /// the service answers a repeat with the earlier result instead of charging twice.
    pub(crate) fn by_idempotency_key(key: Option<&str>) -> Self {
        if key.is_some() {
            Retry::Idempotent
        } else {
            Retry::RefusedOnly
        }
    }
}

pub(crate) enum Payload {
    None,
    Json(Bytes),
    /// Built fresh for each attempt (streams cannot be replayed).
    Body(Box<dyn Fn() -> reqwest::Body + Send + Sync>),
}

/// Everything needed to build one request, as often as attempts need.
pub(crate) struct Call {
    pub op: Operation,
    pub method: Method,
    pub path: String,
    pub query: Vec<(&'static str, String)>,
    pub headers: Vec<(&'static str, String)>,
    pub payload: Payload,
    pub limit: Option<Limit>,
    pub retry: Retry,
    /// `None`: the client's `request_timeout`.
    pub timeout: Option<Duration>,
    /// No overall timeout at all (event streams, which stay open while an approval waits).
    pub streaming: bool,
    /// Whether a `429` with a short `Retry-After` is waited out and resent. Off where the
    /// wait is a state to show (a computer being created), not a rate.
    pub wait_on_429: bool,
}

impl Call {
    pub(crate) fn new(op: Operation, method: Method, path: impl Into<String>) -> Self {
        let retry = if method == Method::GET || method == Method::DELETE {
            Retry::Idempotent
        } else {
            Retry::RefusedOnly
        };
        Self {
            op,
            method,
            path: path.into(),
            query: Vec::new(),
            headers: Vec::new(),
            payload: Payload::None,
            limit: None,
            retry,
            timeout: None,
            streaming: false,
            wait_on_429: true,
        }
    }

    pub(crate) fn get(op: Operation, path: impl Into<String>) -> Self {
        Self::new(op, Method::GET, path)
    }

    pub(crate) fn post(op: Operation, path: impl Into<String>) -> Self {
        Self::new(op, Method::POST, path)
    }

    pub(crate) fn json(mut self, body: &impl serde::Serialize) -> Result<Self, Error> {
        let bytes = serde_json::to_vec(body).map_err(|e| crate::error::InputError::Invalid {
            field: "body",
            reason: e.to_string(),
        })?;
        self.payload = Payload::Json(bytes.into());
        Ok(self)
    }

    pub(crate) fn limit(mut self, limit: Limit) -> Self {
        self.limit = Some(limit);
        self
    }

    pub(crate) fn retry(mut self, retry: Retry) -> Self {
        self.retry = retry;
        self
    }

    pub(crate) fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    pub(crate) fn streaming(mut self) -> Self {
        self.streaming = true;
        self
    }

    pub(crate) fn query(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.query.push((name, value.into()));
        self
    }
}

impl Client {
    /// Sends `call`, retrying as the module doc says; returns a successful response.
    pub(crate) async fn send(&self, call: Call) -> Result<Response, Error> {
        let config = &self.inner.config;
        let mut attempt = 0u32;
        loop {
            if let Some(limit) = call.limit {
                self.inner.budgets.take(limit).await?;
            }
            let request = self.build(&call).await?;
            let outcome = request.send().await;
            let retries_left = attempt < config.max_retries;
            let backoff = self.backoff(attempt);
            attempt += 1;
            let response = match outcome {
                Ok(response) => response,
                Err(err) => {
                    let refused = err.is_connect();
                    if refused {
                        if let Some(limit) = call.limit {
                            self.inner.budgets.refund(limit);
                        }
                    }
                    if retries_left && (refused || call.retry == Retry::Idempotent) {
                        tracing::debug!(op = %call.op, error = %err, "retrying after network error");
                        tokio::time::sleep(backoff).await;
                        continue;
                    }
                    return Err(Error::Network(err));
                }
            };
            let status = response.status();
            if status.is_success() {
                return Ok(response);
            }
            let retry_after = retry_after(&response);
            let may_retry = retries_left
                && match status {
                    StatusCode::TOO_MANY_REQUESTS if call.wait_on_429 => {
                        retry_after.is_some_and(|wait| wait <= config.max_wait)
                            || (call.retry == Retry::Idempotent && retry_after.is_none())
                    }
                    s if s.is_server_error() => call.retry == Retry::Idempotent,
                    _ => false,
                };
            if may_retry {
                let wait = retry_after.unwrap_or(backoff).min(config.max_wait);
                tracing::debug!(op = %call.op, %status, ?wait, "retrying");
                tokio::time::sleep(wait).await;
                continue;
            }
            let body = response.text().await.unwrap_or_default();
            return Err(
                ApiError::from_response(call.op, status.as_u16(), retry_after, body).into(),
            );
        }
    }

    async fn build(&self, call: &Call) -> Result<reqwest::RequestBuilder, Error> {
        let bearer = self.credential.bearer().await?;
        let mut request = self
            .inner
            .http
            .request(call.method.clone(), self.url(&call.path))
            .header(header::AUTHORIZATION, format!("Bearer {}", bearer.expose()))
            // The stream asks for what it reads, as the makers' client does: a service that
            // chooses by `Accept` would otherwise answer JSON.
            .header(
                header::ACCEPT,
                if call.streaming {
                    "text/event-stream"
                } else {
                    "application/json"
                },
            );
        if !call.query.is_empty() {
            request = request.query(&call.query);
        }
        if let Some(tag) = &self.inner.config.version_tag {
            request = request.header("x-sai-version", tag);
        }
        for (name, value) in &call.headers {
            request = request.header(*name, value);
        }
        if !call.streaming {
            request = request.timeout(call.timeout.unwrap_or(self.inner.config.request_timeout));
        }
        request = match &call.payload {
            Payload::None => request,
            Payload::Json(bytes) => request
                .header(header::CONTENT_TYPE, "application/json")
                .body(bytes.clone()),
            Payload::Body(make) => request.body(make()),
        };
        Ok(request)
    }

    fn backoff(&self, attempt: u32) -> Duration {
        let base = self.inner.config.backoff;
        let step = base.saturating_mul(1 << attempt.min(6));
        // Full jitter between half and all of the step, so clients do not retry in lockstep.
        let factor = rand::rng().random_range(0.5..=1.0);
        step.mul_f64(factor).min(Duration::from_secs(30))
    }

    /// Sends and decodes a JSON answer.
    pub(crate) async fn call<T: DeserializeOwned>(&self, call: Call) -> Result<T, Error> {
        let response = self.send(call).await?;
        decode(response).await
    }

    /// Sends and decodes a JSON answer, reading a blank 2xx body as `{}`: the makers' own client
    /// does so on approve, wake, new-session and abort, so the service may answer them blank.
    /// Only for calls whose answer type reads `{}` (every field defaulted).
    pub(crate) async fn call_blank_ok<T: DeserializeOwned>(&self, call: Call) -> Result<T, Error> {
        let response = self.send(call).await?;
        let bytes = response.bytes().await.map_err(Error::Network)?;
        let body: &[u8] = if bytes.trim_ascii().is_empty() {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(body).map_err(|e| Error::bad_response(e, &bytes))
    }

    /// Sends and ignores the answer's body.
    pub(crate) async fn call_empty(&self, call: Call) -> Result<(), Error> {
        self.send(call).await.map(drop)
    }
}

/// Reads a whole JSON body; a malformed one is a typed error, never a panic.
pub(crate) async fn decode<T: DeserializeOwned>(response: Response) -> Result<T, Error> {
    let bytes = response.bytes().await.map_err(Error::Network)?;
    serde_json::from_slice(&bytes).map_err(|e| Error::bad_response(e, &bytes))
}

/// `Retry-After` in seconds (fractions accepted); an HTTP date is read as "no hint".
fn retry_after(response: &Response) -> Option<Duration> {
    let value = response.headers().get(header::RETRY_AFTER)?.to_str().ok()?;
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)))
}
