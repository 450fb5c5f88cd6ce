//! A task's shared report, without a turn id (film.rs runs it after watching the film): it
//! opens with the receipt the thread shows, its timeline is the film with each frame's picture
//! inside the file, and it leaves only through the redaction sheet, where a rectangle and a
//! brush stroke hide parts of the first picture: the saved file's pixels are read back.

use std::path::Path;

use porthole_e2e::{App, Eventually};

use crate::accessibility::Audit;
use crate::keyboard_walk::data_of;
use crate::replay::keep_screenshot;

/// From the Steps sheet's "Share report": the sheet, an area and a stroke hidden, the report
/// saved as `file`, its parts in order and its first picture covered where they were.
pub(crate) async fn redacted_and_saved(
    app: &App,
    scheme: &str,
    file: &Path,
    caption: &str,
    audit: &mut Audit<'_>,
) {
    let wait = Eventually::new(&app.driver);
    // Its report, without a turn id: it opens with the receipt the thread shows, and the
    // film is its timeline, each frame's picture inside the file. It leaves only through the
    // redaction sheet over the pictures it carries: an area of the first is hidden there.
    wait.element("share-report-save")
        .await
        .expect("the report is offered without a turn id")
        .click()
        .await
        .unwrap();
    wait.element("share-report-redact")
        .await
        .expect("the redaction sheet comes first");
    crate::replay::until_image_loaded(app, "redact-frame", "the report's first picture shows")
        .await;
    assert_eq!(data_of(app, "redact-picture", "index").await, "0");
    let picture = wait.element("redact-picture").await.unwrap();
    crate::film_video::drag(app, &picture, (0.1, 0.2), (0.6, 0.7)).await;
    crate::film_video::until_data(app, "redact-count", "areas", "1", "the area is hidden").await;
    let area = crate::film_video::drawn_area(app).await;
    // And a stroke of the brush along the bottom right.
    wait.element("redact-tool-brush")
        .await
        .expect("the brush is offered")
        .click()
        .await
        .unwrap();
    crate::film_video::drag(app, &picture, (0.7, 0.85), (0.95, 0.85)).await;
    crate::film_video::until_data(app, "redact-count", "strokes", "1", "the stroke is painted")
        .await;
    keep_screenshot(app, &format!("film-report-redact-{scheme}")).await;
    audit.check("film-report-redact").await;
    crate::film_video::save(app).await;
    wait.text("share-report-saved", |t| t.contains("film-report.html"))
        .await
        .expect("the report saved");
    let html = std::fs::read_to_string(file).expect("the report was written");
    hidden_in_report(
        app,
        &html,
        &area,
        &[(0.75, 0.85), (0.825, 0.85), (0.9, 0.85)],
    );
    let at = |part: &str| {
        html.find(&format!("data-part=\"{part}\""))
            .unwrap_or_else(|| panic!("the report has its {part}"))
    };
    assert!(
        at("task") < at("receipt"),
        "the task's words, then its receipt"
    );
    for later in ["outcome", "cost", "answer", "timeline"] {
        assert!(at("receipt") < at(later), "the receipt before the {later}");
    }
    assert!(
        html.contains("data-part=\"receipt-outcome\">Done<"),
        "the receipt's outcome, as the thread says it"
    );
    assert!(html.contains("Read from how the task ended and the agent’s answer"));
    assert!(html.contains("data-part=\"receipt-figures\">Took "));
    assert!(
        html.contains("data-source=\"film\""),
        "the film is the timeline"
    );
    let frames = html.matches("data-part=\"frame\"").count();
    assert!(frames >= 2, "the film's frames, not {frames}");
    assert_eq!(
        html.matches("<img src=\"data:image/jpeg;base64,").count(),
        frames,
        "each frame's picture inside the file"
    );
    assert!(html.contains(caption.trim()), "a step's caption: {caption}");
    assert!(!html.contains("127.0.0.1"), "no address of the service");
    let shot = porthole_e2e::screenshot_dir().join(format!("film-report-{scheme}.png"));
    crate::report::chromium(&[
        "--window-size=1000,1400".into(),
        // Blink's colour scheme: 0 dark, 1 light.
        format!(
            "--blink-settings=preferredColorScheme={}",
            if scheme == "dark" { 0 } else { 1 }
        ),
        format!("--screenshot={}", shot.display()),
        format!("file://{}", file.display()),
    ]);
}

/// The report's first picture, read out of the saved file and decoded: the area hidden on the
/// sheet is the cover colour in its pixels (where the recorded picture was not), the rest of it
/// as recorded, and so are the pixels along the brush's stroke (`stroke`, as shares of the
/// picture). Edges are left out: the picture is a JPEG again, which blurs them.
fn hidden_in_report(app: &App, html: &str, area: &[f64], stroke: &[(f64, f64)]) {
    use base64::Engine;
    let rest = html
        .split("<img src=\"data:image/jpeg;base64,")
        .nth(1)
        .expect("a picture in the report");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&rest[..rest.find('"').unwrap()])
        .expect("the picture's bytes");
    let shared = image::load_from_memory(&bytes)
        .expect("the picture decodes")
        .to_rgb8();
    let (recorded, _, _) = crate::film_video::recorded_picture(app, 0);
    let (w, h) = recorded.dimensions();
    assert_eq!(
        shared.dimensions(),
        (w, h),
        "the picture as kept, not shrunk"
    );
    let near = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 16);
    let cover = crate::film_video::COVER;
    let margin = 8.0;
    let x0 = (area[0] * f64::from(w) + margin) as u32;
    let y0 = (area[1] * f64::from(h) + margin) as u32;
    let x1 = ((area[0] + area[2]) * f64::from(w) - margin) as u32;
    let y1 = ((area[1] + area[3]) * f64::from(h) - margin) as u32;
    let (mut inside, mut was_there) = (0, 0);
    for y in y0..y1 {
        for x in x0..x1 {
            inside += 1;
            assert!(
                near(shared.get_pixel(x, y).0, cover),
                "({x}, {y}) of the report's picture is covered: {:?}",
                shared.get_pixel(x, y).0
            );
            was_there += usize::from(!near(recorded.get_pixel(x, y).0, cover));
        }
    }
    assert!(inside > 100, "a real area: {inside} pixels");
    assert!(
        was_there * 10 >= inside * 9,
        "the recorded picture was not the cover colour there ({was_there} of {inside})"
    );
    for (x, y) in stroke {
        let (x, y) = ((x * f64::from(w)) as u32, (y * f64::from(h)) as u32);
        assert!(
            near(shared.get_pixel(x, y).0, cover),
            "({x}, {y}) under the brush's stroke is covered: {:?}",
            shared.get_pixel(x, y).0
        );
    }
    // Far from both, the picture as recorded.
    let outside = [(w - 4, h - 4), (w - 4, 3), (3, h - 4)];
    for (x, y) in outside {
        let (a, b) = (shared.get_pixel(x, y).0, recorded.get_pixel(x, y).0);
        assert!(
            a.iter().zip(b).all(|(p, q)| p.abs_diff(q) <= 24),
            "({x}, {y}) as recorded: {a:?} against {b:?}"
        );
    }
}
