//! The live screen and its window: the stream paused while the window is hidden and resumed
//! when shown, and full screen. X windows are found and changed with `xdotool` / `xwininfo`
//! (no window manager runs under Xvfb).

use porthole_e2e::{by_testid, text_of, App, AppOptions, Result};
use std::process::Command;
use std::time::Duration;
use thirtyfour::prelude::*;

use crate::live_states::{until, watch};

/// The app's X window (its title is the app's name, with the count of what needs the person
/// when there is any: "Porthole (2)").
fn app_window() -> Result<String> {
    let out = Command::new("xdotool")
        .args([
            "search",
            "--onlyvisible",
            "--name",
            "^Porthole( \\([0-9]+\\))?$",
        ])
        .output()?;
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .map(str::to_owned)
        .ok_or_else(|| "the app's window was not found".into())
}

/// A window's position and size, as the X server has it: `(x, y, width, height)`; `"root"`
/// is the whole screen.
fn geometry(window: &str) -> Result<(i64, i64, i64, i64)> {
    let args = if window == "root" {
        vec!["-root"]
    } else {
        vec!["-id", window]
    };
    let out = Command::new("xwininfo").args(args).output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .and_then(|v| v.trim().parse::<i64>().ok())
            .ok_or_else(|| format!("xwininfo shows no {name}"))
    };
    Ok((
        field("Absolute upper-left X:")?,
        field("Absolute upper-left Y:")?,
        field("Width:")?,
        field("Height:")?,
    ))
}

/// The viewer's own counters in Rust (the `live_stats` command), which keep counting whatever
/// the page's timers do while it is hidden: `(frames received, frames handed to the page)`, and
/// whether the viewer holds frames back because the page asked it to.
async fn viewer_counts(app: &App) -> Result<((u64, u64), bool)> {
    const STATS: &str = r#"
        const done = arguments[arguments.length - 1];
        const view = document.querySelector('[data-testid="live-view"]');
        const viewId = Number(view && view.dataset.viewId);
        if (!viewId) return done({ failed: 'no view id: ' + JSON.stringify(view && view.dataset) });
        window.__TAURI_INTERNALS__.invoke('live_stats', { viewId }).then(done, (e) => done({ failed: String(e) }));
    "#;
    let v = app
        .driver
        .execute_async(STATS, vec![])
        .await?
        .json()
        .clone();
    let n = |k: &str| v.get(k).and_then(|x| x.as_f64()).unwrap_or(0.0) as u64;
    if v.is_null() || v.get("failed").is_some() {
        return Err(format!("the viewer's counters could not be read: {v}").into());
    }
    let paused = v.get("paused").and_then(|p| p.as_bool()).unwrap_or(false);
    Ok(((n("framesReceived"), n("framesDelivered")), paused))
}

async fn visibility(app: &App) -> Result<String> {
    let v = app
        .driver
        .execute("return document.visibilityState;", vec![])
        .await?;
    Ok(v.json().as_str().unwrap_or_default().to_owned())
}

