//! The viewer: one live view of one computer, reconnecting as needed, view-only.
//!
//! [`Viewer::start`] spawns a session task (see `session`) that owns the WebSocket; the consumer
//! pulls [`ViewerEvent`]s and acknowledges drawn frames through [`ViewerControl`]. Nothing in this
//! API can send input upstream: the session only ever sends `sync` echoes, `nop`, ping answers
//! and `disconnect`.

mod connection;
mod session;
mod shared;

use crate::end_reason::Status;
use crate::frame::Frame;
use crate::stats::Stats;
use crate::url_source::UrlSource;
use shared::Shared;
use std::sync::Arc;
use std::time::Duration;

/// What the consumer receives, in order.
#[derive(Debug, Clone)]
pub enum ViewerEvent {
    Frame(Frame),
    Status(Status),
}

/// Tuning; the defaults follow the protocol notes. Tests shrink the durations with
/// [`ViewerOptions::time_scaled`] to match the simulator's time scale.
#[derive(Debug, Clone)]
pub struct ViewerOptions {
    /// Frames handed out and not yet acknowledged before the viewer holds (and coalesces) the
    /// next ones.
    pub max_in_flight: usize,
    /// Acknowledge each frame as soon as it is taken (for consumers that do not draw).
    pub ack_on_take: bool,
    /// How often to send `nop` so the server keeps the viewer (5 s).
    pub nop_interval: Duration,
    /// Silence after which the stream counts as dead (15 s).
    pub silence_timeout: Duration,
    pub connect_timeout: Duration,
    /// Backoff between reconnects: first delay, doubling to the cap.
    pub backoff_initial: Duration,
    pub backoff_max: Duration,
    /// Live URL requests allowed per window (the service allows 120 an hour).
    pub urls_per_window: u32,
    pub url_window: Duration,
    /// Bound on frames waiting for the consumer; above it the viewer stops reading the socket.
    pub max_queued_bytes: usize,
    /// Give up after this many connections in a row that ended without a frame (`None`: never).
    pub max_failed_attempts: Option<u32>,
}

impl Default for ViewerOptions {
    fn default() -> Self {
        Self {
            max_in_flight: 2,
            ack_on_take: false,
            nop_interval: Duration::from_secs(5),
            silence_timeout: Duration::from_secs(15),
            connect_timeout: Duration::from_secs(15),
            backoff_initial: Duration::from_secs(1),
            backoff_max: Duration::from_secs(60),
            urls_per_window: 120,
            url_window: Duration::from_secs(3600),
            max_queued_bytes: 32 << 20,
            max_failed_attempts: None,
        }
    }
}

impl ViewerOptions {
    /// Every duration multiplied by `scale` (e.g. the simulator's `time_scale`).
    pub fn time_scaled(mut self, scale: f64) -> Self {
        for d in [
            &mut self.nop_interval,
            &mut self.silence_timeout,
            &mut self.connect_timeout,
            &mut self.backoff_initial,
            &mut self.backoff_max,
            &mut self.url_window,
        ] {
            *d = d.mul_f64(scale);
        }
        self
    }
}

/// A running live view. Dropping it closes the stream (sending `disconnect`).
pub struct Viewer {
    shared: Arc<Shared>,
}

/// A cloneable handle to acknowledge, pause, read stats and close, from any task.
#[derive(Clone)]
pub struct ViewerControl {
    shared: Arc<Shared>,
}

impl Viewer {
    /// Starts the session on the current Tokio runtime: asks `source` for a URL and connects.
    pub fn start(source: impl UrlSource, options: ViewerOptions) -> Self {
        let shared = Arc::new(Shared::new(options.max_in_flight, options.ack_on_take));
        tokio::spawn(session::run(shared.clone(), source, options));
        Self { shared }
    }

    /// The next frame or status; `None` after [`Status::Ended`] has been taken.
    ///
    /// Frames wait while paused or while `max_in_flight` frames are unacknowledged; meanwhile
    /// newer frames are coalesced into the waiting one. Cancel-safe: dropping the future (e.g. in
    /// `tokio::select!`) loses no event.
    pub async fn next_event(&self) -> Option<ViewerEvent> {
        loop {
            let notified = self.shared.to_consumer.notified();
            if let Some(event) = self.shared.take_event() {
                return Some(event);
            }
            if self.shared.drained_and_finished() {
                return None;
            }
            notified.await;
        }
    }

    pub fn control(&self) -> ViewerControl {
        ViewerControl {
            shared: self.shared.clone(),
        }
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        self.control().close();
    }
}

impl ViewerControl {
    /// Frame `seq` is drawn: its `sync` is echoed upstream (which lets the server send more).
    pub fn ack(&self, seq: u64) {
        self.shared.ack(seq);
    }

    /// Holds frames back (e.g. window hidden); they coalesce meanwhile. Statuses still arrive.
    pub fn pause(&self) {
        self.shared.set_paused(true);
    }

    pub fn resume(&self) {
        self.shared.set_paused(false);
    }

    pub fn is_paused(&self) -> bool {
        self.shared.is_paused()
    }

    pub fn stats(&self) -> Stats {
        self.shared.stats()
    }

    /// Ends the stream (sending `disconnect`); the event stream then ends with
    /// `Status::Ended(EndReason::Stopped)`.
    pub fn close(&self) {
        self.shared.lock().stop_requested = true;
        self.shared.to_session.notify_one();
    }
}
