//! Captions burnt into the exported video, read back with a WebP decoder (`image-webp`): the
//! band is where it should be with text in it, the picture above it untouched, no band when
//! the person leaves captions out, and nothing hidden shows through the band.

use std::io::Cursor;

use image_webp::WebPDecoder;

use super::caption::{band_top, burn, BAND};
use super::*;
use crate::film::sharing::{HiddenArea, COVER};
use crate::film::{encode_picture, Moment, Recorder};

/// Wide enough for words; sizes on 16-pixel lines, so what differs inside a hidden area of
/// the redaction test stays inside it through JPEG (it codes 8- and 16-pixel blocks apart).
const W: u32 = 320;
const H: u32 = 208;

const NARRATION: &str = "I opened the browser and I am now looking for tomorrow's weather in \
    Köln, then I will write the forecast into the document you named, with the wind and the rain \
    for every hour of the morning.";

/// A light, desktop-like picture; `secret` paints a pattern at the bottom middle, the part of
/// the screen the redaction test hides.
fn picture(secret: bool) -> Vec<u8> {
    let mut rgb = Vec::with_capacity((W * H * 3) as usize);
    for y in 0..H {
        for x in 0..W {
            let hidden_part = (80..240).contains(&x) && (128..H).contains(&y);
            rgb.extend_from_slice(&if secret && hidden_part && (x / 4 + y / 4) % 2 == 0 {
                [200, 20, 20]
            } else {
                [180 + (x / 8) as u8, 190 + (y / 16) as u8, 230]
            });
        }
    }
    rgb
}

fn moment(steps: u32, title: Option<&str>, narration: Option<&str>) -> Moment {
    Moment {
        steps,
        step_title: title.map(str::to_owned),
        narration: narration.map(str::to_owned),
    }
}

/// A film of three pictures: one before any step (no words), "Open Browser" with the long
/// narration, "Read the results" with none. Returns the shelf and the recorded pictures.
fn recorded(dir: &std::path::Path, secret: bool) -> (Shelf, Vec<image::RgbImage>) {
    let shelf = Shelf::in_data_dir(dir);
    let mut film = Recorder::start(shelf.root(), "c1", 0, 1 << 22).unwrap();
    let plan = [
        (0, moment(0, None, None)),
        (1_000, moment(1, Some("Open Browser"), Some(NARRATION))),
        (2_000, moment(2, Some("Read the results"), None)),
    ];
    let mut pictures = Vec::new();
    for (at, m) in &plan {
        let jpeg = encode_picture(W, H, picture(secret)).unwrap();
        pictures.push(
            image::load_from_memory_with_format(&jpeg, image::ImageFormat::Jpeg)
                .unwrap()
                .to_rgb8(),
        );
        assert!(film.offer(*at, m, move || Some(jpeg)).unwrap());
    }
    film.finish(&plan[2].1).unwrap();
    (shelf, pictures)
}

/// The video's frames, each cut to the picture (the step strip under it left out).
fn frames(bytes: &[u8]) -> Vec<image::RgbImage> {
    let mut decoder = WebPDecoder::new(Cursor::new(bytes)).expect("a WebP file");
    assert_eq!(decoder.dimensions(), (W, H + STRIP_HEIGHT), "the same size");
    let mut canvas = vec![0; decoder.output_buffer_size().unwrap()];
    (0..decoder.num_frames())
        .map(|_| {
            decoder.read_frame(&mut canvas).unwrap();
            image::RgbImage::from_raw(W, H, canvas[..(W * H * 3) as usize].to_vec()).unwrap()
        })
        .collect()
}

fn white(p: [u8; 3]) -> bool {
    p.iter().all(|&c| c >= 230)
}

/// Text pixels in rows `rows` of `frame`: white ones, where the band would be dark.
fn text_pixels(frame: &image::RgbImage, rows: std::ops::Range<u32>) -> usize {
    rows.flat_map(|y| (0..W).map(move |x| (x, y)))
        .filter(|&(x, y)| white(frame.get_pixel(x, y).0))
        .count()
}

