//! The check made before a key goes to an address typed by hand: the simulator answers as the
//! service does, and other things that answer are told apart from it, without a credential
//! ever leaving.

use std::sync::{Arc, Mutex};

use porthole_client::service_check::{check, Verdict};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::sim;

/// A web server that is not the service: answers every request with `status` and `body`,
/// and keeps each request's head (method, path, headers) for the test to read. Raw HTTP on a
/// loopback socket, so that the test needs no server framework of its own.
async fn other_server(
    status: &'static str,
    body: &'static str,
) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let heads = Arc::new(Mutex::new(Vec::new()));
    let kept = heads.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = vec![0u8; 16 * 1024];
            let mut read = 0;
            while !buf[..read].windows(4).any(|w| w == b"\r\n\r\n") {
                match socket.read(&mut buf[read..]).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => read += n,
                }
            }
            kept.lock()
                .unwrap()
                .push(String::from_utf8_lossy(&buf[..read]).into_owned());
            let answer = format!(
                "HTTP/1.1 {status}\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = socket.write_all(answer.as_bytes()).await;
        }
    });
    (base, heads)
}

#[tokio::test]
async fn the_simulator_answers_as_the_service_does() {
    let sim = sim().await;
    assert_eq!(check(&sim.base_url, None).await.unwrap(), Verdict::Service);
    assert_eq!(
        check(&format!("{}/", sim.base_url), Some("rev-42"))
            .await
            .unwrap(),
        Verdict::Service
    );
    // Both requests, with the tag, and no credential was needed.
    let seen = sim.state().requests_seen();
    let asked: Vec<_> = seen
        .iter()
        .filter(|r| r.sai_version.as_deref() == Some("rev-42"))
        .map(|r| (r.method.as_str(), r.path.as_str()))
        .collect();
    assert_eq!(asked, [("GET", "/health"), ("POST", "/v1/agents/message")]);
}

#[tokio::test]
async fn the_simulator_health_needs_no_credential_and_the_message_route_asks_for_one() {
    let sim = sim().await;
    let http = reqwest::Client::new();
    let health = http
        .get(format!("{}/health", sim.base_url))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let body: serde_json::Value = health.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    let message = http
        .post(format!("{}/v1/agents/message", sim.base_url))
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(message.status(), 401);
}

#[tokio::test]
async fn an_address_that_is_not_the_service_is_told_apart_and_gets_no_credential() {
    let (not_found, heads) = other_server("404 Not Found", "").await;
    assert_eq!(
        check(&not_found, None).await.unwrap(),
        Verdict::NotTheService
    );
    let (web_page, _) = other_server("200 OK", "<html>Welcome</html>").await;
    assert_eq!(
        check(&web_page, None).await.unwrap(),
        Verdict::SomethingElse
    );
    let (broken, _) = other_server("500 Internal Server Error", "").await;
    assert_eq!(check(&broken, None).await.unwrap(), Verdict::SomethingElse);

    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    assert_eq!(check(&dead, None).await.unwrap(), Verdict::Unreachable);

    for head in heads.lock().unwrap().iter() {
        assert!(
            !head.to_ascii_lowercase().contains("authorization"),
            "no credential in {head}"
        );
    }
    // Plain http to another computer is refused before anything is sent.
    assert!(check("http://10.0.0.7:9", None).await.is_err());
}
