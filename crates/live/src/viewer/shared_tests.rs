//! The consumer side of flow control, without a network: what may be taken when, and which
//! `sync`s go upstream.

use super::*;
use crate::end_reason::EndReason;

fn frame(shared: &Shared, connection: u64, ts: &str) {
    shared.push_frame(connection, Vec::new(), ts.to_owned(), Instant::now());
}

fn take_frame(shared: &Shared) -> Option<Frame> {
    match shared.take_event() {
        Some(ViewerEvent::Frame(f)) => Some(f),
        Some(ViewerEvent::Status(s)) => panic!("expected a frame, got {s:?}"),
        None => None,
    }
}

fn connected(shared: &Shared, connection: u64) {
    shared.connected(connection, 10, 10);
    assert!(matches!(
        shared.take_event(),
        Some(ViewerEvent::Status(Status::Connected { .. }))
    ));
}

#[test]
fn frames_wait_for_acks_beyond_the_in_flight_limit_and_coalesce_meanwhile() {
    let shared = Shared::new(2, false);
    connected(&shared, 1);
    frame(&shared, 1, "1");
    let a = take_frame(&shared).unwrap();
    frame(&shared, 1, "2");
    let b = take_frame(&shared).unwrap();
    frame(&shared, 1, "3");
    frame(&shared, 1, "4");
    assert!(
        shared.take_event().is_none(),
        "two in flight: the third waits"
    );
    shared.ack(a.seq);
    assert_eq!(shared.take_echoes(1), ["1"]);
    let c = take_frame(&shared).unwrap();
    assert_eq!((c.sync_timestamp.as_str(), c.upstream_frames), ("4", 2));
    // Acknowledging out of order echoes the newest only once.
    shared.ack(c.seq);
    shared.ack(b.seq);
    assert_eq!(shared.take_echoes(1), ["4"]);
    // Unknown or repeated acks do nothing.
    shared.ack(c.seq);
    shared.ack(999);
    assert!(shared.take_echoes(1).is_empty());
    let stats = shared.stats();
    assert_eq!(
        (
            stats.frames_received,
            stats.frames_delivered,
            stats.frames_dropped
        ),
        (4, 3, 1)
    );
}

#[test]
fn paused_viewers_hold_frames_but_not_statuses() {
    let shared = Shared::new(2, false);
    connected(&shared, 1);
    shared.set_paused(true);
    frame(&shared, 1, "1");
    shared.push_status(Status::Reconnecting {
        reason: EndReason::Disconnected,
        retry_in: std::time::Duration::ZERO,
    });
    assert!(matches!(
        shared.take_event(),
        Some(ViewerEvent::Status(Status::Reconnecting { .. }))
    ));
    assert!(shared.take_event().is_none());
    shared.set_paused(false);
    assert_eq!(take_frame(&shared).unwrap().sync_timestamp, "1");
}

#[test]
fn a_new_connection_drops_stale_frames_and_ignores_their_acks() {
    let shared = Shared::new(2, false);
    connected(&shared, 1);
    frame(&shared, 1, "1");
    let old = take_frame(&shared).unwrap();
    frame(&shared, 1, "2");
    connected(&shared, 2);
    shared.ack(old.seq);
    assert!(
        shared.take_echoes(2).is_empty(),
        "never echo on another connection"
    );
    assert!(shared.take_event().is_none(), "the stale frame was dropped");
    assert_eq!(shared.stats().frames_dropped, 1);
    frame(&shared, 2, "9");
    let new = take_frame(&shared).unwrap();
    assert_eq!(new.connection, 2);
    shared.ack(new.seq);
    assert_eq!(shared.take_echoes(2), ["9"]);
}

#[test]
fn ack_on_take_echoes_without_waiting() {
    let shared = Shared::new(1, true);
    connected(&shared, 1);
    frame(&shared, 1, "1");
    take_frame(&shared).unwrap();
    frame(&shared, 1, "2");
    take_frame(&shared).unwrap();
    assert_eq!(shared.take_echoes(1), ["1", "2"]);
}

#[test]
fn the_queue_weight_follows_what_is_queued() {
    let shared = Shared::new(2, false);
    connected(&shared, 1);
    assert_eq!(shared.queued_bytes(), 0);
    frame(&shared, 1, "1");
    frame(&shared, 1, "2");
    assert!(shared.queued_bytes() > 0);
    take_frame(&shared).unwrap();
    assert_eq!(shared.queued_bytes(), 0);
}
