//! Every task's film, recorded here: while a task runs and its computer's live screen is open
//! (or, on a cloud computer, opened for the film alone: [`FilmSettings::record_unseen`]),
//! a downscaled picture of the screen about once a second and at every step the task's stream
//! announces, each with the step's title and the agent's narration as its caption.
//!
//! Why here and not from the service: the service's own record of a task (its trajectory)
//! hangs on a `turnId` the real service may never tell (`docs/service.md`); the live screen's
//! frames are already decoded in the app, so keeping a few of them costs little.
//!
//! - [`Screen`]: the stream's drawing put together into one picture (the shell feeds it what
//!   the live view already decoded).
//! - [`Recorder`]: one task's film being written: when a picture is kept, its caption, the
//!   index, the per-task bound (oldest frames first, step frames last).
//! - [`Shelf`]: the films on disk (`films/<conversation>/<film>/`): listing, reading, deleting
//!   with the conversation, and the total bound (oldest films first).
//! - [`sharing`]: a film's pictures as they may leave Porthole, what the person hid painted in;
//!   [`export`]: a film as a short video (animated WebP).
//!
//! Bounded in memory: a film is its JPEG files and an index of one short line per frame; only
//! the index's lines and the one screen being put together are held.

pub mod export;
mod moment;
mod recorder;
mod screen;
pub mod sharing;
mod shelf;

pub use moment::Moment;
pub use recorder::{encode_picture, Recorder, KEEP_EVERY_MS, PICTURE_MAX_WIDTH};
pub use screen::{Paint, Screen};
pub use shelf::{Film, FilmFrame, FilmSummary, Shelf};

use serde::{Deserialize, Serialize};

/// The person's choices for films (Settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct FilmSettings {
    /// "Record tasks on cloud computers".
    pub record: bool,
    /// "Record tasks on cloud computers even when their screen is not open": a live connection
    /// of the film's own while the task runs.
    pub record_unseen: bool,
    /// The most one task's film may take, in megabytes.
    pub per_task_mb: u32,
    /// The most every film together may take, in megabytes.
    pub total_mb: u32,
}

impl Default for FilmSettings {
    fn default() -> Self {
        Self {
            record: true,
            record_unseen: true,
            per_task_mb: 40,
            total_mb: 500,
        }
    }
}

impl FilmSettings {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// The limits as the settings allow them: a film of at least 1 MB, a total of at least one
    /// film.
    pub fn per_task_bytes(&self) -> u64 {
        u64::from(self.per_task_mb.max(1)) << 20
    }

    pub fn total_bytes(&self) -> u64 {
        u64::from(self.total_mb.max(self.per_task_mb).max(1)) << 20
    }
}

/// A name the films' folders may carry: a conversation's id or a film's start, never a path.
pub(crate) fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests;
