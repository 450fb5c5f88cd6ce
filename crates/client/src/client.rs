//! The client handle: base address, credential, HTTP connection pool, budgets and settings.
//!
//! A `Client` is cheap to clone; clones share the connection pool and the hourly budgets, so
//! the whole app paces itself as one caller. Resource methods live in their own modules and
//! go through [`crate::executor`], the one place that sends requests and retries them.

use std::sync::Arc;
use std::time::Duration;

use crate::budget::{Budgets, Limit};
use crate::credential::Credential;
use crate::error::{Error, InputError};

/// Settings; the defaults follow the spec.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Length of the hourly limits' window. Shorter against a time-scaled simulator.
    pub hour: Duration,
    /// Longest the client waits on its own budget or on a `Retry-After` before giving up
    /// with a rate-limit error the app can show.
    pub max_wait: Duration,
    /// Extra attempts after the first, for calls that may be retried.
    pub max_retries: u32,
    /// First backoff step; doubled per attempt, with jitter.
    pub backoff: Duration,
    /// Timeout of an ordinary request.
    pub request_timeout: Duration,
    pub connect_timeout: Duration,
    /// Interval between turn polls (the spec suggests 2 to 5 seconds).
    pub turn_poll_interval: Duration,
    /// `wait` of each events poll in seconds (the spec recommends 30 to 60).
    pub events_wait_secs: u32,
    /// Sent as `x-sai-version` on every request when set: it pins one server revision, so
    /// it must be on all calls or different calls may reach different revisions.
    pub version_tag: Option<String>,
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            hour: Duration::from_secs(3600),
            max_wait: Duration::from_secs(60),
            max_retries: 3,
            backoff: Duration::from_millis(500),
            request_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            turn_poll_interval: Duration::from_secs(3),
            events_wait_secs: 45,
            version_tag: None,
        }
    }
}

impl ClientConfig {
    /// Settings for a simulator started with `time_scale`: hours, polls and backoff shrink by
    /// the same factor (`Retry-After` is honoured as sent).
    pub fn time_scaled(scale: f64) -> Self {
        let scale = if scale.is_finite() && scale > 0.0 {
            scale.min(1.0)
        } else {
            1.0
        };
        let base = Self::default();
        Self {
            hour: base.hour.mul_f64(scale),
            backoff: base.backoff.mul_f64(scale).max(Duration::from_millis(10)),
            turn_poll_interval: base
                .turn_poll_interval
                .mul_f64(scale)
                .max(Duration::from_millis(20)),
            events_wait_secs: 1,
            ..base
        }
    }
}

/// Typed client of the Agent Computer Service.
#[derive(Clone)]
pub struct Client {
    pub(crate) inner: Arc<Inner>,
    pub(crate) credential: Credential,
}

pub(crate) struct Inner {
    pub(crate) http: reqwest::Client,
    /// Without a trailing slash; paths start with `/`.
    pub(crate) base: String,
    pub(crate) config: ClientConfig,
    pub(crate) budgets: Budgets,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.inner.base)
            .field("credential", &self.credential)
            .finish()
    }
}

/// How every connection to the service is made: rustls, and this client's name.
pub(crate) fn http_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .use_rustls_tls()
        .user_agent(concat!("porthole-client/", env!("CARGO_PKG_VERSION")))
}

impl Client {
    /// A client of the service at `base_url` (for example `https://api.example.com` or a
    /// simulator's `http://127.0.0.1:PORT`), with default settings.
    pub fn new(base_url: &str, credential: Credential) -> Result<Self, Error> {
        Self::with_config(base_url, credential, ClientConfig::default())
    }

    pub fn with_config(
        base_url: &str,
        credential: Credential,
        config: ClientConfig,
    ) -> Result<Self, Error> {
        let base = parse_base(base_url)?;
        let mut config = config;
        config.version_tag = check_version_tag(config.version_tag.take())?;
        let http = http_builder()
            .connect_timeout(config.connect_timeout)
            .build()
            .map_err(Error::Network)?;
        Ok(Self {
            inner: Arc::new(Inner {
                http,
                base,
                budgets: Budgets::new(config.hour, config.max_wait),
                config,
            }),
            credential,
        })
    }

