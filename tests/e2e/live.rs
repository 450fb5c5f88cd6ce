//! The live screen beside a task shows the computer's desktop, drawn from the real stream, and
//! it changes while the agent works.

use porthole_e2e::{App, Eventually, Result};
use std::time::{Duration, Instant};

use crate::flows::{demo_env, select_machine, send_task, wait_for_status};

mod usage;
use usage::{app_threads, bench_processes};

/// What the live canvas holds: its size, how many distinct colours a sample of its pixels has,
/// and a fingerprint of those pixels (read with getImageData from the page).
#[derive(Debug, PartialEq)]
struct CanvasSample {
    width: u64,
    height: u64,
    colours: u64,
    fingerprint: u64,
}

const SAMPLE: &str = r#"
const canvas = document.querySelector('[data-testid="live-canvas"]');
const view = document.querySelector('[data-testid="live-view"]');
// The screen's size (Guacamole's layer canvases round theirs up to a multiple of 64).
const width = Number(view && view.dataset.width), height = Number(view && view.dataset.height);
if (!canvas || !width || !height) return null;
const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
const colours = new Set();
let hash = 0;
for (let i = 0; i < data.length; i += 4 * 7) {
  const rgb = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
  if (colours.size < 4096) colours.add(rgb);
  hash = (Math.imul(hash, 31) + rgb) >>> 0;
}
return { width, height, colours: colours.size, fingerprint: hash };
"#;

async fn sample(app: &App) -> Result<Option<CanvasSample>> {
    let ret = app.driver.execute(SAMPLE, vec![]).await?;
    let v = ret.json();
    if v.is_null() {
        return Ok(None);
    }
    let n = |k: &str| v.get(k).and_then(|x| x.as_u64()).unwrap_or(0);
    Ok(Some(CanvasSample {
        width: n("width"),
        height: n("height"),
        colours: n("colours"),
        fingerprint: n("fingerprint"),
    }))
}

