//! A task's film as a short video a person can send in a chat: an animated WebP, which every
//! current browser and chat app plays.
//!
//! Why not WebM or MP4: the one well-kept pure-Rust video encoder (rav1e, AV1) adds megabytes
//! to a binary that has 0.07 MB left of its 20 MB budget (BENCHMARKS.md, "release binary"),
//! and the system's encoders differ by desktop (none to count on). `image-webp` is the `image`
//! crate's own codec and costs tens of kilobytes; its pictures are lossless, so what is hidden
//! stays exactly the cover colour.
//!
//! The video follows the film's timing with its long waits shortened (a task that waited a
//! minute for a page shows it for [`LONGEST_MS`]), and a strip under the picture marks the
//! steps: one segment per step, filled up to the step the picture belongs to. Each picture's
//! caption (the step's title, the agent's narration) is burnt into a band at its bottom unless
//! the person leaves captions out (`caption.rs`).

pub mod caption;
mod webp;

pub use webp::AnimatedWebp;

use std::io;

use super::sharing::{frames_for_sharing, Redactions};
use super::{FilmFrame, Shelf};

/// The shortest a picture shows (browsers show shorter frames at 100 ms anyway).
pub const SHORTEST_MS: u32 = 100;
/// The longest a picture shows: the task's idle waits, shortened.
pub const LONGEST_MS: u32 = 1_500;
/// The last picture stays a little, so the video does not end as it reaches it.
pub const LAST_MS: u32 = 2_500;
/// The step strip under the picture, in pixels.
pub const STRIP_HEIGHT: u32 = 6;

const STRIP_BACK: [u8; 3] = [24, 24, 30];
const STRIP_DONE: [u8; 3] = [64, 128, 255];
const STRIP_TO_COME: [u8; 3] = [88, 88, 100];

/// How long each picture shows: the time to the next one, between [`SHORTEST_MS`] and
/// [`LONGEST_MS`]; the last one [`LAST_MS`].
pub fn durations(frames: &[FilmFrame]) -> Vec<u32> {
    frames
        .iter()
        .enumerate()
        .map(|(i, f)| match frames.get(i + 1) {
            Some(next) => {
                next.at_ms
                    .saturating_sub(f.at_ms)
                    .clamp(u64::from(SHORTEST_MS), u64::from(LONGEST_MS)) as u32
            }
            None => LAST_MS,
        })
        .collect()
}

/// The film `film_id` of `conversation_id` as an animated WebP, with `redactions` painted
/// into its pictures and, with `captions`, each picture's caption burnt in over them; `None`
/// when the film has no picture.
pub fn video(
    shelf: &Shelf,
    conversation_id: &str,
    film_id: &str,
    redactions: &Redactions,
    captions: bool,
) -> io::Result<Option<Vec<u8>>> {
    let film = shelf.film(conversation_id, film_id)?;
    let times = durations(&film.frames);
    let steps = film.frames.iter().filter(|f| f.step.is_some()).count() as u32;
    let mut writer: Option<(AnimatedWebp, u32, u32)> = None;
    let mut step = 0;
    for shared in frames_for_sharing(shelf, conversation_id, film_id, redactions)? {
        let shared = shared?;
        if shared.frame.step.is_some() {
            step += 1;
        }
        let (w, h) = shared.picture.dimensions();
        let (animation, width, height) = match &mut writer {
            Some(w) => w,
            None => {
                let strip = if steps > 0 { STRIP_HEIGHT } else { 0 };
                writer.insert((AnimatedWebp::new(w, h + strip)?, w, h))
            }
        };
        // A screen that changed size mid-task: scaled to the first picture's size.
        let mut picture = if (w, h) == (*width, *height) {
            shared.picture
        } else {
            image::imageops::resize(
                &shared.picture,
                *width,
                *height,
                image::imageops::FilterType::Triangle,
            )
        };
        // After the redactions (painted into `shared.picture`): see `caption.rs`.
        if captions {
            caption::burn(&mut picture, &shared.frame);
        }
        let mut rgb = picture.into_raw();
        if steps > 0 {
            rgb.extend(strip(*width, step, steps));
        }
        let duration = times.get(shared.index as usize).copied().unwrap_or(LAST_MS);
        animation.push(&rgb, duration)?;
    }
    match writer {
        Some((animation, _, _)) => animation.finish(),
        None => Ok(None),
    }
}

/// The step strip's pixels (RGB, [`STRIP_HEIGHT`] rows): `steps` segments with a gap of one
/// pixel, the first `done` filled.
fn strip(width: u32, done: u32, steps: u32) -> Vec<u8> {
    let mut row = Vec::with_capacity(width as usize * 3);
    for x in 0..width {
        // The segment this column is in, and whether it is the gap at its right end.
        let segment = u64::from(x) * u64::from(steps) / u64::from(width);
        let next_starts = (segment + 1) * u64::from(width) / u64::from(steps);
        let colour = if u64::from(x) + 1 >= next_starts && segment + 1 < u64::from(steps) {
            STRIP_BACK
        } else if segment < u64::from(done) {
            STRIP_DONE
        } else {
            STRIP_TO_COME
        };
        row.extend_from_slice(&colour);
    }
    let mut rows = Vec::with_capacity(row.len() * STRIP_HEIGHT as usize);
    for r in 0..STRIP_HEIGHT {
        // A dark line above the strip parts it from the picture.
        if r == 0 {
            for _ in 0..width {
                rows.extend_from_slice(&STRIP_BACK);
            }
        } else {
            rows.extend_from_slice(&row);
        }
    }
    rows
}

#[cfg(test)]
mod caption_tests;
#[cfg(test)]
mod tests;
