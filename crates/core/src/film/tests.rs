use super::*;
use std::path::Path;

fn moment(steps: u32, title: Option<&str>, narration: Option<&str>) -> Moment {
    Moment {
        steps,
        step_title: title.map(str::to_owned),
        narration: narration.map(str::to_owned),
    }
}

fn jpeg(n: usize) -> impl FnOnce() -> Option<Vec<u8>> {
    move || Some(vec![7; n])
}

/// The frames the player would list.
fn frames(data: &Path, conversation: &str, film: u64) -> Vec<FilmFrame> {
    Shelf::in_data_dir(data)
        .film(conversation, &film.to_string())
        .unwrap()
        .frames
}

#[test]
fn a_picture_about_once_a_second_and_at_every_step_with_its_captions() {
    let dir = tempfile::tempdir().unwrap();
    let mut film = Recorder::start(&dir.path().join("films"), "c1", 1_000, 1 << 20).unwrap();
    let idle = moment(0, None, Some("Opening the browser"));
    assert!(
        film.offer(1_000, &idle, jpeg(10)).unwrap(),
        "the first picture at once"
    );
    assert!(
        !film.offer(1_400, &idle, jpeg(10)).unwrap(),
        "not again within the second"
    );
    assert!(
        !film.offer(1_900, &idle, || None).unwrap(),
        "nothing to show: nothing kept"
    );
    assert!(
        film.offer(2_000, &idle, jpeg(10)).unwrap(),
        "a second later"
    );
    // A step is announced before the stream names it: kept at once, its title arrives after.
    let announced = moment(1, None, Some("Opening the browser"));
    assert!(
        film.offer(2_100, &announced, jpeg(10)).unwrap(),
        "a step is kept at once"
    );
    let named = moment(1, Some("Search the web"), Some("Looking it up"));
    assert!(!film.offer(2_300, &named, jpeg(10)).unwrap());
    film.finish(&named).unwrap();

    let frames = frames(dir.path(), "c1", 1_000);
    let at: Vec<u64> = frames.iter().map(|f| f.at_ms).collect();
    assert_eq!(at, vec![0, 1_000, 1_100]);
    assert_eq!(frames[2].step, Some(1));
    assert_eq!(
        frames[2].title.as_deref(),
        Some("Search the web"),
        "the title reached its step"
    );
    assert_eq!(frames[0].step, None);
    assert_eq!(frames[0].narration.as_deref(), Some("Opening the browser"));
}

#[test]
fn past_its_bound_a_film_loses_its_oldest_frames_and_its_steps_last() {
    let dir = tempfile::tempdir().unwrap();
    // Room for 10 frames of 100 bytes.
    let mut film = Recorder::start(&dir.path().join("films"), "c1", 0, 1_000).unwrap();
    let mut now = 0;
    for steps in 0..30u32 {
        // Every tenth frame marks a step.
        let m = moment(steps / 10, Some("step"), None);
        now += 1_000;
        assert!(film.offer(now, &m, jpeg(100)).unwrap());
        assert!(
            film.bytes() <= 1_000,
            "over its bound after frame {steps}: {}",
            film.bytes()
        );
    }
    film.finish(&moment(2, None, None)).unwrap();
    let kept = frames(dir.path(), "c1", 0);
    let on_disk = std::fs::read_dir(dir.path().join("films/c1/0"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "jpg")
        })
        .count();
    assert_eq!(
        on_disk,
        kept.len(),
        "the index lists exactly the pictures on disk"
    );
    assert!(kept.len() <= 10);
    let steps: Vec<u32> = kept.iter().filter_map(|f| f.step).collect();
    assert_eq!(steps, vec![1, 2], "the frames that mark a step stay");
    assert_eq!(kept.last().unwrap().at_ms, 30_000, "the newest stays");
    // Of the rest, the newest stayed: the kept non-step frames are the latest ones.
    let plain: Vec<u64> = kept
        .iter()
        .filter(|f| f.step.is_none())
        .map(|f| f.at_ms)
        .collect();
    let mut expected: Vec<u64> = (1..=30)
        .map(|s| s * 1_000)
        .filter(|t| *t != 11_000 && *t != 21_000)
        .collect();
    expected.drain(..expected.len() - plain.len());
    assert_eq!(plain, expected);
}

