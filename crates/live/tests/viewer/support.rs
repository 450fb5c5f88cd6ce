//! Shared test support: a simulator on loopback, a `UrlSource` that asks it for live URLs the
//! way the app will, a recording WebSocket relay to see what the viewer sends upstream, a peer
//! that speaks VNC (RFB) instead of Guacamole, and Guacamole peers that send what the simulator
//! never does.

use futures_util::{SinkExt, StreamExt};
use porthole_live::codec::parse_frame;
use porthole_live::{LiveUrl, UrlError, UrlSource, Viewer, ViewerEvent, ViewerOptions};
use porthole_sim::{Config, FaultSpec, RunningSim, Sim};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::http::header::SEC_WEBSOCKET_PROTOCOL;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

/// Upper bound for anything a test waits for, so a broken viewer fails instead of hanging.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub async fn sim(time_scale: f64, faults: &str) -> RunningSim {
    Sim::start(Config {
        time_scale,
        faults: FaultSpec::parse(faults).expect("fault spec"),
        ..Config::default()
    })
    .await
    .expect("simulator starts")
}

/// Options with short timers, since the simulator runs fast.
pub fn fast_options() -> ViewerOptions {
    ViewerOptions {
        nop_interval: Duration::from_millis(20),
        silence_timeout: Duration::from_secs(5),
        connect_timeout: Duration::from_secs(5),
        backoff_initial: Duration::from_millis(20),
        backoff_max: Duration::from_millis(200),
        ..ViewerOptions::default()
    }
}

/// Asks the simulator for live URLs as the app does: `POST .../live` with ada's API key.
#[derive(Clone)]
pub struct SimLive {
    http: reqwest::Client,
    base_url: String,
    api_key: String,
    pub machine_id: String,
    /// Appended to the URL's query (stream knobs such as `animate=1`).
    pub extra_query: String,
    /// Applied to each URL before it is handed over (to route through a relay, or spoil it).
    pub rewrite: Arc<dyn Fn(String) -> String + Send + Sync>,
    pub calls: Arc<AtomicUsize>,
}

impl SimLive {
    pub async fn new(sim: &RunningSim, machine_name: &str) -> Self {
        let http = reqwest::Client::new();
        let api_key = sim.account("ada").api_key.clone().expect("ada has a key");
        let list: serde_json::Value = http
            .get(format!("{}/v1/agents/machines", sim.base_url))
            .bearer_auth(&api_key)
            .send()
            .await
            .expect("machine list")
            .json()
            .await
            .expect("machine list JSON");
        let machine_id = list["machines"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|m| m["name"] == machine_name)
            .and_then(|m| m["machineId"].as_str())
            .unwrap_or_else(|| panic!("ada has no machine named {machine_name}"))
            .to_owned();
        Self {
            http,
            base_url: sim.base_url.clone(),
            api_key,
            machine_id,
            extra_query: "animate=1&fps=60".into(),
            rewrite: Arc::new(|url| url),
            calls: Arc::default(),
        }
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

impl UrlSource for SimLive {
    async fn fresh_url(&self) -> Result<LiveUrl, UrlError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let response = self
            .http
            .post(format!(
                "{}/v1/agents/machines/{}/live",
                self.base_url, self.machine_id
            ))
            .bearer_auth(&self.api_key)
            .send()
            .await
            .map_err(|e| UrlError::Other(e.to_string()))?;
        match response.status().as_u16() {
            200 => {}
            409 => return Err(UrlError::Asleep),
            429 => {
                let retry_after = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok()?.parse().ok())
                    .map(Duration::from_secs);
                return Err(UrlError::RateLimited { retry_after });
            }
            status => return Err(UrlError::Other(format!("HTTP {status}"))),
        }
        let body: serde_json::Value = response
            .json()
            .await
            .map_err(|e| UrlError::Other(e.to_string()))?;
        let url = body["websocketUrl"].as_str().unwrap_or_default();
        let url = if self.extra_query.is_empty() {
            url.to_owned()
        } else {
            format!("{url}&{}", self.extra_query)
        };
        let size = |k: &str| body[k].as_u64().unwrap_or_default() as u32;
        Ok(LiveUrl::new(
            (self.rewrite)(url),
            size("width"),
            size("height"),
        ))
    }
}

/// A URL source that always hands out the same URL (for peers that are not the simulator).
pub struct FixedUrl(pub String);

impl UrlSource for FixedUrl {
    async fn fresh_url(&self) -> Result<LiveUrl, UrlError> {
        Ok(LiveUrl::new(self.0.clone(), 1280, 800))
    }
}

pub async fn next_event(viewer: &Viewer) -> Option<ViewerEvent> {
    tokio::time::timeout(PATIENCE, viewer.next_event())
        .await
        .expect("the viewer produced an event in time")
}

/// Which way a relayed message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    Up,
    Down,
}

/// A WebSocket relay between the viewer and the simulator that records every text message.
pub struct Recorder {
    pub addr: SocketAddr,
    pub log: Arc<Mutex<Vec<(Dir, String)>>>,
}

