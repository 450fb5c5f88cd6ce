//! The report's timeline from Porthole's own film of the task, when the service's record of it
//! cannot be read (no `turnId`, or "Record steps" was off): the film's frames with their step
//! marks and captions, each picture inside the file (already downscaled when it was kept,
//! `film::PICTURE_MAX_WIDTH`).
//!
//! A long film is not copied whole: every step's frame, the first and the last, and frames
//! evenly between them up to [`MOST_FRAMES`], so a report stays a file a person can send.

use std::io;

use crate::conversations::Conversation;
use crate::film::sharing::{self, Redactions};
use crate::film::{encode_picture, Film, FilmFrame, Shelf};
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

/// The film's frames with their pictures as they may leave Porthole, with `redactions`
/// painted into the pixels of each picture they touch (the same painting as the film's video,
/// [`sharing::Redactions::paint`]); a picture they do not touch leaves as it was kept, not
/// decoded and encoded again. The one place the report takes a film's pictures from.
pub fn report_pictures(
    shelf: &Shelf,
    conversation_id: &str,
    film: &Film,
    redactions: &Redactions,
) -> io::Result<Vec<(FilmFrame, Vec<u8>)>> {
    redactions.check()?;
    let film_id = film.id.as_str();
    let chosen = chosen(&film.frames);
    let mut out = Vec::with_capacity(chosen.len());
    for i in chosen {
        // A picture gone since the film was listed leaves its frame out, not the report undone.
        let Ok(bytes) = shelf.frame(conversation_id, film_id, i as u32) else {
            continue;
        };
        let bytes = if redactions.touches(i as u32) {
            // What cannot be painted over does not leave at all.
            let Some(painted) = painted(&bytes, i as u32, redactions) else {
                continue;
            };
            painted
        } else {
            bytes
        };
        out.push((film.frames[i].clone(), bytes));
    }
    Ok(out)
}

fn painted(jpeg: &[u8], index: u32, redactions: &Redactions) -> Option<Vec<u8>> {
    let mut picture = image::load_from_memory_with_format(jpeg, image::ImageFormat::Jpeg)
        .ok()?
        .to_rgb8();
    redactions.paint(index, &mut picture);
    let (width, height) = picture.dimensions();
    encode_picture(width, height, picture.into_raw())
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

/// The film a report of the conversation's last task carries, with the places of the frames it
/// keeps: what the redaction sheet shows before the report leaves.
#[derive(Debug, Clone, PartialEq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ReportFilm {
    pub film_id: String,
    /// The frames the report carries, by their place in the film.
    pub frames: Vec<u32>,
}

/// What the person hid on the sheet, over film `film_id` (the one they saw: if a newer task
/// ran meanwhile, the report still carries the film they redacted).
#[derive(Debug, Clone, PartialEq, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct HiddenOnFilm {
    pub film_id: String,
    pub redactions: Redactions,
}

/// The film of the conversation's last finished task, and the frames its report keeps; none
/// when Porthole recorded none.
pub fn film_of(shelf: &Shelf, conversation: &Conversation) -> Option<ReportFilm> {
    let film_id = last_task_film(shelf, conversation)?;
    let film = shelf.film(&conversation.id, &film_id).ok()?;
    Some(ReportFilm {
        film_id,
        frames: chosen(&film.frames).into_iter().map(|i| i as u32).collect(),
    })
}

