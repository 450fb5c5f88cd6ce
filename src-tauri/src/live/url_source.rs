//! The viewer's source of fresh live URLs: the service client's live endpoint, its refusals
//! mapped to what the viewer acts on (asleep stops reconnecting; rate-limited waits).

use porthole_client::{Client, ErrorCode};
use porthole_live::{LiveUrl, UrlError, UrlSource};
use std::time::Duration;

pub struct ServiceUrls {
    pub client: Client,
    pub machine_id: String,
}

impl UrlSource for ServiceUrls {
    async fn fresh_url(&self) -> Result<LiveUrl, UrlError> {
        match self.client.machines().live(&self.machine_id).await {
            // The URL goes to the viewer only; it never leaves Rust.
            Ok(view) => Ok(LiveUrl::new(
                with_bench_knobs(view.websocket_url.expose()),
                view.width,
                view.height,
            )),
            Err(err) => Err(match err.code() {
                ErrorCode::MachineNotRunning => UrlError::Asleep,
                ErrorCode::RateLimited { retry_after_ms } => UrlError::RateLimited {
                    retry_after: retry_after_ms.map(Duration::from_millis),
                },
                // For the log, the code alone (never the URL or a key); the person reads the
                // app's words for the viewer's `UrlUnavailable`.
                code => UrlError::Other(format!("{:?}", crate::error::problem::of_code(&code))),
            }),
        }
    }
}

/// For the benchmark only (BENCHMARKS.md, "Live view in the app"): `PORTHOLE_LIVE_CONNECT_EXTRA`
/// (e.g. `fps=60&animate=1`) is appended to the connect data, which is how the simulator takes
/// its stream knobs. Unset, the URL is dialled exactly as the service gave it.
fn with_bench_knobs(url: &str) -> String {
    match crate::test_switch::var("PORTHOLE_LIVE_CONNECT_EXTRA") {
        Some(extra) if !extra.is_empty() => {
            let joiner = if url.contains('?') { '&' } else { '?' };
            format!("{url}{joiner}{extra}")
        }
        _ => url.to_owned(),
    }
}
