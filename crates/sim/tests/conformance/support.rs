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