/// The film of the conversation's last finished task, as the report shows it: none when
/// Porthole recorded none. With `chosen`, the film the person redacted with what they hid;
/// without (no sheet was shown), the pictures of a step that types a password hidden whole,
/// as the sheet starts with them ([`sharing::suggested`]): a report never carries one.
/// Redactions a person could not have made are refused, not ignored.
pub fn of_last_task(
    shelf: &Shelf,
    conversation: &Conversation,
    chosen: Option<&HiddenOnFilm>,
) -> io::Result<Vec<ReportFrame>> {
    let Some(film_id) = chosen
        .map(|c| c.film_id.clone())
        .or_else(|| last_task_film(shelf, conversation))
    else {
        return Ok(Vec::new());
    };
    let Ok(film) = shelf.film(&conversation.id, &film_id) else {
        return Ok(Vec::new());
    };
    let redactions = match chosen {
        Some(c) => c.redactions.clone(),
        None => sharing::suggested(&film),
    };
    Ok(
        report_pictures(shelf, &conversation.id, &film, &redactions)?
            .into_iter()
            .map(|(frame, bytes)| ReportFrame {
                at_ms: frame.at_ms,
                step: frame.step,
                title: frame.title,
                narration: frame.narration,
                picture: super::data_uri("image/jpeg", &bytes),
            })
            .collect(),
    )
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

    /// A film of three pictures of one colour each: before any step, a password typed, and a
    /// result read.
    fn recorded(dir: &std::path::Path) -> (Shelf, String) {
        use crate::film::{Moment, Recorder};
        let shelf = Shelf::in_data_dir(dir);
        let mut film = Recorder::start(shelf.root(), "c1", 0, 1 << 20).unwrap();
        let plan = [
            (0, 0, None, [200, 180, 60]),
            (1_000, 1, Some("Enter your password"), [60, 200, 90]),
            (2_000, 2, Some("Read the results"), [90, 120, 220]),
        ];
        for (at, steps, title, colour) in plan {
            let moment = Moment {
                steps,
                step_title: title.map(str::to_owned),
                narration: None,
            };
            let jpeg = encode_picture(32, 20, colour.repeat(32 * 20)).unwrap();
            assert!(film.offer(at, &moment, move || Some(jpeg)).unwrap());
        }
        let id = film
            .dir()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        film.finish(&Moment::default()).unwrap();
        (shelf, id)
    }

    /// Every pixel of a picture, decoded, within a JPEG's error of `colour`.
    fn all_near(jpeg: &[u8], colour: [u8; 3]) -> bool {
        let picture = image::load_from_memory(jpeg).unwrap().to_rgb8();
        picture
            .pixels()
            .all(|p| p.0.iter().zip(colour).all(|(a, b)| a.abs_diff(b) <= 8))
    }

    #[test]
    fn a_reports_pictures_carry_what_is_hidden_in_their_pixels_and_the_rest_as_kept() {
        let dir = tempfile::tempdir().unwrap();
        let (shelf, id) = recorded(dir.path());
        let film = shelf.film("c1", &id).unwrap();

        // As a report starts: the password step's picture covered whole.
        let suggested = sharing::suggested(&film);
        assert_eq!(suggested.hidden_frames, vec![1]);
        let pictures = report_pictures(&shelf, "c1", &film, &suggested).unwrap();
        assert_eq!(pictures.len(), 3);
        assert!(
            all_near(&pictures[1].1, sharing::COVER),
            "the password picture is covered"
        );
        assert!(!all_near(
            &shelf.frame("c1", &id, 1).unwrap(),
            sharing::COVER
        ));
        // The others leave as they were kept, byte for byte.
        assert_eq!(pictures[0].1, shelf.frame("c1", &id, 0).unwrap());
        assert_eq!(pictures[2].1, shelf.frame("c1", &id, 2).unwrap());

        // An area brushed on every picture: the left half covered, the right half as it was.
        let left_half = Redactions {
            hidden_frames: Vec::new(),
            areas: vec![sharing::HiddenArea {
                frame: None,
                x: 0.0,
                y: 0.0,
                width: 0.5,
                height: 1.0,
            }],
            strokes: Vec::new(),
        };
        let pictures = report_pictures(&shelf, "c1", &film, &left_half).unwrap();
        let third = image::load_from_memory(&pictures[2].1).unwrap().to_rgb8();
        let near =
            |p: &image::Rgb<u8>, c: [u8; 3]| p.0.iter().zip(c).all(|(a, b)| a.abs_diff(b) <= 12);
        assert!(
            near(third.get_pixel(4, 10), sharing::COVER),
            "left half covered"
        );
        assert!(
            near(third.get_pixel(28, 10), [90, 120, 220]),
            "right half as recorded"
        );

        // A brush stroke on the last picture: a dot of half the picture's width at its middle.
        let dot = Redactions {
            strokes: vec![sharing::Stroke {
                frame: Some(2),
                size: 0.5,
                points: vec![[0.5, 0.5]],
            }],
            ..Redactions::default()
        };
        let pictures = report_pictures(&shelf, "c1", &film, &dot).unwrap();
        let third = image::load_from_memory(&pictures[2].1).unwrap().to_rgb8();
        assert!(
            near(third.get_pixel(16, 10), sharing::COVER),
            "under the brush"
        );
        assert!(near(third.get_pixel(1, 1), [90, 120, 220]), "beyond it");
        assert_eq!(pictures[0].1, shelf.frame("c1", &id, 0).unwrap());

        // The refused redactions are refused, not ignored.
        let too_many = Redactions {
            hidden_frames: Vec::new(),
            areas: vec![left_half.areas[0]; sharing::MAX_AREAS + 1],
            strokes: Vec::new(),
        };
        assert!(report_pictures(&shelf, "c1", &film, &too_many).is_err());
    }
}
