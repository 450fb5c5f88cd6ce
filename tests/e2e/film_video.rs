//! The film saved as a video, read back two ways the app shares nothing with: a WebP decoder in
//! Rust (`image-webp`, the `image` crate's codec) for its frames, times and pixels, and
//! Chromium headless, whose WebCodecs `ImageDecoder` plays it as a browser would (its frames,
//! its duration, one frame drawn on a canvas).

use std::io::Cursor;
use std::path::Path;
use std::time::Duration;

use base64::Engine;
use porthole_e2e::{App, Eventually};
use thirtyfour::prelude::*;

use crate::accessibility::Audit;
use crate::keyboard_walk::data_of;
use crate::replay::keep_screenshot;

mod hidden_parts;

/// A video's frames as a decoder composes them (RGB, the whole canvas), with their times.
pub struct Decoded {
    pub width: u32,
    pub height: u32,
    pub frames: Vec<(Vec<u8>, u32)>,
}

impl Decoded {
    pub fn read(file: &Path) -> Decoded {
        let bytes = std::fs::read(file).expect("the saved video");
        let mut decoder =
            image_webp::WebPDecoder::new(Cursor::new(bytes)).expect("the video is a WebP file");
        assert!(decoder.is_animated(), "an animated WebP");
        let (width, height) = decoder.dimensions();
        let mut frames = Vec::new();
        let mut canvas = vec![0; decoder.output_buffer_size().unwrap()];
        for _ in 0..decoder.num_frames() {
            let ms = decoder.read_frame(&mut canvas).expect("each frame decodes");
            frames.push((canvas.clone(), ms));
        }
        Decoded {
            width,
            height,
            frames,
        }
    }

    /// Frame `frame` as a picture (RGB), to look at and to save.
    pub fn picture(&self, frame: usize) -> image::RgbImage {
        image::RgbImage::from_fn(self.width, self.height, |x, y| {
            image::Rgb(self.pixel(frame, x, y))
        })
    }

    pub fn pixel(&self, frame: usize, x: u32, y: u32) -> [u8; 3] {
        let bpp = self.frames[frame].0.len() / (self.width * self.height) as usize;
        let at = (y * self.width + x) as usize * bpp;
        let p = &self.frames[frame].0[at..at + 3];
        [p[0], p[1], p[2]]
    }
}

/// What Chromium read of the video.
#[derive(Debug)]
pub struct InChromium {
    pub frames: u64,
    /// Every frame's duration together, in milliseconds.
    pub duration_ms: u64,
    pub width: u64,
    pub height: u64,
    /// The pixel at `at` of frame `frame`, as drawn on a canvas.
    pub pixel: [u8; 3],
}

