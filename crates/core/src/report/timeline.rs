//! The report's timeline from Porthole's own film of the task, when the service's record of it
//! cannot be read (no `turnId`, or "Record steps" was off): the film's frames with their step
//! marks and captions, each picture inside the file (already downscaled when it was kept,
//! `film::PICTURE_MAX_WIDTH`).
//!
//! A long film is not copied whole: every step's frame, the first and the last, and frames
//! evenly between them up to [`MOST_FRAMES`], so a report stays a file a person can send.

use std::io;

use crate::conversations::Conversation;
use crate::film::{FilmFrame, Shelf};
use crate::receipt::{self, Receipt};

/// The most frames a report carries.
pub const MOST_FRAMES: usize = 40;

/// Where the report's steps came from, said above them as the Steps sheet says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The service's record of the task (its trajectory, by `turnId`).
    Service,
    /// Porthole's film of it.
    Film,
}

/// One frame of the film, as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportFrame {
    /// Since the film began.
    pub at_ms: u64,
    /// The step this frame was kept for, counted from 1.
    pub step: Option<u32>,
    pub title: Option<String>,
    pub narration: Option<String>,
    /// The picture, as a `data:` URI.
    pub picture: String,
}

/// The film's frames with their pictures as they may leave Porthole. The one place the
/// report takes a film's pictures from: hiding what the person brushed over before sharing
/// belongs here, so every frame of a report passes through it.
pub fn frames_for_sharing(
    shelf: &Shelf,
    conversation_id: &str,
    film_id: &str,
) -> io::Result<Vec<(FilmFrame, Vec<u8>)>> {
    let film = shelf.film(conversation_id, film_id)?;
    let chosen = chosen(&film.frames);
    let mut out = Vec::with_capacity(chosen.len());
    for i in chosen {
        // A picture gone since the film was listed leaves its frame out, not the report undone.
        if let Ok(bytes) = shelf.frame(conversation_id, film_id, i as u32) {
            out.push((film.frames[i].clone(), bytes));
        }
    }
    Ok(out)
}

/// The places of the frames a report keeps, in order.
fn chosen(frames: &[FilmFrame]) -> Vec<usize> {
    let n = frames.len();
    if n <= MOST_FRAMES {
        return (0..n).collect();
    }
    let mut keep: Vec<usize> = frames
        .iter()
        .enumerate()
        .filter(|(_, f)| f.step.is_some())
        .map(|(i, _)| i)
        .chain([0, n - 1])
        .collect();
    keep.sort_unstable();
    keep.dedup();
    let room = MOST_FRAMES.saturating_sub(keep.len());
    if room > 0 {
        let between: Vec<usize> = (1..=room).map(|k| k * (n - 1) / (room + 1)).collect();
        keep.extend(between);
        keep.sort_unstable();
        keep.dedup();
    }
    keep
}

/// The film of the conversation's last finished task, as the report shows it: none when
/// Porthole recorded none.
pub fn of_last_task(shelf: &Shelf, conversation: &Conversation) -> Vec<ReportFrame> {
    let Some(film_id) = last_task_film(shelf, conversation) else {
        return Vec::new();
    };
    frames_for_sharing(shelf, &conversation.id, &film_id)
        .unwrap_or_default()
        .into_iter()
        .map(|(frame, bytes)| ReportFrame {
            at_ms: frame.at_ms,
            step: frame.step,
            title: frame.title,
            narration: frame.narration,
            picture: super::data_uri("image/jpeg", &bytes),
        })
        .collect()
}

/// The film "Watch again" plays under the last task's receipt.
fn last_task_film(shelf: &Shelf, conversation: &Conversation) -> Option<String> {
    let receipts = receipt::receipts(conversation, None);
    let films = shelf.films_of(&conversation.id);
    receipt::with_films(conversation, receipts, &films)
        .pop()
        .and_then(|r: Receipt| r.film_id)
}

/// "0:42": a frame's time in the film.
pub fn clock(ms: u64) -> String {
    let s = (ms + 500) / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(step: Option<u32>) -> FilmFrame {
        FilmFrame {
            at_ms: 0,
            step,
            title: None,
            narration: None,
        }
    }

    #[test]
    fn a_long_film_keeps_every_step_the_ends_and_frames_between_up_to_the_most() {
        let mut frames: Vec<FilmFrame> = (0..500).map(|_| frame(None)).collect();
        for (n, at) in [10, 200, 201, 450].into_iter().enumerate() {
            frames[at] = frame(Some(n as u32 + 1));
        }
        let kept = chosen(&frames);
        assert!(kept.len() <= MOST_FRAMES, "{}", kept.len());
        for at in [0, 10, 200, 201, 450, 499] {
            assert!(kept.contains(&at), "{at} in {kept:?}");
        }
        assert!(kept.windows(2).all(|w| w[0] < w[1]), "in order, once each");
        assert_eq!(chosen(&frames[..7]), (0..7).collect::<Vec<_>>());
        assert_eq!(clock(61_600), "1:02");
    }
}
