//! A film made ready to leave Porthole: each picture with what the person hid painted into its
//! pixels (never a layer on top, which whoever receives the file could lift off), for every
//! way a film is shared (the video, the report's timeline).
//!
//! What is hidden is the person's choice, made on the sheet that shows each picture; the
//! sheet starts from [`suggested`]: every picture of a step that types a password hidden
//! whole. The service marks no input as secret (no field of a tool call or a step says so):
//! the step's own title is what says it, as the agent words it ("Enter your password",
//! `execute`'s `input.title` on the service, the step's progress line on the stream).

use std::io;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Film, FilmFrame, Shelf};

/// The colour hidden parts are painted with: a dark grey that reads as "covered" on a light
/// and a dark screen alike.
pub const COVER: [u8; 3] = [38, 38, 46];

/// The most areas one sharing may hide: far more than a person brushes, few enough that
/// painting them stays quick.
pub const MAX_AREAS: usize = 5_000;

/// What the person hid before sharing a film.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Redactions {
    /// Pictures hidden whole, by their place in the film.
    pub hidden_frames: Vec<u32>,
    /// Parts of pictures brushed over.
    pub areas: Vec<HiddenArea>,
}

/// A rectangle hidden on one picture, or on every picture.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct HiddenArea {
    /// The picture, by its place in the film; `None` on every picture (a part of the screen
    /// that stays put, such as a side bar with a name).
    pub frame: Option<u32>,
    /// Left, top, width and height as shares (0 to 1) of the picture's width and height, so
    /// the size the sheet drew the picture at does not matter.
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// One picture of a film as it may leave Porthole.
#[derive(Debug, Clone)]
pub struct SharedFrame {
    /// Its place in the film.
    pub index: u32,
    pub frame: FilmFrame,
    /// The picture with everything hidden painted over.
    pub picture: image::RgbImage,
    /// Hidden whole.
    pub hidden: bool,
}

/// Words of a step's title that say it types a password or a code like one (English and
/// German, the languages Porthole speaks; the agent words its steps in the task's language).
const SECRET_WORDS: &[&str] = &[
    "password",
    "passcode",
    "passphrase",
    "one-time code",
    "verification code",
    "passwort",
    "kennwort",
    "einmalcode",
    "bestätigungscode",
];

/// The step this picture belongs to types a password, as its title says.
pub fn types_secret(frame: &FilmFrame) -> bool {
    frame.title.as_deref().is_some_and(|title| {
        let title = title.to_lowercase();
        SECRET_WORDS.iter().any(|w| title.contains(w))
    })
}

/// What the sheet starts with: every picture of a step that types a password hidden whole.
pub fn suggested(film: &Film) -> Redactions {
    Redactions {
        hidden_frames: (0u32..)
            .zip(&film.frames)
            .filter(|(_, f)| types_secret(f))
            .map(|(i, _)| i)
            .collect(),
        areas: Vec::new(),
    }
}

impl Redactions {
    /// Refused when there is more to hide than a person could have brushed: a page gone wrong,
    /// never silently shortened (what was asked hidden must be hidden).
    pub fn check(&self) -> io::Result<()> {
        let sane = |v: f64| v.is_finite();
        if self.areas.len() > MAX_AREAS
            || self.hidden_frames.len() > u32::MAX as usize
            || !self
                .areas
                .iter()
                .all(|a| sane(a.x) && sane(a.y) && sane(a.width) && sane(a.height))
        {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "redactions"));
        }
        Ok(())
    }

    /// Paints what is hidden on picture `index` into its pixels; true when it is hidden whole.
    pub fn paint(&self, index: u32, picture: &mut image::RgbImage) -> bool {
        if self.hidden_frames.contains(&index) {
            cover(picture, 0, 0, picture.width(), picture.height());
            return true;
        }
        let (w, h) = (f64::from(picture.width()), f64::from(picture.height()));
        for area in self
            .areas
            .iter()
            .filter(|a| a.frame.is_none_or(|f| f == index))
        {
            // Generous at the edges: a pixel the brush touched at all is covered.
            let left = (area.x.clamp(0.0, 1.0) * w).floor();
            let top = (area.y.clamp(0.0, 1.0) * h).floor();
            let right = ((area.x + area.width).clamp(0.0, 1.0) * w).ceil();
            let bottom = ((area.y + area.height).clamp(0.0, 1.0) * h).ceil();
            if right > left && bottom > top {
                cover(
                    picture,
                    left as u32,
                    top as u32,
                    (right - left) as u32,
                    (bottom - top) as u32,
                );
            }
        }
        false
    }
}

fn cover(picture: &mut image::RgbImage, x: u32, y: u32, width: u32, height: u32) {
    let right = (x + width).min(picture.width());
    let bottom = (y + height).min(picture.height());
    for row in y..bottom {
        for col in x..right {
            picture.put_pixel(col, row, image::Rgb(COVER));
        }
    }
}

/// A film's pictures, in order, each with `redactions` painted in, read one at a time (a long
/// film's pictures together would not fit in memory). A picture that cannot be read ends the
/// film with its error: a shared film never has a gap the person did not see.
pub fn frames_for_sharing<'a>(
    shelf: &Shelf,
    conversation_id: &str,
    film_id: &str,
    redactions: &'a Redactions,
) -> io::Result<SharedFrames<'a>> {
    redactions.check()?;
    Ok(SharedFrames {
        files: shelf
            .frame_files(conversation_id, film_id)?
            .into_iter()
            .enumerate(),
        redactions,
    })
}

/// The pictures of [`frames_for_sharing`].
pub struct SharedFrames<'a> {
    files: std::iter::Enumerate<std::vec::IntoIter<(FilmFrame, PathBuf)>>,
    redactions: &'a Redactions,
}

impl SharedFrames<'_> {
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Iterator for SharedFrames<'_> {
    type Item = io::Result<SharedFrame>;

    fn next(&mut self) -> Option<Self::Item> {
        let (index, (frame, path)) = self.files.next()?;
        let index = index as u32;
        Some((|| {
            let jpeg = std::fs::read(&path)?;
            let mut picture = image::load_from_memory_with_format(&jpeg, image::ImageFormat::Jpeg)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?
                .to_rgb8();
            let hidden = self.redactions.paint(index, &mut picture);
            Ok(SharedFrame {
                index,
                frame,
                picture,
                hidden,
            })
        })())
    }
}
