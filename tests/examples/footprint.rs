//! The app's footprint beside a Tauri hello world's, measured the way a person meets them:
//! each built binary opened in a real window (under `scripts/bench-footprint.sh`, which gives
//! the X display and D-Bus session and prints the binary sizes). A benchmark, not a test: it
//! prints figures for BENCHMARKS.md ("Footprint against a Tauri hello world") and asserts
//! nothing.
//!
//! - **launch**: from the process's start (its `starttime` in `/proc`, since boot, 10 ms
//!   ticks) until the page shows the Demo's machine list (three rows), or the hello world's
//!   heading. Two ends, both printed: the page's own first paint (WebKit's Paint Timing entry
//!   `first-contentful-paint`; for the app only when that paint was of the mounted list in the
//!   shown window, see [`breakdown`]), and the moment the WebDriver poll (every ~20 ms, then
//!   one more frame) first sees it, read against `/proc/uptime`. The poll adds its own
//!   ~60-90 ms to both apps.
//! - **idle memory**: PSS (`/proc/<pid>/smaps_rollup`) of the app and every process under it
//!   (WebKitWebProcess, WebKitNetworkProcess), a minute after launch with the window hidden
//!   (unmapped, as minimising does; the live view then pauses). Three ways: the app with its
//!   Demo in-process (what a person runs), the app against a simulator outside it (the app
//!   alone; the difference is the Demo's own cost), and the hello world.
//! - **following**: the app against a simulator in this process, following a running task
//!   with the window hidden: CPU time (utime + stime) of the app and its WebKit processes,
//!   and the requests the simulator served, over a minute.
//!
//! Environment: `PORTHOLE_APP` (the app), `FOOTPRINT_HELLO` (the hello world),
//! `FOOTPRINT_RUNS` (launches of each, 10), `FOOTPRINT_SECS` (the idle and following windows,
//! 60). Arguments pick parts: `launch`, `memory`, `following` (all when none).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually, Result};
use thirtyfour::prelude::*;

#[path = "footprint/procfs.rs"]
mod procfs;
use procfs::{comm, cpu_ticks, loadavg, process_of, pss_kib, start_ticks, tree, uptime};

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    App,
    Hello,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::App => "app",
            Kind::Hello => "hello world",
        }
    }

    /// The window's title, to hide it.
    fn title(self) -> &'static str {
        match self {
            Kind::App => "^Porthole( \\([0-9]+\\))?$",
            Kind::Hello => "^hello$",
        }
    }

    /// Whether the first screen is drawn: the page's marker is in the document (the Demo's
    /// machine rows, or the hello world's heading), the window is on the screen, and a frame
    /// has been painted since (a requestAnimationFrame, then a task after that frame). A
    /// hidden window paints no frame, so this waits for it to be shown.
    fn marker_js(self) -> &'static str {
        match self {
            Kind::App => DRAWN_APP,
            Kind::Hello => DRAWN_HELLO,
        }
    }
}

const DRAWN_APP: &str = r#"
    if (document.querySelectorAll('[data-testid="machine-row"]').length < 3) return false;
    if (document.visibilityState !== 'visible') return false;
    return new Promise((drawn) => requestAnimationFrame(() => setTimeout(() => drawn(true), 0)));
"#;

const DRAWN_HELLO: &str = r#"
    if (document.getElementById('hello') === null) return false;
    if (document.visibilityState !== 'visible') return false;
    return new Promise((drawn) => requestAnimationFrame(() => setTimeout(() => drawn(true), 0)));