/// Opens `video` in Chromium headless and reads it with WebCodecs' `ImageDecoder`, drawing
/// frame `frame` on a canvas and reading its pixel at `(x, y)`. The page prints what it read
/// into itself; `--dump-dom` hands that back.
pub fn read_in_chromium(video: &Path, frame: usize, x: u32, y: u32) -> InChromium {
    let dir = tempfile::tempdir().unwrap();
    let b64 = base64::engine::general_purpose::STANDARD.encode(std::fs::read(video).unwrap());
    let page = dir.path().join("video.html");
    std::fs::write(
        &page,
        format!(
            r#"<!doctype html><meta charset="utf-8"><pre id="out">not read</pre><script>
(async () => {{
  const out = document.getElementById('out');
  // Chromium dumps the page once its virtual time runs idle, and the decoder works on a thread
  // of its own: the page keeps busy (real work, short virtual waits) until the video is read.
  let done = false;
  const spin = () => {{ if (done) return; let x = 0; for (let i = 0; i < 2e7; i++) x += i; setTimeout(spin, 10 + (x & 0)); }};
  spin();
  try {{
    const bytes = Uint8Array.from(atob('{b64}'), (c) => c.charCodeAt(0));
    const decoder = new ImageDecoder({{ data: bytes, type: 'image/webp' }});
    await decoder.tracks.ready;
    await decoder.completed;
    const track = decoder.tracks.selectedTrack;
    let duration = 0, width = 0, height = 0, pixel = null;
    for (let i = 0; i < track.frameCount; i++) {{
      const {{ image }} = await decoder.decode({{ frameIndex: i }});
      duration += image.duration ?? 0;
      width = image.displayWidth; height = image.displayHeight;
      if (i === {frame}) {{
        const canvas = document.createElement('canvas');
        canvas.width = width; canvas.height = height;
        const g = canvas.getContext('2d');
        g.drawImage(image, 0, 0);
        pixel = Array.from(g.getImageData({x}, {y}, 1, 1).data.slice(0, 3));
      }}
      image.close();
    }}
    // The marker is joined here, so the page's own source (in the dump too) does not hold it.
    out.textContent = ['READ', JSON.stringify({{ frames: track.frameCount, durationUs: duration, width, height, pixel }})].join(':');
  }} catch (e) {{
    out.textContent = 'FAILED ' + e;
  }}
  done = true;
}})();
</script>"#
        ),
    )
    .unwrap();
    let ran = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--virtual-time-budget=60000",
            "--dump-dom",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("Chromium (scripts/setup.sh --e2e installs it)");
    let dom = String::from_utf8_lossy(&ran.stdout);
    let read = dom
        .split("READ:")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| {
            panic!(
                "Chromium did not read the video: {}\n{}",
                dom.chars()
                    .filter(|c| !c.is_control())
                    .take(400)
                    .collect::<String>(),
                String::from_utf8_lossy(&ran.stderr)
                    .lines()
                    .rev()
                    .take(5)
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
    let v: serde_json::Value = serde_json::from_str(read).expect("what the page read, as JSON");
    let n = |k: &str| v[k].as_f64().unwrap_or(0.0);
    let pixel = v["pixel"]
        .as_array()
        .map(|p| {
            let c = |i: usize| p.get(i).and_then(|c| c.as_u64()).unwrap_or(0) as u8;
            [c(0), c(1), c(2)]
        })
        .expect("a frame drawn on the canvas");
    InChromium {
        frames: n("frames") as u64,
        duration_ms: (n("durationUs") / 1000.0).round() as u64,
        width: n("width") as u64,
        height: n("height") as u64,
        pixel,
    }
}

/// The colour the app paints what is hidden with (the core's `film::sharing::COVER`).
pub const COVER: [u8; 3] = [38, 38, 46];

/// Drags over the picture from one place to another, given as shares of its size.
pub async fn drag(app: &App, picture: &WebElement, from: (f64, f64), to: (f64, f64)) {
    let r = picture.rect().await.expect("the picture's place");
    // Offsets are from the element's centre (WebDriver).
    let at = |(x, y): (f64, f64)| (((x - 0.5) * r.width) as i64, ((y - 0.5) * r.height) as i64);
    let (fx, fy) = at(from);
    let (tx, ty) = at(to);
    app.driver
        .action_chain()
        .move_to_element_with_offset(picture, fx, fy)
        .click_and_hold()
        .move_by_offset((tx - fx) / 2, (ty - fy) / 2)
        .move_by_offset(tx - fx - (tx - fx) / 2, ty - fy - (ty - fy) / 2)
        .release()
        .perform()
        .await
        .expect("the drag");
}

/// Clicks the sheet's Save, scrolled into view first: a button half under the edge of a
/// scrolled dialog is "not interactable" to WebKitWebDriver (its centre is clipped), and where
/// it falls depends on the words of the picture's caption.
pub async fn save(app: &App) {
    let save = Eventually::new(&app.driver)
        .element("redact-save")
        .await
        .expect("Save is offered");
    save.scroll_into_view().await.unwrap();
    save.click().await.expect("Save is clicked");
}

/// The (first) area hidden on the sheet's picture: left, top, width and height as shares of
/// the picture (the sheet draws it in percent).
pub async fn drawn_area(app: &App) -> Vec<f64> {
    app.driver
        .execute(
            "const s = document.querySelector('[data-testid=\"redact-area\"]').style; \
             return [s.left, s.top, s.width, s.height].map((v) => parseFloat(v) / 100);",
            vec![],
        )
        .await
        .unwrap()
        .convert()
        .unwrap()
}

pub async fn until_data(app: &App, testid: &str, key: &str, want: &str, why: &str) {
    let start = std::time::Instant::now();
    while data_of(app, testid, key).await != want {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{why}: {testid} {key} is {:?}, not {want}",
            data_of(app, testid, key).await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The film's second picture as recorded (its JPEG in the data folder), decoded, its caption
/// (the step's title and narration, as the film's index keeps them), and when each picture was
/// kept (ms since the film began).
fn recorded_second_picture(app: &App) -> (image::RgbImage, String, Vec<u64>) {
    recorded_picture(app, 1)
}

/// The film's picture `n` as recorded, decoded, its caption, and when each picture was kept.
pub fn recorded_picture(app: &App, n: usize) -> (image::RgbImage, String, Vec<u64>) {
    let mut dirs = vec![app.data_dir().join("films")];
    while let Some(dir) = dirs.pop() {
        let index = dir.join("index.jsonl");
        if let Ok(text) = std::fs::read_to_string(&index) {
            let lines: Vec<serde_json::Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let jpeg = std::fs::read(dir.join(lines[n]["file"].as_str().unwrap())).unwrap();
            let picture = image::load_from_memory_with_format(&jpeg, image::ImageFormat::Jpeg)
                .unwrap()
                .to_rgb8();
            let caption = ["title", "narration"]
                .map(|k| lines[n][k].as_str().unwrap_or_default())
                .join(" ");
            return (
                picture,
                caption,
                lines.iter().map(|l| l["atMs"].as_u64().unwrap()).collect(),
            );
        }
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if entry.path().is_dir() {
                dirs.push(entry.path());
            }
        }
    }
    panic!("no film in the data folder");
}

/// "Save as video…" beside Watch again: the redaction sheet shows each picture; an area of the
/// second is brushed over (a second one, and Undo takes it back), the video is saved where the
/// (scripted) save dialog says, `file`. Then the saved file is read back: the brushed area is
/// the cover colour in its pixels, where the recorded picture was not; with `chromium`, a
/// browser plays it too.
pub async fn redact_and_save(
    app: &App,
    scheme: &str,
    file: &Path,
    audit: &mut Audit<'_>,
    chromium: bool,
) {
    let wait = Eventually::new(&app.driver).within(Duration::from_secs(30));
    let button = wait
        .element("answer-video")
        .await
        .expect("Save as video… is offered beside Watch again");
    keep_screenshot(app, &format!("film-video-button-{scheme}")).await;
    button.click().await.unwrap();
    wait.element("redact-frame")
        .await
        .expect("the sheet shows a picture");
    wait.element("redact-next")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until_data(app, "redact-picture", "index", "1", "Next").await;
    crate::replay::until_image_loaded(app, "redact-frame", "the second picture shows").await;
    let picture = wait.element("redact-picture").await.unwrap();
    drag(app, &picture, (0.2, 0.25), (0.55, 0.6)).await;
    until_data(
        app,
        "redact-count",
        "areas",
        "1",
        "the area dragged over is hidden",
    )
    .await;
    // A second one, taken back.
    drag(app, &picture, (0.6, 0.1), (0.8, 0.2)).await;
    until_data(app, "redact-count", "areas", "2", "a second area").await;
    wait.element("redact-undo")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until_data(
        app,
        "redact-count",
        "areas",
        "1",
        "Undo takes the last back",
    )
    .await;
    // Where the one left is, as shares of the picture (the sheet draws it in percent).
    let area = drawn_area(app).await;
    assert!(
        (area[0] - 0.2).abs() < 0.05 && (area[1] - 0.25).abs() < 0.05,
        "the area is where the pointer went down: {area:?}"
    );
    keep_screenshot(app, &format!("film-video-sheet-{scheme}")).await;
    audit.check("film-video").await;

    let captions = wait.element("redact-captions").await.unwrap();
    assert!(
        captions.is_selected().await.unwrap(),
        "Include captions is on by default"
    );
    save(app).await;
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    wait.text("redact-saved", |t| t.contains(&name))
        .await
        .expect("the sheet says where the video went");
    wait.element("redact-show").await.expect("Show the file");
    keep_screenshot(app, &format!("film-video-saved-{scheme}")).await;

    // Read back in Rust: one frame per picture at most (a picture like the one before lengthens
    // it), the film's times with waits over 1.5 s shortened and the last held 2.5 s, the area
    // covered.
    let video = Decoded::read(file);
    let (recorded, caption, kept_at) = recorded_second_picture(app);
    let (w, h) = recorded.dimensions();
    assert_eq!(video.width, w, "the film's pictures' width");
    assert!(video.height >= h, "the picture and the step strip under it");
    assert!(video.frames.len() >= 2, "frames: {}", video.frames.len());
    assert!(
        video.frames.len() <= kept_at.len(),
        "frames: {}",
        video.frames.len()
    );
    assert!(
        video.frames.iter().all(|(_, ms)| *ms >= 100),
        "each frame 0.1 s at least"
    );
    let total: u64 = video.frames.iter().map(|(_, ms)| u64::from(*ms)).sum();
    let film: u64 = kept_at
        .windows(2)
        .map(|w| (w[1] - w[0]).clamp(100, 1_500))
        .sum::<u64>()
        + 2_500;
    assert_eq!(
        total, film,
        "the video's length from the film's times {kept_at:?}"
    );
    // The covered pixels, one pixel in from the area's edges (its edges round outwards).
    let (x0, y0) = (
        (area[0] * f64::from(w)).ceil() as u32 + 1,
        (area[1] * f64::from(h)).ceil() as u32 + 1,
    );
    let x1 = ((area[0] + area[2]) * f64::from(w)).floor() as u32 - 1;
    let y1 = ((area[1] + area[3]) * f64::from(h)).floor() as u32 - 1;
    let mut was_there = 0;
    let mut inside = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            inside += 1;
            assert_eq!(
                video.pixel(1, x, y),
                COVER,
                "({x}, {y}) of the second frame is covered"
            );
            was_there += usize::from(recorded.get_pixel(x, y).0 != COVER);
        }
    }
    assert!(inside > 100, "a real area: {inside} pixels");
    assert!(
        was_there * 10 >= inside * 9,
        "the picture was not the cover colour there ({was_there} of {inside})"
    );
    // The caption at the bottom of the picture: from the first row that differs from the
    // recorded picture across most of its width (the band), down to the picture's end.
    assert!(
        !caption.trim().is_empty(),
        "the second picture is a step's, with words"
    );
    let differs = |y: u32| {
        (0..w)
            .filter(|&x| video.pixel(1, x, y) != recorded.get_pixel(x, y).0)
            .count()
    };
    let band_top = (0..h)
        .rev()
        .take_while(|&y| differs(y) * 10 >= w as usize * 9)
        .last()
        .expect("a band at the bottom of the second frame");
    let shot = porthole_e2e::screenshot_dir().join(format!("film-video-frame-{scheme}.png"));
    video.picture(1).save(&shot).unwrap();
    assert!(
        (h / 2..h - 16).contains(&band_top),
        "a band of one to three lines: rows {band_top}..{h} ({caption:?}, {})",
        shot.display()
    );
    assert!(
        y1 < band_top,
        "the brushed area lies above the band: covered rows to {y1}, band from {band_top}"
    );
    // Dark (the picture dimmed under it, but for the text's soft edges), with white text.
    let (mut dark, mut text) = (0, 0);
    for y in band_top..h {
        for x in 0..w {
            let (shown, under) = (video.pixel(1, x, y), recorded.get_pixel(x, y).0);
            if shown.iter().all(|&c| c >= 230) {
                text += 1;
            } else {
                dark += usize::from(
                    shown
                        .iter()
                        .zip(under)
                        .all(|(s, u)| *s <= u.saturating_add(8)),
                );
            }
        }
    }
    let band = (h - band_top) as usize * w as usize;
    assert!(text > 200, "text in the band: {text} white pixels");
    assert!(
        (dark + text) * 100 >= band * 85,
        "the band darkens the picture under it: {dark} + {text} of {band}"
    );
    // Above the band and outside the area, the picture as recorded.
    assert_eq!(video.pixel(1, 1, 1), recorded.get_pixel(1, 1).0);
    assert_eq!(
        video.pixel(1, w - 2, band_top - 1),
        recorded.get_pixel(w - 2, band_top - 1).0
    );

    if chromium {
        let (cx, cy) = ((x0 + x1) / 2, (y0 + y1) / 2);
        let read = read_in_chromium(file, 1, cx, cy);
        assert_eq!(
            read.frames,
            video.frames.len() as u64,
            "Chromium's frames: {read:?}"
        );
        assert!(
            read.duration_ms.abs_diff(total) <= 5,
            "Chromium's duration {read:?}, not {total} ms"
        );
        assert_eq!(
            (read.width, read.height),
            (u64::from(video.width), u64::from(video.height))
        );
        assert!(
            read.pixel
                .iter()
                .zip(COVER)
                .all(|(a, b)| a.abs_diff(b) <= 3),
            "Chromium shows the area covered: {read:?}"
        );
    }
    wait.element("sheet-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}
