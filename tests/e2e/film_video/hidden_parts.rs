//! "Save as video…" with the two ways to hide a part that film.rs's run does not use: a stroke
//! of the brush, painted with the pointer, and a box placed with the keyboard alone (Tab to
//! the picture, → to the next one, Enter, arrows, Alt+arrows, Enter). The saved WebP is decoded
//! and its second frame read: the cover colour under the stroke and the box, the picture as
//! recorded everywhere else.

use std::time::Duration;

use porthole_e2e::{App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::accessibility::Audit;
use crate::film_video::{drag, recorded_picture, save, until_data, Decoded, COVER};
use crate::keyboard_walk::{chord, data_of, press, tab_to_id};
use crate::replay::{keep_screenshot, until_image_loaded};

/// Presses `key` with Alt and Shift held, as a person sizing the box by long steps.
async fn alt_shift(app: &App, key: Key) {
    app.driver
        .action_chain()
        .key_down(Key::Alt)
        .key_down(Key::Shift)
        .send_keys(key)
        .key_up(Key::Shift)
        .key_up(Key::Alt)
        .perform()
        .await
        .expect("Alt+Shift and a key");
}

/// The keyboard's box as the sheet holds it: left, top, width, height, shares of the picture.
async fn the_box(app: &App) -> [f64; 4] {
    let mut b = [0.0; 4];
    for (v, k) in b.iter_mut().zip(["x", "y", "width", "height"]) {
        *v = data_of(app, "redact-box", k)
            .await
            .parse()
            .unwrap_or(f64::NAN);
    }
    b
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_brush_stroke_and_a_box_placed_with_the_keys_are_painted_over_in_the_video() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("task.webp");
    let app = App::launch_with(AppOptions {
        env: [
            vec![(
                "PORTHOLE_E2E_VIDEO_SAVE_AS".into(),
                file.display().to_string(),
            )],
            crate::flows::scheme_env("light"),
        ]
        .concat(),
        // A film of a few pictures (film.rs says why).
        demo_time_scale: Some(0.2),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver).within(Duration::from_secs(30));
    let mut audit = Audit::new(&app, "light").await;
    crate::film::record_a_task(&app, "Look up the weather in Lisbon").await;
    wait.element("answer-video")
        .await
        .expect("Save as video… under the answer")
        .click()
        .await
        .unwrap();
    until_image_loaded(&app, "redact-frame", "the sheet shows the first picture").await;

    // The keyboard alone: Tab to the picture, → to the second one (no box yet: the arrows go
    // through the pictures), Enter puts the box on it, Shift+→ moves it a long step, Alt+Shift+→
    // widens it by one, ↑ moves it up a short one.
    tab_to_id(&app, false, "redact-picture").await;
    press(&app, Key::Right).await;
    until_data(
        &app,
        "redact-picture",
        "index",
        "1",
        "→ shows the next picture",
    )
    .await;
    until_image_loaded(&app, "redact-frame", "the second picture shows").await;
    press(&app, Key::Enter).await;
    wait.element("redact-box")
        .await
        .expect("Enter puts a box on the picture");
    chord(&app, Key::Shift, Key::Right).await;
    alt_shift(&app, Key::Right).await;
    press(&app, Key::Up).await;
    let placed = the_box(&app).await;
    let want = [0.475, 0.355, 0.35, 0.25];
    assert!(
        placed.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9),
        "the box moved and sized by the keys: {placed:?}, not {want:?}"
    );
    assert_eq!(
        data_of(&app, "redact-picture", "index").await,
        "1",
        "the arrows were the box's, not the pictures'"
    );
    let said: String = app
        .driver
        .execute(
            "return document.querySelector('[data-testid=\"redact-box-status\"]').textContent;",
            vec![],
        )
        .await
        .unwrap()
        .convert()
        .unwrap();
    assert!(
        said.contains("Box at 48% from the left and 36% from the top, 35% wide and 25% high"),
        "the box's place is said for a screen reader: {said:?}"
    );
    keep_screenshot(&app, "film-video-keyboard-box-light").await;
    audit.check("film-video-keyboard-box").await;
    press(&app, Key::Enter).await;
    until_data(
        &app,
        "redact-count",
        "areas",
        "1",
        "Enter hides what the box was on",
    )
    .await;
    assert!(
        app.driver
            .find(By::Css("[data-testid=redact-box]"))
            .await
            .is_err(),
        "the box is gone once its part is hidden"
    );

    // A stroke of the brush, with the pointer, across the top of the same picture.
    wait.element("redact-tool-brush")
        .await
        .expect("the brush is offered")
        .click()
        .await
        .unwrap();
    let picture = wait.element("redact-picture").await.unwrap();
    let (from, to) = ((0.1, 0.15), (0.9, 0.15));
    drag(&app, &picture, from, to).await;
    until_data(
        &app,
        "redact-count",
        "strokes",
        "1",
        "the stroke is painted",
    )
    .await;
    // The captions are left out: their band is painted over what is hidden.
    wait.element("redact-captions")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    save(&app).await;
    wait.text("redact-saved", |t| t.contains("task.webp"))
        .await
        .expect("the sheet says where the video went");

    let video = Decoded::read(&file);
    let (recorded, _, _) = recorded_picture(&app, 1);
    let (w, h) = recorded.dimensions();
    assert_eq!(video.width, w, "the film's pictures' width");
    let shot = porthole_e2e::screenshot_dir().join("film-video-hidden-parts-frame.png");
    video.picture(1).save(&shot).unwrap();
    // In pixels: the stroke's line and reach (the sheet's medium brush, 4 % of the width
    // across), give or take where the pointer really went (`slack`), and the box's edges.
    let (wf, hf) = (f64::from(w), f64::from(h));
    let line = (from.0 * wf, to.0 * wf, from.1 * hf);
    let reach = 0.04 * wf / 2.0;
    let slack = 0.01 * wf;
    let [bx, by, bw, bh] = placed;
    let (x0, y0, x1, y1) = (bx * wf, by * hf, (bx + bw) * wf, (by + bh) * hf);
    let (mut stroked, mut boxed, mut was_there, mut away) = (0, 0, 0, 0);
    for y in 0..h {
        for x in 0..w {
            let (px, py) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            let along = px.clamp(line.0, line.1);
            let from_line = (px - along).hypot(py - line.2);
            // The box's edges round outwards: a pixel in from them is covered, two out not.
            let in_box = (x0 + 1.0..x1 - 1.0).contains(&px) && (y0 + 1.0..y1 - 1.0).contains(&py);
            let near_box = (x0 - 2.0..x1 + 2.0).contains(&px) && (y0 - 2.0..y1 + 2.0).contains(&py);
            let shown = video.pixel(1, x, y);
            if from_line < reach - slack || in_box {
                assert_eq!(shown, COVER, "({x}, {y}) is covered ({})", shot.display());
                *(if in_box { &mut boxed } else { &mut stroked }) += 1;
                was_there += usize::from(recorded.get_pixel(x, y).0 != COVER);
            } else if from_line > reach + slack && !near_box {
                assert_eq!(
                    shown,
                    recorded.get_pixel(x, y).0,
                    "({x}, {y}), away from the stroke and the box, as recorded ({})",
                    shot.display()
                );
                away += 1;
            }
        }
    }
    assert!(
        stroked > 1000 && boxed > 1000,
        "a real stroke ({stroked} pixels) and box ({boxed})"
    );
    assert!(
        was_there * 10 >= (stroked + boxed) * 9,
        "the picture was not the cover colour there ({was_there} of {})",
        stroked + boxed
    );
    assert!(
        away * 2 > (w * h) as usize,
        "most of the picture as recorded: {away} pixels"
    );
    if let Some(findings) = audit.report() {
        panic!("{findings}");
    }
    app.quit().await;
}