fn film_of(root: &Path, conversation: &str, started: u64, bytes: usize) -> std::path::PathBuf {
    let mut film = Recorder::start(root, conversation, started, u64::MAX).unwrap();
    film.offer(started, &Moment::default(), jpeg(bytes))
        .unwrap();
    let dir = film.dir().to_owned();
    film.finish(&Moment::default()).unwrap();
    dir
}

#[test]
fn past_the_total_the_oldest_films_go_first_but_never_one_being_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let shelf = Shelf::in_data_dir(dir.path());
    let oldest = film_of(shelf.root(), "a", 1_000, 1_000);
    let recording = film_of(shelf.root(), "b", 2_000, 1_000);
    let middle = film_of(shelf.root(), "a", 3_000, 1_000);
    let newest = film_of(shelf.root(), "c", 4_000, 1_000);
    // Each film is its picture and a short index: about 1,100 bytes. Room for two.
    let left = shelf
        .keep_within(2_500, std::slice::from_ref(&recording))
        .unwrap();
    assert!(left <= 2_500);
    assert!(
        !oldest.exists() && !middle.exists(),
        "the oldest went first"
    );
    assert!(
        recording.exists(),
        "the film being recorded stays, though older"
    );
    assert!(newest.exists());
    assert!(
        !shelf.root().join("a").exists(),
        "a conversation's folder goes with its last film"
    );
    assert_eq!(shelf.films_of("c").len(), 1);
    assert_eq!(
        shelf.keep_within(u64::MAX, &[]).unwrap(),
        left,
        "within the bound, nothing goes"
    );
}

#[test]
fn a_conversations_films_go_with_it_and_names_are_never_paths() {
    let dir = tempfile::tempdir().unwrap();
    let shelf = Shelf::in_data_dir(dir.path());
    film_of(shelf.root(), "conv-1", 5, 10);
    film_of(shelf.root(), "conv-1", 9, 10);
    film_of(shelf.root(), "conv-2", 7, 10);
    let listed: Vec<String> = shelf.films_of("conv-1").into_iter().map(|f| f.id).collect();
    assert_eq!(listed, vec!["5", "9"]);
    assert_eq!(shelf.frame("conv-1", "5", 0).unwrap(), vec![7; 10]);
    assert!(shelf.frame("conv-1", "5", 1).is_err());
    assert!(shelf.frame("..", "5", 0).is_err());
    assert!(shelf.film("conv-1", "../conv-2").is_err());
    assert!(Recorder::start(shelf.root(), "../x", 1, 10).is_err());
    shelf.delete_conversation("conv-1").unwrap();
    assert!(!shelf.root().join("conv-1").exists());
    assert!(shelf.films_of("conv-1").is_empty());
    assert_eq!(
        shelf.films_of("conv-2").len(),
        1,
        "another conversation's film stays"
    );
    shelf.delete_conversation("conv-1").unwrap();
}

