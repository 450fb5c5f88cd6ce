use super::*;
use std::path::Path;

/// Compiled both ways: a debug build (and a benchmark build) reads a switch that is set, a
/// release build does not. `cargo test --release -p porthole-core test_switch` runs the second.
#[test]
fn a_set_switch_is_read_only_by_builds_that_read_switches() {
    // A name no test or script sets, so nothing else sees it.
    std::env::set_var("PORTHOLE_SIM_GATE_CHECK", "on");
    let seen = var("PORTHOLE_SIM_GATE_CHECK");
    let seen_os = var_os("PORTHOLE_SIM_GATE_CHECK");
    #[cfg(any(debug_assertions, feature = "bench-switches"))]
    {
        assert_eq!(seen.as_deref(), Some("on"));
        assert_eq!(seen_os, Some("on".into()));
    }
    #[cfg(not(any(debug_assertions, feature = "bench-switches")))]
    {
        assert_eq!(seen, None, "a release build read a test switch");
        assert_eq!(seen_os, None, "a release build read a test switch");
    }
}

/// The settings a person (or whoever packages the app) may set; every other `PORTHOLE_` name
/// the app reads must go through the gate.
const SETTINGS: &[&str] = &[
    "PORTHOLE_SERVICE_URL",
    "PORTHOLE_DATA_DIR",
    "PORTHOLE_THEME",
    "PORTHOLE_UPDATE_PUBKEY",
    "PORTHOLE_UPDATE_FEED",
    "PORTHOLE_GOOGLE_CLIENT_ID",
    "PORTHOLE_GOOGLE_CLIENT_SECRET",
    "PORTHOLE_FIREBASE_API_KEY",
];

#[test]
fn the_app_reads_no_test_switch_around_the_gate() {
    let mut around = Vec::new();
    // The core's code and the desktop shell's.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    scan(&root.join("src"), &mut around);
    scan(&root.join("../../src-tauri/src"), &mut around);
    assert!(around.is_empty(), "read without test_switch: {around:#?}");
}

/// Every `PORTHOLE_` name read straight from the environment (`var`, `var_os`, `option_env!`)
/// in the app's own code, tests left out, that is not a person's setting.
fn scan(dir: &Path, around: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("the app's source folder") {
        let path = entry.expect("a source entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            // Test folders, and the gate itself.
            if name != "tests" && name != "test_switch" {
                scan(&path, around);
            }
            continue;
        }
        if !name.ends_with(".rs") || name.ends_with("_tests.rs") || name == "tests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        for opener in ["var(\"PORTHOLE_", "var_os(\"PORTHOLE_", "env!(\"PORTHOLE_"] {
            for (at, _) in text.match_indices(opener) {
                let start = at + opener.len() - "PORTHOLE_".len();
                let read: String = text[start..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                let through_gate = text[..at].ends_with("test_switch::");
                if !through_gate && !SETTINGS.contains(&read.as_str()) {
                    around.push(format!("{} reads {read}", path.display()));
                }
            }
        }
    }
}
