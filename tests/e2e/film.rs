//! Every task's film, recorded here: with the service giving no turn id (as the real service
//! may never), a task run with the live screen open is recorded by Porthole from the frames
//! the live view decodes, and "Watch again" under the answer plays it: the picture changes as
//! it plays, the caption is a step's title, a step mark jumps to its step, and ← → and space
//! work. The Steps sheet says where its steps come from, and its shared report (no turn id)
//! opens with the task's receipt and carries the film's frames as its timeline. A second task
//! later, "Watch again" is under the first task's receipt too, and plays that task's film.
//! "Save as video…" hides what the person brushed over and saves the film as a video, read
//! back in Rust and (dark) in Chromium (film_video.rs). In the light and the dark scheme, with
//! axe-core over the player, Settings and the video's sheet. Once, a task whose computer's
//! screen is closed while it runs is recorded all the same.

use std::time::Duration;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::accessibility::Audit;
use crate::flows::{select_machine, send_task, thread_words, wait_for_status};
use crate::keyboard_walk::{chord, data_of, press};
use crate::replay::{image_loaded, keep_screenshot};

/// The JPEG files of every film in the app's data folder.
pub(crate) fn film_pictures(app: &App) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![app.data_dir().join("films")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "jpg") {
                found.push(path);
            }
        }
    }
    found
}

/// The frame the player shows, by its place in the film.
async fn shown(app: &App) -> usize {
    data_of(app, "film-frame", "index")
        .await
        .parse()
        .unwrap_or(usize::MAX)
}

