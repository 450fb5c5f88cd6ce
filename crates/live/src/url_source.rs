//! Where the viewer gets live URLs: a callback the app provides, so this crate needs no HTTP
//! client of its own and knows nothing of the service's client crate.

use std::future::Future;
use std::time::Duration;

/// A live-view URL with the screen size the service announced.
///
/// The URL carries a session token: `Debug` never shows it and nothing here logs it.
#[derive(Clone)]
pub struct LiveUrl {
    websocket_url: String,
    pub width: u32,
    pub height: u32,
}

impl LiveUrl {
    pub fn new(websocket_url: impl Into<String>, width: u32, height: u32) -> Self {
        Self {
            websocket_url: websocket_url.into(),
            width,
            height,
        }
    }

    /// The URL to dial, unchanged (its query string is the stream's connect data).
    pub fn expose_websocket_url(&self) -> &str {
        &self.websocket_url
    }
}

impl std::fmt::Debug for LiveUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveUrl")
            .field("websocket_url", &"<redacted>")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish()
    }
}

/// Why a fresh live URL could not be had. The app maps its client's errors to these.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// The computer is asleep or starting (`409 machine_not_running`): the viewer stops
    /// reconnecting so the app can offer to wake it.
    #[error("the computer is asleep")]
    Asleep,
    /// Too many live requests (`429`); try again after the given time if known.
    #[error("too many live-view requests; try again later")]
    RateLimited { retry_after: Option<Duration> },
    /// Anything else, described for the log (an app shows its own words for it).
    #[error("{0}")]
    Other(String),
}

/// Gives the viewer a new live URL each time it (re)connects.
///
/// Implement with `async fn fresh_url(&self) -> Result<LiveUrl, UrlError>`; the returned future
/// must be `Send` because the viewer runs on its own task.
pub trait UrlSource: Send + Sync + 'static {
    fn fresh_url(&self) -> impl Future<Output = Result<LiveUrl, UrlError>> + Send;
}