/// Waits for a canvas sample for which `pred` holds.
async fn sample_until(
    app: &App,
    limit: Duration,
    pred: impl Fn(&CanvasSample) -> bool,
) -> Result<CanvasSample> {
    let start = Instant::now();
    let mut last = None;
    loop {
        if let Some(s) = sample(app).await? {
            if pred(&s) {
                return Ok(s);
            }
            last = Some(s);
        }
        if start.elapsed() > limit {
            return Err(format!("the live canvas never got there; last: {last:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_live_screen_shows_the_desktop_and_follows_the_agent() {
    let app = App::launch().await.expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    let wait = Eventually::new(&app.driver).within(Duration::from_secs(30));
    let view = wait.element("live-view").await.expect("a live screen");

    // The desktop arrives: the canvas has the computer's size and a picture on it (a blank or
    // single-colour canvas has a handful of colours at most).
    let desktop = sample_until(&app, Duration::from_secs(30), |s| s.colours > 16)
        .await
        .expect("the desktop is drawn");
    assert_eq!((desktop.width, desktop.height), (1280, 800));
    assert_eq!(
        view.attr("data-phase").await.unwrap().as_deref(),
        Some("live"),
        "no overlay once the picture is there"
    );
    app.screenshot("live-desktop").await.expect("screenshot");

    // The agent works on the computer: what the live screen shows changes.
    send_task(&app, "Look up the weather in Lisbon")
        .await
        .expect("send");
    wait_for_status(&app, &["running", "succeeded"])
        .await
        .expect("the task starts");
    let changed = sample_until(&app, Duration::from_secs(60), |s| {
        s.fingerprint != desktop.fingerprint && s.colours > 16
    })
    .await
    .expect("the live screen follows the agent");
    assert_eq!((changed.width, changed.height), (1280, 800));
    // The page publishes its count twice a second: wait for it to catch up with the pixels.
    let start = Instant::now();
    let painted = loop {
        let painted: u64 = view
            .attr("data-frames-painted")
            .await
            .unwrap()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        if painted >= 2 || start.elapsed() > Duration::from_secs(10) {
            break painted;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(
        painted >= 2,
        "frames were painted and acknowledged: {painted}"
    );
    app.screenshot("live-agent-working")
        .await
        .expect("screenshot");
    app.quit().await;
}

/// Benchmark, not a test: painted frames per second and the bridge's latency (WebSocket frame
/// arriving in Rust to its bytes in the page) on the simulator's animated stream, at
/// `PORTHOLE_LIVE_BENCH=WxH` (default `1280x800`). `scripts/e2e.sh` skips it unless that
/// variable is set; BENCHMARKS.md has the command.
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn bench_live_view_in_the_app() {
    let size = std::env::var("PORTHOLE_LIVE_BENCH").unwrap_or_else(|_| "1280x800".into());
    let (w, h) = size.split_once('x').expect("PORTHOLE_LIVE_BENCH=WxH");
    // The stream's pace; above 60 (the simulator allows 120) the viewer is the limit. The
    // Chromium bench reads the same variable (bench/browser-live/bench.mjs).
    let fps = std::env::var("PORTHOLE_LIVE_BENCH_FPS").unwrap_or_else(|_| "60".into());
    let mut env = vec![
        (
            "PORTHOLE_LIVE_CONNECT_EXTRA".into(),
            format!("fps={fps}&animate=1&width={w}&height={h}"),
        ),
        // Marks this run's processes (other engineers' apps may be running too).
        (
            "PORTHOLE_LIVE_BENCH_RUN".into(),
            std::process::id().to_string(),
        ),
    ];
    if let Ok(extra) = std::env::var("PORTHOLE_LIVE_BENCH_APP_ENV") {
        // For experiments: `NAME=VALUE ...` handed to the app (and so its web process).
        for pair in extra.split_whitespace() {
            if let Some((k, v)) = pair.split_once('=') {
                env.push((k.into(), v.into()));
            }
        }
    }
    // The Demo's clock: 1 (the default here) is the real service's, where a live-view link
    // lasts 15 minutes; the tests' 0.05 makes it 45 s, so the view reconnects every 45 s.
    let time_scale = std::env::var("PORTHOLE_LIVE_BENCH_TIME_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1.0);
    // `PORTHOLE_LIVE_BENCH_SIM=path/to/porthole-sim`: the Demo served by that simulator in a
    // process of its own, so the app process's figures are the bridge's and the app's alone
    // (the built-in Demo encodes the stream inside the app process).
    let _sim = match std::env::var("PORTHOLE_LIVE_BENCH_SIM") {
        Ok(bin) => {
            let (child, demo_env) = start_bench_sim(&bin, time_scale);
            env.extend(demo_env);
            Some(child)
        }
        Err(_) => None,
    };
    let options = porthole_e2e::AppOptions {
        env,
        demo_time_scale: Some(time_scale),
        ..Default::default()
    };
    let app = App::launch_with(options).await.expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    let view = drawn_view(&app).await;
    if std::env::var_os("PORTHOLE_LIVE_BENCH_ACTUAL").is_some() {
        // 1:1 instead of fitting the screen to the window (no scaling when painted).
        let wait = Eventually::new(&app.driver);
        let button = wait.element("live-actual").await.expect("the 1:1 button");
        button.click().await.expect("1:1");
    }
    let secs: u64 = std::env::var("PORTHOLE_LIVE_BENCH_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    if std::env::var_os("PORTHOLE_LIVE_BENCH_FILM").is_none() {
        tokio::time::sleep(Duration::from_secs(3)).await;
        measure(&view, &size, "", secs).await;
    } else {
        // Recording on and off in the same run, on the same stream, while a task runs (only
        // then is a film recorded): on, off, on, off, each a window of `secs`, the live screen
        // opened afresh after each switch (an open view keeps the choice it was opened with).
        send_task(&app, "Look up the weather in Lisbon and take your time")
            .await
            .expect("send");
        wait_for_status(&app, &["running"]).await.expect("running");
        let mut view = view;
        for (round, record) in [true, false, true, false].into_iter().enumerate() {
            if round > 0 {
                set_recording(&app, record).await;
                select_machine(&app, "Research box").await.expect("away");
                select_machine(&app, "Design laptop").await.expect("back");
                view = drawn_view(&app).await;
            }
            tokio::time::sleep(Duration::from_secs(3)).await;
            let label = if record {
                " recording on"
            } else {
                " recording off"
            };
            measure(&view, &size, label, secs).await;
        }
        assert_eq!(
            wait_for_status(&app, &["running"]).await.unwrap(),
            "running",
            "the task ran through every window"
        );
    }
    app.screenshot(&format!("live-bench-{size}"))
        .await
        .expect("screenshot");
    app.quit().await;
}

/// The live screen, once it has drawn the desktop.
async fn drawn_view(app: &App) -> thirtyfour::WebElement {
    let view = Eventually::new(&app.driver)
        .element("live-view")
        .await
        .expect("a live screen");
    sample_until(app, Duration::from_secs(30), |s| s.colours > 16)
        .await
        .expect("the desktop is drawn");
    view
}

/// Turns "Record tasks on cloud computers" on or off in Settings.
async fn set_recording(app: &App, on: bool) {
    let wait = Eventually::new(&app.driver);
    wait.element("open-settings")
        .await
        .expect("Settings")
        .click()
        .await
        .expect("Settings");
    let setting = wait
        .element("setting-record-tasks")
        .await
        .expect("the setting");
    if setting.is_selected().await.unwrap() != on {
        setting.click().await.unwrap();
    }
    wait.element("settings-dialog-close")
        .await
        .expect("close")
        .click()
        .await
        .expect("close");
}

/// One window of `secs` seconds on the open `view`: painted fps, the bridge's latency, CPU and
/// memory of this run's processes, printed as `LIVE BENCH {size}{label}: …`.
async fn measure(view: &thirtyfour::WebElement, size: &str, label: &str, secs: u64) {
    let read = |name: &'static str| {
        let view = view.clone();
        async move {
            view.attr(name)
                .await
                .ok()
                .flatten()
                .and_then(|v| v.parse::<f64>().ok())
        }
    };
    let start_frames = read("data-frames-painted").await.unwrap_or(0.0);
    let start_received = read("data-frames-received").await.unwrap_or(0.0);
    let start_dropped = read("data-frames-dropped").await.unwrap_or(0.0);
    let started = Instant::now();
    let usage_before = bench_processes();
    let threads_before = app_threads();
    let mut fps = Vec::new();
    let (mut p50, mut p99, mut rust_p99) = (Vec::new(), Vec::new(), Vec::new());
    let mut means = Vec::new();
    // Quiet: the page is not asked anything until the end. Each WebDriver call runs a script in
    // the page, which the web process's memory would count against the live view.
    let quiet = std::env::var_os("PORTHOLE_LIVE_BENCH_QUIET").is_some();
    for second in 1..=secs {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if !quiet || second == secs {
            fps.extend(read("data-painted-fps").await);
            p50.extend(read("data-bridge-p50").await);
            p99.extend(read("data-bridge-p99").await);
            means.extend(read("data-bridge-mean").await);
            rust_p99.extend(read("data-bridge-rust-p99").await);
        }
        if second % 30 == 0 {
            // The course of memory, not just its ends: a leak shows as a steady climb.
            let now: Vec<String> = bench_processes()
                .iter()
                .map(|(name, (_, rss))| format!("{name} {:.1} MB", rss / 1e6))
                .collect();
            println!("LIVE BENCH {size}{label} at {second} s: {}", now.join(", "));
        }
    }
    let frames = read("data-frames-painted").await.unwrap_or(0.0) - start_frames;
    let received = read("data-frames-received").await.unwrap_or(0.0) - start_received;
    let dropped = read("data-frames-dropped").await.unwrap_or(0.0) - start_dropped;
    let secs = started.elapsed().as_secs_f64();
    let usage_after = bench_processes();
    // Where the app's CPU went, by thread name (the film's thread is "film"; the bridge runs
    // on tokio's workers): what tells the film's cost from the live view's.
    let threads: Vec<String> = app_threads()
        .iter()
        .filter_map(|(name, cpu1)| {
            let share = (cpu1 - threads_before.get(name).copied().unwrap_or(0.0)) / secs * 100.0;
            (share >= 0.05).then(|| format!("{name} {share:.1}%"))
        })
        .collect();
    println!(
        "LIVE BENCH {size}{label} app threads: {}",
        threads.join(", ")
    );
    for (name, (cpu0, rss0)) in &usage_before {
        if let Some((cpu1, rss1)) = usage_after.get(name) {
            println!(
                "LIVE BENCH {size}{label} {name}: CPU {:.1}% of one core, memory {:.1} MB -> {:.1} MB ({:+.1} MB)",
                (cpu1 - cpu0) / secs * 100.0,
                rss0 / 1e6,
                rss1 / 1e6,
                (rss1 - rss0) / 1e6,
            );
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let mean = median(&mut means);
    println!(
        "LIVE BENCH {size}{label}: painted {:.1} fps average over {secs:.0} s (median of 1 s windows {:.0}); \
         bridge latency p50 {:.2} ms, p99 {:.2} ms (worst sample {:.2}), mean {:.2} ms (the page's clock is floored to the ms: the true mean is about 0.5 ms more, {:.2}), \
         of which in Rust p99 {:.2} ms (page's last-512-frame window, median of samples); \
         upstream {:.1} frames/s received, {:.1}/s merged into later ones",
        frames / secs,
        median(&mut fps),
        median(&mut p50),
        median(&mut p99),
        p99.last().copied().unwrap_or(f64::NAN),
        mean,
        mean + 0.5,
        median(&mut rust_p99),
        received / secs,
        dropped / secs,
    );
}

/// Starts the simulator binary `bin` for the bench (marked as this run's, so its memory is
/// reported too) and returns it with the environment that makes it the app's Demo, signed in
/// as ada, as `flows::own_demo` does for an in-process one. Killed when dropped.
fn start_bench_sim(bin: &str, time_scale: f64) -> (KillOnDrop, Vec<(String, String)>) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(bin)
        .args([
            "--addr",
            "127.0.0.1:0",
            "--time-scale",
            &time_scale.to_string(),
        ])
        .env("PORTHOLE_LIVE_BENCH_RUN", std::process::id().to_string())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("could not start the simulator {bin}: {e}"));
    let mut line = String::new();
    let stdout = child.stdout.take().expect("piped");
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the simulator's ready line");
    let ready: serde_json::Value = serde_json::from_str(&line).expect("a JSON ready line");
    let ada = ready["accounts"]
        .as_array()
        .and_then(|all| all.iter().find(|a| a["name"] == "ada"))
        .expect("the simulator has ada");
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
    let env = demo_env(
        &text(&ready["baseUrl"]),
        &text(&ada["apiKey"]),
        &text(&ada["idToken"]),
    );
    (KillOnDrop(child), env)
}

struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
