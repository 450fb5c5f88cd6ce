//! The loopback end of browser sign-in (RFC 8252): a one-shot HTTP listener on
//! `127.0.0.1:0` that waits for the identity provider's redirect.
//!
//! Invariants: it answers only `GET /callback?...`; it accepts exactly one callback whose
//! `state` matches (anything else gets a short error page and the wait goes on); it shows
//! "You can close this tab" and stops; it gives up after the timeout. The code it returns is
//! single-use and is never logged.

use std::collections::HashMap;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::words::sign_in_page as page;

/// How a wait for the browser ended without a code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatchError {
    #[error("could not listen on loopback: {0}")]
    Listen(String),
    #[error("no sign-in came back in time")]
    TimedOut,
    /// The provider redirected with `error=...` (the person cancelled, or it refused).
    #[error("the identity provider refused: {0}")]
    Refused(String),
}

/// A bound listener, waiting to be told to catch.
pub struct RedirectCatcher {
    listener: TcpListener,
    redirect_uri: String,
}

const PATH: &str = "/callback";
const MAX_REQUEST: usize = 16 * 1024;

impl RedirectCatcher {
    pub async fn bind() -> Result<Self, CatchError> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| CatchError::Listen(e.to_string()))?;
        let port = listener
            .local_addr()
            .map_err(|e| CatchError::Listen(e.to_string()))?
            .port();
        Ok(Self {
            listener,
            redirect_uri: format!("http://127.0.0.1:{port}{PATH}"),
        })
    }

    /// The `redirect_uri` to give the identity provider.
    pub fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    /// Waits for the one callback carrying `expected_state`; returns its `code`.
    pub async fn catch(
        self,
        expected_state: &str,
        timeout: Duration,
    ) -> Result<String, CatchError> {
        tokio::time::timeout(timeout, self.serve(expected_state))
            .await
            .unwrap_or(Err(CatchError::TimedOut))
    }

    async fn serve(self, expected_state: &str) -> Result<String, CatchError> {
        loop {
            let Ok((mut stream, _)) = self.listener.accept().await else {
                continue;
            };
            let Some(query) = read_callback_query(&mut stream).await else {
                respond(&mut stream, 404, page::not_here()).await;
                continue;
            };
            if query.get("state").map(String::as_str) != Some(expected_state) {
                // Not our sign-in (an old tab, or another page): keep waiting for ours.
                respond(&mut stream, 400, page::out_of_date()).await;
                continue;
            }
            if let Some(error) = query.get("error") {
                respond(&mut stream, 200, page::cancelled()).await;
                return Err(CatchError::Refused(error.clone()));
            }
            match query.get("code").filter(|c| !c.is_empty()) {
                Some(code) => {
                    respond(&mut stream, 200, page::signed_in()).await;
                    return Ok(code.clone());
                }
                None => {
                    respond(&mut stream, 400, page::not_finished()).await;
                }
            }
        }
    }
}

/// Reads the request head; `Some(query)` only for `GET /callback`.
async fn read_callback_query(stream: &mut TcpStream) -> Option<HashMap<String, String>> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if read == 0 || buf.len() + read > MAX_REQUEST {
            return None;
        }
        buf.extend_from_slice(&chunk[..read]);
    }
    let head = String::from_utf8_lossy(&buf);
    let mut parts = head.lines().next()?.split(' ');
    if parts.next()? != "GET" {
        return None;
    }
    let target = url::Url::parse(&format!("http://127.0.0.1{}", parts.next()?)).ok()?;
    (target.path() == PATH).then(|| target.query_pairs().into_owned().collect())
}

async fn respond(stream: &mut TcpStream, status: u16, (title, line): page::Page) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        _ => "Not Found",
    };
    let body = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Porthole</title></head>\
         <body style=\"font-family:sans-serif;margin:15vh auto;max-width:28em;text-align:center\">\
         <h1>{title}</h1><p>{line}</p></body></html>"
    );
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: text/html; charset=utf-8\r\n\
         content-length: {}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn get(uri: &str, path_and_query: &str) -> String {
        let addr = uri
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let request = format!("GET {path_and_query} HTTP/1.1\r\nhost: x\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut out = String::new();
        stream.read_to_string(&mut out).await.unwrap();
        out
    }

    #[tokio::test]
    async fn binds_loopback_and_returns_the_code_of_the_matching_state() {
        let catcher = RedirectCatcher::bind().await.unwrap();
        let uri = catcher.redirect_uri().to_owned();
        assert!(uri.starts_with("http://127.0.0.1:") && uri.ends_with("/callback"));
        let waiting = tokio::spawn(catcher.catch("good", Duration::from_secs(10)));
        let other_path = get(&uri, "/favicon.ico").await;
        assert!(other_path.starts_with("HTTP/1.1 404"));
        let wrong = get(&uri, "/callback?code=evil&state=bad").await;
        assert!(wrong.starts_with("HTTP/1.1 400"), "{wrong}");
        let page = get(&uri, "/callback?code=c%2B1&state=good").await;
        assert!(page.starts_with("HTTP/1.1 200") && page.contains("You can close this tab"));
        assert_eq!(waiting.await.unwrap(), Ok("c+1".to_owned()));
        // Exactly one callback: the listener is gone afterwards.
        let addr = uri
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        assert!(TcpStream::connect(addr).await.is_err());
    }

    #[tokio::test]
    async fn a_refusal_from_the_provider_ends_the_wait() {
        let catcher = RedirectCatcher::bind().await.unwrap();
        let uri = catcher.redirect_uri().to_owned();
        let waiting = tokio::spawn(catcher.catch("s", Duration::from_secs(10)));
        get(&uri, "/callback?error=access_denied&state=s").await;
        assert_eq!(
            waiting.await.unwrap(),
            Err(CatchError::Refused("access_denied".into()))
        );
    }

    #[tokio::test]
    async fn gives_up_after_the_timeout() {
        let catcher = RedirectCatcher::bind().await.unwrap();
        let result = catcher.catch("s", Duration::from_millis(50)).await;
        assert_eq!(result, Err(CatchError::TimedOut));
    }
}
