//! The frame socket and the pump over real loopback sockets, fed by the simulator's live
//! stream: who may connect, frames in order, acknowledgement flow control, and a page that
//! goes away closing its viewer. (Coalescing is the viewer's, tested in `crates/live`.)

use futures::{SinkExt, StreamExt};
use porthole_client::{Client, Credential, Secret};
use porthole_live::{EndReason, LiveUrl, Status, UrlError, UrlSource, Viewer, ViewerOptions};
use porthole_sim::{Config, RunningSim, Sim};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

use super::pump;
use super::socket::FrameSocket;

type Page = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

const PATIENCE: Duration = Duration::from_secs(20);

/// The simulator's animated desktop: a steady stream of frames to hold back and coalesce.
struct AnimatedLive {
    client: Client,
    machine_id: String,
}

impl UrlSource for AnimatedLive {
    async fn fresh_url(&self) -> Result<LiveUrl, UrlError> {
        let view = self
            .client
            .machines()
            .live(&self.machine_id)
            .await
            .map_err(|e| UrlError::Other(e.to_string()))?;
        let url = format!("{}&animate=1&fps=60", view.websocket_url.expose());
        Ok(LiveUrl::new(url, view.width, view.height))
    }
}

async fn animated_viewer(sim: &RunningSim) -> Viewer {
    let key = sim.account("ada").api_key.clone().expect("ada has a key");
    let client = Client::new(&sim.base_url, Credential::ApiKey(Secret::new(key))).unwrap();
    let machines = client.machines().list().await.unwrap().machines;
    let machine_id = machines
        .into_iter()
        .find(|m| m.name.as_deref() == Some("Design laptop"))
        .expect("ada's Design laptop")
        .machine_id;
    Viewer::start(
        AnimatedLive { client, machine_id },
        ViewerOptions::default(),
    )
}

async fn sim() -> RunningSim {
    Sim::start(Config {
        time_scale: 0.01,
        ..Config::default()
    })
    .await
    .unwrap()
}

fn with_token(url: &str, token: &str) -> String {
    let (base, _) = url.rsplit_once('/').unwrap();
    format!("{base}/{token}")
}

/// The next frame's (seq, connection), skipping nothing: anything else is a failure.
async fn next_frame(page: &mut Page) -> (u32, u32) {
    let message = tokio::time::timeout(PATIENCE, page.next())
        .await
        .expect("a frame in time")
        .expect("the socket is open")
        .expect("a readable message");
    let Message::Binary(bytes) = message else {
        panic!("frames are binary, got {message:?}");
    };
    assert_eq!(bytes[0], super::frame_bytes::VERSION);
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    (u32_at(2), u32_at(6))
}

async fn ack(page: &mut Page, seq: u32) {
    let ack = seq.to_le_bytes().to_vec();
    page.send(Message::Binary(ack.into())).await.unwrap();
}

#[tokio::test]
async fn only_the_views_own_token_connects_and_only_once() {
    let server = FrameSocket::bind().await.unwrap();
    let (ticket, mut arrives) = server.expect(1);
    let (other, _) = server.expect(2);
    assert!(ticket.url.starts_with("ws://127.0.0.1:"));
    assert!(!format!("{ticket:?}").contains("live/1/"), "Debug hides it");

    let wrong = with_token(&ticket.url, "not-the-token");
    assert!(connect_async(wrong).await.is_err(), "a wrong token");
    let token = ticket.url.rsplit_once('/').unwrap().1;
    let crossed = with_token(&other.url, token);
    assert!(
        connect_async(crossed).await.is_err(),
        "view 1's token on view 2"
    );
    let bare = ticket.url.rsplit_once("/live/").unwrap().0.to_owned() + "/";
    assert!(connect_async(bare).await.is_err(), "no token at all");
    assert!(arrives.try_recv().is_err(), "nothing was let through");

    let (_page, _) = connect_async(&ticket.url).await.expect("the right ticket");
    tokio::time::timeout(PATIENCE, &mut arrives)
        .await
        .expect("the connection is handed to the view")
        .expect("the view gets it");
    assert!(
        connect_async(&ticket.url).await.is_err(),
        "a ticket is good once"
    );
}

#[tokio::test]
async fn frames_arrive_in_order_two_at_most_until_acknowledged() {
    let sim = sim().await;
    let viewer = animated_viewer(&sim).await;
    let control = viewer.control();
    let server = FrameSocket::bind().await.unwrap();
    let (ticket, arrives) = server.expect(1);
    let statuses = Arc::new(Mutex::new(Vec::new()));
    let seen = statuses.clone();
    let bridge = tokio::spawn(async move {
        let socket = arrives.await.unwrap();
        pump::run(viewer, socket, None, |s| {
            seen.lock().unwrap().push(s.clone())
        })
        .await;
    });
    let (mut page, _) = connect_async(&ticket.url).await.unwrap();

    let first = next_frame(&mut page).await;
    let second = next_frame(&mut page).await;
    assert!(second.0 > first.0, "in order: {first:?} then {second:?}");
    assert!(statuses
        .lock()
        .unwrap()
        .iter()
        .any(|s| matches!(s, Status::Connected { .. })));

    // Two frames out and none acknowledged: the next waits (and with no `sync` echoed, the
    // simulator holds its stream too, so nothing piles up anywhere).
    let held = tokio::time::timeout(Duration::from_millis(500), page.next()).await;
    assert!(held.is_err(), "a third frame came unacknowledged: {held:?}");
    assert_eq!(control.stats().frames_delivered, 2);

    ack(&mut page, first.0).await;
    let third = next_frame(&mut page).await;
    assert!(third.0 > second.0);
    ack(&mut page, second.0).await;
    ack(&mut page, third.0).await;
    let fourth = next_frame(&mut page).await;
    assert!(fourth.0 > third.0);

    // The page goes away: its viewer is closed, and says so.
    page.close(None).await.unwrap();
    tokio::time::timeout(PATIENCE, bridge)
        .await
        .expect("the bridge ends with the page")
        .unwrap();
    let last = statuses.lock().unwrap().last().cloned();
    assert_eq!(last, Some(Status::Ended(EndReason::Stopped)));
}

/// Where the system's default paces TCP (BBR), a frame bigger than one segment reached the
/// page in two parts up to a frame apart; the frame socket picks a congestion control that
/// sends it whole (socket.rs, `without_pacing`).
#[cfg(target_os = "linux")]
#[tokio::test]
async fn the_page_connection_sends_without_pacing() {
    let server = FrameSocket::bind().await.unwrap();
    let (ticket, arrives) = server.expect(1);
    let (_page, _) = connect_async(&ticket.url).await.unwrap();
    let socket = tokio::time::timeout(PATIENCE, arrives)
        .await
        .expect("the connection is handed to the view")
        .unwrap();
    let name = socket2::SockRef::from(socket.get_ref())
        .tcp_congestion()
        .unwrap();
    let name = String::from_utf8_lossy(&name);
    let name = name.trim_end_matches('\0');
    assert!(
        ["cubic", "reno"].contains(&name),
        "the page's connection uses {name}, which paces or is unknown"
    );
}
