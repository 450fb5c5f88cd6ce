//! One task's film being written: which pictures are kept and when, their captions, the index
//! and the per-task bound.
//!
//! On disk, a film is a folder of JPEG files and `index.jsonl`, one line per frame. The newest frame's line is written when the next frame is kept (or the
//! film ends), so a step's title the stream names just after announcing the step still
//! reaches its caption.

use std::io;
use std::path::{Path, PathBuf};

use super::shelf::{index_path, IndexLine, INDEX};
use super::Moment;
use crate::store::atomic::{create_private_dir, create_private_file};

/// A picture about once a second.
pub const KEEP_EVERY_MS: u64 = 1000;
/// Pictures are at most this wide (a third of a 1920-pixel screen, enough to read a page's
/// headings; BENCHMARKS.md has the bytes a minute).
pub const PICTURE_MAX_WIDTH: u32 = 640;
const JPEG_QUALITY: u8 = 70;
/// Past its bound, a film is thinned to this share of it at once, so the index is rewritten
/// once per several frames rather than at each one.
const THIN_TO_PERCENT: u64 = 90;

pub struct Recorder {
    dir: PathBuf,
    started_ms: u64,
    per_task: u64,
    /// Frames written, oldest first (the index's lines, without the newest).
    kept: Vec<IndexLine>,
    /// The newest frame, its line not yet written.
    newest: Option<IndexLine>,
    bytes: u64,
    next_file: u32,
    last_kept_ms: Option<u64>,
    steps_seen: u32,
}

impl Recorder {
    /// A new film of the task that started at `started_ms` (Unix ms) in `conversation_id`,
    /// under the shelf's `root`.
    pub fn start(
        root: &Path,
        conversation_id: &str,
        started_ms: u64,
        per_task: u64,
    ) -> io::Result<Self> {
        if !super::plain_name(conversation_id) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "conversation id",
            ));
        }
        let dir = root.join(conversation_id).join(started_ms.to_string());
        create_private_dir(&dir)?;
        create_private_file(&dir.join(INDEX))?;
        Ok(Self {
            dir,
            started_ms,
            per_task,
            kept: Vec::new(),
            newest: None,
            bytes: 0,
            next_file: 1,
            last_kept_ms: None,
            steps_seen: 0,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The bytes the film takes now.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Offered at `now_ms` with the task's `moment`: keeps a picture when a step was announced
    /// since the last one, or a second has passed. `picture` makes the JPEG, called only then
    /// (`None`: nothing to show yet). True when a frame was kept.
    pub fn offer(
        &mut self,
        now_ms: u64,
        moment: &Moment,
        picture: impl FnOnce() -> Option<Vec<u8>>,
    ) -> io::Result<bool> {
        self.refresh_newest(moment);
        let new_step = moment.steps > self.steps_seen;
        let due = self
            .last_kept_ms
            .is_none_or(|last| now_ms.saturating_sub(last) >= KEEP_EVERY_MS);
        if !new_step && !due {
            return Ok(false);
        }
        let Some(jpeg) = picture() else {
            return Ok(false);
        };
        self.keep(now_ms, moment, jpeg)?;
        Ok(true)
    }

    /// The task ended at `now_ms`: a last picture of the screen as the task left it (its
    /// result is often on it), then the newest frame's line. So a task over before the next
    /// look still has a film of how it began and how it ended, and a step announced since the
    /// last picture is marked on this one.
    pub fn close(
        mut self,
        now_ms: u64,
        moment: &Moment,
        picture: impl FnOnce() -> Option<Vec<u8>>,
    ) -> io::Result<()> {
        self.refresh_newest(moment);
        if self.last_kept_ms != Some(now_ms) {
            if let Some(jpeg) = picture() {
                self.keep(now_ms, moment, jpeg)?;
            }
        }
        self.finish(moment)
    }

    /// Writes `jpeg` as the newest frame, marking a step announced since the last one.
    fn keep(&mut self, now_ms: u64, moment: &Moment, jpeg: Vec<u8>) -> io::Result<()> {
        let new_step = moment.steps > self.steps_seen;
        self.steps_seen = moment.steps;
        self.write_newest_line()?;
        let file = format!("{:06}.jpg", self.next_file);
        self.next_file += 1;
        std::fs::write(self.dir.join(&file), &jpeg)?;
        self.bytes += jpeg.len() as u64;
        self.last_kept_ms = Some(now_ms);
        self.newest = Some(IndexLine {
            at_ms: now_ms.saturating_sub(self.started_ms),
            file,
            bytes: jpeg.len() as u64,
            step: new_step.then_some(moment.steps),
            title: moment.step_title.clone(),
            narration: moment.narration.clone(),
        });
        if self.bytes > self.per_task {
            self.thin()?;
        }
        Ok(())
    }

    /// The film is over: the newest frame's line is written.
    pub fn finish(mut self, moment: &Moment) -> io::Result<()> {
        self.refresh_newest(moment);
        self.write_newest_line()
    }

    /// A step's title (or a first narration) that came after its frame was kept reaches it.
    fn refresh_newest(&mut self, moment: &Moment) {
        if let Some(newest) = &mut self.newest {
            if moment.steps == self.steps_seen {
                if newest.title.is_none() {
                    newest.title.clone_from(&moment.step_title);
                }
                if newest.narration.is_none() {
                    newest.narration.clone_from(&moment.narration);
                }
            }
        }
    }

    fn write_newest_line(&mut self) -> io::Result<()> {
        let Some(newest) = self.newest.take() else {
            return Ok(());
        };
        let mut line = serde_json::to_vec(&newest).map_err(io::Error::other)?;
        line.push(b'\n');
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(index_path(&self.dir))?;
        std::io::Write::write_all(&mut file, &line)?;
        self.kept.push(newest);
        Ok(())
    }

    /// Over its bound: the oldest frames go first, those that mark a step last, and never the
    /// newest; the index is written anew without them.
    fn thin(&mut self) -> io::Result<()> {
        let target = self.per_task / 100 * THIN_TO_PERCENT;
        for steps_too in [false, true] {
            let mut at = 0;
            while self.bytes > target && at < self.kept.len() {
                if self.kept[at].step.is_some() && !steps_too {
                    at += 1;
                    continue;
                }
                let gone = self.kept.remove(at);
                self.bytes = self.bytes.saturating_sub(gone.bytes);
                match std::fs::remove_file(self.dir.join(&gone.file)) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                    _ => {}
                }
            }
        }
        let mut index = Vec::new();
        for frame in &self.kept {
            index.extend(serde_json::to_vec(frame).map_err(io::Error::other)?);
            index.push(b'\n');
        }
        // Whole or not at all: a new index takes the old one's name.
        let tmp = self.dir.join("index.tmp");
        std::fs::write(&tmp, &index)?;
        std::fs::rename(&tmp, index_path(&self.dir))
    }
}

/// The screen's picture as the film keeps it: at most [`PICTURE_MAX_WIDTH`] wide, JPEG.
pub fn encode_picture(width: u32, height: u32, rgb: Vec<u8>) -> Option<Vec<u8>> {
    match porthole_picture::downscale(&rgb, width, height, PICTURE_MAX_WIDTH) {
        Some(small) => porthole_picture::jpeg(&small.rgb, small.width, small.height, JPEG_QUALITY),
        None => porthole_picture::jpeg(&rgb, width, height, JPEG_QUALITY),
    }
}
