//! A live connection for the film alone: a computer's screen decoded while nobody watches it,
//! so a task whose live screen is not open is still recorded ([`crate::film::unseen`]).
//!
//! The same viewer as an open view's (reconnects, its budget of live-URL requests, the URL and
//! its token kept inside it, `ServiceUrls` logging only an error's code), without a page: each
//! frame is put on the film's screen, then acknowledged. One frame at a time and at most
//! [`FRAMES_PER_SECOND`] a second: the service sends the next only once the last is
//! acknowledged and coalesces meanwhile, so the stream stays light (the film keeps about one
//! picture a second) and frames are decoded only for the film.

use porthole_client::Client;
use porthole_live::{Status, Viewer, ViewerEvent, ViewerOptions};
use std::time::Duration;

use super::url_source::ServiceUrls;
use super::{film_feed, frame_bytes};
use crate::film::Tap;

/// Frames taken a second: a step's picture waits at most a fifth of a second for its screen.
const FRAMES_PER_SECOND: u64 = 5;

/// Records `machine_id`'s screen into `film` until `keep_going` says no (asked about once a
/// second: then true) or the viewer ends (the computer went to sleep: false).
pub async fn record(
    client: Client,
    machine_id: String,
    film: Tap,
    keep_going: impl Fn() -> bool,
) -> bool {
    let source = ServiceUrls { client, machine_id };
    let viewer = Viewer::start(
        source,
        ViewerOptions {
            max_in_flight: 1,
            ..ViewerOptions::default()
        },
    );
    let control = viewer.control();
    let mut ask = tokio::time::interval(Duration::from_secs(1));
    let pace = Duration::from_millis(1000 / FRAMES_PER_SECOND);
    let asked_to_stop = loop {
        tokio::select! {
            event = viewer.next_event() => match event {
                Some(ViewerEvent::Frame(frame)) => {
                    // The pictures decoded as for the page, then read back as the film reads
                    // an open view's (one way of putting a frame on the screen, not two).
                    let bytes = frame_bytes::encode(&frame);
                    film.feed(film_feed::paints(&bytes).into_iter());
                    tokio::time::sleep(pace).await;
                    control.ack(frame.seq);
                }
                Some(ViewerEvent::Status(Status::Connected { .. })) => film.connected(),
                Some(ViewerEvent::Status(_)) => {}
                None => break false,
            },
            _ = ask.tick() => {
                if !keep_going() {
                    break true;
                }
            }
        }
    };
    control.close();
    asked_to_stop
}
