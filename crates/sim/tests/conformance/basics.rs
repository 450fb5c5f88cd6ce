//! Authentication basics and the check-a-key endpoint.

use crate::support::*;
use reqwest::Method;

#[tokio::test]
async fn key_and_token_both_authenticate_with_their_auth_type() {
    let p = start().await;
    let ada = p.account("ada").user_id.clone();
    let (s, b) = send(p.req(Method::GET, "/v1/agents/auth", "ada", Cred::Key)).await;
    assert_eq!(s, 200);
    assert_eq!(b["ok"], true);
    assert_eq!(b["userId"], ada);
    assert_eq!(b["authType"], "apiKey");
    let (s, b) = send(p.req(Method::GET, "/v1/agents/auth", "ada", Cred::Token)).await;
    assert_eq!(s, 200);
    assert_eq!(b["authType"], "idp");
}

#[tokio::test]
async fn missing_unknown_or_junk_credentials_are_401() {
    let p = start().await;
    let (s, _) = send(p.req(Method::GET, "/v1/agents/auth", "ada", Cred::None)).await;
    assert_eq!(s, 401);
    let (s, b) = send(
        p.http
            .get(p.url("/v1/agents/auth"))
            .bearer_auth("phk_sim_nope"),
    )
    .await;
    assert_eq!(s, 401);
    assert!(b["error"].is_string());
    let (s, _) = send(
        p.http
            .get(p.url("/v1/agents/auth"))
            .header("authorization", "Basic Zm9vOmJhcg=="),
    )
    .await;
    assert_eq!(s, 401);
}

#[tokio::test]
async fn ready_line_names_the_base_url_and_every_account() {
    let p = start().await;
    let line = p.sim.ready_line();
    assert!(!line.contains('\n'));
    assert!(
        line.starts_with("{\"baseUrl\":"),
        "baseUrl comes first: {line}"
    );
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["baseUrl"], p.sim.base_url.as_str());
    let names: Vec<&str> = v["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(&names[..3], ["ada", "fred", "nophone"]);
    let ada = &v["accounts"][0];
    assert_eq!(ada["plan"], "pro");
    assert!(ada["userId"].is_string() && ada["apiKey"].is_string() && ada["idToken"].is_string());
    assert_eq!(v["accounts"][1]["plan"], "free");
    assert!(v["accounts"][2]["apiKey"].is_null(), "nophone has no key");
    assert!(
        !format!("{:?}", p.account("ada")).contains(ada["apiKey"].as_str().unwrap()),
        "Debug redacts secrets"
    );
}

#[tokio::test]
async fn the_binary_prints_exactly_one_ready_line_and_serves() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_porthole-sim"))
        .args(["--time-scale", "0.01", "--seed", "7"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().unwrap();
    let line = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .map(|_| line)
    })
    .await
    .unwrap()
    .unwrap();
    let v: serde_json::Value = serde_json::from_str(line.trim()).expect("the ready line is JSON");
    let base = v["baseUrl"].as_str().unwrap().to_owned();
    let key = v["accounts"][0]["apiKey"].as_str().unwrap().to_owned();
    let res = reqwest::Client::new()
        .get(format!("{base}/v1/agents/auth"))
        .bearer_auth(key)
        .send()
        .await;
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(res.unwrap().status().as_u16(), 200);
}

#[tokio::test]
async fn shutdown_and_drop_stop_the_server() {
    let p = start().await;
    let url = p.url("/v1/agents/models");
    let Peer { sim, http } = p;
    sim.shutdown().await;
    assert!(
        http.get(&url).send().await.is_err(),
        "nothing listens after shutdown"
    );
    let p = start().await;
    let url = p.url("/v1/agents/models");
    let Peer { sim, http } = p;
    // Dropping stops the server from its own task, a moment later: until it no longer answers.
    drop(sim);
    let start = std::time::Instant::now();
    while http.get(&url).send().await.is_ok() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "nothing listens after drop"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
