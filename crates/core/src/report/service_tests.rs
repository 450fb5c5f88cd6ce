//! A report of a recorded task carries the service's screenshots: the sheet is shown over
//! them, and what the person hid there is painted into the saved file's pixels, read back out
//! of the HTML. Against the simulator over real sockets; the painting's edge cases without it.

use bytes::Bytes;
use porthole_client::turns::{Image, Step};

use super::service_pictures::{self, HiddenOnSteps};
use super::tests::task;
use super::*;
use crate::conversations::SendOptions;
use crate::film::sharing::{self, HiddenArea, Redactions};

fn near(p: &image::Rgb<u8>, c: [u8; 3], by: u8) -> bool {
    p.0.iter().zip(c).all(|(a, b)| a.abs_diff(b) <= by)
}

/// The pictures of a saved report, in order, decoded from its `data:` URIs.
fn pictures_in(html: &str) -> Vec<(String, image::RgbImage)> {
    html.split("<img src=\"data:image/jpeg;base64,")
        .skip(1)
        .map(|rest| {
            let b64 = rest[..rest.find('"').unwrap()].to_owned();
            let bytes = STANDARD.decode(&b64).unwrap();
            (b64, image::load_from_memory(&bytes).unwrap().to_rgb8())
        })
        .collect()
}

#[tokio::test]
async fn the_services_screenshots_are_shown_first_and_what_is_hidden_is_gone_from_the_file() {
    let done = task(
        "Look up the weather in Paris",
        SendOptions {
            record_steps: true,
            ..SendOptions::default()
        },
    )
    .await;
    // What the sheet shows: each recorded step with a screenshot, by the service's index,
    // captioned; the final screen last, no step. Nothing types a password: nothing suggested.
    let shown = service_pictures::shown(&done.client, &done.turn_id)
        .await
        .unwrap();
    assert_eq!(shown.turn_id, done.turn_id);
    assert!(shown.steps.len() >= 3, "{shown:#?}");
    assert!(shown.steps.iter().any(|s| s.title == "Read the results"));
    assert_eq!(shown.steps.last().unwrap().number, None, "the final screen");
    assert_eq!(shown.suggested, Redactions::default());
    let (first, second) = (shown.steps[0].index, shown.steps[1].index);

    // An area over the middle of the first screenshot, the second hidden whole.
    let hidden = |turn_id: &str, redactions: Redactions| ShareRequest {
        hidden: Some(ReportRedactions::Steps(HiddenOnSteps {
            turn_id: turn_id.into(),
            redactions,
        })),
        ..done.request()
    };
    let chosen = Redactions {
        hidden_frames: vec![second],
        areas: vec![HiddenArea {
            frame: Some(first),
            x: 0.25,
            y: 0.25,
            width: 0.5,
            height: 0.5,
        }],
        strokes: Vec::new(),
    };
    let request = hidden(&done.turn_id, chosen.clone());
    let report = done.report(&request).await.unwrap();
    assert_eq!(report.source, Some(Source::Service));
    let path = done.dir.path().join("redacted.html");
    save(&report, &path).unwrap();
    let html = std::fs::read_to_string(&path).unwrap();
    let pictures = pictures_in(&html);
    assert_eq!(
        pictures.len(),
        shown.steps.len(),
        "one picture a screenshot"
    );

    let sent = |index: u32| {
        let client = done.client.clone();
        let turn_id = done.turn_id.clone();
        async move {
            let image = client.turns().screenshot(&turn_id, index).await.unwrap();
            let decoded = image::load_from_memory(&image.bytes).unwrap().to_rgb8();
            (STANDARD.encode(&image.bytes), decoded)
        }
    };
    let cover = sharing::COVER;
    // The first: covered inside the area (away from the edges a JPEG blurs), as sent outside.
    let (_, original) = sent(first).await;
    let painted = &pictures[0].1;
    assert_eq!(painted.dimensions(), original.dimensions(), "at its size");
    let (w, h) = painted.dimensions();
    let (mut inside, mut was_there) = (0, 0);
    for y in (h / 4 + 4..3 * h / 4 - 4).step_by(7) {
        for x in (w / 4 + 4..3 * w / 4 - 4).step_by(7) {
            inside += 1;
            assert!(
                near(painted.get_pixel(x, y), cover, 12),
                "({x}, {y}) hidden"
            );
            was_there += usize::from(!near(original.get_pixel(x, y), cover, 12));
        }
    }
    assert!(
        was_there * 2 > inside,
        "the service's picture was not the cover colour there ({was_there} of {inside})"
    );
    for (x, y) in [(3, 3), (w - 4, h - 4), (w / 8, h / 2), (7 * w / 8, h / 2)] {
        assert!(
            near(painted.get_pixel(x, y), original.get_pixel(x, y).0, 24),
            "({x}, {y}) as sent"
        );
    }
    // The second: covered whole.
    assert!(pictures[1].1.pixels().all(|p| near(p, cover, 12)));
    // The rest leave as the service sent them, byte for byte.
    for (shot, (b64, _)) in shown.steps.iter().zip(&pictures).skip(2) {
        assert_eq!(
            *b64,
            sent(shot.index).await.0,
            "step {} as sent",
            shot.index
        );
    }

    // Refused, never ignored: over another task, over a film, more than a person could hide.
    for request in [
        hidden("another-turn", chosen.clone()),
        ShareRequest {
            hidden: Some(ReportRedactions::Film(timeline::HiddenOnFilm {
                film_id: "1".into(),
                redactions: chosen.clone(),
            })),
            ..request.clone()
        },
        hidden(
            &done.turn_id,
            Redactions {
                areas: vec![chosen.areas[0]; sharing::MAX_AREAS + 1],
                ..Redactions::default()
            },
        ),
    ] {
        let err = done.report(&request).await.unwrap_err();
        assert!(matches!(err, AppError::RedactionsRefused(_)), "{err:?}");
    }
}

