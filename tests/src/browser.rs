//! A web browser apart from the app, for a file the app wrote that must open "in any browser,
//! without Porthole" (a shared report): WebKitGTK's own MiniBrowser, installed with the
//! WebKitGTK the app uses, driven by WebKitWebDriver directly (no tauri-driver, no app).

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use thirtyfour::prelude::*;
use thirtyfour::Capabilities;

use crate::Result;

/// Where Debian's libwebkit2gtk-4.1 puts MiniBrowser.
const MINI_BROWSER: &str = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/// A browser window showing one page.
pub struct Browser {
    pub driver: WebDriver,
    webdriver: Child,
}

impl Browser {
    /// Opens `file` (a local file) in a fresh browser.
    pub async fn open(file: &Path) -> Result<Browser> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let mut webdriver = Command::new("WebKitWebDriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("could not start WebKitWebDriver: {e}"))?;
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let start = Instant::now();
        while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
            if start.elapsed() > Duration::from_secs(30) {
                let _ = webdriver.kill();
                return Err("WebKitWebDriver did not listen".into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut caps = Capabilities::new();
        caps.set("browserName", "MiniBrowser")?;
        caps.set(
            "webkitgtk:browserOptions",
            serde_json::json!({ "binary": MINI_BROWSER, "args": ["--automation"] }),
        )?;
        crate::crypto_provider();
        let driver = match WebDriver::new(format!("http://127.0.0.1:{port}"), caps).await {
            Ok(driver) => driver,
            Err(e) => {
                let _ = webdriver.kill();
                return Err(format!("could not open MiniBrowser: {e}").into());
            }
        };
        // The tests' files live in temporary folders: absolute, with no character to escape.
        driver.goto(format!("file://{}", file.display())).await?;
        Ok(Browser { driver, webdriver })
    }

    /// Saves a screenshot of the page under `target/e2e/`.
    pub async fn screenshot(&self, name: &str) -> Result<std::path::PathBuf> {
        let path = crate::screenshot_dir().join(format!("{name}.png"));
        self.driver.screenshot(&path).await?;
        Ok(path)
    }

    pub async fn close(mut self) {
        let _ = self.driver.clone().quit().await;
        let _ = Command::new("kill")
            .args(["-TERM", &self.webdriver.id().to_string()])
            .status();
        let _ = self.webdriver.wait();
    }
}
