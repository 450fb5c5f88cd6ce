//! The live view: `POST /v1/agents/machines/{id}/live` (the Live rows of Errors, the limit)
//! and the Guacamole stream behind `websocketUrl`, watched by a real websocket viewer.

use crate::support::*;
use base64::Engine as _;
use futures::{SinkExt, StreamExt};
use porthole_live::codec::{parse_frame, Instruction};
use porthole_sim::{Config, FaultSpec};
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A minimal view-only viewer: reads whole frames, answers nothing unless told.
struct Viewer {
    ws: Socket,
    protocol: Option<String>,
}

impl Viewer {
    async fn connect(url: &str) -> Viewer {
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
    async fn frame(&mut self, wait: Duration) -> Option<Result<Vec<Instruction>, String>> {
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
    async fn until_sync(&mut self, wait: Duration) -> Vec<Instruction> {
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

    async fn say(&mut self, opcode: &str, args: &[&str]) {
        let text = Instruction::new(opcode, args.iter().copied()).encode();
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    async fn ack(&mut self, sync: &Instruction) {
        let ts = sync.args[0].clone();
        self.say("sync", &[ts.as_str()]).await;
    }
}

fn last_sync(ins: &[Instruction]) -> Instruction {
    ins.iter()
        .rev()
        .find(|i| i.opcode == "sync")
        .cloned()
        .expect("a sync")
}

/// The bytes of every image stream in `ins`, with the `img` instruction that opened it.
fn images(ins: &[Instruction]) -> Vec<(Instruction, Vec<u8>)> {
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

async fn live_url(p: &Peer, who: &str, machine: &str) -> String {
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
async fn nop_when_idle_and_a_silent_viewer_is_dropped() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&format!("{url}&nop_ms=150&drop_ms=5000")).await;
    let first = v.until_sync(PATIENCE).await;
    v.ack(&last_sync(&first)).await;
    // Nothing changes on this desktop (bar the taskbar clock once a minute), so a `nop`
    // follows within the 150 ms asked for.
    let mut saw_nop = false;
    for _ in 0..10 {
        let frame = v
            .frame(Duration::from_secs(5))
            .await
            .expect("something within the nop time")
            .expect("parses");
        if let Some(sync) = frame.iter().find(|i| i.opcode == "sync") {
            v.ack(sync).await;
        }
        if frame.iter().map(|i| i.opcode.as_str()).eq(["nop"]) {
            saw_nop = true;
            break;
        }
    }
    assert!(saw_nop, "an idle stream says nop");

    let mut quiet = Viewer::connect(&format!("{url}&nop_ms=100&drop_ms=400")).await;
    let mut last = Vec::new();
    while let Some(frame) = quiet.frame(Duration::from_secs(5)).await {
        last = frame.expect("parses");
    }
    let err = last
        .iter()
        .find(|i| i.opcode == "error")
        .unwrap_or_else(|| panic!("an error before the close, got {last:?}"));
    assert_eq!(err.args[1], "776", "CLIENT_TIMEOUT");
}

#[tokio::test]
async fn bad_and_expired_tokens_get_error_then_close() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let (base, _) = url.split_once('?').expect("a query");
    for bad in [
        format!("{base}?token=forged.token"),
        base.to_owned(),
        url.replace(&m, "m_other"),
    ] {
        let mut v = Viewer::connect(&bad).await;
        let frame = v.frame(PATIENCE).await.expect("an answer").expect("parses");
        assert_eq!(frame[0].opcode, "error", "{bad}");
        assert_eq!(frame[0].args[1], "769", "CLIENT_UNAUTHORIZED");
        assert!(v.frame(PATIENCE).await.is_none(), "then the server closes");
    }

    // 15 documented minutes are 90 ms here.
    let p = start_with(Config {
        time_scale: 0.0001,
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut v = Viewer::connect(&url).await;
    let frame = v.frame(PATIENCE).await.expect("an answer").expect("parses");
    assert_eq!(
        (frame[0].opcode.as_str(), frame[0].args[1].as_str()),
        ("error", "769"),
        "an expired token"
    );
    assert!(frame[0].args[0].contains("expired"));

    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&url).await;
    let mut ending = None;
    while let Some(frame) = v.frame(PATIENCE).await {
        let frame = frame.expect("parses");
        if let Some(sync) = frame.iter().find(|i| i.opcode == "sync") {
            v.ack(sync).await;
        }
        ending = frame.into_iter().find(|i| i.opcode == "error").or(ending);
    }
    assert_eq!(
        ending.map(|e| e.args[1].clone()).as_deref(),
        Some("522"),
        "the stream ends when the token expires"
    );
}

#[tokio::test]
async fn the_stream_ends_when_the_computer_sleeps() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&url).await;
    let first = v.until_sync(PATIENCE).await;
    v.ack(&last_sync(&first)).await;
    porthole_sim::machines::power::set_power(
        p.sim.state(),
        &m,
        porthole_sim::records::Power::Hibernated,
    );
    let mut ending = None;
    while let Some(frame) = v.frame(PATIENCE).await {
        ending = frame
            .expect("parses")
            .into_iter()
            .find(|i| i.opcode == "error")
            .or(ending);
    }
    assert_eq!(
        ending.map(|e| e.args[1].clone()).as_deref(),
        Some("520"),
        "UPSTREAM_UNAVAILABLE"
    );
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{m}/live"), "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("machine_not_running")),
        "{b}"
    );
}