/// Five frames of the stream at the 10 frames a second the test asks for: an absence of
/// frames is only seen over time, so this is counted in frames, not waited on.
const FRAMES_5: Duration = Duration::from_millis(500);

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_hidden_window_takes_no_frames_and_a_shown_one_takes_them_again() {
    // A desktop that changes all the time (the simulator's animation knob), so frames would
    // keep coming if nothing held them back.
    let app = App::launch_with(AppOptions {
        env: vec![(
            "PORTHOLE_LIVE_CONNECT_EXTRA".into(),
            "fps=10&animate=1".into(),
        )],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    watch(&app, "Design laptop").await.expect("live");
    let window = app_window().unwrap();
    // Frames can be drawn a moment before the page learns its view's id.
    until(Duration::from_secs(10), "the view has an id", || async {
        Ok(viewer_counts(&app).await.is_ok())
    })
    .await
    .expect("a view id");

    let ((_, before), paused) = viewer_counts(&app).await.unwrap();
    assert!(!paused);
    until(
        Duration::from_secs(10),
        "frames flow while shown",
        || async { Ok(viewer_counts(&app).await?.0 .1 >= before + 5) },
    )
    .await
    .expect("frames while shown");

    // Unmapping the window is what minimising does without a window manager: GTK marks it
    // iconified and WebKit tells the page it is hidden.
    Command::new("xdotool")
        .args(["windowunmap", &window])
        .status()
        .unwrap();
    until(
        Duration::from_secs(10),
        "the page knows it is hidden",
        || async { Ok(visibility(&app).await? == "hidden") },
    )
    .await
    .expect("hidden");
    // The app pauses the viewer (a hidden page also stops drawing, which alone would stall the
    // stream after a frame or two: the pause is what this asks about).
    until(Duration::from_secs(10), "the viewer is paused", || async {
        Ok(viewer_counts(&app).await?.1)
    })
    .await
    .expect("paused while hidden");
    // Frames already on their way may still land: until two reads a few frames apart agree.
    let last = std::cell::Cell::new(viewer_counts(&app).await.unwrap().0);
    until(
        Duration::from_secs(10),
        "the frames on their way landed",
        || async {
            tokio::time::sleep(FRAMES_5).await;
            let now = viewer_counts(&app).await?.0;
            Ok(last.replace(now) == now)
        },
    )
    .await
    .expect("settled");
    let hidden_from = last.get();
    // Then nothing more, over as long as twenty frames of the stream would take.
    tokio::time::sleep(FRAMES_5 * 4).await;
    let (hidden_to, still_paused) = viewer_counts(&app).await.unwrap();
    assert!(still_paused);
    assert_eq!(
        hidden_from, hidden_to,
        "no frames received or handed on while hidden (received, handed on)"
    );

    Command::new("xdotool")
        .args(["windowmap", &window])
        .status()
        .unwrap();
    until(
        Duration::from_secs(10),
        "the page knows it is shown",
        || async { Ok(visibility(&app).await? == "visible") },
    )
    .await
    .expect("shown");
    until(
        Duration::from_secs(20),
        "frames flow again once shown",
        || async {
            let ((_, delivered), paused) = viewer_counts(&app).await?;
            Ok(!paused && delivered >= hidden_to.1 + 5)
        },
    )
    .await
    .expect("resumed");
    app.screenshot("live-shown-again").await.unwrap();
    app.quit().await;
}

/// How wide the live screen is drawn in the page (CSS pixels).
async fn drawn_width(app: &App) -> Result<f64> {
    const WIDTH: &str = r#"
        const drawn = document.querySelector('[data-testid="live-display"]').firstElementChild;
        return drawn ? drawn.getBoundingClientRect().width : 0;
    "#;
    let v = app.driver.execute(WIDTH, vec![]).await?;
    Ok(v.json().as_f64().unwrap_or(0.0))
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn full_screen_covers_the_screen_and_escape_or_the_button_returns() {
    let app = App::launch().await.expect("the app opens");
    let view = watch(&app, "Design laptop").await.expect("live");
    let window = app_window().unwrap();
    let windowed = geometry(&window).unwrap();
    let screen = geometry("root").unwrap();
    assert_ne!(
        windowed, screen,
        "the window starts smaller than the screen"
    );
    let button = view.find(by_testid("live-fullscreen")).await.unwrap();
    let drawn_windowed = drawn_width(&app).await.unwrap();

    for leave_with_escape in [true, false] {
        button.click().await.unwrap();
        until(
            Duration::from_secs(10),
            "the window covers the screen",
            || async { Ok(geometry(&window)? == screen) },
        )
        .await
        .expect("full screen");
        assert_eq!(text_of(&button).await, "Leave full screen (Esc)");
        // Fitted, the picture grows with the window.
        until(
            Duration::from_secs(10),
            "the picture fills the screen",
            || async { Ok(drawn_width(&app).await? > drawn_windowed * 2.0) },
        )
        .await
        .expect("a bigger picture");
        if leave_with_escape {
            app.screenshot("live-full-screen").await.unwrap();
            app.driver
                .action_chain()
                .send_keys(Key::Escape)
                .perform()
                .await
                .unwrap();
        } else {
            button.click().await.unwrap();
        }
        until(Duration::from_secs(10), "the window is back", || async {
            Ok(geometry(&window)? == windowed)
        })
        .await
        .expect("windowed again");
        assert_eq!(text_of(&button).await, "Full screen");
        until(
            Duration::from_secs(10),
            "the picture fits the window again",
            || async { Ok((drawn_width(&app).await? - drawn_windowed).abs() < 2.0) },
        )
        .await
        .expect("the windowed size again");
    }
    app.quit().await;
}
