//! Viewer statistics: what the HUD and the benchmarks read.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// A snapshot of the viewer's counters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Frames handed to the consumer in the last second.
    pub fps: f64,
    /// WebSocket payload bytes received in the last second.
    pub bytes_per_sec: f64,
    pub bytes_received: u64,
    /// Upstream frames (`sync`s) received.
    pub frames_received: u64,
    /// Frames handed to the consumer.
    pub frames_delivered: u64,
    /// Upstream frames never handed over on their own (coalesced into a later one).
    pub frames_dropped: u64,
    /// Time from the WebSocket message that completed a frame arriving to the frame being handed
    /// over: the last one, and the median and 99th percentile of the last 512.
    pub latency_last: Option<Duration>,
    pub latency_p50: Option<Duration>,
    pub latency_p99: Option<Duration>,
    /// Connections made (the first included).
    pub connections: u64,
}

const WINDOW: Duration = Duration::from_secs(1);
const LATENCIES_KEPT: usize = 512;

#[derive(Debug, Default)]
pub(crate) struct StatsRecorder {
    totals: Stats,
    deliveries: VecDeque<Instant>,
    arrivals: VecDeque<(Instant, usize)>,
    bytes_in_window: usize,
    latencies: VecDeque<Duration>,
}

impl StatsRecorder {
    pub(crate) fn bytes(&mut self, now: Instant, n: usize) {
        self.totals.bytes_received += n as u64;
        self.arrivals.push_back((now, n));
        self.bytes_in_window += n;
        self.expire(now);
    }

    pub(crate) fn frame_received(&mut self) {
        self.totals.frames_received += 1;
    }

    pub(crate) fn dropped(&mut self, n: u64) {
        self.totals.frames_dropped += n;
    }

    pub(crate) fn connected(&mut self) {
        self.totals.connections += 1;
    }

    pub(crate) fn delivered(&mut self, now: Instant, arrived_at: Instant) {
        self.totals.frames_delivered += 1;
        self.deliveries.push_back(now);
        let latency = now.saturating_duration_since(arrived_at);
        self.totals.latency_last = Some(latency);
        if self.latencies.len() == LATENCIES_KEPT {
            self.latencies.pop_front();
        }
        self.latencies.push_back(latency);
        self.expire(now);
    }

    fn expire(&mut self, now: Instant) {
        while let Some(&t) = self.deliveries.front() {
            if now.saturating_duration_since(t) <= WINDOW {
                break;
            }
            self.deliveries.pop_front();
        }
        while let Some(&(t, n)) = self.arrivals.front() {
            if now.saturating_duration_since(t) <= WINDOW {
                break;
            }
            self.bytes_in_window -= n;
            self.arrivals.pop_front();
        }
    }

    pub(crate) fn snapshot(&mut self, now: Instant) -> Stats {
        self.expire(now);
        let mut sorted: Vec<Duration> = self.latencies.iter().copied().collect();
        sorted.sort_unstable();
        let pick = |q: f64| {
            (!sorted.is_empty()).then(|| sorted[((sorted.len() - 1) as f64 * q).round() as usize])
        };
        Stats {
            fps: self.deliveries.len() as f64 / WINDOW.as_secs_f64(),
            bytes_per_sec: self.bytes_in_window as f64 / WINDOW.as_secs_f64(),
            latency_p50: pick(0.5),
            latency_p99: pick(0.99),
            ..self.totals.clone()
        }
    }
}
