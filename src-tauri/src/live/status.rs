//! What the page is told about a live view besides frames: typed, in plain words.

use porthole_live::{EndReason, Status};
use serde::{Deserialize, Serialize};

use crate::error::problem::of_live_end;
use crate::error::UiCode;
use crate::words;

/// A live view's state changed (`viewId` says which view).
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
#[serde(rename_all = "camelCase")]
pub struct LiveStatusChanged {
    pub view_id: u32,
    pub status: LiveStatus,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum LiveStatus {
    /// Asking for an address and dialling (attempt 1 is the first).
    #[serde(rename_all = "camelCase")]
    Connecting { attempt: u32 },
    /// Frames of this connection follow; the display starts afresh at this size.
    #[serde(rename_all = "camelCase")]
    Connected {
        connection: u32,
        width: u32,
        height: u32,
    },
    /// The stream stopped; trying again after `retryInMs`. `words` are the code's, from
    /// `words/`.
    #[serde(rename_all = "camelCase")]
    Reconnecting {
        code: UiCode,
        words: String,
        retry_in_ms: f64,
    },
    /// Stopped for good (`live_asleep` offers Wake; `live_stopped` means closed by the app).
    #[serde(rename_all = "camelCase")]
    Ended { code: UiCode, words: String },
}

impl From<&Status> for LiveStatus {
    fn from(status: &Status) -> Self {
        match status {
            Status::Connecting { attempt } => LiveStatus::Connecting { attempt: *attempt },
            Status::Connected {
                connection,
                width,
                height,
            } => LiveStatus::Connected {
                connection: *connection as u32,
                width: *width,
                height: *height,
            },
            Status::Reconnecting { reason, retry_in } => LiveStatus::Reconnecting {
                code: of_live_end(reason),
                words: words::of(of_live_end(reason)).detail,
                retry_in_ms: retry_in.as_secs_f64() * 1000.0,
            },
            Status::Ended(reason) => ended(reason),
        }
    }
}

fn ended(reason: &EndReason) -> LiveStatus {
    let code = of_live_end(reason);
    LiveStatus::Ended {
        code,
        words: words::of(code).detail,
    }
}

/// Statistics for the HUD and the benchmark.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct LiveStats {
    pub fps: f64,
    pub bytes_per_sec: f64,
    pub frames_received: f64,
    pub frames_delivered: f64,
    pub frames_dropped: f64,
    /// Time inside the viewer, WebSocket message to frame taken (ms).
    pub latency_p50_ms: Option<f64>,
    pub latency_p99_ms: Option<f64>,
    pub connections: f64,
    /// Frames are held back because the window is hidden (`live_pause`).
    pub paused: bool,
}

impl From<&porthole_live::ViewerControl> for LiveStats {
    fn from(control: &porthole_live::ViewerControl) -> Self {
        let s = control.stats();
        let ms = |d: Option<std::time::Duration>| d.map(|d| d.as_secs_f64() * 1000.0);
        LiveStats {
            fps: s.fps,
            bytes_per_sec: s.bytes_per_sec,
            frames_received: s.frames_received as f64,
            frames_delivered: s.frames_delivered as f64,
            frames_dropped: s.frames_dropped as f64,
            latency_p50_ms: ms(s.latency_p50),
            latency_p99_ms: ms(s.latency_p99),
            connections: s.connections as f64,
            paused: control.is_paused(),
        }
    }
}
