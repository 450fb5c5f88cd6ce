//! One view's bridge once the page has connected: the viewer's frames go down the page's
//! socket as binary messages ([`super::frame_bytes`]), the page's acknowledgements come back up
//! it, and statuses go wherever the caller says (the app emits them as events).
//!
//! Flow control is the viewer's: it hands out at most `max_in_flight` unacknowledged frames
//! and coalesces newer ones meanwhile, so this never queues frames of its own. An
//! acknowledgement is what echoes the frame's `sync` upstream, and the page sends it only once
//! the frame is drawn.

use futures::{SinkExt, StreamExt};
use porthole_live::{Status, Viewer, ViewerEvent};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

use super::socket::PageSocket;
use super::{film_feed, frame_bytes};
use crate::film::Tap;

/// An acknowledgement from the page: the frame's `seq`, u32 little endian.
pub const ACK_LEN: usize = 4;

/// Runs until the viewer ends or the page goes away (then the viewer is closed: nobody would
/// draw, or acknowledge, again). With a `film`, each frame sent is also put on the film's
/// screen (after it went to the page, so the page never waits for it).
pub async fn run(
    viewer: Viewer,
    socket: PageSocket,
    film: Option<Tap>,
    mut on_status: impl FnMut(&Status),
) {
    let control = viewer.control();
    let (mut to_page, mut from_page) = socket.split();
    let acks = async {
        while let Some(Ok(message)) = from_page.next().await {
            match message {
                Message::Binary(bytes) => match <[u8; ACK_LEN]>::try_from(&bytes[..]) {
                    Ok(seq) => control.ack(u64::from(u32::from_le_bytes(seq))),
                    // Not something this page sends: treat the page as broken.
                    Err(_) => break,
                },
                Message::Close(_) => break,
                _ => {}
            }
        }
    };
    let frames = async {
        while let Some(event) = viewer.next_event().await {
            match event {
                ViewerEvent::Frame(frame) => {
                    let bytes = bytes::Bytes::from(frame_bytes::encode(&frame));
                    if to_page.send(Message::Binary(bytes.clone())).await.is_err() {
                        break;
                    }
                    if let Some(film) = &film {
                        film.feed(film_feed::paints(&bytes).into_iter());
                    }
                }
                ViewerEvent::Status(status) => {
                    if let (Some(film), Status::Connected { .. }) = (&film, &status) {
                        film.connected();
                    }
                    on_status(&status)
                }
            }
        }
    };
    tokio::select! {
        () = acks => {}
        () = frames => {}
    }
    control.close();
    // The statuses up to the end (the page hears why, if it is still there). `next_event` is
    // cancel-safe, so nothing was lost when `select!` dropped the frame loop. Bounded, so a
    // viewer held by a pause cannot keep this task alive.
    let rest = async {
        while let Some(event) = viewer.next_event().await {
            if let ViewerEvent::Status(status) = event {
                on_status(&status);
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), rest).await;
    let _ = tokio::time::timeout(Duration::from_secs(1), to_page.close()).await;
}
