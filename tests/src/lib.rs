//! Support for Porthole's end-to-end tests: the built app in a real window, driven over
//! WebDriver (tauri-driver in front of WebKitWebDriver), the setup found to work here.
//!
//! Each [`App`] gets its own tauri-driver on free ports and its own data folder, so tests do
//! not see each other's conversations or settings. A data folder can be handed to a second
//! launch to test what survives a restart. The tests themselves run inside `scripts/e2e.sh`,
//! which provides the X display, the D-Bus session and the keychain.

mod browser;
mod driver;
mod intl;
mod wait;

pub use browser::Browser;
pub use driver::{App, AppOptions};
pub use intl::{leading_number, seconds_in_page};
pub use wait::{by_testid, text_of, visible, Eventually};

/// Where screenshots go: kept as artifacts of the run.
pub fn screenshot_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target")
        .join("e2e");
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Installs ring as rustls' crypto provider (see tests/Cargo.toml): without one, building a
/// WebDriver's HTTP client panics. Once per process; later calls do nothing.
fn crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// Result type of the harness: test failures carry a sentence saying what did not happen.
pub type Result<T, E = Box<dyn std::error::Error + Send + Sync>> = std::result::Result<T, E>;