impl Recorder {
    pub async fn start(upstream: &str) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind relay");
        let addr = listener.local_addr().expect("relay address");
        let log: Arc<Mutex<Vec<(Dir, String)>>> = Arc::default();
        let upstream = upstream.to_owned();
        let relay_log = log.clone();
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let upstream = upstream.clone();
                let log = relay_log.clone();
                tokio::spawn(async move {
                    let _ = relay(tcp, &upstream, log).await;
                });
            }
        });
        Self { addr, log }
    }

    /// Instructions the viewer sent upstream, and the server's `sync` timestamps, in order.
    pub fn upstream_and_syncs(&self) -> (Vec<(String, Vec<String>)>, Vec<String>) {
        let log = self.log.lock().expect("log");
        let mut up = Vec::new();
        let mut syncs = Vec::new();
        for (dir, text) in log.iter() {
            for i in parse_frame(text) {
                let i = i.expect("relayed text parses").to_instruction();
                match dir {
                    Dir::Up => up.push((i.opcode, i.args)),
                    Dir::Down if i.opcode == "sync" => syncs.push(i.args[0].clone()),
                    Dir::Down => {}
                }
            }
        }
        (up, syncs)
    }
}

// The handshake callback's error type is tungstenite's, large or not.
#[allow(clippy::result_large_err)]
async fn relay(
    tcp: tokio::net::TcpStream,
    upstream: &str,
    log: Arc<Mutex<Vec<(Dir, String)>>>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut path = String::new();
    let down = tokio_tungstenite::accept_hdr_async(tcp, |req: &Request, mut res: Response| {
        path = req.uri().to_string();
        res.headers_mut().insert(
            SEC_WEBSOCKET_PROTOCOL,
            HeaderValue::from_static("guacamole"),
        );
        Ok(res)
    })
    .await?;
    let mut request = format!("{upstream}{path}").into_client_request()?;
    request.headers_mut().insert(
        SEC_WEBSOCKET_PROTOCOL,
        HeaderValue::from_static("guacamole"),
    );
    let (up, _) = tokio_tungstenite::connect_async(request).await?;
    let (mut down_tx, mut down_rx) = down.split();
    let (mut up_tx, mut up_rx) = up.split();
    let record = |dir: Dir, m: &Message| {
        if let Message::Text(t) = m {
            log.lock().expect("log").push((dir, t.to_string()));
        }
    };
    loop {
        tokio::select! {
            // The viewer's words first: what it says before leaving is what the tests read.
            biased;
            m = down_rx.next() => match m {
                Some(Ok(m)) => {
                    record(Dir::Up, &m);
                    up_tx.send(m).await?;
                }
                _ => break,
            },
            m = up_rx.next() => match m {
                Some(Ok(m)) => {
                    record(Dir::Down, &m);
                    if down_tx.send(m).await.is_err() {
                        // The viewer hung up while a server message was on its way; what it
                        // sent before that (its `disconnect`) may still be unread.
                        while let Some(Ok(m)) = down_rx.next().await {
                            record(Dir::Up, &m);
                        }
                        break;
                    }
                }
                _ => break,
            },
        }
    }
    Ok(())
}

/// A WebSocket peer that answers like a VNC server behind websockify: subprotocol `binary`
/// (or, when `agree` is set, `guacamole`), then the 12-byte RFB greeting.
#[allow(clippy::result_large_err)]
pub async fn rfb_server(agree: bool) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            tokio::spawn(async move {
                let protocol = if agree { "guacamole" } else { "binary" };
                let ws =
                    tokio_tungstenite::accept_hdr_async(tcp, |_: &Request, mut res: Response| {
                        res.headers_mut()
                            .insert(SEC_WEBSOCKET_PROTOCOL, HeaderValue::from_static(protocol));
                        Ok(res)
                    })
                    .await;
                if let Ok(mut ws) = ws {
                    let _ = ws.send(Message::binary(&b"RFB 003.008\n"[..])).await;
                    // Wait for the viewer to leave.
                    while let Some(Ok(_)) = ws.next().await {}
                }
            });
        }
    });
    format!("ws://{addr}/websockify?token=abc")
}

/// A minimal Guacamole peer for what the simulator never does (pinging the viewer): it sends
/// `script` and hands back the first upstream message that carries an internal instruction.
pub async fn pinging_peer(
    script: &'static str,
) -> (String, tokio::sync::oneshot::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let Some(mut ws) = accept_guacamole(&listener).await else {
            return;
        };
        if ws.send(Message::text(script)).await.is_err() {
            return;
        }
        while let Some(Ok(message)) = ws.next().await {
            if let Message::Text(text) = message {
                if text.as_str().starts_with("0.,") || text.as_str().contains(";0.,") {
                    let _ = tx.send(text.to_string());
                    return;
                }
            }
        }
    });
    (format!("ws://{addr}/tunnel?token=t"), rx)
}

/// A Guacamole peer that sends `script` to the first viewer, then waits for it to leave.
pub async fn scripted_peer(script: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        let Some(mut ws) = accept_guacamole(&listener).await else {
            return;
        };
        if ws.send(Message::text(script)).await.is_ok() {
            while let Some(Ok(_)) = ws.next().await {}
        }
    });
    format!("ws://{addr}/tunnel?token=t")
}

#[allow(clippy::result_large_err)]
async fn accept_guacamole(
    listener: &TcpListener,
) -> Option<tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>> {
    let (tcp, _) = listener.accept().await.ok()?;
    tokio_tungstenite::accept_hdr_async(tcp, |_: &Request, mut res: Response| {
        res.headers_mut().insert(
            SEC_WEBSOCKET_PROTOCOL,
            HeaderValue::from_static("guacamole"),
        );
        Ok(res)
    })
    .await
    .ok()
}