    /// The same client (pool and budgets shared) with another credential, for example an
    /// identity-provider session for key management.
    pub fn with_credential(&self, credential: Credential) -> Self {
        Self {
            inner: self.inner.clone(),
            credential,
        }
    }

    pub fn base_url(&self) -> &str {
        &self.inner.base
    }

    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// Calls left in the client's own window for `limit`.
    pub fn budget_remaining(&self, limit: Limit) -> usize {
        self.inner.budgets.remaining(limit)
    }

    /// Counts `calls` of `limit` as made now, without sending anything: for a test that needs
    /// the hour's budget spent (the app's end-to-end tests reach the hourly message limit this
    /// way rather than by sending sixty tasks). Only with the `testing` feature.
    #[cfg(feature = "testing")]
    pub fn count_as_spent(&self, limit: Limit, calls: usize) {
        self.inner.budgets.count_as_spent(limit, calls);
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{}", self.inner.base, path)
    }
}

fn parse_base(input: &str) -> Result<String, Error> {
    let url = crate::address::check(input)?;
    if url.query().is_some() || url.fragment().is_some() {
        return Err(InputError::BaseUrl {
            reason: "it must not have a query or a fragment".to_owned(),
        }
        .into());
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// A blank tag means none; one that cannot be a header value is refused before any call.
fn check_version_tag(tag: Option<String>) -> Result<Option<String>, Error> {
    let Some(tag) = tag.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if reqwest::header::HeaderValue::from_str(&tag).is_err() {
        return Err(InputError::Invalid {
            field: "version_tag",
            reason: "must be plain text on one line".into(),
        }
        .into());
    }
    Ok(Some(tag))
}

/// Encodes one path segment (an id from the service or the user).
pub(crate) fn segment(id: &str) -> String {
    percent_encoding::utf8_percent_encode(id, crate::executor::SEGMENT).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_are_checked_not_panicked_on() {
        assert_eq!(
            parse_base(" http://127.0.0.1:9/ ").unwrap(),
            "http://127.0.0.1:9"
        );
        assert_eq!(
            parse_base("https://x.example/api/").unwrap(),
            "https://x.example/api"
        );
        for bad in [
            "",
            "not a url",
            "ftp://x",
            "http://127.0.0.1/?a=1",
            "mailto:a@b",
            "/v1",
            "ftp://127.0.0.1",
        ] {
            assert!(
                matches!(
                    parse_base(bad),
                    Err(Error::Input(InputError::BaseUrl { .. }))
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn plain_http_reaches_only_this_computer() {
        let key = || Credential::api_key("sapi_k").unwrap();
        for local in ["http://127.0.0.1:9", "http://localhost:9", "http://[::1]:9"] {
            assert!(Client::new(local, key()).is_ok(), "{local}");
        }
        let err = Client::new("http://api.example.com", key()).unwrap_err();
        assert!(
            matches!(err, Error::Input(InputError::PlainHttp)),
            "{err:?}"
        );
        assert_eq!(err.code(), crate::ErrorCode::InsecureAddress);
        assert!(Client::new("https://api.example.com", key()).is_ok());
    }

    #[test]
    fn version_tags_are_trimmed_and_checked() {
        assert_eq!(check_version_tag(None).unwrap(), None);
        assert_eq!(check_version_tag(Some("  ".into())).unwrap(), None);
        assert_eq!(
            check_version_tag(Some(" pr-12 ".into()))
                .unwrap()
                .as_deref(),
            Some("pr-12")
        );
        assert!(check_version_tag(Some("a\nb".into())).is_err());
    }

    #[test]
    fn segments_are_encoded() {
        assert_eq!(segment("cs_1/../x y"), "cs_1%2F%2E%2E%2Fx%20y");
    }
}
