//! One viewer's Guacamole stream of a machine's desktop.
//!
//! A new viewer gets what guacd 1.6 sends when it resyncs one: the tunnel uuid, `size` of
//! layer 0, the whole screen as a JPEG (`img` + `blob`s + `end`), the pointer image in layer
//! -1 with `cursor`, `mouse`, and `sync`. After that, each frame carries PNGs of the
//! rectangles that changed (a tile diff against the last frame sent), `mouse` when the pointer
//! moved, and `sync`.
//!
//! Pacing: a tick every `1/fps` s, and at most [`MAX_IN_FLIGHT`] frames may wait for the
//! viewer's `sync` echo; while the viewer lags, changes pile up in the desktop and go out as one
//! frame once it catches up, so a slow viewer costs neither memory nor stale frames. A tick
//! that finds the window full is owed, and the owed frame goes out as soon as an echo frees a
//! slot, the way guacd sends its next frame the moment the viewer catches up: on a strict tick
//! grid every late echo would cost a whole tick, capping a viewer whose round trip is a little
//! over one tick well under `fps`. At most one frame is owed, so the stream never bursts nor
//! exceeds `fps` on average.
//!
//! `nop` goes out after `nop_ms` with nothing else to say; a viewer silent for `drop_ms` is
//! dropped. The stream ends with `error` + close when the token expires or the computer stops
//! running. Faults: `bad-frame` sends a garbled instruction before a frame, `drop-stream` cuts
//! the connection after one.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures::StreamExt;
use porthole_live::codec::parse_frame;
use tiny_skia::Pixmap;
use tokio::time::{Instant, MissedTickBehavior};

use super::token::Grant;
use super::wire::{self, status, FrameWriter, MASK_OVER, MASK_SRC};
use crate::clock::Clock;
use crate::desktop::{dirty_rects, Desktop};
use crate::faults::Fault;
use crate::state::AppState;

/// Frames that may await the viewer's `sync` echo before the stream waits.
pub const MAX_IN_FLIGHT: usize = 2;

/// Knobs a viewer may put in the query string next to the token (documented in the README).
#[derive(Debug, Clone)]
pub struct StreamOptions {
    /// Most frames per second (1–120).
    pub fps: u32,
    /// Quality of the full-frame JPEG (1–100).
    pub quality: u8,
    /// Keep the desktop animating (for benchmarks).
    pub animate: bool,
    /// Resize the remote desktop to this size on connect (as RDP's display update does).
    pub size: Option<(u32, u32)>,
    /// Silence after which the server sends `nop`.
    pub nop_after: Duration,
    /// Viewer silence after which the viewer is dropped.
    pub drop_after: Duration,
}

impl Default for StreamOptions {
    fn default() -> Self {
        Self {
            fps: 30,
            quality: 80,
            animate: false,
            size: None,
            nop_after: Duration::from_secs(5),
            drop_after: Duration::from_secs(15),
        }
    }
}

impl StreamOptions {
    /// Reads the knobs from the query pairs; bad values fall back to the defaults.
    pub fn from_query(pairs: &[(String, String)]) -> Self {
        let mut o = Self::default();
        let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        if let Some(v) = get("fps").and_then(|v| v.parse::<u32>().ok()) {
            o.fps = v.clamp(1, 120);
        }
        if let Some(v) = get("quality").and_then(|v| v.parse::<u8>().ok()) {
            o.quality = v.clamp(1, 100);
        }
        o.animate = matches!(get("animate"), Some("1" | "true" | "yes"));
        let dim = |k: &str| get(k).and_then(|v| v.parse::<u32>().ok());
        o.size = dim("width").zip(dim("height"));
        if let Some(v) = get("nop_ms").and_then(|v| v.parse::<u64>().ok()) {
            o.nop_after = Duration::from_millis(v.clamp(10, 60_000));
        }
        if let Some(v) = get("drop_ms").and_then(|v| v.parse::<u64>().ok()) {
            o.drop_after = Duration::from_millis(v.clamp(10, 600_000));
        }
        o
    }
}

/// Why a stream stopped, as the `error` instruction says it.
struct Ending {
    message: &'static str,
    status: u16,
}

struct Viewer {
    socket: WebSocket,
    last_heard: Instant,
    last_said: Instant,
    in_flight: VecDeque<i64>,
    last_timestamp: i64,
}

impl Viewer {
    async fn send(&mut self, frames: Vec<String>) -> bool {
        for f in frames {
            if self.socket.send(Message::Text(f.into())).await.is_err() {
                return false;
            }
        }
        self.last_said = Instant::now();
        true
    }

