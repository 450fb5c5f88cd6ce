//! The live screen's bridge: one `porthole_live::Viewer` per open view, its frames handed to the
//! page over a loopback WebSocket ([`socket`], [`pump`]) as binary messages ([`frame_bytes`]),
//! its states as typed events ([`status::LiveStatusChanged`]).
//!
//! Invariants: the live URL (it carries the service's token) stays in Rust, inside the viewer;
//! the page acknowledges each frame once drawn (over the same socket), which is what echoes its
//! `sync` upstream, so at most the viewer's two frames are ever on their way and newer ones
//! coalesce in Rust.

pub mod commands;
mod film_feed;
pub mod for_film;
pub mod frame_bytes;
pub mod full_screen;
mod pixels;
mod pump;
pub mod renderer;
pub mod snapshot;
mod socket;
pub mod status;
mod url_source;

use porthole_live::{Viewer, ViewerControl, ViewerOptions};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use crate::connection::Connection;
use crate::error::{UiCode, UiError};
use socket::FrameSocket;
use status::{LiveStatus, LiveStatusChanged};
use url_source::ServiceUrls;

/// How long an opened view waits for the page to connect before it is closed.
const PAGE_CONNECT_TIMEOUT: Duration = Duration::from_secs(15);

/// An opened view: its id, and the one-time address where the page connects to receive its
/// frames (`ws://127.0.0.1:…`; it holds a token, so it is never logged).
#[derive(Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct LiveTicket {
    pub view_id: u32,
    pub socket_url: String,
}

impl std::fmt::Debug for LiveTicket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LiveTicket {{ view_id: {}, socket_url: <secret> }}",
            self.view_id
        )
    }
}

/// The open views, by id.
#[derive(Default)]
pub struct LiveViews {
    next_id: AtomicU32,
    open: Mutex<HashMap<u32, ViewerControl>>,
    /// The frame server, started with the first view.
    socket: tokio::sync::OnceCell<FrameSocket>,
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

/// The views of this app (registered in the app's setup).
fn views(app: &AppHandle) -> tauri::State<'_, LiveViews> {
    app.state::<LiveViews>()
}

/// Starts a live view of `machine_id`; its frames go to whoever connects with the ticket,
/// its states to the page as events.
pub async fn open(app: &AppHandle, machine_id: String) -> Result<LiveTicket, UiError> {
    let active = app.state::<Connection>().active().await?;
    let open_views = views(app);
    let server = open_views
        .socket
        .get_or_try_init(FrameSocket::bind)
        .await
        .map_err(|e| {
            tracing::warn!(error = %e, "the live screen's loopback socket could not listen");
            UiError::from(UiCode::LiveSocketUnavailable)
        })?;
    let view_id = open_views.next_id.fetch_add(1, Ordering::Relaxed) + 1;
    let (ticket, page) = server.expect(view_id);
    // The tasks that run while the view is open are recorded from its frames (unless the
    // person turned that off).
    let film = crate::film::Tap::start(app, active.scope.clone(), machine_id.clone());
    let watching = film.as_ref().map(crate::film::Tap::watch);
    let (scope, machine) = (active.scope, machine_id.clone());
    let source = ServiceUrls {
        client: active.client,
        machine_id,
    };
    let viewer = Viewer::start(source, ViewerOptions::default());
    open_views
        .open
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(view_id, viewer.control());
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let kept = film.clone();
        match tokio::time::timeout(PAGE_CONNECT_TIMEOUT, page).await {
            Ok(Ok(socket)) => {
                pump::run(viewer, socket, film, |status| {
                    let status = LiveStatus::from(status);
                    let _ = LiveStatusChanged { view_id, status }.emit(&app);
                })
                .await
            }
            // The page never came (closed meanwhile, or could not connect): nobody will watch.
            _ => {
                if let Some(server) = views(&app).socket.get() {
                    server.forget(view_id);
                }
                viewer.control().close();
            }
        }
        views(&app).remove(view_id);
        // The screen closed while its task may still run: the film goes on without it.
        drop(watching);
        if let Some(film) = kept {
            crate::film::unseen::screen_closed(&app, scope, machine, film);
        }
    });
    Ok(LiveTicket {
        view_id,
        socket_url: ticket.url,
    })
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
    views(app)
        .control(view_id)
        .map(|c| status::LiveStats::from(&c))
}

#[cfg(test)]
mod transport_tests;
