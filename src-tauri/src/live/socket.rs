//! The loopback WebSocket that carries live frames to the page.
//!
//! Why a socket and not a Tauri `ipc::Channel`: measured on the development machine (Debian 12,
//! WebKitGTK), 300 KB messages took 1.6 ms over a loopback WebSocket against 6 ms over a Channel,
//! and a Channel delivers each large message by evaluating a script that fetches it from a
//! custom protocol, which is also where the web process's memory grew with every frame
//! (BENCHMARKS.md, "Live view in the app").
//!
//! One server per app, on `127.0.0.1` and a port the system picks. Each view gets a one-time
//! ticket: the page dials `ws://127.0.0.1:PORT/live/VIEW/TOKEN`. The handshake is refused (403)
//! unless the token matches the view's (compared in constant time); a matching ticket is torn
//! up, so the same URL never works twice and no other local process can watch. The token is a
//! secret of this app and the page only: never logged (see [`Ticket`]'s `Debug`).

use base64::Engine as _;
use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use subtle::ConstantTimeEq;
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::WebSocketStream;

/// A page's connection to one view.
pub type PageSocket = WebSocketStream<TcpStream>;

/// Connections not yet accepted that the system keeps waiting (each view opens one).
const LISTEN_BACKLOG: u32 = 64;

/// A client that opened TCP but never finished the handshake is dropped after this.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);

/// What the page may send: 4-byte acknowledgements (and close frames). Anything bigger ends
/// the connection rather than being buffered.
const MAX_INCOMING_MESSAGE: usize = 64;

/// The server: a port, and the tickets not yet used.
pub struct FrameSocket {
    port: u16,
    waiting: Waiting,
    accept_loop: tokio::task::JoinHandle<()>,
}

type Waiting = Arc<Mutex<HashMap<u32, Expected>>>;

struct Expected {
    token: String,
    connected: oneshot::Sender<PageSocket>,
}

/// Where the page connects for one view. Its `Debug` hides the token.
pub struct Ticket {
    pub url: String,
}

impl std::fmt::Debug for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ticket { url: <secret> }")
    }
}

impl FrameSocket {
    /// Listens on `127.0.0.1` (never another interface) on a port the system picks.
    pub async fn bind() -> std::io::Result<Self> {
        let socket = TcpSocket::new_v4()?;
        without_pacing(&socket);
        socket.bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))?;
        let listener = socket.listen(LISTEN_BACKLOG)?;
        let port = listener.local_addr()?.port();
        let waiting = Waiting::default();
        let accept_loop = tokio::spawn(accept(listener, waiting.clone()));
        Ok(Self {
            port,
            waiting,
            accept_loop,
        })
    }

    /// A fresh ticket for `view_id`, and where its connection will arrive once the page dials.
    pub fn expect(&self, view_id: u32) -> (Ticket, oneshot::Receiver<PageSocket>) {
        let token = new_token();
        let url = format!("ws://127.0.0.1:{}/live/{view_id}/{token}", self.port);
        let (connected, arrives) = oneshot::channel();
        lock(&self.waiting).insert(view_id, Expected { token, connected });
        (Ticket { url }, arrives)
    }

    /// Tears up the view's ticket if still unused (the page never came).
    pub fn forget(&self, view_id: u32) {
        lock(&self.waiting).remove(&view_id);
    }
}

impl Drop for FrameSocket {
    fn drop(&mut self) {
        self.accept_loop.abort();
    }
}

/// Asks for a congestion control that sends a whole frame at once; pages' connections inherit
/// it from the listener.
///
/// Why: where the system's default is BBR (as on the machines here), TCP paces what it sends
/// even on loopback. A 150 KB frame then went out as one 64 KB segment at once and the rest
/// paced after it, which on a busy machine came 0.1-10 ms later: frames reached
/// the page up to a frame late in about two runs of three (BENCHMARKS.md, "Live view in the
/// app"). Reno and CUBIC do not pace. Unprivileged processes may pick only the congestion
/// controls the system allows (`net.ipv4.tcp_allowed_congestion_control`), which always
/// include reno; CUBIC is the usual default, so it is asked for first. If neither is
/// allowed, the default stays: frames still arrive, only sometimes later.
fn without_pacing(socket: &TcpSocket) {
    #[cfg(any(target_os = "linux", target_os = "freebsd"))]
    {
        let socket = socket2::SockRef::from(socket);
        let chosen = [&b"cubic"[..], b"reno"]
            .into_iter()
            .any(|name| socket.set_tcp_congestion(name).is_ok());
        if !chosen {
            tracing::debug!("the live frame socket keeps the system's congestion control");
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "freebsd")))]
    let _ = socket;
}

fn lock(waiting: &Waiting) -> std::sync::MutexGuard<'_, HashMap<u32, Expected>> {
    waiting.lock().unwrap_or_else(|e| e.into_inner())
}

/// 256 random bits, URL-safe.
fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

async fn accept(listener: TcpListener, waiting: Waiting) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors or similar: try again shortly rather than spin.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        tokio::spawn(handshake(stream, waiting.clone()));
    }
}

async fn handshake(stream: TcpStream, waiting: Waiting) {
    // Frames are written whole and acknowledgements are tiny: send each at once.
    let _ = stream.set_nodelay(true);
    let mut admitted = None;
    // The signature is tungstenite's handshake callback: its error is the refusal response.
    #[allow(clippy::result_large_err)]
    let check = |request: &Request, response: Response| {
        admitted = admit(&waiting, request.uri().path());
        if admitted.is_some() {
            Ok(response)
        } else {
            Err(refusal())
        }
    };
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_INCOMING_MESSAGE))
        .max_frame_size(Some(MAX_INCOMING_MESSAGE));
    let accepted = tokio::time::timeout(
        HANDSHAKE_TIMEOUT,
        tokio_tungstenite::accept_hdr_async_with_config(stream, check, Some(config)),
    )
    .await;
    if let (Ok(Ok(socket)), Some(connected)) = (accepted, admitted) {
        // The view may have been closed meanwhile; then the socket just drops.
        let _ = connected.send(socket);
    }
}

/// The view's ticket, taken (so it cannot be used again) if `path` carries its token.
fn admit(waiting: &Waiting, path: &str) -> Option<oneshot::Sender<PageSocket>> {
    let mut parts = path.strip_prefix("/live/")?.splitn(2, '/');
    let view_id: u32 = parts.next()?.parse().ok()?;
    let token = parts.next()?;
    let mut waiting = lock(waiting);
    let expected = waiting.get(&view_id)?;
    if !bool::from(expected.token.as_bytes().ct_eq(token.as_bytes())) {
        return None;
    }
    waiting.remove(&view_id).map(|e| e.connected)
}

fn refusal() -> ErrorResponse {
    let mut response = ErrorResponse::new(None);
    *response.status_mut() = StatusCode::FORBIDDEN;
    response
}
