//! The live view: `POST /v1/agents/machines/{id}/live` (the Live rows of Errors, the limit)
//! and the Guacamole stream behind `websocketUrl`, watched by a real websocket viewer: what a
//! viewer is sent. How a stream ends and the Live errors are in `live_endings.rs`; the viewer
//! here serves both.

use crate::support::*;
use base64::Engine as _;
use futures::{SinkExt, StreamExt};
use porthole_live::codec::{parse_frame, Instruction};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

pub(crate) type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A minimal view-only viewer: reads whole frames, answers nothing unless told.
pub(crate) struct Viewer {
    ws: Socket,
    protocol: Option<String>,
}

impl Viewer {
    pub(crate) async fn connect(url: &str) -> Viewer {
        let mut req = url.into_client_request().expect("a websocket URL");
        req.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_static("guacamole"),
        );
        let (ws, res) = tokio_tungstenite::connect_async(req)
            .await
            .expect("the handshake succeeds");
        let protocol = res
            .headers()
            .get("sec-websocket-protocol")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        Viewer { ws, protocol }
    }

    /// The instructions of the next text frame; `None` when the stream closed or stayed
    /// silent for `wait`.
    pub(crate) async fn frame(
        &mut self,
        wait: Duration,
    ) -> Option<Result<Vec<Instruction>, String>> {
        loop {
            let msg = tokio::time::timeout(wait, self.ws.next())
                .await
                .ok()??
                .ok()?;
            match msg {
                Message::Text(t) => {
                    let parsed: Result<Vec<Instruction>, _> = parse_frame(t.as_str())
                        .map(|r| r.map(|i| i.to_instruction()))
                        .collect();
                    return Some(parsed.map_err(|e| e.to_string()));
                }
                Message::Close(_) => return None,
                _ => {}
            }
        }
    }

    /// Instructions until (and including) the next `sync`.
    pub(crate) async fn until_sync(&mut self, wait: Duration) -> Vec<Instruction> {
        let mut out = Vec::new();
        while let Some(frame) = self.frame(wait).await {
            let frame = frame.expect("well-formed instructions");
            let done = frame.iter().any(|i| i.opcode == "sync");
            out.extend(frame);
            if done {
                return out;
            }
        }
        panic!(
            "the stream ended before a sync: {:?}",
            out.iter().map(|i| &i.opcode).collect::<Vec<_>>()
        );
    }

    pub(crate) async fn say(&mut self, opcode: &str, args: &[&str]) {
        let text = Instruction::new(opcode, args.iter().copied()).encode();
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    pub(crate) async fn ack(&mut self, sync: &Instruction) {
        let ts = sync.args[0].clone();
        self.say("sync", &[ts.as_str()]).await;
    }
}

pub(crate) fn last_sync(ins: &[Instruction]) -> Instruction {
    ins.iter()
        .rev()
        .find(|i| i.opcode == "sync")
        .cloned()
        .expect("a sync")
}

/// The bytes of every image stream in `ins`, with the `img` instruction that opened it.
pub(crate) fn images(ins: &[Instruction]) -> Vec<(Instruction, Vec<u8>)> {
    let mut out: Vec<(Instruction, Vec<u8>)> = Vec::new();
    let mut open: Vec<(Instruction, String)> = Vec::new();
    for i in ins {
        match i.opcode.as_str() {
            "img" => open.push((i.clone(), String::new())),
            "blob" => {
                assert!(
                    i.args[1].len() <= 8064,
                    "a blob carries at most 6048 raw bytes"
                );
                if let Some(o) = open.iter_mut().find(|(img, _)| img.args[0] == i.args[0]) {
                    o.1.push_str(&i.args[1]);
                }
            }
            "end" => {
                if let Some(at) = open.iter().position(|(img, _)| img.args[0] == i.args[0]) {
                    let (img, b64) = open.remove(at);
                    let bytes = base64::engine::general_purpose::STANDARD
                        .decode(b64)
                        .expect("base64 blobs");
                    out.push((img, bytes));
                }
            }
            _ => {}
        }
    }
    out
}

pub(crate) async fn live_url(p: &Peer, who: &str, machine: &str) -> String {
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{machine}/live"), who)).await;
    assert_eq!(s, 200, "{b}");
    b["websocketUrl"].as_str().expect("websocketUrl").to_owned()
}

#[tokio::test]
async fn a_new_viewer_gets_the_guacd_resync_sequence() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{m}/live"), "ada")).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (
            b["machineId"].as_str(),
            b["width"].as_u64(),
            b["height"].as_u64()
        ),
        (Some(m.as_str()), Some(1280), Some(800))
    );
    let url = b["websocketUrl"].as_str().unwrap_or("");
    assert!(
        url.starts_with("ws://127.0.0.1:") && url.contains("?token="),
        "{url}"
    );

    let mut v = Viewer::connect(url).await;
    assert_eq!(
        v.protocol.as_deref(),
        Some("guacamole"),
        "the subprotocol is echoed"
    );
    let first = v.until_sync(PATIENCE).await;
    let ops: Vec<&str> = first
        .iter()
        .map(|i| i.opcode.as_str())
        .filter(|o| *o != "blob")
        .collect();
    assert_eq!(
        ops,
        ["", "size", "img", "end", "size", "img", "end", "cursor", "mouse", "sync"],
        "guacd's resync order"
    );
    assert_eq!(first[0].args.len(), 1);
    assert_eq!(first[0].args[0].len(), 36, "the tunnel uuid");
    assert_eq!(first[1].args, ["0", "1280", "800"]);
    let imgs = images(&first);
    let (screen, jpeg) = &imgs[0];
    assert_eq!(
        &screen.args[2..],
        ["0", "image/jpeg", "0", "0"],
        "a full-frame JPEG on layer 0"
    );
    let decoded = image::load_from_memory(jpeg)
        .expect("a real JPEG")
        .to_rgb8();
    assert_eq!(decoded.dimensions(), (1280, 800));
    let (cursor, png) = &imgs[1];
    assert_eq!(
        &cursor.args[2..4],
        ["-1", "image/png"],
        "the pointer goes to layer -1"
    );
    assert!(png.starts_with(b"\x89PNG"));
    let cur = first.iter().find(|i| i.opcode == "cursor").expect("cursor");
    assert_eq!(cur.args[2], "-1");
    let sync = last_sync(&first);
    let mouse = first.iter().find(|i| i.opcode == "mouse").expect("mouse");
    assert_eq!(
        mouse.args[3], sync.args[0],
        "mouse carries the frame's timestamp"
    );
}

