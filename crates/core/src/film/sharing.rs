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

/// The most points all brush strokes together may have, for the same reason.
pub const MAX_POINTS: usize = 50_000;

/// The broadest brush, as a share of the picture's width.
pub const MAX_BRUSH: f64 = 0.5;

/// What the person hid before sharing a film.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Redactions {
    /// Pictures hidden whole, by their place in the film.
    pub hidden_frames: Vec<u32>,
    /// Rectangles dragged over parts of pictures.
    pub areas: Vec<HiddenArea>,
    /// Parts of pictures painted over with the brush.
    #[serde(default)]
    #[specta(optional)]
    pub strokes: Vec<Stroke>,
}

/// One stroke of the brush: the pointer's path from down to up, on one picture or on every
/// picture. What it covers is every pixel within half the brush's size of the path (a disc
/// dragged along it), as the sheet draws it (a line with round ends and joins).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Stroke {
    /// The picture, by its place in the film; `None` on every picture.
    pub frame: Option<u32>,
    /// The brush's breadth, as a share of the picture's width.
    pub size: f64,
    /// The path, each point as shares (0 to 1) of the picture's width and height.
    pub points: Vec<[f64; 2]>,
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
    frame.title.as_deref().is_some_and(says_secret)
}

/// A step's title says it types a password: the film's pictures' and the service's recorded
/// steps' alike (the report's sheet over either starts from it).
pub fn says_secret(title: &str) -> bool {
    let title = title.to_lowercase();
    SECRET_WORDS.iter().any(|w| title.contains(w))
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
        strokes: Vec::new(),
    }
}

impl Redactions {
    /// Refused when there is more to hide than a person could have brushed: a page gone wrong,
    /// never silently shortened (what was asked hidden must be hidden).
    pub fn check(&self) -> io::Result<()> {
        let sane = |v: f64| v.is_finite();
        let points: usize = self.strokes.iter().map(|s| s.points.len()).sum();
        if self.areas.len() > MAX_AREAS
            || points > MAX_POINTS
            || self.hidden_frames.len() > u32::MAX as usize
            || !self
                .areas
                .iter()
                .all(|a| sane(a.x) && sane(a.y) && sane(a.width) && sane(a.height))
            || !self.strokes.iter().all(|s| {
                s.size > 0.0
                    && s.size <= MAX_BRUSH
                    && !s.points.is_empty()
                    && s.points.iter().all(|[x, y]| sane(*x) && sane(*y))
            })
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
        for stroke in self.on(index) {
            paint_stroke(stroke, picture);
        }
        false
    }

    /// Something is hidden on picture `index`: it must be painted before it leaves.
    pub fn touches(&self, index: u32) -> bool {
        self.hidden_frames.contains(&index)
            || self
                .areas
                .iter()
                .any(|a| a.frame.is_none_or(|f| f == index))
            || self.on(index).next().is_some()
    }

    /// The strokes painted on picture `index`.
    pub fn on(&self, index: u32) -> impl Iterator<Item = &Stroke> {
        self.strokes
            .iter()
            .filter(move |s| s.frame.is_none_or(|f| f == index))
    }
}

/// Covers every pixel a disc of the brush's size touches as it is dragged along the stroke:
/// discs at points along each segment no further apart than a quarter of the brush, so their
/// union leaves no gap between them. Hand-written: `imageproc` draws a filled circle but would
/// be a new dependency for these few lines.
fn paint_stroke(stroke: &Stroke, picture: &mut image::RgbImage) {
    let (w, h) = (f64::from(picture.width()), f64::from(picture.height()));
    // Half a pixel more, generous as the rectangles' edges are: a pixel the brush touched at
    // all is covered.
    let radius = stroke.size * w / 2.0 + 0.5;
    let step = (radius / 2.0).max(0.5);
    let pixel = |[x, y]: [f64; 2]| (x.clamp(0.0, 1.0) * w, y.clamp(0.0, 1.0) * h);
    let first = pixel(stroke.points[0]);
    disc(picture, first, radius);
    for pair in stroke.points.windows(2) {
        let (a, b) = (pixel(pair[0]), pixel(pair[1]));
        let length = (b.0 - a.0).hypot(b.1 - a.1);
        let steps = (length / step).ceil().max(1.0) as u32;
        for k in 1..=steps {
            let t = f64::from(k) / f64::from(steps);
            disc(
                picture,
                (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t),
                radius,
            );
        }
    }
}