#[test]
fn the_screen_is_its_pictures_and_copies_within_its_bounds() {
    let mut screen = Screen::default();
    assert_eq!(screen.picture(), None, "nothing drawn yet");
    screen.paint(Paint::Size {
        layer: 0,
        width: 4,
        height: 2,
    });
    // A picture partly off the screen.
    let red: Vec<u8> = [255, 0, 0].repeat(9);
    screen.paint(Paint::Pixels {
        layer: 0,
        x: 2,
        y: -1,
        width: 3,
        height: 3,
        opaque: true,
        over: true,
        data: &red,
    });
    // Off-screen layers are not the screen.
    screen.paint(Paint::Pixels {
        layer: -1,
        x: 0,
        y: 0,
        width: 3,
        height: 3,
        opaque: true,
        over: true,
        data: &red,
    });
    let (w, h, rgb) = screen.picture().unwrap();
    assert_eq!((w, h), (4, 2));
    let px = |rgb: &[u8], x: usize, y: usize| rgb[(y * 4 + x) * 3..(y * 4 + x) * 3 + 3].to_vec();
    assert_eq!(px(&rgb, 1, 0), vec![0, 0, 0]);
    assert_eq!(px(&rgb, 2, 0), vec![255, 0, 0]);
    assert_eq!(px(&rgb, 3, 1), vec![255, 0, 0]);
    // Half-transparent blue over red, then in place of it.
    let blue = [0, 0, 255, 128];
    screen.paint(Paint::Pixels {
        layer: 0,
        x: 3,
        y: 0,
        width: 1,
        height: 1,
        opaque: false,
        over: true,
        data: &blue,
    });
    screen.paint(Paint::Pixels {
        layer: 0,
        x: 2,
        y: 0,
        width: 1,
        height: 1,
        opaque: false,
        over: false,
        data: &blue,
    });
    let (_, _, rgb) = screen.picture().unwrap();
    assert_eq!(px(&rgb, 3, 0), vec![127, 0, 128]);
    assert_eq!(px(&rgb, 2, 0), vec![0, 0, 255]);
    // Scrolling: the right half copied one pixel left, overlapping itself.
    screen.paint(Paint::Copy {
        from: 0,
        x: 2,
        y: 0,
        width: 2,
        height: 2,
        to: 0,
        to_x: 1,
        to_y: 0,
    });
    let (_, _, rgb) = screen.picture().unwrap();
    assert_eq!(px(&rgb, 1, 0), vec![0, 0, 255]);
    assert_eq!(px(&rgb, 2, 0), vec![127, 0, 128]);
    assert_eq!(px(&rgb, 2, 1), vec![255, 0, 0]);
    // A short or absurd op changes nothing.
    screen.paint(Paint::Pixels {
        layer: 0,
        x: 0,
        y: 0,
        width: 2,
        height: 2,
        opaque: true,
        over: true,
        data: &[1, 2, 3],
    });
    screen.paint(Paint::Size {
        layer: 0,
        width: 100_000,
        height: 1,
    });
    assert_eq!(screen.picture().unwrap().2, rgb);
}

#[test]
fn a_picture_is_a_jpeg_at_most_640_wide() {
    let jpeg = encode_picture(1280, 800, vec![90; 1280 * 800 * 3]).unwrap();
    let picture = image::load_from_memory(&jpeg).unwrap();
    assert_eq!((picture.width(), picture.height()), (640, 400));
    let small = encode_picture(320, 200, vec![90; 320 * 200 * 3]).unwrap();
    assert_eq!(image::load_from_memory(&small).unwrap().width(), 320);
    assert!(
        encode_picture(10, 10, vec![0; 5]).is_none(),
        "pixels that are not the size"
    );
}

/// A screen of `width`×`height` with `rgb` drawn over the whole of it.
fn screen_of(width: u32, height: u32, rgb: &[u8]) -> Screen {
    let mut screen = Screen::default();
    screen.paint(Paint::Size {
        layer: 0,
        width,
        height,
    });
    screen.paint(Paint::Pixels {
        layer: 0,
        x: 0,
        y: 0,
        width,
        height,
        opaque: true,
        over: false,
        data: rgb,
    });
    screen
}

