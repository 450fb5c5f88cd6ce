//! Switches that only tests and benchmarks set: the Demo's simulator (`PORTHOLE_DEMO_*`,
//! `PORTHOLE_SIM_*`), the live view's benchmark knobs (`PORTHOLE_LIVE_CONNECT_EXTRA`) and the
//! end-to-end tests' stand-ins for dialogs and the clock (`PORTHOLE_E2E_*`, `PORTHOLE_TEST_*`).
//!
//! One gate for all of them, so a release build a person runs reads none: whoever can set an
//! environment variable for it must not be able to point the "Demo" at another address with a
//! key, or change what it dials (security review N15). Debug builds (every test, the debug
//! `.deb` of the end-to-end tests) read them; a release build reads them only when built with
//! the `bench-switches` feature, which the benchmark scripts use and no package does.
//!
//! The settings a person may set (`PORTHOLE_SERVICE_URL`, `PORTHOLE_DATA_DIR`, `PORTHOLE_THEME`,
//! README.md) are read where they are used, not here.

use std::ffi::OsString;

/// Whether this build reads test and benchmark switches at all.
pub const READ: bool = cfg!(any(debug_assertions, feature = "bench-switches"));

/// The switch's value when this build reads switches and it is set (as text).
pub fn var(name: &str) -> Option<String> {
    debug_assert!(is_switch(name), "{name} is not a test switch");
    if READ {
        std::env::var(name).ok()
    } else {
        None
    }
}

/// As [`var`], for a path.
pub fn var_os(name: &str) -> Option<OsString> {
    debug_assert!(is_switch(name), "{name} is not a test switch");
    if READ {
        std::env::var_os(name)
    } else {
        None
    }
}

/// The families of names this gate owns.
fn is_switch(name: &str) -> bool {
    [
        "PORTHOLE_DEMO_",
        "PORTHOLE_SIM_",
        "PORTHOLE_E2E_",
        "PORTHOLE_TEST_",
    ]
    .iter()
    .any(|family| name.starts_with(family))
        || name == "PORTHOLE_LIVE_CONNECT_EXTRA"
}

#[cfg(test)]
mod tests;
