//! Feeds arbitrary bytes to the conversation journal's reader, the loader that runs on every
//! start over every saved conversation. Whatever is on disk (a crash's torn line, a damaged
//! disk, another program's file), reading never panics; what it reads, written back whole as
//! a rewrite would, reads back the same; and one more save (the changes between what was read
//! and an edited copy, appended as a line) reads back as the edited copy.
//!
//! Run from `src-tauri`: `cargo +nightly fuzz run journal -- -max_total_time=60`
#![no_main]

// The store's journal and change files are compiled in as they are: the app crate itself
// needs Tauri and a GTK toolchain that a sanitizer build does not want, and these two files
// depend on nothing else of the app.
#[allow(dead_code)]
#[path = "../../src/store"]
mod store {
    pub mod changes;
    pub mod journal;
}

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use store::journal::{self, Read};

fuzz_target!(|input: &[u8]| {
    let replayed = match journal::parse(input) {
        Read::Whole(r) | Read::Damaged(r) => r,
        Read::Unreadable => return,
    };
    let whole = journal::snapshot(&replayed.id, &replayed.value).expect("a value read writes");
    let Read::Whole(again) = journal::parse(&whole) else {
        panic!("a rewrite of what was read is unreadable");
    };
    assert_eq!(again.id, replayed.id);
    assert_eq!(again.value, replayed.value);

    // One more save: an item added, a field changed, the first item dropped.
    let mut edited = replayed.value.clone();
    if let Value::Object(map) = &mut edited {
        map.insert("fuzzSaved".into(), Value::from(input.len()));
        if let Some(Value::Array(items)) = map.get_mut("items") {
            items.push(Value::from("one more line"));
            if items.len() > 2 {
                items.remove(0);
            }
        }
    }
    let changes = store::changes::between(&replayed.value, &edited);
    let mut saved = whole;
    saved.extend(journal::line(&changes).expect("changes write"));
    let Read::Whole(after) = journal::parse(&saved) else {
        panic!("a journal with one more save is damaged");
    };
    assert_eq!(after.value, edited);
});