"#;

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main]
async fn main() -> Result<()> {
    let app_bin = PathBuf::from(std::env::var("PORTHOLE_APP")?);
    let hello_bin = PathBuf::from(std::env::var("FOOTPRINT_HELLO")?);
    let runs = env_num("FOOTPRINT_RUNS", 10) as usize;
    let secs = env_num("FOOTPRINT_SECS", 60);
    let parts: Vec<String> = std::env::args().skip(1).collect();
    // `launch` is `launch-app` and `launch-hello`; `memory` is `memory-app` and `memory-hello`.
    let wants = |p: &str| {
        parts.is_empty()
            || parts.iter().any(|a| {
                a == p
                    || p.strip_prefix(a.as_str())
                        .is_some_and(|r| r.starts_with('-'))
            })
    };
    println!("load at start: {}", loadavg());

    for (kind, bin, part) in [
        (Kind::App, &app_bin, "launch-app"),
        (Kind::Hello, &hello_bin, "launch-hello"),
    ] {
        if wants(part) {
            let (mut seen, mut painted) = (Vec::new(), Vec::new());
            for run in 0..runs {
                let (app, elapsed, paint) = launch(kind, bin, Vec::new()).await?;
                let paint_words = paint.map_or("-".into(), |p| format!("{p:.2} s"));
                println!(
                    "{} launch {run}: first paint {paint_words}, seen {elapsed:.2} s (load {})",
                    kind.name(),
                    loadavg()
                );
                seen.push(elapsed);
                painted.extend(paint);
                app.quit().await;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            print_launches(kind, "first paint", painted, runs);
            print_launches(kind, "seen by the poll", seen, runs);
        }
    }

    if wants("memory-app") {
        let demo = idle_pss(Kind::App, &app_bin, Vec::new(), secs).await?;
        print_pss("app with its Demo in-process", &demo);
        let sim = own_sim().await?;
        let alone = idle_pss(Kind::App, &app_bin, demo_env(&sim), secs).await?;
        print_pss("app, Demo outside it", &alone);
        sim.shutdown().await;
    }
    if wants("memory-hello") {
        let hello = idle_pss(Kind::Hello, &hello_bin, Vec::new(), secs).await?;
        print_pss("hello world", &hello);
    }

    if wants("following") {
        following(&app_bin, secs).await?;
    }
    Ok(())
}

/// The median, the fastest and the slowest of `times` (seconds); a page that reported no first
/// paint is left out of that figure, and the count says so.
fn print_launches(kind: Kind, end: &str, mut times: Vec<f64>, runs: usize) {
    if times.is_empty() {
        println!("RESULT launch {} ({end}): none of {runs}", kind.name());
        return;
    }
    times.sort_by(f64::total_cmp);
    println!(
        "RESULT launch {} ({end}): median {:.2} s, min {:.2} s, max {:.2} s over {} of {runs}",
        kind.name(),
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        times.len()
    );
}

/// Opens `binary` and waits for its marker; returns the seconds from its process's start until
/// the poll saw it, and until the page's first paint when that paint was the first screen.
async fn launch(
    kind: Kind,
    binary: &Path,
    env: Vec<(String, String)>,
) -> Result<(App, f64, Option<f64>)> {
    // The harness opens whatever PORTHOLE_APP names; this example is single-threaded in
    // effect (one launch at a time), so switching it between launches is safe.
    std::env::set_var("PORTHOLE_APP", binary);
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(1.0),
        env,
        ..AppOptions::default()
    })
    .await?;
    let pid = process_of(binary).ok_or("the launched process was not found")?;
    let started = start_ticks(pid)? as f64 / 100.0;
    let limit = Instant::now() + Duration::from_secs(60);
    loop {
        let shown = app.driver.execute(kind.marker_js(), vec![]).await;
        if shown
            .map(|v| v.json().as_bool() == Some(true))
            .unwrap_or(false)
        {
            let elapsed = uptime()? - started;
            let paint = breakdown(&app, kind, started).await;
            return Ok((app, elapsed, paint));
        }
        if Instant::now() > limit {
            return Err(format!("{} never showed its first screen", kind.name()).into());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Where a launch's time went, from the process's start: until the page began to load (the
/// native side and WebKit's processes), until its script had run (`porthole-script`, marked
/// in ui/src/main.ts; loading and parsing it), until the page knew the connection ready
/// (`porthole-connected`, ui/src/lib/app.svelte.ts: the Demo started, the listeners in place),
/// until the machine list came back (`porthole-machines`), until the app was mounted
/// (`porthole-mounted`) and laid out (`porthole-laid-out`), until the window was shown
/// (`porthole-visible`), until the first paint, and until the poll saw it. A page without the
/// marks (the hello world) gives the first and the last two.
///
/// Returns the first paint in seconds from the process's start. For the app, the first screen
/// is the list in a window on the screen: when the list came after mounting (a slow service
/// mounts without it, after 250 ms), the launch ends when the poll saw it; and it never ends
/// before the page heard it was shown (WebKit may tell the page a few ms after painting; a
/// hidden page paints nothing, and this does not take that on trust). The hello world's page is
/// its heading alone, in a window shown from the start.
async fn breakdown(app: &App, kind: Kind, started_since_boot: f64) -> Option<f64> {
    let js = r#"
        const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
        return [performance.timeOrigin, performance.now(), mark('porthole-script'), mark('porthole-connected'), mark('porthole-machines'), mark('porthole-mounted'), mark('porthole-laid-out'), mark('porthole-visible'), mark('first-contentful-paint')];
    "#;
    let v = app.driver.execute(js, vec![]).await.ok()?;
    let values = v.json().as_array().cloned()?;
    let ms = |i: usize| values.get(i).and_then(|x| x.as_f64());
    let (origin, now) = (ms(0)?, ms(1)?);
    // The process's start as Unix time: boot time (now minus uptime) plus its start.
    let unix_now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let process_start_ms = (unix_now.as_secs_f64() - uptime().ok()? + started_since_boot) * 1000.0;
    let page = origin - process_start_ms;
    let at = |m: Option<f64>| {
        m.map(|m| format!("{:.0} ms", page + m))
            .unwrap_or("-".into())
    };
    let (listed, mounted, visible, paint) = (ms(4), ms(5), ms(7), ms(8));
    println!(
        "  breakdown: page begins {page:.0} ms, script run {}, connected {}, machines listed {}, mounted {}, laid out {}, shown {}, first paint {}, seen {:.0} ms (process start {process_start_ms:.0})",
        at(ms(2)),
        at(ms(3)),
        at(listed),
        at(mounted),
        at(ms(6)),
        at(visible),
        at(paint),
        page + now
    );
    let end = match kind {
        Kind::Hello => paint,
        Kind::App => match (listed, mounted, visible, paint) {
            (Some(l), Some(m), Some(v), Some(p)) if l <= m => Some(v.max(p)),
            _ => Some(now),
        },
    };
    end.map(|e| (page + e) / 1000.0)
}

/// PSS in KiB of each process of the tree, by name, a while after launch with the window
/// hidden.
async fn idle_pss(
    kind: Kind,
    binary: &Path,
    env: Vec<(String, String)>,
    secs: u64,
) -> Result<Vec<(String, u64)>> {
    let opened = Instant::now();
    let (app, _, _) = launch(kind, binary, env).await?;
    hide_window(kind)?;
    let wait = Duration::from_secs(secs).saturating_sub(opened.elapsed());
    tokio::time::sleep(wait).await;
    let pid = process_of(binary).ok_or("the app went away")?;
    let mut out = Vec::new();
    for p in tree(pid) {
        if let (Some(name), Some(kb)) = (comm(p), pss_kib(p)) {
            out.push((name, kb));
        }
    }
    println!("  (load {})", loadavg());
    app.quit().await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    Ok(out)
}

fn print_pss(what: &str, procs: &[(String, u64)]) {
    let total: u64 = procs.iter().map(|(_, kb)| kb).sum();
    let each: Vec<String> = procs
        .iter()
        .map(|(n, kb)| format!("{n} {:.1}", *kb as f64 / 1024.0))
        .collect();
    println!(
        "RESULT idle PSS {what}: {:.1} MiB ({})",
        total as f64 / 1024.0,
        each.join(", ")
    );
}

/// Follows a running task with the window hidden and counts CPU time and requests.
async fn following(binary: &Path, secs: u64) -> Result<()> {
    let sim = own_sim().await?;
    let (app, _, _) = launch(Kind::App, binary, demo_env(&sim)).await?;
    select_machine(&app, "Design laptop").await?;
    // The simulator's slow agent: two minutes a step, so the task runs all through the window
    // and the app waits on the service, as it does for most of a real task.
    let task = std::env::var("FOOTPRINT_TASK").unwrap_or_else(|_| {
        "Take your time and count to 3, then check the weather in Oslo".to_owned()
    });
    let composer = Eventually::new(&app.driver).element("composer").await?;
    composer.click().await?;
    composer.send_keys(&task).await?;
    composer.send_keys(Key::Enter).await?;
    Eventually::new(&app.driver)
        .text("status-chip", |_| true)
        .await?;
    let limit = Instant::now() + Duration::from_secs(60);
    loop {
        let chip = Eventually::new(&app.driver).element("status-chip").await?;
        if chip.attr("data-status").await?.as_deref() == Some("running") {
            break;
        }
        if Instant::now() > limit {
            return Err("the task never showed as running".into());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    hide_window(Kind::App)?;
    // Let the page settle into its hidden state.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let pid = process_of(binary).ok_or("the app went away")?;
    println!("  following from status {}", turn_status(&sim));
    let seen_before = sim.state().requests_seen().len();
    let cpu_before = cpu_ticks(pid);
    let t0 = Instant::now();
    tokio::time::sleep(Duration::from_secs(secs)).await;
    let cpu_after = cpu_ticks(pid);
    let elapsed = t0.elapsed().as_secs_f64();
    let seen = sim.state().requests_seen();
    let during = &seen[seen_before.min(seen.len())..];
    let running = turn_status(&sim);
    let mut per_path: Vec<(String, usize)> = Vec::new();
    for r in during {
        let key = format!("{} {}", r.method, r.path);
        match per_path.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => per_path.push((key, 1)),
        }
    }
    let mut cpu_line = Vec::new();
    let mut total = 0u64;
    for (name, after) in &cpu_after {
        let before = cpu_before
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| *t)
            .unwrap_or(0);
        let used = after.saturating_sub(before);
        total += used;
        cpu_line.push(format!(
            "{name} {:.2}%",
            used as f64 / 100.0 / elapsed * 100.0
        ));
    }
    println!(
        "RESULT following (task {running} at the end, load {}): CPU {:.2}% of a core ({}); {} requests in {elapsed:.0} s = {:.1} a minute: {per_path:?}",
        loadavg(),
        total as f64 / 100.0 / elapsed * 100.0,
        cpu_line.join(", "),
        during.len(),
        during.len() as f64 * 60.0 / elapsed,
    );
    app.quit().await;
    sim.shutdown().await;
    Ok(())
}

/// The task's status on the service, with how many log entries it has.
fn turn_status(sim: &porthole_sim::RunningSim) -> String {
    let db = sim.state().db();
    db.turns
        .values()
        .map(|t| format!("{} ({} log entries)", t.status.as_str(), t.log.len()))
        .collect::<Vec<_>>()
        .join(", ")
}

async fn select_machine(app: &App, name: &str) -> Result<()> {
    let rows = Eventually::new(&app.driver)
        .at_least("machine-row", 1)
        .await?;
    for row in rows {
        if text_of(&row.find(by_testid("machine-name")).await?).await == name {
            row.find(by_testid("machine-select")).await?.click().await?;
            return Ok(());
        }
    }
    Err(format!("no machine called {name:?}").into())
}

async fn own_sim() -> Result<porthole_sim::RunningSim> {
    Ok(porthole_sim::Sim::start(porthole_sim::Config::default()).await?)
}

fn demo_env(sim: &porthole_sim::RunningSim) -> Vec<(String, String)> {
    let ada = sim.account("ada");
    vec![
        ("PORTHOLE_DEMO_URL".into(), sim.base_url.clone()),
        (
            "PORTHOLE_DEMO_KEY".into(),
            ada.api_key.clone().unwrap_or_default(),
        ),
        ("PORTHOLE_DEMO_ID_TOKEN".into(), ada.id_token.clone()),
    ]
}

/// Unmaps the window: what minimising does without a window manager (GTK marks it iconified
/// and WebKit tells the page it is hidden).
fn hide_window(kind: Kind) -> Result<()> {
    let out = Command::new("xdotool")
        .args(["search", "--onlyvisible", "--name", kind.title()])
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let window = text
        .split_whitespace()
        .next()
        .ok_or("the window was not found")?;
    Command::new("xdotool")
        .args(["windowunmap", window])
        .status()?;
    Ok(())
}