/// Waits until the player shows frame `index` with its picture decoded.
async fn until_shown(app: &App, index: usize, why: &str) {
    let start = std::time::Instant::now();
    loop {
        if shown(app).await == index {
            if let Ok(img) = app.driver.find(by_testid("film-frame")).await {
                if image_loaded(app, &img).await.unwrap_or(false) {
                    return;
                }
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{why}: the player shows frame {} instead of {index}",
            shown(app).await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn a_finished_task_is_watched_again(scheme: &str) {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("film-report.html");
    let video = out.path().join("task.webp");
    let app = App::launch_with(AppOptions {
        env: [
            vec![
                ("PORTHOLE_SIM_TURN_ID_IN".into(), "none".into()),
                (
                    "PORTHOLE_E2E_SAVE_AS".into(),
                    file.to_string_lossy().into_owned(),
                ),
                (
                    "PORTHOLE_E2E_VIDEO_SAVE_AS".into(),
                    video.display().to_string(),
                ),
            ],
            crate::flows::scheme_env(scheme),
        ]
        .concat(),
        // A task of a few seconds (its three steps 0.8 s each), so the film has a picture a
        // second and one at each step to show; at the tests' usual 0.05 the whole task is over
        // in about half a second.
        demo_time_scale: Some(0.2),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver).within(Duration::from_secs(30));
    let mut audit = Audit::new(&app, scheme).await;
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    wait.element("live-view")
        .await
        .expect("the live screen is open");
    // The desktop is drawn before the task starts, so the film's first picture has it.
    wait.element("live-view-only")
        .await
        .expect("the live screen shows");
    let start = std::time::Instant::now();
    while data_of(&app, "live-view", "framesPainted")
        .await
        .parse::<u64>()
        .unwrap_or(0)
        == 0
    {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the live screen draws the desktop"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    send_task(&app, "Look up the weather in Lisbon")
        .await
        .expect("send");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let steps_said = thread_words(&app, "tool").await;

    // Recorded on this computer, as pictures in the data folder.
    assert!(
        !film_pictures(&app).is_empty(),
        "the task's film is in the data folder"
    );

    // "Watch again" under the answer opens the player on the film's first frame.
    wait.element("answer-film")
        .await
        .expect("Watch again is offered under the answer")
        .click()
        .await
        .unwrap();
    wait.element("film-frame").await.expect("a frame is shown");
    until_shown(&app, 0, "opened").await;
    let last: usize = wait
        .element("film-scrubber")
        .await
        .unwrap()
        .attr("max")
        .await
        .unwrap()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    assert!(last >= 1, "a film of several frames, not {}", last + 1);
    let first_picture = wait
        .element("film-frame")
        .await
        .unwrap()
        .attr("src")
        .await
        .unwrap();

    // Play: the picture moves on by itself.
    wait.element("film-speed-4")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("film-play")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    Eventually::new(&app.driver)
        .within(Duration::from_secs(20))
        .text("film-time", |_| true)
        .await
        .unwrap();
    let start = std::time::Instant::now();
    while shown(&app).await == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the film plays on"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let playing_picture = wait
        .element("film-frame")
        .await
        .unwrap()
        .attr("src")
        .await
        .unwrap();
    assert_ne!(
        playing_picture, first_picture,
        "another picture is shown while it plays"
    );
    // Pause again (the button says Pause while playing).
    let play = wait.element("film-play").await.unwrap();
    if play.attr("aria-pressed").await.unwrap().as_deref() == Some("true") {
        play.click().await.unwrap();
    }

    // A step mark jumps to its step, whose caption is the step's title.
    let marks = wait
        .at_least("film-step-mark", 1)
        .await
        .expect("the steps are marked");
    let mark = marks.last().unwrap();
    let at: usize = mark
        .attr("data-index")
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap();
    let title = mark.attr("title").await.unwrap().unwrap_or_default();
    mark.click().await.unwrap();
    until_shown(&app, at, "after its step mark").await;
    let caption = wait
        .text("film-title", |t| !t.trim().is_empty())
        .await
        .expect("the caption names the step");
    assert_eq!(
        caption.trim(),
        title.trim(),
        "the caption is the marked step's title"
    );
    assert!(
        steps_said.iter().any(|s| s.contains(caption.trim())),
        "the caption is a step the thread shows: {caption:?} not in {steps_said:?}"
    );
    keep_screenshot(&app, &format!("film-{scheme}")).await;
    audit.check("film").await;

    // The keyboard: ← → one picture, space plays and pauses.
    app.driver
        .execute(
            "document.querySelector('[data-testid=\"film\"]').focus();",
            vec![],
        )
        .await
        .unwrap();
    press(&app, Key::Left).await;
    until_shown(&app, at - 1, "after ←").await;
    press(&app, Key::Right).await;
    until_shown(&app, at, "after →").await;
    // Shift+← goes back one step, when there is an earlier one.
    if marks.len() > 1 {
        let previous: usize = marks[marks.len() - 2]
            .attr("data-index")
            .await
            .unwrap()
            .unwrap()
            .parse()
            .unwrap();
        chord(&app, Key::Shift, Key::Left).await;
        until_shown(&app, previous, "after Shift+←").await;
    }
    // Back to the start with ←, then space plays: the film moves on by itself.
    while shown(&app).await > 0 {
        let was = shown(&app).await;
        press(&app, Key::Left).await;
        until_shown(&app, was - 1, "after ←").await;
    }
    press(&app, Key::Space).await;
    let start = std::time::Instant::now();
    while shown(&app).await == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "space plays the film"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // The Steps sheet, without a turn id, says it shows Porthole's recording.
    wait.element("sheet-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("answer-steps")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(data_of(&app, "steps-source", "source").await, "film");
    wait.text("steps-source", |t| {
        t.contains("Porthole’s recording") || t.contains("Porthole's recording")
    })
    .await
    .expect("the sheet says where its steps come from");
    wait.element("film-frame")
        .await
        .expect("the film stands in for the steps");
    keep_screenshot(&app, &format!("film-steps-{scheme}")).await;
    audit.check("film-steps").await;

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
    let start = std::time::Instant::now();
    loop {
        let img = wait.element("redact-frame").await.unwrap();
        if image_loaded(&app, &img).await.unwrap_or(false) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "the report's first picture shows"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(data_of(&app, "redact-picture", "index").await, "0");
    let picture = wait.element("redact-picture").await.unwrap();
    crate::film_video::drag(&app, &picture, (0.1, 0.2), (0.6, 0.7)).await;
    crate::film_video::until_data(&app, "redact-count", "areas", "1", "the area is hidden").await;
    let area: Vec<f64> = app
        .driver
        .execute(
            "const s = document.querySelector('[data-testid=\"redact-area\"]').style; \
             return [s.left, s.top, s.width, s.height].map((v) => parseFloat(v) / 100);",
            vec![],
        )
        .await
        .unwrap()
        .convert()
        .unwrap();
    // And a stroke of the brush along the bottom right.
    wait.element("redact-tool-brush")
        .await
        .expect("the brush is offered")
        .click()
        .await
        .unwrap();
    crate::film_video::drag(&app, &picture, (0.7, 0.85), (0.95, 0.85)).await;
    crate::film_video::until_data(
        &app,
        "redact-count",
        "strokes",
        "1",
        "the stroke is painted",
    )
    .await;
    keep_screenshot(&app, &format!("film-report-redact-{scheme}")).await;
    audit.check("film-report-redact").await;
    wait.element("redact-save")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.text("share-report-saved", |t| t.contains("film-report.html"))
        .await
        .expect("the report saved");
    let html = std::fs::read_to_string(&file).expect("the report was written");
    hidden_in_report(
        &app,
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

    wait.element("sheet-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // Settings: recording a cloud computer whose screen is not open is on by default.
    wait.element("open-settings")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let unseen = wait.element("setting-record-unseen").await.unwrap();
    unseen.scroll_into_view().await.unwrap();
    assert!(
        unseen.is_selected().await.unwrap() && unseen.is_enabled().await.unwrap(),
        "recording unseen is on by default"
    );
    keep_screenshot(&app, &format!("film-settings-{scheme}")).await;
    audit.check("film-settings").await;
    wait.element("settings-dialog-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    crate::film_video::redact_and_save(&app, scheme, &video, &mut audit, scheme == "dark").await;

    // A second task: "Watch again" comes under the first task's receipt too, and plays the
    // first task's film.
    send_task(&app, "Look up the weather in Paris")
        .await
        .expect("send");
    // The status chip still says the first task's "succeeded" until the second is heard: the
    // second task has ended when its answer is in the thread.
    let started = std::time::Instant::now();
    while crate::flows::thread_texts(&app, "answer")
        .await
        .unwrap()
        .len()
        < 2
    {
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "the second task answers"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    wait_for_status(&app, &["succeeded", "failed"])
        .await
        .unwrap();
    let earlier = wait
        .element("receipt-film")
        .await
        .expect("Watch again under the earlier task's receipt");
    let first_film = earlier.attr("data-film").await.unwrap().unwrap_or_default();
    earlier.scroll_into_view().await.unwrap();
    keep_screenshot(&app, &format!("film-earlier-{scheme}")).await;
    earlier.click().await.unwrap();
    wait.element("film-frame")
        .await
        .expect("the earlier task's film plays");
    let chosen = wait
        .element("film-which")
        .await
        .expect("two films: the player says which")
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(chosen, first_film, "the earlier task's own film");
    wait.element("sheet-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    if let Some(findings) = audit.report() {
        panic!("{findings}");
    }
    // Once (the dark run): the recording of a task whose screen is not open.
    if scheme == "dark" {
        recorded_while_its_screen_is_not_open(&app).await;
    }
    app.quit().await;
}

/// Each film's folder (one per task).
fn film_folders(app: &App) -> Vec<std::path::PathBuf> {
    let mut folders: Vec<_> = film_pictures(app)
        .into_iter()
        .filter_map(|p| p.parent().map(std::path::Path::to_path_buf))
        .collect();
    folders.sort();
    folders.dedup();
    folders
}

/// The pictures kept in `folder` since `since`.
fn kept_since(folder: &std::path::Path, since: std::time::SystemTime) -> usize {
    std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jpg"))
        .filter(|e| {
            e.metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t > since)
        })
        .count()
}

/// Waits (up to 30 s) until `enough` holds of the films' folders, oldest first.
async fn until_films(app: &App, why: &str, enough: impl Fn(&[std::path::PathBuf]) -> bool) {
    let start = std::time::Instant::now();
    loop {
        let folders = film_folders(app);
        if enough(&folders) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{why}: films {folders:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A task on a cloud computer whose live screen is not open is recorded all the same. The
/// person sends a task that waits for their yes, holds a second one to run next, and looks at
/// another computer (the first one's live screen closes): the first task's film goes on while
/// they are away. They answer its card from "Needs you", so the second task starts while the
/// screen is still not open, and it is recorded too (it waits for a yes of its own). One film
/// a task.
async fn recorded_while_its_screen_is_not_open(app: &App) {
    let wait = Eventually::new(&app.driver).within(Duration::from_secs(30));
    let before = film_folders(app).len();
    send_task(app, "Delete the old files in Downloads")
        .await
        .expect("send");
    wait_for_status(app, &["needsApproval"])
        .await
        .expect("the task waits for a yes");
    let composer = wait.element("composer").await.unwrap();
    composer.click().await.unwrap();
    composer
        .send_keys("Delete the old files in Documents")
        .await
        .unwrap();
    wait.element("run-next-button")
        .await
        .expect("Run next")
        .click()
        .await
        .unwrap();
    wait.element("waiting-list")
        .await
        .expect("the second task waits its turn");

    let away = std::time::SystemTime::now();
    select_machine(app, "Research box")
        .await
        .expect("another computer");
    until_films(app, "the first task's film goes on unseen", |f| {
        f.len() == before + 1 && kept_since(&f[before], away) >= 3
    })
    .await;

    // Its card answered from "Needs you": the first task ends, the second starts, unseen.
    wait.element("inbox-open")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let approve = wait.element("approval-approve").await.expect("the card");
    app.driver
        .execute(
            "arguments[0].scrollIntoView({block: 'center'})",
            vec![approve.to_json().unwrap()],
        )
        .await
        .unwrap();
    approve.click().await.unwrap();
    wait.element("inbox-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until_films(
        app,
        "the second task, started while its screen is not open, is recorded",
        |f| f.len() == before + 2 && kept_since(&f[before + 1], away) >= 3,
    )
    .await;

    select_machine(app, "Design laptop")
        .await
        .expect("back to the first computer");
    wait.element("approval-approve")
        .await
        .expect("the second task's card")
        .click()
        .await
        .unwrap();
    assert_eq!(
        wait_for_status(app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    assert_eq!(
        film_folders(app).len(),
        before + 2,
        "one film a task, through its screen closing and opening again"
    );
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_finished_task_is_watched_again_in_the_light_scheme() {
    a_finished_task_is_watched_again("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_finished_task_is_watched_again_in_the_dark_scheme() {
    a_finished_task_is_watched_again("dark").await;
}

/// Benchmark, not a test: the bytes a minute of film takes, of a Demo task at the real
/// service's pace (time scale 1: a step every four seconds, here two minutes with "take your
/// time") watched on the live screen for `PORTHOLE_FILM_BENCH_SECS` (60). `scripts/e2e.sh`
/// skips it unless `PORTHOLE_LIVE_BENCH` is set; BENCHMARKS.md has the command.
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn bench_film_bytes_per_minute() {
    let secs: u64 = std::env::var("PORTHOLE_FILM_BENCH_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(1.0),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Look up the weather in Lisbon and take your time")
        .await
        .expect("send");
    let start = std::time::Instant::now();
    while film_pictures(&app).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(60), "a first picture");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let started = std::time::Instant::now();
    tokio::time::sleep(Duration::from_secs(secs)).await;
    let pictures = film_pictures(&app);
    let bytes: u64 = pictures
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    println!(
        "FILM BENCH: {} pictures, {bytes} bytes over {:.1} s: {:.0} KB a minute, {:.1} KB a picture",
        pictures.len(),
        minutes * 60.0,
        bytes as f64 / 1e3 / minutes,
        bytes as f64 / 1e3 / pictures.len().max(1) as f64,
    );
    app.quit().await;
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