    /// A fresh `sync` timestamp: Unix milliseconds, strictly increasing.
    fn timestamp(&mut self) -> i64 {
        self.last_timestamp = Clock::now_ms().max(self.last_timestamp + 1);
        self.last_timestamp
    }

    /// Ends the stream the way Guacamole servers do: `error`, then a close whose reason is
    /// the numeric status.
    async fn end(mut self, ending: Ending) {
        let status = ending.status.to_string();
        let error = wire::single("error", &[ending.message, status.as_str()]);
        let _ = self.socket.send(Message::Text(error.into())).await;
        let close = CloseFrame {
            code: 1000,
            reason: status.into(),
        };
        let _ = self.socket.send(Message::Close(Some(close))).await;
        // Finish the closing handshake (read until the viewer's close comes back): a socket
        // closed with the viewer's messages unread is reset, and the reset can overtake the
        // `error` above, so the viewer would never learn why.
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            while let Some(Ok(_)) = self.socket.next().await {}
        })
        .await;
    }

    /// Handles one message from the viewer. `false` when the viewer left.
    fn heard(&mut self, msg: Message) -> bool {
        self.last_heard = Instant::now();
        let text = match msg {
            Message::Text(t) => t,
            Message::Close(_) => return false,
            _ => return true,
        };
        for ins in parse_frame(text.as_str()) {
            // View-only: anything but `sync`, `nop`, pings and `disconnect` is ignored, and
            // a malformed frame from the viewer is not worth ending its stream for.
            let Ok(ins) = ins else { break };
            match ins.opcode() {
                "sync" => {
                    if let Some(ts) = ins.arg(0).and_then(|t| t.parse::<i64>().ok()) {
                        if self.in_flight.contains(&ts) {
                            self.in_flight.retain(|&t| t > ts);
                        }
                    }
                }
                "disconnect" => return false,
                _ => {}
            }
        }
        true
    }
}

/// Serves the stream until it ends.
pub async fn serve(
    socket: WebSocket,
    state: AppState,
    grant: Grant,
    desktop: Desktop,
    opts: StreamOptions,
) {
    let now = Instant::now();
    let mut viewer = Viewer {
        socket,
        last_heard: now,
        last_said: now,
        in_flight: VecDeque::new(),
        last_timestamp: 0,
    };
    if let Some((w, h)) = opts.size {
        desktop.resize(w, h);
    }
    if opts.animate {
        desktop.tick_animation();
    }
    let mut shown = desktop.frame();
    let mut pointer = desktop.pointer();
    let first = first_frame(&mut viewer, &shown, pointer, &opts);
    if !viewer.send(first).await {
        return;
    }
    // A tick found the window full; its frame goes out when an echo frees a slot.
    let mut owed = false;
    let mut ticker = tokio::time::interval(Duration::from_secs_f64(1.0 / f64::from(opts.fps)));
    ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let ending = loop {
        tokio::select! {
            msg = viewer.socket.next() => match msg {
                Some(Ok(msg)) => {
                    if !viewer.heard(msg) {
                        break None;
                    }
                    // The owed tick already advanced the animation: its frame shows that.
                    if owed && viewer.in_flight.len() < MAX_IN_FLIGHT {
                        owed = false;
                        if !send_next_frame(&mut viewer, &state, &desktop, &mut shown, &mut pointer, opts.quality).await {
                            break None;
                        }
                    }
                }
                _ => break None,
            },
            _ = ticker.tick() => {
                if let Some(ending) = check_alive(&state, &grant, &desktop) {
                    break Some(ending);
                }
                if viewer.last_heard.elapsed() >= opts.drop_after {
                    break Some(Ending { message: "The viewer stopped answering.", status: status::CLIENT_TIMEOUT });
                }
                if opts.animate {
                    desktop.tick_animation();
                }
                if viewer.in_flight.len() < MAX_IN_FLIGHT {
                    if !send_next_frame(&mut viewer, &state, &desktop, &mut shown, &mut pointer, opts.quality).await {
                        break None;
                    }
                } else {
                    owed = true;
                }
                if viewer.last_said.elapsed() >= opts.nop_after && !viewer.send(vec![wire::single::<&str>("nop", &[])]).await {
                    break None;
                }
            }
        }
    };
    if opts.animate {
        desktop.stop_animation();
    }
    if let Some(ending) = ending {
        viewer.end(ending).await;
    }
}

