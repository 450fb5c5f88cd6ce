//! Files dragged from another program and dropped on the composer, through a real X drag and
//! drop (XDND) under Xvfb: the test's own drag source (`src/bin/drag-source.rs`) offers the
//! files as `text/uri-list`, as a file manager does, and `xdotool` presses on it, moves the
//! pointer onto the composer in steps and lets go. Nothing of the app is bypassed: the drop
//! reaches it as a window event, and it checks, uploads and sends the files itself.
//!
//! The test runs its own simulator (the app's Demo points at it) so that it can read what the
//! service received with the message, and so the conversation outlives a restart of the app.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually, Result};
use porthole_sim::RunningSim;
use thirtyfour::prelude::*;
use tokio::io::AsyncBufReadExt;
use tokio::process::Command;

use crate::flows::{own_demo, restart_on, select_machine, wait_for_status};

const TASK: &str = "Add up the table using my notes";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn dropped_files_are_uploaded_sent_and_named_in_the_thread() {
    let (sim, env) = own_demo(0.05).await;
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("table.csv");
    std::fs::write(&table, "item,price\nbread,2\n".repeat(40_000)).unwrap();
    let notes = dir.path().join("my notes.md");
    std::fs::write(&notes, "Prices are in euros.\n").unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();

    let app = App::launch_with(AppOptions {
        env: env.clone(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");

    let highlighted = drag_onto_composer(&app, &[&table, &notes], "drop-over-composer")
        .await
        .expect("the drag and drop ran");
    assert!(
        highlighted,
        "the composer is highlighted while files are over it"
    );
    let chips = wait
        .at_least("attachment-chip", 2)
        .await
        .expect("a chip per dropped file");
    assert_eq!(chip_names(&chips).await, ["table.csv", "my notes.md"]);
    for chip in &chips {
        wait_until_ready(chip).await.expect("each file uploads");
        let progress = chip.find(by_testid("attachment-progress")).await.unwrap();
        assert_eq!(
            progress.attr("aria-valuenow").await.unwrap().as_deref(),
            Some("100"),
            "each chip's own bar is full"
        );
    }

    let composer = wait.element("composer").await.unwrap();
    composer.click().await.unwrap();
    composer.send_keys(TASK).await.unwrap();
    drag_onto_composer(&app, &[&empty], "drop-empty")
        .await
        .expect("the second drag and drop ran");
    let chips = wait
        .at_least("attachment-chip", 3)
        .await
        .expect("a chip for the empty file");
    assert_eq!(
        chips[2].attr("data-state").await.unwrap().as_deref(),
        Some("refused")
    );
    let why = text_of(&chips[2].find(by_testid("attachment-error")).await.unwrap()).await;
    assert!(why.contains("empty"), "the refusal says why: {why}");
    for chip in &chips[..2] {
        assert_eq!(
            chip.attr("data-state").await.unwrap().as_deref(),
            Some("ready"),
            "the refusal leaves the other files attached"
        );
    }
    assert_eq!(
        composer.prop("value").await.unwrap().as_deref(),
        Some(TASK),
        "the refusal leaves the typed text alone"
    );
    app.screenshot("drop-refused-empty-file").await.unwrap();

    chips[2]
        .find(by_testid("attachment-remove"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    composer.click().await.unwrap();
    composer.send_keys(Key::Enter).await.unwrap();
    wait.gone("attachment-chip")
        .await
        .expect("sent files leave the composer");
    assert_eq!(
        sent_names(&app).await,
        ["table.csv", "my notes.md"],
        "the message in the thread names its files"
    );
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    // The service stores files under names of its own (made safe, a timestamp added).
    let received = files_the_service_received(&sim, TASK);
    let sizes: Vec<u64> = received.iter().map(|(_, size)| *size).collect();
    let whole = [&table, &notes].map(|f| std::fs::metadata(f).unwrap().len());
    assert_eq!(sizes, whole, "the service's task got both files, whole");
    assert!(
        received[0].0.starts_with("table") && received[1].0.starts_with("my_notes"),
        "{received:?}"
    );
    app.screenshot("drop-sent-with-files").await.unwrap();

    let (_keep, again) = restart_on(app, env, "Design laptop").await;
    Eventually::new(&again.driver)
        .at_least("sent-attachment", 2)
        .await
        .expect("the thread still names the files after a restart");
    assert_eq!(sent_names(&again).await, ["table.csv", "my notes.md"]);
    again.screenshot("drop-files-after-restart").await.unwrap();
    again.quit().await;
}

/// Drags `files` from the test's drag source onto the composer and drops them. Takes the
/// screenshot `shot` while the files hover over the composer, and answers whether the
/// composer showed its drop highlight then.
async fn drag_onto_composer(app: &App, files: &[&Path], shot: &str) -> Result<bool> {
    let (screen_w, screen_h) = display_size().await?;
    // Right of the app's window, where nothing of it is covered (no window manager here).
    let (source_x, source_y) = (screen_w - 45, screen_h / 2 - 60);
    let mut source = Command::new(env!("CARGO_BIN_EXE_drag-source"))
        .arg(source_x.to_string())
        .arg(source_y.to_string())
        .args(files)
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let mut lines = tokio::io::BufReader::new(source.stdout.take().ok_or("no stdout")?).lines();
    match tokio::time::timeout(Duration::from_secs(20), lines.next_line()).await {
        Ok(Ok(Some(line))) if line == "ready" => {}
        other => return Err(format!("the drag source did not start: {other:?}").into()),
    }
    // A window needs a moment after mapping before it takes a press.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let (to_x, to_y) = composer_on_screen(app).await?;
    let (from_x, from_y) = (source_x + 20, source_y + 60);
    xdotool(&["mousemove", &from_x.to_string(), &from_y.to_string()]).await?;
    xdotool(&["mousedown", "1"]).await?;
    // In steps, as a hand moves: the drag starts past GTK's threshold, and the app sees the
    // files enter and move over it.
    let steps = 24;
    for i in 1..=steps {
        let x = from_x + (to_x - from_x) * i / steps;
        let y = from_y + (to_y - from_y) * i / steps;
        xdotool(&["mousemove", &x.to_string(), &y.to_string()]).await?;
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let highlighted = composer_highlighted(app).await;
    app.screenshot(shot).await?;
    xdotool(&["mouseup", "1"]).await?;
    match tokio::time::timeout(Duration::from_secs(20), source.wait()).await {
        Ok(Ok(status)) if status.success() => Ok(highlighted),
        other => Err(format!("the drag did not end with a drop: {other:?}").into()),
    }
}

/// Polls briefly: the highlight follows the drag events the window receives.
async fn composer_highlighted(app: &App) -> bool {
    for _ in 0..20 {
        if let Ok(form) = app.driver.find(by_testid("composer-form")).await {
            let class = form.attr("class").await.ok().flatten().unwrap_or_default();
            if class.split_whitespace().any(|c| c == "dropping") {
                return true;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// The middle of the composer in screen pixels: the app window's place on the X screen plus
/// the composer's place in the page.
async fn composer_on_screen(app: &App) -> Result<(i64, i64)> {
    let rect = app
        .driver
        .execute(
            "const r = document.querySelector('[data-testid=\"composer\"]').getBoundingClientRect();
             return [r.left + r.width / 2, r.top + r.height / 2];",
            vec![],
        )
        .await?;
    let xy: Vec<f64> = serde_json::from_value(rect.json().clone())?;
    let (win_x, win_y) = app_window_origin().await?;
    Ok((win_x + xy[0] as i64, win_y + xy[1] as i64))
}

// The title is "Porthole", or "Porthole (2)" when two things need the person.
async fn app_window_origin() -> Result<(i64, i64)> {
    let ids = xdotool(&[
        "search",
        "--onlyvisible",
        "--name",
        "^Porthole( \\([0-9]+\\))?$",
    ])
    .await?;
    let mut best: Option<(i64, i64, i64)> = None;
    for id in ids.split_whitespace() {
        let shell = xdotool(&["getwindowgeometry", "--shell", id]).await?;
        let value = |key: &str| -> i64 {
            shell
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key}=")))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0)
        };
        let area = value("WIDTH") * value("HEIGHT");
        if best.is_none_or(|(a, _, _)| area > a) {
            best = Some((area, value("X"), value("Y")));
        }
    }
    best.map(|(_, x, y)| (x, y))
        .ok_or_else(|| "no window called Porthole on the screen".into())
}

async fn display_size() -> Result<(i64, i64)> {
    let out = xdotool(&["getdisplaygeometry"]).await?;
    let mut it = out.split_whitespace().map(|n| n.parse::<i64>());
    match (it.next(), it.next()) {
        (Some(Ok(w)), Some(Ok(h))) => Ok((w, h)),
        _ => Err(format!("xdotool gave no display size: {out:?}").into()),
    }
}

async fn xdotool(args: &[&str]) -> Result<String> {
    let out = Command::new("xdotool")
        .args(args)
        .output()
        .await
        .map_err(|e| format!("could not run xdotool (scripts/setup.sh installs it): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "xdotool {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

async fn wait_until_ready(chip: &WebElement) -> Result<()> {
    for _ in 0..300 {
        match chip.attr("data-state").await?.as_deref() {
            Some("ready") => return Ok(()),
            Some("failed" | "refused") => {
                let why = match chip.find(by_testid("attachment-error")).await {
                    Ok(el) => text_of(&el).await,
                    Err(_) => String::new(),
                };
                return Err(format!("the upload failed: {why}").into());
            }
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    Err("the upload never finished".into())
}

async fn chip_names(chips: &[WebElement]) -> Vec<String> {
    let mut names = Vec::new();
    for chip in chips {
        names.push(
            chip.attr("data-name")
                .await
                .ok()
                .flatten()
                .unwrap_or_default(),
        );
    }
    names
}

/// The file names the thread shows under the person's messages.
async fn sent_names(app: &App) -> Vec<String> {
    let mut names = Vec::new();
    for el in Eventually::new(&app.driver)
        .at_least("sent-attachment", 1)
        .await
        .unwrap_or_default()
    {
        names.push(text_of(&el).await);
    }
    names
}

/// Name and size of each file on the service's record of the task started by `message`.
fn files_the_service_received(sim: &RunningSim, message: &str) -> Vec<(String, u64)> {
    let db = sim.state().db();
    db.turns
        .values()
        .filter(|turn| {
            turn.message
                .split("\n\n[Sent at the person's local time: ")
                .next()
                == Some(&*message)
        })
        .flat_map(|turn| turn.attachments.iter())
        .filter_map(|upload| {
            let name = upload.get("name")?.as_str()?.to_owned();
            Some((name, upload.get("size")?.as_u64()?))
        })
        .collect()
}