/// Without a sheet (a page that showed none), the screenshot of the step that types a password
/// leaves covered whole; the others as the service sent them.
#[tokio::test]
async fn without_a_sheet_the_screenshot_of_a_step_typing_a_password_leaves_covered() {
    let done = task(
        "Sign in to the shop with my password",
        SendOptions {
            record_steps: true,
            ..SendOptions::default()
        },
    )
    .await;
    let shown = service_pictures::shown(&done.client, &done.turn_id)
        .await
        .unwrap();
    let typed = shown
        .steps
        .iter()
        .position(|s| s.title == "Enter your password")
        .unwrap_or_else(|| panic!("a password step with a screenshot: {shown:#?}"));
    assert_eq!(shown.suggested.hidden_frames, [shown.steps[typed].index]);
    let report = done.report(&done.request()).await.unwrap();
    let path = done.dir.path().join("unseen.html");
    save(&report, &path).unwrap();
    let pictures = pictures_in(&std::fs::read_to_string(&path).unwrap());
    assert_eq!(pictures.len(), shown.steps.len());
    for (i, (_, picture)) in pictures.iter().enumerate() {
        let covered = picture.pixels().all(|p| near(p, sharing::COVER, 12));
        assert_eq!(covered, i == typed, "picture {i} covered: {covered}");
    }
}

fn step(index: u32, title: &str, screenshot: bool) -> Step {
    Step {
        index,
        timestamp: String::new(),
        is_final: false,
        title: title.into(),
        rationale: String::new(),
        code: String::new(),
        error: None,
        screenshot: screenshot.then(|| format!("/v1/x/{index}")),
    }
}

#[test]
fn without_a_sheet_a_step_that_types_a_password_leaves_hidden() {
    let steps = [
        step(0, "Open Browser", true),
        step(1, "Enter your password", true),
        step(2, "Passwort eingeben", true),
        step(3, "Enter the verification code", false),
        step(4, "Read the results", true),
    ];
    let suggested = service_pictures::suggested(&steps);
    assert_eq!(suggested.hidden_frames, [1, 2]);
    assert_eq!(
        service_pictures::chosen(None, "t1", &steps).unwrap(),
        suggested,
        "no sheet shown: the suggestion"
    );
    // What the person chose on the sheet stands, even showing a password step they looked at.
    let shown = ReportRedactions::Steps(HiddenOnSteps {
        turn_id: "t1".into(),
        redactions: Redactions::default(),
    });
    assert_eq!(
        service_pictures::chosen(Some(&shown), "t1", &steps).unwrap(),
        Redactions::default()
    );
}

#[test]
fn a_screenshot_is_painted_whatever_it_was_sent_as_and_one_that_cannot_be_is_left_out() {
    let whole = Redactions {
        hidden_frames: vec![3],
        ..Redactions::default()
    };
    // A PNG: read, painted, written as a JPEG.
    let mut png = Vec::new();
    image::RgbImage::from_pixel(40, 30, image::Rgb([240, 240, 240]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let sent = Image {
        bytes: Bytes::from(png),
        content_type: "image/png".into(),
    };
    let uri = service_pictures::shared(&sent, 3, &whole).unwrap();
    let b64 = uri.strip_prefix("data:image/jpeg;base64,").expect("a JPEG");
    let painted = image::load_from_memory(&STANDARD.decode(b64).unwrap())
        .unwrap()
        .to_rgb8();
    assert_eq!(painted.dimensions(), (40, 30));
    assert!(painted.pixels().all(|p| near(p, sharing::COVER, 12)));
    // Untouched, as it came (a PNG stays one).
    let kept = service_pictures::shared(&sent, 2, &whole).unwrap();
    assert_eq!(kept, data_uri("image/png", &sent.bytes));

    // Bytes that are no picture: something hidden on it, it does not leave at all.
    let broken = Image {
        bytes: Bytes::from_static(b"not a picture"),
        content_type: "image/jpeg".into(),
    };
    assert_eq!(service_pictures::shared(&broken, 3, &whole), None);
}