/// Sends what changed since `shown` as one frame (nothing when nothing did), with the faults
/// that ride on frames. `false` when the stream must end.
async fn send_next_frame(
    viewer: &mut Viewer,
    state: &AppState,
    desktop: &Desktop,
    shown: &mut Arc<Pixmap>,
    pointer: &mut (i32, i32),
    quality: u8,
) -> bool {
    let next = desktop.frame();
    let at = desktop.pointer();
    let Some(frames) = update(
        viewer,
        shown,
        &next,
        (at != *pointer).then_some(at),
        quality,
    ) else {
        return true;
    };
    if state.faults().roll(Fault::BadFrame) && !viewer.send(vec![malformed()]).await {
        return false;
    }
    if !viewer.send(frames).await {
        return false;
    }
    *shown = next;
    *pointer = at;
    // The `drop-stream` fault: the connection just ends, no `error`.
    !state.faults().roll(Fault::DropStream)
}

fn first_frame(
    viewer: &mut Viewer,
    frame: &Pixmap,
    pointer: (i32, i32),
    opts: &StreamOptions,
) -> Vec<String> {
    let mut w = FrameWriter::default();
    w.push("", &[uuid::Uuid::new_v4().to_string()]);
    w.push(
        "size",
        &[
            "0".to_owned(),
            frame.width().to_string(),
            frame.height().to_string(),
        ],
    );
    w.image(
        1,
        MASK_OVER,
        0,
        "image/jpeg",
        (0, 0),
        &Desktop::encode_jpeg(frame, opts.quality),
    );
    let cursor = Desktop::cursor_image();
    if !cursor.png.is_empty() {
        w.push(
            "size",
            &[
                "-1".to_owned(),
                cursor.width.to_string(),
                cursor.height.to_string(),
            ],
        );
        w.image(2, MASK_SRC, -1, "image/png", (0, 0), &cursor.png);
        let (hx, hy) = cursor.hotspot;
        let args =
            [hx, hy, -1, 0, 0, cursor.width as i32, cursor.height as i32].map(|v| v.to_string());
        w.push("cursor", &args);
    }
    let ts = viewer.timestamp();
    w.push(
        "mouse",
        &[
            pointer.0.to_string(),
            pointer.1.to_string(),
            "0".into(),
            ts.to_string(),
        ],
    );
    w.push("sync", &[ts.to_string(), "1".into()]);
    viewer.in_flight.push_back(ts);
    w.finish()
}

/// The next frame, or `None` when nothing visible changed.
fn update(
    viewer: &mut Viewer,
    shown: &Pixmap,
    next: &Pixmap,
    pointer: Option<(i32, i32)>,
    quality: u8,
) -> Option<Vec<String>> {
    let mut w = FrameWriter::default();
    if (shown.width(), shown.height()) != (next.width(), next.height()) {
        // The screen was resized: the new size, then the whole screen again.
        let size = [
            "0".to_owned(),
            next.width().to_string(),
            next.height().to_string(),
        ];
        w.push("size", &size);
        let jpeg = Desktop::encode_jpeg(next, quality);
        w.image(1, MASK_OVER, 0, "image/jpeg", (0, 0), &jpeg);
        return Some(finish_frame(viewer, w, pointer));
    }
    let rects = if std::ptr::eq(shown, next) {
        Vec::new()
    } else {
        dirty_rects(shown, next)
    };
    if rects.is_empty() && pointer.is_none() {
        return None;
    }
    for r in &rects {
        w.image(
            1,
            MASK_OVER,
            0,
            "image/png",
            (r.x, r.y),
            &Desktop::encode_png(next, *r),
        );
    }
    Some(finish_frame(viewer, w, pointer))
}

/// Ends a frame: `mouse` when the pointer moved, then `sync`, which the viewer must echo.
fn finish_frame(
    viewer: &mut Viewer,
    mut w: FrameWriter,
    pointer: Option<(i32, i32)>,
) -> Vec<String> {
    let ts = viewer.timestamp();
    if let Some((x, y)) = pointer {
        w.push(
            "mouse",
            &[x.to_string(), y.to_string(), "0".into(), ts.to_string()],
        );
    }
    w.push("sync", &[ts.to_string(), "1".into()]);
    viewer.in_flight.push_back(ts);
    w.finish()
}

/// The `bad-frame` fault: an instruction whose length prefix overruns its frame.
fn malformed() -> String {
    "4.sync,40.123;".to_owned()
}

fn check_alive(state: &AppState, grant: &Grant, desktop: &Desktop) -> Option<Ending> {
    if Clock::now_ms() >= grant.expires_at_ms {
        return Some(Ending {
            message: "The live view link expired. Ask for a new one.",
            status: status::SESSION_TIMEOUT,
        });
    }
    let running = state
        .machine(&grant.owner, &grant.machine_id)
        .filter(|m| m.awake)
        .and_then(|m| m.desktop)
        .is_some_and(|d| d.same_screen(desktop));
    (!running).then_some(Ending {
        message: "The computer stopped running.",
        status: status::UPSTREAM_UNAVAILABLE,
    })
}