/// Covers the pixels whose centres lie within `radius` of `(cx, cy)` (in pixels).
fn disc(picture: &mut image::RgbImage, (cx, cy): (f64, f64), radius: f64) {
    let (w, h) = (picture.width(), picture.height());
    let left = (cx - radius).floor().max(0.0) as u32;
    let top = (cy - radius).floor().max(0.0) as u32;
    let right = ((cx + radius).ceil().max(0.0) as u32).min(w);
    let bottom = ((cy + radius).ceil().max(0.0) as u32).min(h);
    for row in top..bottom {
        for col in left..right {
            let (dx, dy) = (f64::from(col) + 0.5 - cx, f64::from(row) + 0.5 - cy);
            if dx * dx + dy * dy <= radius * radius {
                picture.put_pixel(col, row, image::Rgb(COVER));
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn stroke(frame: Option<u32>, size: f64, points: &[[f64; 2]]) -> Redactions {
        Redactions {
            strokes: vec![Stroke {
                frame,
                size,
                points: points.to_vec(),
            }],
            ..Redactions::default()
        }
    }

    #[test]
    fn a_brush_stroke_covers_the_pixels_along_its_path_and_nothing_far_from_it() {
        // 100 × 50, a brush a tenth of the width (10 px across): along the top, then down.
        let painted = stroke(Some(2), 0.1, &[[0.1, 0.2], [0.9, 0.2], [0.9, 0.8]]);
        let white = image::RgbImage::from_pixel(100, 50, image::Rgb([250; 3]));
        let mut picture = white.clone();
        assert!(!painted.paint(2, &mut picture), "not hidden whole");
        let covered = |x, y| picture.get_pixel(x, y).0 == COVER;
        // Along the path, without a gap between the points it was drawn through.
        for x in 10..=90 {
            assert!(covered(x, 10), "({x}, 10) on the first segment");
        }
        for y in 10..=40 {
            assert!(covered(90, y), "(90, {y}) on the second");
        }
        // Round at its ends, as the sheet draws it: within the brush's reach of the start.
        assert!(covered(6, 10) && covered(10, 6) && covered(10, 14));
        assert!(!covered(3, 3), "the start's corner is beyond a round end");
        // Far from the path, the picture as it was.
        for (x, y) in [(50, 2), (50, 20), (70, 30), (5, 45), (97, 47), (2, 10)] {
            assert!(!covered(x, y), "({x}, {y}) is not covered");
        }
        let count = picture.pixels().filter(|p| p.0 == COVER).count();
        // About the path's length (80 + 30 px) times the brush's breadth, plus its round ends.
        assert!((1_000..=1_600).contains(&count), "{count} pixels covered");

        // On another picture, nothing: the stroke was painted on picture 2 alone.
        let mut other = white.clone();
        painted.paint(1, &mut other);
        assert_eq!(other, white);
        // On every picture, when painted so; a single point is a dot.
        let everywhere = stroke(None, 0.1, &[[0.5, 0.5]]);
        let mut dot = white.clone();
        everywhere.paint(7, &mut dot);
        assert_eq!(dot.get_pixel(50, 25).0, COVER);
        assert_eq!(dot.get_pixel(50, 33).0, [250; 3]);
    }

    #[test]
    fn strokes_a_person_could_not_have_painted_are_refused() {
        assert!(stroke(None, 0.1, &[[0.5, 0.5]]).check().is_ok());
        assert!(stroke(None, 0.0, &[[0.5, 0.5]]).check().is_err());
        assert!(stroke(None, MAX_BRUSH * 2.0, &[[0.5, 0.5]])
            .check()
            .is_err());
        assert!(stroke(None, 0.1, &[]).check().is_err());
        assert!(stroke(None, 0.1, &[[f64::NAN, 0.5]]).check().is_err());
        assert!(stroke(None, 0.1, &vec![[0.5, 0.5]; MAX_POINTS + 1])
            .check()
            .is_err());
    }
}
