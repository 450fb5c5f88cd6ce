//! A recorded task's report (its turn id known, "Record steps" on: the Demo's way) carries the
//! service's own screenshots of the steps, and leaves only through the redaction sheet over
//! them: nothing is saved before the sheet's Save, an area dragged over the first screenshot
//! is the cover colour in the saved file's pixels, read back out of the HTML, and the rest of
//! the picture is as the service sent it (as the sheet showed it).

use porthole_e2e::{App, Eventually};

use crate::keyboard_walk::data_of;
use crate::replay::keep_screenshot;

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_recorded_tasks_report_shows_the_services_screenshots_first_and_paints_what_was_hidden() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("steps-report.html");
    let (app, steps) = crate::report::sheet_of_a_recorded_task(&file, Vec::new()).await;
    let wait = Eventually::new(&app.driver);
    wait.element("share-report-redact")
        .await
        .expect("the redaction sheet comes first");
    let intro = wait
        .element("redact-intro")
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        intro.contains("the service's screenshots of each step"),
        "says where the pictures come from: {intro}"
    );
    let position = wait
        .element("redact-position")
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        position,
        format!("Picture 1 of {}", steps.len()),
        "each step's screenshot, the final screen's too"
    );
    assert_eq!(data_of(&app, "redact-picture", "index").await, "0");
    assert!(!file.exists(), "nothing saved before the sheet's Save");
    // The screenshot as the sheet shows it, read off its picture: what the service sent.
    let sent = shown_picture(&app).await;

    let picture = wait.element("redact-picture").await.unwrap();
    crate::film_video::drag(&app, &picture, (0.1, 0.2), (0.6, 0.7)).await;
    crate::film_video::until_data(&app, "redact-count", "areas", "1", "the area is hidden").await;
    let area = crate::film_video::drawn_area(&app).await;
    keep_screenshot(&app, "report-redact-steps").await;
    assert!(!file.exists(), "still nothing saved");
    crate::film_video::save(&app).await;
    wait.text("share-report-saved", |t| t.contains("steps-report.html"))
        .await
        .expect("the report saved");
    wait.gone("share-report-redact")
        .await
        .expect("the sheet closed");
    app.quit().await;

    let html = std::fs::read_to_string(&file).expect("the report was written");
    assert!(
        html.contains("data-source=\"service\""),
        "the service's record is the timeline"
    );
    assert_eq!(
        html.matches("<img src=\"data:image/jpeg;base64,").count(),
        steps.len(),
        "each step's screenshot inside the file"
    );
    covered_in_report(&html, &sent, &area);
    // The saved report in a browser apart from Porthole, to be looked at.
    let shot = porthole_e2e::screenshot_dir().join("report-redact-steps-in-chromium.png");
    crate::report::chromium(&[
        "--window-size=1000,1600".into(),
        format!("--screenshot={}", shot.display()),
        format!("file://{}", file.display()),
    ]);
}

/// The picture the sheet shows, drawn on a canvas and read back as a PNG.
async fn shown_picture(app: &App) -> image::RgbImage {
    use base64::Engine;
    let png = app
        .driver
        .execute(
            "const i = document.querySelector('[data-testid=\"redact-frame\"]'); \
             const c = document.createElement('canvas'); \
             c.width = i.naturalWidth; c.height = i.naturalHeight; \
             c.getContext('2d').drawImage(i, 0, 0); \
             return c.toDataURL('image/png').split(',')[1];",
            vec![],
        )
        .await
        .expect("the sheet's picture")
        .json()
        .as_str()
        .expect("a PNG")
        .to_owned();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(png)
        .unwrap();
    image::load_from_memory(&bytes).unwrap().to_rgb8()
}

/// The report's first picture, read out of the saved file and decoded: the area hidden on the
/// sheet is the cover colour in its pixels (where the service's screenshot was not), and away
/// from it the picture is as the service sent it. Edges are left out: it is a JPEG again.
fn covered_in_report(html: &str, sent: &image::RgbImage, area: &[f64]) {
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
    let (w, h) = sent.dimensions();
    assert_eq!(shared.dimensions(), (w, h), "at the size the service sent");
    let near = |a: [u8; 3], b: [u8; 3], by: u8| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= by);
    let cover = crate::film_video::COVER;
    let margin = 8.0;
    let x0 = (area[0] * f64::from(w) + margin) as u32;
    let y0 = (area[1] * f64::from(h) + margin) as u32;
    let x1 = ((area[0] + area[2]) * f64::from(w) - margin) as u32;
    let y1 = ((area[1] + area[3]) * f64::from(h) - margin) as u32;
    let (mut inside, mut was_there) = (0, 0);
    for y in (y0..y1).step_by(3) {
        for x in (x0..x1).step_by(3) {
            inside += 1;
            assert!(
                near(shared.get_pixel(x, y).0, cover, 16),
                "({x}, {y}) of the report's picture is covered: {:?}",
                shared.get_pixel(x, y).0
            );
            was_there += usize::from(!near(sent.get_pixel(x, y).0, cover, 16));
        }
    }
    assert!(inside > 100, "a real area: {inside} pixels");
    assert!(
        was_there * 10 >= inside * 9,
        "the service's screenshot was not the cover colour there ({was_there} of {inside})"
    );
    // Outside it, the screenshot as sent, and not the cover colour.
    let mut outside = 0;
    for (x, y) in [
        (w - 20, h / 2),
        (w / 2, h - 10),
        (w / 2, 10),
        (10, h / 2),
        (w - 10, 10),
    ] {
        let (a, b) = (shared.get_pixel(x, y).0, sent.get_pixel(x, y).0);
        assert!(near(a, b, 24), "({x}, {y}) as sent: {a:?} against {b:?}");
        outside += usize::from(!near(a, cover, 16));
    }
    assert!(outside >= 4, "outside the area is not covered");
}