#[test]
fn each_picture_carries_its_caption_in_a_dark_band_at_its_bottom_and_none_when_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let (shelf, pictures) = recorded(dir.path(), false);
    let film = shelf.film("c1", "0").unwrap();
    assert_eq!(film.frames.len(), 3);
    let none = Redactions::default();

    let with = frames(&video(&shelf, "c1", "0", &none, true).unwrap().unwrap());
    assert_eq!(with.len(), 3);
    // The picture before any step has no words: no band, the picture as recorded.
    assert!(band_top(W, H, &film.frames[0]).is_none());
    assert_eq!(with[0], pictures[0]);

    // The step with a long narration: three lines (the title, two of narration).
    let top = band_top(W, H, &film.frames[1]).expect("a band");
    // The title's band alone: one line.
    let short_top = band_top(W, H, &film.frames[2]).expect("a band");
    assert!(top < short_top, "three lines take more than one");
    assert!(
        (H / 2..H - 40).contains(&top),
        "a band of three lines at the bottom: from row {top} of {H}"
    );
    for (n, top) in [(1, top), (2, short_top)] {
        let (shown, recorded) = (&with[n], &pictures[n]);
        // Above the band, the picture as recorded, to the pixel.
        for y in 0..top {
            for x in 0..W {
                assert_eq!(
                    shown.get_pixel(x, y),
                    recorded.get_pixel(x, y),
                    "({x}, {y})"
                );
            }
        }
        // In it: darker than the (light) picture wherever there is no text, and white text.
        let mut dark = 0;
        let mut band = 0;
        for y in top..H {
            for x in 0..W {
                let p = shown.get_pixel(x, y).0;
                if !white(p) {
                    band += 1;
                    dark += usize::from(p.iter().all(|&c| c < 90));
                }
            }
        }
        assert!(dark * 10 >= band * 9, "frame {n}: {dark} dark of {band}");
        assert!(
            text_pixels(shown, top..H) > 150,
            "frame {n}: text in the band ({} white pixels)",
            text_pixels(shown, top..H)
        );
        assert_eq!(
            text_pixels(recorded, top..H),
            0,
            "the picture had none there"
        );
    }
    // Text on each of the three lines: the band's thirds each have some.
    let third = (H - top) / 3;
    for line in 0..3 {
        let rows = top + line * third..top + (line + 1) * third;
        assert!(text_pixels(&with[1], rows) > 40, "line {line}");
    }

    // Captions left out: the pictures as recorded.
    let without = frames(&video(&shelf, "c1", "0", &none, false).unwrap().unwrap());
    assert_eq!(without, pictures);
}

#[test]
fn a_long_caption_is_wrapped_to_three_lines_and_ends_with_an_ellipsis() {
    let frame = FilmFrame {
        at_ms: 0,
        step: Some(1),
        title: Some("Open Browser".to_owned()),
        narration: Some(NARRATION.to_owned()),
    };
    let mut picture = image::RgbImage::from_pixel(W, H, image::Rgb([255, 255, 255]));
    burn(&mut picture, &frame);
    let lines = super::caption::lines(&frame, 11, W as i32 - 14);
    let text: Vec<&str> = lines.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(text.len(), 3, "{text:?}");
    assert_eq!(text[0], "Open Browser");
    assert!(text[1].starts_with("I opened the browser"), "{text:?}");
    assert!(text[2].ends_with('…'), "the rest is cut: {text:?}");
    // The band's colour is what a white picture shows between the lines.
    let band = picture.get_pixel(W - 2, H - 2).0;
    assert!(
        band.iter().zip(BAND).all(|(a, b)| *a > b && *a < 90),
        "{band:?}"
    );
}

#[test]
fn what_was_hidden_stays_hidden_under_the_caption_and_the_caption_shows_over_it() {
    // The same film twice: once with a red pattern in the bottom middle, once without. The
    // person hides that part (over where the band goes) on the second picture.
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (with_secret, _) = recorded(one.path(), true);
    let (plain, _) = recorded(two.path(), false);
    let redactions = Redactions {
        hidden_frames: Vec::new(),
        areas: vec![HiddenArea {
            frame: Some(1),
            x: 80.0 / f64::from(W),
            y: 128.0 / f64::from(H),
            width: 160.0 / f64::from(W),
            height: 80.0 / f64::from(H),
        }],
        strokes: Vec::new(),
    };
    let a = frames(
        &video(&with_secret, "c1", "0", &redactions, true)
            .unwrap()
            .unwrap(),
    );
    let b = frames(
        &video(&plain, "c1", "0", &redactions, true)
            .unwrap()
            .unwrap(),
    );
    // The hidden part makes no difference to a single pixel of the video, band included.
    assert_eq!(a[1], b[1], "nothing of what was hidden shows");
    // The pattern was there (and is in the picture it was not hidden on).
    assert_ne!(a[0], b[0]);
    let film = with_secret.film("c1", "0").unwrap();
    let top = band_top(W, H, &film.frames[1]).unwrap();
    assert!(top > 128, "the band starts inside the hidden part");
    // Above the band, the hidden part is the cover colour; in the band, the caption's text
    // shows over it (the cover does not hide the caption).
    for y in 128..top {
        for x in 80..240 {
            assert_eq!(a[1].get_pixel(x, y).0, COVER, "({x}, {y})");
        }
    }
    let over_cover = (top..H)
        .flat_map(|y| (80..240).map(move |x| (x, y)))
        .filter(|&(x, y)| white(a[1].get_pixel(x, y).0))
        .count();
    assert!(
        over_cover > 50,
        "the caption over the hidden part: {over_cover}"
    );
}
