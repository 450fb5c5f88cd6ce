//! Feeds arbitrary bytes to the task-event reader as one event's JSON. Whatever the service
//! sends, reading never panics, and an event read once reads back the same after Porthole
//! writes it out (the app saves events it keeps and reads them after a restart).
//!
//! Run from `crates/client`: `cargo +nightly fuzz run events_json -- -max_total_time=60`
#![no_main]

use libfuzzer_sys::fuzz_target;
use porthole_client::events::AgentEvent;

fuzz_target!(|input: &[u8]| {
    // Raw bytes first: nothing the service sends may panic the reader.
    let _ = serde_json::from_slice::<AgentEvent>(input);
    // The round trip is checked from the JSON as a JSON value holds it: a document with a
    // key twice is refused by the typed reader (and kept as unknown) but written back once.
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(input) else {
        return;
    };
    let Ok(event) = serde_json::from_value::<AgentEvent>(value) else {
        return;
    };
    let written = serde_json::to_vec(&event).expect("an event read can be written");
    let again: AgentEvent =
        serde_json::from_slice(&written).expect("an event written can be read again");
    assert_eq!(event, again);
});
