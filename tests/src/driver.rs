//! Launching the built app under tauri-driver and closing it cleanly.
//!
//! tauri-driver listens on its port before WebKitWebDriver is up on the native port, and a
//! session created in between fails, so we wait for both. It must be stopped
//! with SIGTERM: only its SIGTERM handler stops WebKitWebDriver, and an orphaned one keeps
//! the test's output pipe open so `cargo test` never ends.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use thirtyfour::{Capabilities, WebDriver};

use crate::Result;

/// How to launch the app.
#[derive(Debug, Clone, Default)]
pub struct AppOptions {
    /// Reuse this data folder (conversations, settings) instead of a fresh one: a restart.
    pub data_dir: Option<PathBuf>,
    /// Time scale of the built-in Demo simulator (its documented delays multiplied by this).
    pub demo_time_scale: Option<f64>,
    /// More environment for the app, e.g. `PORTHOLE_DEMO_URL` to use a simulator the test
    /// started (one that outlives the app, for restart tests).
    pub env: Vec<(String, String)>,
    /// Start this program instead of the build under test (`PORTHOLE_APP` or
    /// target/debug/porthole), e.g. the installed /usr/bin/porthole.
    pub program: Option<PathBuf>,
    /// The window as a person first sees it: the app's own 1180×760 window has its sidebar
    /// folded to its rail (ui/src/lib/layout.svelte.ts, NARROW_WINDOW). Otherwise a data
    /// folder without a layout starts as a person's who opened the sidebar once (kept in
    /// layout.json), the arrangement most tests click through.
    pub sidebar_as_first_seen: bool,
}