#[tokio::test]
async fn errors_of_the_live_rows_and_the_hourly_limit() {
    let p = start().await;
    let asleep = p.machine_id("ada", "Research box").await;
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{asleep}/live"), "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("machine_not_running")),
        "{b}"
    );
    let own = p.machine_id("ada", "Ada's MacBook").await;
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{own}/live"), "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (502, Some("live_unavailable")),
        "{b}"
    );
    let m = p.machine_id("ada", "Design laptop").await;
    let res = p
        .post(&format!("/v1/agents/machines/{m}/live"), "fred")
        .send()
        .await
        .expect("live");
    assert_eq!(res.status().as_u16(), 404, "another account's computer");
    assert!(
        res.bytes().await.unwrap_or_default().is_empty(),
        "no error body"
    );
    let free = format!("free-{}", p.account("fred").user_id);
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{free}/live"), "fred")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("machine_not_running")),
        "the unclaimed free computer sleeps: {b}"
    );
    let (s, _) = send(p.req(
        reqwest::Method::POST,
        &format!("/v1/agents/machines/{m}/live"),
        "ada",
        Cred::None,
    ))
    .await;
    assert_eq!(s, 401);

    // Two of ada's requests above counted (fred's count toward fred, the anonymous one not).
    let mut count = 2;
    while count < 120 {
        let (s, _) = send(p.post(&format!("/v1/agents/machines/{m}/live"), "ada")).await;
        assert_eq!(s, 200, "request {count}");
        count += 1;
    }
    let res = p
        .post(&format!("/v1/agents/machines/{m}/live"), "ada")
        .send()
        .await
        .expect("live");
    assert_eq!(res.status().as_u16(), 429);
    assert!(res.headers().contains_key("retry-after"));
    assert!(
        res.bytes().await.unwrap_or_default().is_empty(),
        "no error body"
    );
}

#[tokio::test]
async fn the_bad_frame_fault_sends_a_malformed_instruction() {
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("bad-frame=1").unwrap_or_default(),
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&format!("{url}&animate=1")).await;
    let first = v.until_sync(PATIENCE).await;
    v.ack(&last_sync(&first)).await;
    let frame = v.frame(PATIENCE).await.expect("a frame");
    assert!(
        frame.is_err(),
        "a garbled instruction before the next frame: {frame:?}"
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
    let next = v.until_sync(PATIENCE).await;
    let resized = next
        .iter()
        .find(|i| i.opcode == "size")
        .expect("a new size");
    assert_eq!(resized.args, ["0", "1280", "800"]);
}

#[tokio::test]
async fn the_drop_stream_fault_cuts_the_connection_without_an_error() {
    let faults = FaultSpec::parse("drop-stream=1").unwrap_or_default();
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults,
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&format!("{url}&animate=1")).await;
    // No echo: a viewer's unread bytes would turn the server's close into a reset that can
    // swallow the last frame. Two frames may be in flight anyway.
    let _first = v.until_sync(PATIENCE).await;
    let mut seen = Vec::new();
    while let Some(frame) = v.frame(PATIENCE).await {
        seen.extend(frame.expect("parses"));
    }
    assert!(
        seen.iter().any(|i| i.opcode == "sync"),
        "one more frame arrived"
    );
    assert!(
        !seen.iter().any(|i| i.opcode == "error"),
        "then the connection ended without a word"
    );
}