#[test]
fn the_films_picture_is_the_screen_made_640_wide() {
    // Left half red, right half blue, and a patch of black and white columns whose 2×2 blocks
    // average to grey.
    let (red, blue) = ([200, 0, 0], [0, 0, 200]);
    let mut rgb = Vec::with_capacity(1280 * 800 * 3);
    for y in 0..800 {
        for x in 0..1280 {
            let pixel = match (x, y) {
                (100..104, 100..102) if x % 2 == 0 => [0, 0, 0],
                (100..104, 100..102) => [255, 255, 255],
                _ if x < 640 => red,
                _ => blue,
            };
            rgb.extend(pixel);
        }
    }
    let screen = screen_of(1280, 800, &rgb);
    let (w, h, small) = screen.small_picture(PICTURE_MAX_WIDTH).unwrap();
    assert_eq!((w, h, small.len()), (640, 400, 640 * 400 * 3));
    let at = |x: usize, y: usize| &small[(y * 640 + x) * 3..][..3];
    assert_eq!(at(0, 0), red);
    assert_eq!(at(319, 399), red, "the last column of the left half");
    assert_eq!(at(320, 0), blue, "the first column of the right half");
    assert_eq!(at(639, 399), blue);
    assert_eq!(at(50, 50), [128, 128, 128], "black and white, averaged");
    assert_eq!(at(51, 50), [128, 128, 128]);
    assert_eq!(at(52, 50), red, "next to the patch, the screen as it was");

    // A width that does not divide: every pixel of a flat screen stays its colour.
    let flat = screen_of(1000, 700, &[90; 1000 * 700 * 3]);
    let (w, h, small) = flat.small_picture(PICTURE_MAX_WIDTH).unwrap();
    assert_eq!((w, h), (640, 448));
    assert!(small.iter().all(|&c| c == 90), "a flat screen stays flat");

    // A screen no wider than the film's pictures is kept as it is; nothing drawn, nothing.
    let narrow = screen_of(320, 200, &[7; 320 * 200 * 3]);
    assert_eq!(narrow.small_picture(PICTURE_MAX_WIDTH), narrow.picture());
    assert_eq!(Screen::default().small_picture(PICTURE_MAX_WIDTH), None);
}

#[test]
fn a_moment_is_the_running_tasks_steps_and_words() {
    use crate::conversations::model::{ConversationBook, ThreadItem};
    let mut book = ConversationBook::default();
    book.create("c".into(), "demo", "m", 0.0);
    let c = book.get_mut("c").unwrap();
    c.record_user_message("first", false, 1.0);
    c.items.push(ThreadItem::Tool {
        name: "browser".into(),
        title: Some("Old step".into()),
    });
    c.record_user_message("second", false, 2.0);
    assert_eq!(
        Moment::of(c),
        Moment::default(),
        "an earlier task's steps are not this one's"
    );
    c.items.push(ThreadItem::Narration {
        text: "Looking".into(),
    });
    c.items.push(ThreadItem::Tool {
        name: "browser".into(),
        title: Some("Open the page".into()),
    });
    c.items.push(ThreadItem::Tool {
        name: "shell".into(),
        title: None,
    });
    assert_eq!(Moment::of(c), moment(2, None, Some("Looking")));
}

#[test]
fn a_task_over_before_the_next_look_still_ends_on_the_screen_it_left() {
    let dir = tempfile::tempdir().unwrap();
    let mut film = Recorder::start(&dir.path().join("films"), "c1", 0, 1 << 20).unwrap();
    assert!(film
        .offer(100, &moment(1, Some("Open Browser"), None), jpeg(10))
        .unwrap());
    // Two more steps came and the task ended within the same second, before the next look.
    film.close(
        600,
        &moment(3, Some("Read the results"), Some("Done")),
        jpeg(20),
    )
    .unwrap();
    let kept = frames(dir.path(), "c1", 0);
    let at: Vec<u64> = kept.iter().map(|f| f.at_ms).collect();
    assert_eq!(
        at,
        vec![100, 600],
        "the screen as the task left it is the last frame"
    );
    assert_eq!(
        kept[1].step,
        Some(3),
        "the step announced since is marked on it"
    );
    assert_eq!(kept[1].title.as_deref(), Some("Read the results"));

    // Nothing to show at the end: the film keeps what it has.
    let mut film = Recorder::start(&dir.path().join("films"), "c2", 0, 1 << 20).unwrap();
    assert!(film.offer(100, &moment(0, None, None), jpeg(10)).unwrap());
    film.close(900, &moment(0, None, None), || None).unwrap();
    assert_eq!(frames(dir.path(), "c2", 0).len(), 1);
}
