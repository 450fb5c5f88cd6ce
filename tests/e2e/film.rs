//! Every task's film, recorded here: with the service giving no turn id (as the real service
//! may never), a task run with the live screen open is recorded by Porthole from the frames
//! the live view decodes, and "Watch again" under the answer plays it: the picture changes as
//! it plays, the caption is a step's title, a step mark jumps to its step, and ← → and space
//! work. The Steps sheet says where its steps come from, and its shared report (no turn id)
//! leaves through the redaction sheet (film_report.rs). A second task later, "Watch again" is
//! under the first task's receipt too, and plays that task's film. "Save as video…" hides what
//! the person brushed over and saves the film as a video, read back in Rust and (dark) in
//! Chromium (film_video.rs). In the light and the dark scheme, with axe-core over the player,
//! Settings and the sheets. Once, a task whose computer's screen is closed while it runs is
//! recorded all the same (film_unseen.rs).

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

/// Runs `task` on the Design laptop with its live screen open, drawn before the task starts
/// (so the film's first picture has the desktop): Porthole records it, and it succeeds.
pub(crate) async fn record_a_task(app: &App, task: &str) {
    let wait = Eventually::new(&app.driver).within(Duration::from_secs(30));
    select_machine(app, "Design laptop").await.expect("machine");
    wait.element("live-view")
        .await
        .expect("the live screen is open");
    wait.element("live-view-only")
        .await
        .expect("the live screen shows");
    let start = std::time::Instant::now();
    while data_of(app, "live-view", "framesPainted")
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
    send_task(app, task).await.expect("send");
    assert_eq!(
        wait_for_status(app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
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
    record_a_task(&app, "Look up the weather in Lisbon").await;
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

    crate::film_report::redacted_and_saved(&app, scheme, &file, &caption, &mut audit).await;

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
        crate::film_unseen::recorded_while_its_screen_is_not_open(&app).await;
    }
    app.quit().await;
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
