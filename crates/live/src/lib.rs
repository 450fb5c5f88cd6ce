//! Live view of a cloud computer: the Guacamole codec and a view-only viewer session.
//!
//! Why: the service streams a computer's screen as an Apache Guacamole tunnel over WebSocket.
//! The app must never give the webview the URL (it carries a token), and the webview's frame path
//! should hold neither a protocol parser nor base64 decoding, so this crate reads the stream in
//! Rust and hands the app frames it has already parsed, with images as bytes (BENCHMARKS.md has
//! the codec's figures against guacamole-common-js's parser).
//!
//! - [`codec`]: parse and encode instructions (zero-copy over whole frames, or streaming).
//! - [`Viewer`]: one live view, reconnecting as needed. It depends on no other crate of ours:
//!   the app gives it a [`UrlSource`] that asks the service for fresh URLs.
//!
//! # Consumer API
//!
//! ```no_run
//! # use porthole_live::*;
//! # async fn app(source: impl UrlSource) {
//! let viewer = Viewer::start(source, ViewerOptions::default());
//! let control = viewer.control(); // cloneable: ack / pause / resume / stats / close
//! while let Some(event) = viewer.next_event().await {
//!     match event {
//!         ViewerEvent::Frame(frame) => {
//!             // Draw `frame.ops` in order (DrawOp::Image carries file bytes; DrawOp::Instruction
//!             // a parsed instruction), then acknowledge it so its `sync` goes upstream:
//!             control.ack(frame.seq);
//!         }
//!         ViewerEvent::Status(Status::Connected { width, height, .. }) => { /* reset display */ }
//!         ViewerEvent::Status(Status::Reconnecting { reason, retry_in }) => { /* overlay */ }
//!         ViewerEvent::Status(Status::Ended(EndReason::Asleep)) => { /* offer Wake */ }
//!         ViewerEvent::Status(_) => {}
//!     }
//! }
//! # }
//! ```
//!
//! - **Frames**: everything drawn between two `sync`s, in draw order; `img`/`blob`/`end`
//!   streams arrive as one [`Image`] of file bytes at the position of `end`. Each frame names its
//!   connection; after [`Status::Connected`] the display starts afresh.
//! - **Flow control**: at most [`ViewerOptions::max_in_flight`] (2) frames are handed out
//!   unacknowledged. [`ViewerControl::ack`] echoes the frame's `sync` upstream, exactly as
//!   received, once and in order, and only on the connection that sent it.
//! - **Backpressure**: a frame the consumer has not taken absorbs newer ones (see the rule in
//!   the `coalesce` module: draw order kept, drawing hidden by a later full-screen image dropped);
//!   queued frames are bounded by [`ViewerOptions::max_queued_bytes`], above which the viewer
//!   stops reading the socket. [`Stats::frames_dropped`] counts upstream frames not delivered on
//!   their own.
//! - **Pause/resume**: [`ViewerControl::pause`] holds frames back (they coalesce); statuses
//!   still arrive.
//! - **Stats**: [`ViewerControl::stats`]: fps, bytes/s, latency from the WebSocket message
//!   completing a frame to the frame being taken (last, p50, p99), frames dropped.
//! - **Ends**: each stream end is a [`Status::Reconnecting`] with its [`EndReason`] and the
//!   backoff delay (within the 120-an-hour URL budget), or a final [`Status::Ended`] (asleep,
//!   unsupported stream such as VNC/RFB, closed by the consumer). Then `next_event` returns
//!   `None`.
//! - **View-only**: nothing in this API sends input. Upstream the viewer writes only `sync`
//!   echoes, `nop` every 5 s, answers to the server's pings, and `disconnect`.

mod assemble;
mod budget;
mod coalesce;
pub mod codec;
mod end_reason;
mod frame;
mod image_size;
mod stats;
mod url_source;
mod viewer;

pub use end_reason::{EndReason, Status};
pub use frame::{DrawOp, Frame, Image};
pub use stats::Stats;
pub use url_source::{LiveUrl, UrlError, UrlSource};
pub use viewer::{Viewer, ViewerControl, ViewerEvent, ViewerOptions};
