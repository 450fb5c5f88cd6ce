//! The exported video read back by a WebP decoder (`image-webp`, the `image` crate's own, which
//! shares nothing with the container written here): its frames, their times and their pixels.

use std::io::Cursor;

use image_webp::WebPDecoder;

use super::*;
use crate::film::sharing::{suggested, HiddenArea, COVER};
use crate::film::{encode_picture, Moment, Recorder};

const W: u32 = 64;
const H: u32 = 48;

/// A desktop-like picture: a soft gradient with a bright square that moves with `n`.
fn picture(n: u32) -> Vec<u8> {
    let mut rgb = Vec::with_capacity((W * H * 3) as usize);
    for y in 0..H {
        for x in 0..W {
            let inside = (8 * n..8 * n + 12).contains(&x) && (10..22).contains(&y);
            rgb.extend_from_slice(&if inside {
                [250, 200, 30]
            } else {
                [120 + (x as u8), 140 + (y as u8), 180]
            });
        }
    }
    rgb
}

fn moment(steps: u32, title: Option<&str>) -> Moment {
    Moment {
        steps,
        step_title: title.map(str::to_owned),
        narration: None,
    }
}

/// A film of four pictures: before any step, "Open Browser", "Enter your password" 200 ms
/// later, and "Read the results" after a minute's wait. Returns the shelf and the JPEGs.
fn recorded(dir: &std::path::Path) -> (Shelf, Vec<Vec<u8>>) {
    let shelf = Shelf::in_data_dir(dir);
    let mut film = Recorder::start(shelf.root(), "c1", 0, 1 << 20).unwrap();
    let plan = [
        (0, moment(0, None)),
        (1_000, moment(1, Some("Open Browser"))),
        (1_200, moment(2, Some("Enter your password"))),
        (61_200, moment(3, Some("Read the results"))),
    ];
    let mut jpegs = Vec::new();
    for (n, (at, m)) in plan.iter().enumerate() {
        let jpeg = encode_picture(W, H, picture(n as u32)).unwrap();
        jpegs.push(jpeg.clone());
        assert!(film.offer(*at, m, move || Some(jpeg)).unwrap());
    }
    film.finish(&plan[3].1).unwrap();
    (shelf, jpegs)
}

fn pixel(rgb: &[u8], width: u32, x: u32, y: u32) -> [u8; 3] {
    let at = ((y * width + x) * 3) as usize;
    [rgb[at], rgb[at + 1], rgb[at + 2]]
}

#[test]
fn the_video_has_the_films_frames_and_times_and_what_was_hidden_is_gone_from_its_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let (shelf, jpegs) = recorded(dir.path());
    let film = shelf.film("c1", "0").unwrap();

    // The sheet starts with the password step's picture hidden whole.
    let mut redactions = suggested(&film);
    assert_eq!(redactions.hidden_frames, vec![2]);
    // The person brushes over the middle of the second picture.
    redactions.areas.push(HiddenArea {
        frame: Some(1),
        x: 0.25,
        y: 0.25,
        width: 0.5,
        height: 0.5,
    });
    let bytes = video(&shelf, "c1", "0", &redactions, false)
        .unwrap()
        .unwrap();

    let mut decoder = WebPDecoder::new(Cursor::new(&bytes)).expect("a WebP file");
    assert!(decoder.is_animated());
    assert_eq!(decoder.num_frames(), 4, "one frame per picture");
    assert_eq!(
        decoder.dimensions(),
        (W, H + STRIP_HEIGHT),
        "the picture and the step strip"
    );
    assert!(!decoder.has_alpha());
    let mut frames = Vec::new();
    let mut times = Vec::new();
    let mut canvas = vec![0; decoder.output_buffer_size().unwrap()];
    for _ in 0..4 {
        times.push(decoder.read_frame(&mut canvas).unwrap());
        frames.push(canvas.clone());
    }
    // The film's times, the minute's wait shortened, the last picture held.
    assert_eq!(times, vec![1_000, 200, LONGEST_MS, LAST_MS]);
    assert_eq!(
        decoder.loop_duration(),
        u64::from(1_000 + 200 + LONGEST_MS + LAST_MS)
    );

    let original = |n: usize| {
        image::load_from_memory_with_format(&jpegs[n], image::ImageFormat::Jpeg)
            .unwrap()
            .to_rgb8()
            .into_raw()
    };
    // The first picture as recorded (the film's JPEG, decoded, to the pixel: lossless).
    assert_eq!(&frames[0][..(W * H * 3) as usize], &original(0)[..]);
    // The brushed rectangle (x 16..48, y 12..36) is the cover colour, where the picture was
    // not; outside it the picture is as recorded.
    let brushed = original(1);
    let mut differed = 0;
    for y in 0..H {
        for x in 0..W {
            let shown = pixel(&frames[1], W, x, y);
            if (16..48).contains(&x) && (12..36).contains(&y) {
                assert_eq!(shown, COVER, "({x}, {y}) is covered");
                differed += usize::from(pixel(&brushed, W, x, y) != COVER);
            } else {
                assert_eq!(shown, pixel(&brushed, W, x, y), "({x}, {y}) is as recorded");
            }
        }
    }
    assert_eq!(differed, 32 * 24, "the cover hides what was there");
    // The password step's picture is covered whole.
    assert!((0..H).all(|y| (0..W).all(|x| pixel(&frames[2], W, x, y) == COVER)));
    // The last picture (drawn as a changed part over the one before) is whole again.
    assert_eq!(&frames[3][..(W * H * 3) as usize], &original(3)[..]);

    // The step strip: nothing filled before the first step, all three by the last.
    let strip_row =
        |frame: &[u8]| -> Vec<[u8; 3]> { (0..W).map(|x| pixel(frame, W, x, H + 3)).collect() };
    assert!(!strip_row(&frames[0]).contains(&STRIP_DONE));
    assert_eq!(strip_row(&frames[1])[0], STRIP_DONE);
    assert_eq!(strip_row(&frames[1])[W as usize - 1], STRIP_TO_COME);
    assert_eq!(strip_row(&frames[3])[W as usize - 1], STRIP_DONE);
}

