//! The state the session task and the consumer share: the queue of events (with coalescing),
//! frames in flight, pause, and the `sync` echoes waiting to go upstream.
//!
//! Invariants: the queue holds statuses (few: one per connection change) and frames, and a new
//! frame is coalesced into the last queued frame when that frame is untaken and from the same
//! connection, so memory is bounded (see [`crate::coalesce`]). A `sync` timestamp is echoed only
//! on the connection that sent it, once, and in order.

use super::ViewerEvent;
use crate::coalesce::absorb;
use crate::end_reason::Status;
use crate::frame::{DrawOp, Frame};
use crate::stats::{Stats, StatsRecorder};
use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::Notify;

enum Item {
    Frame(Frame, usize),
    Status(Status),
}

struct InFlight {
    seq: u64,
    connection: u64,
    sync_timestamp: String,
}

pub(crate) struct State {
    queue: VecDeque<Item>,
    queued_bytes: usize,
    in_flight: VecDeque<InFlight>,
    max_in_flight: usize,
    ack_on_take: bool,
    paused: bool,
    pub(crate) finished: bool,
    pub(crate) stop_requested: bool,
    next_seq: u64,
    last_echoed_seq: u64,
    connection: u64,
    screen: Option<(u32, u32)>,
    echoes: VecDeque<(u64, String)>,
    pub(crate) stats: StatsRecorder,
}

pub(crate) struct Shared {
    state: Mutex<State>,
    /// Wakes the consumer waiting in `next_event`.
    pub(crate) to_consumer: Notify,
    /// Wakes the session: echoes to send, the queue drained below its bound, or stop.
    pub(crate) to_session: Notify,
}