/// Keeps the sidebar opened in a narrow window, as the app does once a person opens it
/// (src-tauri/src/layout); a layout already there (a restart) is left as it is.
fn open_sidebar_once(data_dir: &Path) -> Result<()> {
    let path = data_dir.join("layout.json");
    if !path.exists() {
        std::fs::write(path, r#"{"version":1,"layout":{"sidebarOpenNarrow":true}}"#)?;
    }
    Ok(())
}

/// The app in a real window, driven over WebDriver.
pub struct App {
    pub driver: WebDriver,
    tauri_driver: Child,
    app_path: PathBuf,
    data_dir: PathBuf,
    _fresh_dir: Option<tempfile::TempDir>,
}

impl App {
    /// Launches the app on the Demo with a fresh data folder.
    pub async fn launch() -> Result<App> {
        Self::launch_with(AppOptions::default()).await
    }

    pub async fn launch_with(options: AppOptions) -> Result<App> {
        let app_path = match &options.program {
            // Canonical, so it compares equal to /proc/<pid>/exe.
            Some(program) => program.canonicalize()?,
            None => app_binary()?,
        };
        let (fresh_dir, data_dir) = match options.data_dir.clone() {
            Some(dir) => (None, dir),
            None => {
                let dir = tempfile::tempdir()?;
                let path = dir.path().to_path_buf();
                (Some(dir), path)
            }
        };
        if !options.sidebar_as_first_seen {
            open_sidebar_once(&data_dir)?;
        }
        // A port found free can be taken before WebKitWebDriver binds it (any outgoing
        // connection on the machine draws from the same range): then it cannot listen and the
        // session fails. Such a start is tried again on other ports, the same data folder.
        let mut tries = 0;
        let (driver, tauri_driver) = loop {
            tries += 1;
            match start(&options, &app_path, &data_dir).await {
                Ok(started) => break started,
                Err(e) if tries < 3 => eprintln!("the app did not start ({e}); again"),
                Err(e) => return Err(e),
            }
        };
        Ok(App {
            driver,
            tauri_driver,
            app_path,
            data_dir,
            _fresh_dir: fresh_dir,
        })
    }

    /// The data folder of this run, to hand to a later launch.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Saves a screenshot of the screen as `target/e2e/<name>.png`.
    ///
    /// Taken from the X display (ImageMagick's `import`), which shows what was really painted;
    /// WebKitWebDriver's own screenshot sometimes never answers once a task has run, and can
    /// show a frame from before the last DOM change. Falls back to WebDriver without `import`.
    pub async fn screenshot(&self, name: &str) -> Result<PathBuf> {
        let path = crate::screenshot_dir().join(format!("{name}.png"));
        self.painted().await;
        let captured = Command::new("import")
            .args(["-window", "root"])
            .arg(&path)
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !captured {
            self.driver.screenshot(&path).await?;
        }
        Ok(path)
    }

    /// Waits until WebKit has painted what the DOM shows: the page's finite animations and
    /// transitions (a dialog sliding in) have ended, then three animation frames have passed,
    /// the last of them after a frame with the final state was drawn. A hidden page draws no
    /// frames, and a page that never answers (the app quitting) is not waited for past 3 s.
    pub async fn painted(&self) {
        const PAINTED: &str = r#"
            const done = arguments[arguments.length - 1];
            if (document.visibilityState === 'hidden') return done(false);
            setTimeout(() => done(false), 2500);
            const frames = (n) => n === 0 ? done(true) : requestAnimationFrame(() => frames(n - 1));
            const finite = document.getAnimations().filter((a) =>
                a.playState === 'running' && a.effect &&
                a.effect.getComputedTiming().iterations !== Infinity);
            Promise.all(finite.map((a) => a.finished.catch(() => null))).then(() => frames(3));
        "#;
        let _ = tokio::time::timeout(
            Duration::from_secs(3),
            self.driver.execute_async(PAINTED, vec![]),
        )
        .await;
    }

    /// Closes the app. The data folder stays while the returned guard lives, for a restart.
    pub async fn quit(mut self) -> Option<tempfile::TempDir> {
        let _ = tokio::time::timeout(Duration::from_secs(10), self.driver.clone().quit()).await;
        stop(&mut self.tauri_driver);
        end_app_processes(&self.app_path);
        self._fresh_dir.take()
    }
}

impl App {
    /// Whether a process of the app is still running (it may quit by itself, from its tray).
    pub fn running(&self) -> bool {
        !app_processes(&self.app_path).is_empty()
    }

    /// The ids of the app's running processes (one, unless it is closing or restarting).
    pub fn pids(&self) -> Vec<u32> {
        app_processes(&self.app_path)
    }

    /// The app ended by itself and took the WebDriver session with it (it restarted into an
    /// update): stops the drivers without asking the gone session to close, which would only
    /// wait for an answer that never comes. The data folder stays, and dropping the `App`
    /// still ends every process started from the app's program, the restarted one too.
    pub fn session_lost(&mut self) {
        let _ = self.driver.clone().leak();
        stop(&mut self.tauri_driver);
    }

    /// Kills the app with SIGKILL, as a crash or a power cut of the process would: nothing of
    /// the app runs after it (no exit handler, no last save). The data folder stays while the
    /// returned guard lives, for a restart.
    pub fn kill_hard(mut self) -> Option<tempfile::TempDir> {
        let deadline = Instant::now() + Duration::from_secs(8);
        loop {
            let left = app_processes(&self.app_path);
            if left.is_empty() || Instant::now() > deadline {
                break;
            }
            for pid in &left {
                let _ = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // The session died with the app: nothing to close, only the drivers to stop.
        let _ = self.driver.clone().leak();
        stop(&mut self.tauri_driver);
        self._fresh_dir.take()
    }
}

impl Drop for App {
    fn drop(&mut self) {
        // A test that ends without `quit()` (or fails) lands here with its session open.
        // Left to itself, thirtyfour's drop asks the stopped driver to close the session and
        // waits out its 120 s request timeout (three tests spent two minutes each that way):
        // the processes are ended below, so there is nothing left for the session to close.
        let _ = self.driver.clone().leak();
        stop(&mut self.tauri_driver);
        end_app_processes(&self.app_path);
    }
}

/// Waits until no process of the app is left, ending stragglers. The app is single-instance:
/// one still closing when the next test launches would take that launch's place, and the new
/// WebDriver session would fail.
fn end_app_processes(app_path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(8);
    let mut signalled = false;
    loop {
        let left = app_processes(app_path);
        if left.is_empty() {
            return;
        }
        let late = Instant::now() > deadline;
        if !signalled || late {
            let signal = if late { "-KILL" } else { "-TERM" };
            for pid in &left {
                let _ = Command::new("kill")
                    .args([signal, &pid.to_string()])
                    .status();
            }
            signalled = true;
            if late {
                std::thread::sleep(Duration::from_millis(200));
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn app_processes(app_path: &Path) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let exe = std::fs::read_link(e.path().join("exe")).ok()?;
            (exe == app_path).then_some(pid)
        })
        .collect()
}

fn app_binary() -> Result<PathBuf> {
    let path = match std::env::var_os("PORTHOLE_APP") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/debug/porthole"),
    };
    if path.is_file() {
        // Canonical, so it compares equal to /proc/<pid>/exe.
        Ok(path.canonicalize()?)
    } else {
        Err(format!(
            "the app is not built at {} (./run test builds it)",
            path.display()
        )
        .into())
    }
}

/// Starts tauri-driver on free ports and opens a session on the app.
async fn start(
    options: &AppOptions,
    app_path: &Path,
    data_dir: &Path,
) -> Result<(WebDriver, Child)> {
    let port = free_port()?;
    let native_port = free_port()?;
    let scale = options.demo_time_scale.unwrap_or(0.05);
    // The app inherits this environment through WebKitWebDriver.
    let mut command = Command::new("tauri-driver");
    // English words, whatever the machine's locale (the tests read the window's English);
    // a test of another language sets its own locale in `options.env`.
    command.env("LC_ALL", "C.UTF-8");
    command.envs(options.env.iter().map(|(k, v)| (k, v)));
    let mut tauri_driver = command
        .args(["--port", &port.to_string()])
        .args(["--native-port", &native_port.to_string()])
        .env("PORTHOLE_DATA_DIR", data_dir)
        .env("PORTHOLE_SIM_TIME_SCALE", scale.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("could not start tauri-driver (run ./run test to install it): {e}"))?;
    if let Err(e) = wait_for_ports(&[port, native_port], Duration::from_secs(30)) {
        stop(&mut tauri_driver);
        return Err(e);
    }

    crate::crypto_provider();
    let mut caps = Capabilities::new();
    caps.set("browserName", "wry")?;
    caps.set(
        "tauri:options",
        serde_json::json!({ "application": app_path.to_string_lossy() }),
    )?;
    let driver = match WebDriver::new(format!("http://127.0.0.1:{port}"), caps).await {
        Ok(d) => d,
        Err(e) => {
            stop(&mut tauri_driver);
            end_app_processes(app_path);
            return Err(format!("could not open the app over WebDriver: {e}").into());
        }
    };
    Ok((driver, tauri_driver))
}

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn wait_for_ports(ports: &[u16], limit: Duration) -> Result<()> {
    let start = Instant::now();
    for &port in ports {
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
            if start.elapsed() > limit {
                return Err(format!("tauri-driver did not listen on port {port}").into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    Ok(())
}

fn stop(child: &mut Child) {
    if let Ok(None) = child.try_wait() {
        // SIGTERM, never SIGKILL: see the module docs.
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let _ = child.wait();
    }
}
