//! The synthetic desktop as a person sees it through the API: a screenshot from an exec block
//! is a real picture of a desktop (not blank), and it changes where text is typed.

use crate::support::*;
use base64::Engine as _;
use serde_json::{json, Value};

async fn screenshot(p: &Peer, m: &str, code: &str) -> image::RgbImage {
    let (s, b) = send(
        p.post(&format!("/v1/machines/{m}/control/exec"), "ada")
            // The longest timeout the service allows: drawing and encoding a debug build's
            // screenshot on a busy 2-core machine has taken more than the default's 1.2 s at
            // the suite's hundredth (and more than 3 s with eight tests beside it), so these
            // tests run the simulator's clock slower (`unhurried`).
            .json(&json!({ "code": code, "timeoutMs": 300_000 })),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    assert!(b["error"].is_null(), "the block ran: {}", b["error"]);
    let b64 = b["observations"]["screenshot"]["base64"]
        .as_str()
        .unwrap_or("");
    let jpeg = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .expect("base64");
    if let Ok(dir) = std::env::var("PORTHOLE_SIM_SHOTS") {
        let _ = std::fs::write(format!("{dir}/desktop-{}.jpg", jpeg.len()), &jpeg);
    }
    image::load_from_memory(&jpeg).expect("a JPEG").to_rgb8()
}

/// How many distinct colours (coarsely binned) a picture has: a blank screen has one or two.
fn colours(img: &image::RgbImage) -> usize {
    let mut seen = std::collections::HashSet::new();
    for p in img.pixels() {
        seen.insert((p[0] / 32, p[1] / 32, p[2] / 32));
    }
    seen.len()
}

/// Pixels that differ clearly between two screenshots, above the taskbar (whose clock may
/// tick between two shots).
fn changed_pixels(a: &image::RgbImage, b: &image::RgbImage) -> usize {
    let above_taskbar = a.height().saturating_sub(44);
    a.enumerate_pixels()
        .filter(|(_, y, _)| *y < above_taskbar)
        .zip(b.pixels())
        .filter(|((_, _, x), y)| x.0.iter().zip(y.0.iter()).any(|(u, v)| u.abs_diff(*v) > 40))
        .count()
}

/// The simulator at a twentieth of real time: a block's longest budget is then 15 s, while
/// the agent's task in the second test still ends in a few seconds.
async fn unhurried() -> Peer {
    start_with(porthole_sim::Config {
        time_scale: 0.05,
        ..porthole_sim::Config::default()
    })
    .await
}

#[tokio::test]
async fn screenshots_show_a_desktop_that_changes_when_text_is_typed() {
    let p = unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    assert_eq!(
        send(p.post(&format!("/v1/machines/{m}/control"), "ada"))
            .await
            .0,
        201
    );
    let empty = screenshot(&p, &m, "machine.screenshot()").await;
    assert_eq!(empty.dimensions(), (1280, 800));
    assert!(
        colours(&empty) >= 8,
        "wallpaper, icons and taskbar, not a blank screen"
    );

    let opened = screenshot(&p, &m, "machine.open('Notes'); machine.screenshot()").await;
    let window = changed_pixels(&empty, &opened);
    assert!(
        window > 50_000,
        "a window appeared ({window} pixels changed)"
    );

    let typed = screenshot(&p, &m, "machine.type('Milk, eggs, bread and a very long line of text to read'); machine.screenshot()").await;
    let text = changed_pixels(&opened, &typed);
    assert!(
        (200..50_000).contains(&text),
        "the typed text appeared, and only it ({text} pixels changed)"
    );

    let moved = screenshot(&p, &m, "machine.move(1000, 600); machine.screenshot()").await;
    let pointer = changed_pixels(&typed, &moved);
    assert!(
        (20..2_000).contains(&pointer),
        "the pointer moved ({pointer} pixels changed)"
    );
    let (_, b): (u16, Value) = send(
        p.post(&format!("/v1/machines/{m}/control/exec"), "ada")
            .json(&json!({ "code": "machine.readText('Notes')" })),
    )
    .await;
    assert_eq!(
        b["result"],
        "Milk, eggs, bread and a very long line of text to read"
    );
}

#[tokio::test]
async fn the_agent_works_on_the_same_desktop() {
    let p = unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task(
            "ada",
            json!({ "message": "Look up the weather in Lisbon", "machineId": m }),
        )
        .await;
    p.finish_turn("ada", t["turnId"].as_str().unwrap_or(""))
        .await;
    assert_eq!(
        send(p.post(&format!("/v1/machines/{m}/control"), "ada"))
            .await
            .0,
        201
    );
    let (_, b) = send(
        p.post(&format!("/v1/machines/{m}/control/exec"), "ada")
            .json(&json!({ "code": "machine.windows().map((w) => w.title)" })),
    )
    .await;
    assert!(
        b["result"].as_array().is_some_and(|w| !w.is_empty()),
        "the agent's windows are there: {b}"
    );
    let shot = screenshot(&p, &m, "machine.screenshot()").await;
    assert!(colours(&shot) >= 8);
}
