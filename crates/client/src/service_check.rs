//! Whether an address is the service at all, asked before any key or token is sent to an
//! address typed by hand. The makers' own check (`docs/ON_DEVICE_CHECK.md` in `sai-fi`):
//! `GET /health` answers `{"status":"ok", …}` without a credential, and an unauthenticated
//! `POST /v1/agents/message` answers 401 where the API is and 404 where it is not.
//!
//! Neither request carries a credential; both carry the version tag when one is set (it goes
//! on every request, or calls reach different revisions).

use std::time::Duration;

use serde::Deserialize;

use crate::error::Error;

/// What answered at the address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The service: health is ok and the message route asks for a credential.
    Service,
    /// Nothing answered (no such host, nothing listening, no secure connection, too slow).
    Unreachable,
    /// Something answered, but it does not have the service's routes (404).
    NotTheService,
    /// Something answered, in a way the service does not (another status or body).
    SomethingElse,
}

const TIMEOUT: Duration = Duration::from_secs(15);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Asks the address. `Err` only when the address itself is refused (not a web address, or
/// plain http to another computer: see [`crate::address`]), before anything is sent.
pub async fn check(base_url: &str, version_tag: Option<&str>) -> Result<Verdict, Error> {
    let url = crate::address::check(base_url)?;
    let base = url.as_str().trim_end_matches('/').to_owned();
    let http = crate::client::http_builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(TIMEOUT)
        // A redirect elsewhere is not the service answering; it is not followed.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(Error::Network)?;
    let tag = version_tag.map(str::trim).filter(|t| !t.is_empty());
    let with_tag = |request: reqwest::RequestBuilder| match tag {
        Some(tag) => request.header("x-sai-version", tag),
        None => request,
    };

    let Ok(health) = with_tag(http.get(format!("{base}/health"))).send().await else {
        return Ok(Verdict::Unreachable);
    };
    match health.status().as_u16() {
        200..=299 => {}
        404 => return Ok(Verdict::NotTheService),
        _ => return Ok(Verdict::SomethingElse),
    }
    #[derive(Deserialize)]
    struct Health {
        status: String,
    }
    match health.json::<Health>().await {
        Ok(h) if h.status == "ok" => {}
        _ => return Ok(Verdict::SomethingElse),
    }

    let message = with_tag(http.post(format!("{base}/v1/agents/message")))
        .json(&serde_json::json!({}))
        .send()
        .await;
    let Ok(message) = message else {
        return Ok(Verdict::Unreachable);
    };
    Ok(match message.status().as_u16() {
        401 => Verdict::Service,
        404 => Verdict::NotTheService,
        _ => Verdict::SomethingElse,
    })
}