#[tokio::test]
async fn later_frames_are_dirty_png_rectangles_paced_by_sync_echoes() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&format!("{url}&fps=60&animate=1")).await;
    let first = v.until_sync(PATIENCE).await;
    // Without echoes the server stops after two unacknowledged frames; an echo of a
    // timestamp it never sent acknowledges nothing.
    let second = v.until_sync(PATIENCE).await;
    v.say("sync", &["12345"]).await;
    let mut extra = 0;
    while let Some(Ok(frame)) = v.frame(Duration::from_millis(400)).await {
        extra += frame.iter().filter(|i| i.opcode == "sync").count();
    }
    assert_eq!(extra, 0, "no third frame while two wait for their echo");
    let rects = images(&second);
    assert!(!rects.is_empty(), "the animation changed something");
    for (img, png) in &rects {
        assert_eq!(img.args[3], "image/png", "later frames are PNG rectangles");
        let pic = image::load_from_memory(png).expect("a real PNG");
        assert!(
            pic.width() < 1280 || pic.height() < 800,
            "a rectangle, not the whole screen"
        );
    }
    v.ack(&last_sync(&first)).await;
    v.ack(&last_sync(&second)).await;
    for _ in 0..5 {
        let next = v.until_sync(PATIENCE).await;
        v.ack(&last_sync(&next)).await;
    }
    v.say("", &["ping", "1"]).await;
    v.say("mouse", &["1", "1", "1", "0"]).await;
    let next = v.until_sync(PATIENCE).await;
    assert!(
        next.iter().any(|i| i.opcode == "sync"),
        "the stream goes on; input from a viewer is ignored"
    );
}

#[tokio::test]
async fn a_frame_held_back_by_a_lagging_viewer_goes_out_as_soon_as_it_catches_up() {
    // Like guacd, the server holds a frame while the viewer lags and sends it on the echo,
    // instead of waiting for the next tick: at fps=1 a tick grid would cost up to a second
    // per late echo.
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&format!("{url}&fps=1&animate=1")).await;
    let first = v.until_sync(PATIENCE).await;
    let _second = v.until_sync(PATIENCE).await;
    // Two frames await their echo, so the tick a second later finds the window full.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    v.ack(&last_sync(&first)).await;
    // The tick after that is ~0.8 s away: a frame within 0.4 s is the one held back.
    let next = tokio::time::timeout(Duration::from_millis(400), v.until_sync(PATIENCE)).await;
    assert!(
        next.is_ok(),
        "the held-back frame goes out on the echo, not at the next tick"
    );
}

#[tokio::test]
async fn the_viewer_sees_the_agent_work() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&url).await;
    let first = v.until_sync(PATIENCE).await;
    v.ack(&last_sync(&first)).await;
    p.start_task(
        "ada",
        serde_json::json!({ "message": "Look up the weather in Lisbon", "machineId": m }),
    )
    .await;
    let mut painted = 0;
    for _ in 0..20 {
        let frame = v.until_sync(PATIENCE).await;
        painted += images(&frame).len();
        v.ack(&last_sync(&frame)).await;
        if painted >= 3 {
            break;
        }
    }
    assert!(
        painted >= 3,
        "windows opening and text appearing arrive as rectangles"
    );
}

#[tokio::test]
async fn the_viewer_may_ask_for_another_resolution() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&format!("{url}&width=1920&height=1080&fps=60")).await;
    let first = v.until_sync(PATIENCE).await;
    let size = first.iter().find(|i| i.opcode == "size").expect("size");
    assert_eq!(size.args, ["0", "1920", "1080"]);
    let (_, jpeg) = &images(&first)[0];
    let decoded = image::load_from_memory(jpeg).expect("a JPEG");
    assert_eq!((decoded.width(), decoded.height()), (1920, 1080));
    let (_, b) = send(p.post(&format!("/v1/agents/machines/{m}/live"), "ada")).await;
    assert_eq!(
        (b["width"].as_u64(), b["height"].as_u64()),
        (Some(1920), Some(1080)),
        "the computer's screen now has that size"
    );

    // A second viewer asking for another size resizes the screen; the first one is told.
    v.ack(&last_sync(&first)).await;
    let url = live_url(&p, "ada", &m).await;
    let mut w = Viewer::connect(&format!("{url}&width=1280&height=800")).await;
    let _ = w.until_sync(PATIENCE).await;
    // A frame drawn before the resize may still be on its way to the first viewer: the new
    // size comes in one of the next frames, each acknowledged as a viewer does.
    let asked = std::time::Instant::now();
    let resized = loop {
        let next = v.until_sync(PATIENCE).await;
        if let Some(size) = next.iter().find(|i| i.opcode == "size") {
            break size.args.clone();
        }
        assert!(asked.elapsed() < PATIENCE, "a new size");
        v.ack(&last_sync(&next)).await;
    };
    assert_eq!(resized, ["0", "1280", "800"]);
}
