//! Shared support: a simulator on port 0 with a fast clock and a plain HTTP client.

#![allow(dead_code)]

use porthole_sim::{Config, RunningSim, Sim, SimAccount};
use serde_json::Value;

/// Documented delays run 100 times faster.
pub const TIME_SCALE: f64 = 0.01;

/// A running simulator and a client for it.
pub struct Peer {
    pub sim: RunningSim,
    pub http: reqwest::Client,
}

/// Starts a simulator with the default fast clock and no faults.
pub async fn start() -> Peer {
    start_with(Config {
        time_scale: TIME_SCALE,
        ..Config::default()
    })
    .await
}

pub async fn start_with(config: Config) -> Peer {
    let sim = Sim::start(config).await.expect("the simulator starts");
    Peer {
        sim,
        http: reqwest::Client::new(),
    }
}

/// How a request authenticates.
#[derive(Clone, Copy)]
pub enum Cred {
    Key,
    Token,
    None,
}

impl Peer {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.sim.base_url, path)
    }

    pub fn account(&self, name: &str) -> &SimAccount {
        self.sim.account(name)
    }

    /// A request as `who` (account name) with the given credential kind.
    pub fn req(
        &self,
        method: reqwest::Method,
        path: &str,
        who: &str,
        cred: Cred,
    ) -> reqwest::RequestBuilder {
        let rb = self.http.request(method, self.url(path));
        let acct = self.account(who);
        match cred {
            Cred::Key => rb.bearer_auth(acct.api_key.as_deref().expect("account has a key")),
            Cred::Token => rb.bearer_auth(&acct.id_token),
            Cred::None => rb,
        }
    }

    pub fn get(&self, path: &str, who: &str) -> reqwest::RequestBuilder {
        self.req(reqwest::Method::GET, path, who, Cred::Key)
    }

    pub fn post(&self, path: &str, who: &str) -> reqwest::RequestBuilder {
        self.req(reqwest::Method::POST, path, who, Cred::Key)
    }
}

/// Sends and reads status and JSON body (`Value::Null` when the body is not JSON).
pub async fn send(rb: reqwest::RequestBuilder) -> (u16, Value) {
    let res = rb.send().await.expect("the request reaches the simulator");
    let status = res.status().as_u16();
    let body = res.bytes().await.unwrap_or_default();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

/// Every test gives up after this long instead of hanging.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(20);

/// Reads a whole SSE answer into frames (`"[DONE]"` kept as a string frame).
pub async fn sse(rb: reqwest::RequestBuilder) -> (u16, String, Vec<Value>) {
    let res = rb.send().await.expect("request");
    let status = res.status().as_u16();
    let ctype = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let text = tokio::time::timeout(PATIENCE, res.text())
        .await
        .expect("the stream ends")
        .unwrap_or_default();
    let frames = text
        .split("\n\n")
        .filter_map(|f| f.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap_or_else(|_| Value::String(d.to_owned())))
        .collect();
    (status, ctype, frames)
}

impl Peer {
    /// The id of the machine named `name` on `who`'s list.
    pub async fn machine_id(&self, who: &str, name: &str) -> String {
        let (_, b) = send(self.get("/v1/agents/machines", who)).await;
        b["machines"]
            .as_array()
            .and_then(|ms| ms.iter().find(|m| m["name"] == name))
            .and_then(|m| m["machineId"].as_str())
            .expect("machine exists")
            .to_owned()
    }

    /// Sends a `wait: false` message and returns the 202 body.
    pub async fn start_task(&self, who: &str, body: Value) -> Value {
        let mut body = body;
        body["wait"] = Value::Bool(false);
        let (s, b) = send(self.post("/v1/agents/message", who).json(&body)).await;
        assert_eq!(s, 202, "{b}");
        b
    }

    /// Polls the turn until it is `succeeded` or `failed`, recording each status seen.
    pub async fn finish_turn(&self, who: &str, turn_id: &str) -> (Value, Vec<String>) {
        let mut seen: Vec<String> = Vec::new();
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let (s, b) = send(self.get(&format!("/v1/agents/turns/{turn_id}"), who)).await;
            assert_eq!(s, 200, "{b}");
            let st = b["status"].as_str().unwrap_or("").to_owned();
            if seen.last() != Some(&st) {
                seen.push(st.clone());
            }
            if st == "succeeded" || st == "failed" {
                return (b, seen);
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "turn never finished: {seen:?}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }

    /// Polls events until the status is one of `until`; returns all events and the last body.
    pub async fn poll_until(
        &self,
        who: &str,
        session_id: &str,
        until: &[&str],
    ) -> (Vec<Value>, Value) {
        let mut events = Vec::new();
        let mut cursor = String::new();
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let mut path = format!("/v1/agents/events?sessionId={session_id}&wait=5");
            if !cursor.is_empty() {
                path.push_str(&format!("&since={cursor}"));
            }
            let (s, b) = send(self.get(&path, who)).await;
            assert_eq!(s, 200, "{b}");
            events.extend(b["events"].as_array().cloned().unwrap_or_default());
            cursor = b["cursor"].as_str().unwrap_or("").to_owned();
            if until.contains(&b["status"].as_str().unwrap_or("")) {
                return (events, b);
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "status never reached {until:?}: {b}"
            );
        }
    }
}

/// A slower clock for tests that must answer something (an approval) before a documented
/// timeout runs out, so a busy machine does not make them flaky.
pub async fn start_unhurried() -> Peer {
    start_with(Config {
        time_scale: 0.05,
        ..Config::default()
    })
    .await
}
