//! The live screen's bridge: one `porthole_live::Viewer` per open view, its frames handed to the
//! page over a Tauri channel as binary messages ([`frame_bytes`]), its states as typed events
//! ([`status::LiveStatusChanged`]).
//!
//! Invariants: the live URL (it carries a token) stays in Rust, inside the viewer; the page
//! acknowledges each frame once drawn (`live_ack`), which is what echoes its `sync` upstream, so
//! at most the viewer's two frames are ever in the IPC queue and newer ones coalesce in Rust.

pub mod commands;
pub mod frame_bytes;
pub mod renderer;
mod snapshot;
pub mod status;
mod url_source;

use porthole_live::{Viewer, ViewerControl, ViewerEvent, ViewerOptions};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use tauri::ipc::{Channel, InvokeResponseBody, IpcResponse};
use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use crate::connection::Connection;
use crate::error::AppResult;
use status::{LiveStatus, LiveStatusChanged};
use url_source::ServiceUrls;

/// One encoded frame; the page receives an `ArrayBuffer` (typed `unknown` in the bindings, as
/// specta has no name for it; `ui/src/lib/live/frame.ts` checks and decodes it).
pub struct FrameBytes(pub Vec<u8>);

impl IpcResponse for FrameBytes {
    fn body(self) -> tauri::Result<InvokeResponseBody> {
        Ok(InvokeResponseBody::Raw(self.0))
    }
}

impl specta::Type for FrameBytes {
    fn definition(types: &mut specta::Types) -> specta::datatype::DataType {
        <specta_typescript::Unknown as specta::Type>::definition(types)
    }
}

/// The open views, by id.
#[derive(Default)]
pub struct LiveViews {
    next_id: AtomicU32,
    open: Mutex<HashMap<u32, ViewerControl>>,
}

impl LiveViews {
    fn control(&self, view_id: u32) -> Option<ViewerControl> {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&view_id)
            .cloned()
    }

    fn remove(&self, view_id: u32) -> Option<ViewerControl> {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&view_id)
    }
}

/// The views of this app, managed on first use (so the shell's setup needs no change).
fn views(app: &AppHandle) -> tauri::State<'_, LiveViews> {
    if app.try_state::<LiveViews>().is_none() {
        app.manage(LiveViews::default());
    }
    app.state::<LiveViews>()
}

/// Starts a live view of `machine_id`; frames go to `frames`, states to the page as events.
pub async fn open(
    app: &AppHandle,
    machine_id: String,
    frames: Channel<FrameBytes>,
) -> AppResult<u32> {
    let active = app.state::<Connection>().active().await?;
    let source = ServiceUrls {
        client: active.client,
        machine_id,
    };
    let viewer = Viewer::start(source, ViewerOptions::default());
    let open_views = views(app);
    let view_id = open_views.next_id.fetch_add(1, Ordering::Relaxed) + 1;
    open_views
        .open
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(view_id, viewer.control());
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        pump(&app, view_id, viewer, frames).await;
        views(&app).remove(view_id);
    });
    Ok(view_id)
}

/// Hands every event to the page until the viewer ends or the page goes away.
async fn pump(app: &AppHandle, view_id: u32, viewer: Viewer, frames: Channel<FrameBytes>) {
    while let Some(event) = viewer.next_event().await {
        match event {
            ViewerEvent::Frame(frame) => {
                if frames
                    .send(FrameBytes(frame_bytes::encode(&frame)))
                    .is_err()
                {
                    // The page is gone: nobody will draw (or acknowledge) again.
                    viewer.control().close();
                }
            }
            ViewerEvent::Status(status) => {
                let status = LiveStatus::from(&status);
                let _ = LiveStatusChanged { view_id, status }.emit(app);
            }
        }
    }
}

pub fn close(app: &AppHandle, view_id: u32) {
    if let Some(control) = views(app).remove(view_id) {
        control.close();
    }
}

/// Runs `f` on the view's control if the view is still open (a late ack after close is fine).
pub fn with_control(app: &AppHandle, view_id: u32, f: impl FnOnce(&ViewerControl)) {
    if let Some(control) = views(app).control(view_id) {
        f(&control);
    }
}

pub fn stats(app: &AppHandle, view_id: u32) -> Option<status::LiveStats> {
    views(app).control(view_id).map(|c| c.stats().into())
}