impl Shared {
    pub(crate) fn new(max_in_flight: usize, ack_on_take: bool) -> Self {
        Self {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                queued_bytes: 0,
                in_flight: VecDeque::new(),
                max_in_flight: max_in_flight.max(1),
                ack_on_take,
                paused: false,
                finished: false,
                stop_requested: false,
                next_seq: 1,
                last_echoed_seq: 0,
                connection: 0,
                screen: None,
                echoes: VecDeque::new(),
                stats: StatsRecorder::default(),
            }),
            to_consumer: Notify::new(),
            to_session: Notify::new(),
        }
    }

    /// The state; a panic elsewhere while holding the lock must not take the viewer down too.
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn push_status(&self, status: Status) {
        self.lock().queue.push_back(Item::Status(status));
        self.to_consumer.notify_one();
    }

    /// A new connection is up: frames of older ones are stale and dropped.
    pub(crate) fn connected(&self, connection: u64, width: u32, height: u32) {
        let mut s = self.lock();
        let mut dropped = 0;
        let mut freed = 0;
        s.queue.retain(|item| match item {
            Item::Frame(f, weight) => {
                dropped += u64::from(f.upstream_frames);
                freed += weight;
                false
            }
            Item::Status(_) => true,
        });
        s.queued_bytes -= freed;
        s.stats.dropped(dropped);
        s.stats.connected();
        s.in_flight.clear();
        s.echoes.clear();
        s.connection = connection;
        s.screen = Some((width, height));
        s.queue.push_back(Item::Status(Status::Connected {
            connection,
            width,
            height,
        }));
        drop(s);
        self.to_consumer.notify_one();
    }

    pub(crate) fn set_screen(&self, width: u32, height: u32) {
        self.lock().screen = Some((width, height));
    }

    /// A `sync` closed a frame of `ops` on `connection`.
    pub(crate) fn push_frame(
        &self,
        connection: u64,
        ops: Vec<DrawOp>,
        sync_timestamp: String,
        arrived_at: Instant,
    ) {
        let frame = Frame {
            seq: 0,
            connection,
            ops,
            sync_timestamp,
            upstream_frames: 1,
            arrived_at,
        };
        let mut s = self.lock();
        let s = &mut *s;
        s.stats.frame_received();
        if let Some(Item::Frame(tail, weight)) = s.queue.back_mut() {
            if tail.connection == connection {
                s.stats.dropped(1);
                absorb(tail, frame, s.screen);
                let new_weight = tail.weight();
                s.queued_bytes = s.queued_bytes - *weight + new_weight;
                *weight = new_weight;
                self.to_consumer.notify_one();
                return;
            }
        }
        let weight = frame.weight();
        s.queued_bytes += weight;
        s.queue.push_back(Item::Frame(frame, weight));
        self.to_consumer.notify_one();
    }

    pub(crate) fn queued_bytes(&self) -> usize {
        self.lock().queued_bytes
    }

    /// The next event the consumer may have now, if any.
    pub(crate) fn take_event(&self) -> Option<ViewerEvent> {
        let mut s = self.lock();
        let s = &mut *s;
        let frame_allowed = !s.paused && s.in_flight.len() < s.max_in_flight;
        let index = match s.queue.front()? {
            Item::Status(_) => 0,
            Item::Frame(..) if frame_allowed => 0,
            // While paused, statuses pass queued frames: the consumer must still learn that the
            // stream ended, and frames name their connection so their order to statuses does
            // not matter for drawing.
            Item::Frame(..) if s.paused => s
                .queue
                .iter()
                .position(|item| matches!(item, Item::Status(_)))?,
            Item::Frame(..) => return None,
        };
        match s.queue.remove(index)? {
            Item::Status(status) => Some(ViewerEvent::Status(status)),
            Item::Frame(mut frame, weight) => {
                s.queued_bytes -= weight;
                frame.seq = s.next_seq;
                s.next_seq += 1;
                s.stats.delivered(Instant::now(), frame.arrived_at);
                let record = InFlight {
                    seq: frame.seq,
                    connection: frame.connection,
                    sync_timestamp: frame.sync_timestamp.clone(),
                };
                if s.ack_on_take {
                    s.echo(record);
                } else {
                    s.in_flight.push_back(record);
                }
                self.to_session.notify_one();
                Some(ViewerEvent::Frame(frame))
            }
        }
    }

    /// The consumer drew frame `seq`.
    pub(crate) fn ack(&self, seq: u64) {
        let mut s = self.lock();
        if let Some(i) = s.in_flight.iter().position(|f| f.seq == seq) {
            if let Some(record) = s.in_flight.remove(i) {
                s.echo(record);
            }
            drop(s);
            self.to_session.notify_one();
            self.to_consumer.notify_one();
        }
    }

    pub(crate) fn set_paused(&self, paused: bool) {
        self.lock().paused = paused;
        self.to_consumer.notify_one();
    }

    pub(crate) fn is_paused(&self) -> bool {
        self.lock().paused
    }

    /// `sync` timestamps to echo on `connection`, oldest first.
    pub(crate) fn take_echoes(&self, connection: u64) -> Vec<String> {
        let mut s = self.lock();
        let echoes = std::mem::take(&mut s.echoes);
        echoes
            .into_iter()
            .filter(|(c, _)| *c == connection)
            .map(|(_, ts)| ts)
            .collect()
    }

    pub(crate) fn stats(&self) -> Stats {
        self.lock().stats.snapshot(Instant::now())
    }

    pub(crate) fn finish(&self) {
        self.lock().finished = true;
        self.to_consumer.notify_one();
    }

    /// True when nothing more will come.
    pub(crate) fn drained_and_finished(&self) -> bool {
        let s = self.lock();
        s.finished && s.queue.is_empty()
    }
}

impl State {
    fn echo(&mut self, record: InFlight) {
        // Echo in order only: acknowledging an older frame after a newer one adds nothing.
        if record.seq > self.last_echoed_seq && record.connection == self.connection {
            self.last_echoed_seq = record.seq;
            self.echoes
                .push_back((record.connection, record.sync_timestamp));
        }
    }
}

#[cfg(test)]
#[path = "shared_tests.rs"]
mod tests;