#[test]
fn an_area_hidden_on_every_picture_is_covered_on_each_and_pictures_alike_are_one_longer_frame() {
    let mut animation = AnimatedWebp::new(W, H).unwrap();
    let still = picture(0);
    animation.push(&still, 400).unwrap();
    // The same picture again: the first frame shows longer.
    animation.push(&still, 300).unwrap();
    animation.push(&picture(2), 500).unwrap();
    assert_eq!(animation.frames(), 2);
    let bytes = animation.finish().unwrap().unwrap();
    let mut decoder = WebPDecoder::new(Cursor::new(&bytes)).unwrap();
    assert_eq!(decoder.num_frames(), 2);
    let mut canvas = vec![0; decoder.output_buffer_size().unwrap()];
    assert_eq!(decoder.read_frame(&mut canvas).unwrap(), 700);
    assert_eq!(canvas, still);
    assert_eq!(decoder.read_frame(&mut canvas).unwrap(), 500);
    assert_eq!(canvas, picture(2));

    // A side bar hidden on every picture.
    let redactions = Redactions {
        hidden_frames: Vec::new(),
        areas: vec![HiddenArea {
            frame: None,
            x: 0.0,
            y: 0.0,
            width: 0.125,
            height: 1.0,
        }],
        strokes: Vec::new(),
    };
    for n in 0..3 {
        let mut p = image::RgbImage::from_raw(W, H, picture(n)).unwrap();
        assert!(!redactions.paint(n, &mut p), "not hidden whole");
        assert!((0..H).all(|y| (0..8).all(|x| p.get_pixel(x, y).0 == COVER)));
        assert_ne!(p.get_pixel(8, 0).0, COVER);
    }
}

#[test]
fn a_step_says_it_types_a_password_by_its_title() {
    let frame = |title: &str| FilmFrame {
        at_ms: 0,
        step: Some(1),
        title: Some(title.to_owned()),
        narration: None,
    };
    for secret in [
        "Enter your password",
        "Type the one-time code",
        "Passwort eingeben",
    ] {
        assert!(
            crate::film::sharing::types_secret(&frame(secret)),
            "{secret}"
        );
    }
    for plain in ["Open Browser", "Type the request", "Read the results"] {
        assert!(
            !crate::film::sharing::types_secret(&frame(plain)),
            "{plain}"
        );
    }
}

#[test]
fn more_areas_than_a_person_brushes_are_refused_rather_than_cut_short() {
    let area = HiddenArea {
        frame: None,
        x: 0.0,
        y: 0.0,
        width: 0.1,
        height: 0.1,
    };
    let too_many = Redactions {
        hidden_frames: Vec::new(),
        areas: vec![area; crate::film::sharing::MAX_AREAS + 1],
        strokes: Vec::new(),
    };
    assert!(too_many.check().is_err());
    let dir = tempfile::tempdir().unwrap();
    let (shelf, _) = recorded(dir.path());
    assert!(video(&shelf, "c1", "0", &too_many, true).is_err());
}
