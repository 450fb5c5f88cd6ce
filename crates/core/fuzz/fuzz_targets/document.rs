//! Feeds arbitrary bytes to the reader of the store's whole-file documents (settings, the
//! reusable-task library, usage), as every start reads them, today's files without a version
//! included. Whatever is on disk, reading never panics; a file from a newer Porthole is never
//! taken as ours; and a value read, saved as Porthole saves it, reads back the same.
//!
//! Run from `src-tauri`: `cargo +nightly fuzz run document -- -max_total_time=60`
#![no_main]

// The store's files are compiled in as they are (see journal.rs). The app's error type is
// the one thing they need from the rest of the app: this stands in for it.
mod error {
    #[derive(Debug)]
    pub enum AppError {
        Store(#[allow(dead_code)] String),
    }
    pub type AppResult<T> = Result<T, AppError>;
}

#[allow(dead_code)]
#[path = "../../src/store"]
mod store {
    pub mod atomic;
    pub mod document;
    pub mod set_aside;
}

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use store::document::{decode, VERSION};

const KEYS: [&str; 4] = ["settings", "library", "tasks", "book"];

fuzz_target!(|input: &[u8]| {
    let Some((&pick, bytes)) = input.split_first() else {
        return;
    };
    let key = KEYS[usize::from(pick) % KEYS.len()];
    let Some(read) = decode::<Value>(bytes, key) else {
        return;
    };
    if let Ok(Value::Object(doc)) = serde_json::from_slice::<Value>(bytes) {
        if let Some(version) = doc.get("version") {
            assert_eq!(
                version.as_u64(),
                Some(VERSION),
                "only our versions are read"
            );
        }
    }
    let Some(value) = read else {
        return;
    };
    let saved = serde_json::to_vec(&json!({ "version": VERSION, key: value })).unwrap();
    let again = decode::<Value>(&saved, key).expect("a saved document reads");
    assert_eq!(again, Some(value));
});
