//! Feeds arbitrary bytes to the approval-card reader. Whatever the card holds, reading never
//! panics, the card's kind agrees with what it offers (a choice card always has something to
//! pick or type, a yes/no card asks nothing), and a card read once reads back the same.
//!
//! Run from `crates/client`: `cargo +nightly fuzz run approval_card -- -max_total_time=60`
#![no_main]

use libfuzzer_sys::fuzz_target;
use porthole_client::approvals::{ApprovalKind, ApprovalRequest};

fuzz_target!(|input: &[u8]| {
    // Raw bytes first: nothing the service sends may panic the reader.
    let _ = serde_json::from_slice::<ApprovalRequest>(input);
    // The round trip is checked from the JSON as a JSON value holds it: a document with a
    // key twice is refused by the typed reader (and kept as unknown) but written back once.
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(input) else {
        return;
    };
    let Ok(card) = serde_json::from_value::<ApprovalRequest>(value) else {
        return;
    };
    match card.kind {
        ApprovalKind::Choice => assert!(card
            .questions
            .iter()
            .any(|q| !q.options.is_empty() || q.allow_other)),
        ApprovalKind::YesNo => assert!(card.questions.is_empty()),
        ApprovalKind::LinkOnly => assert!(card.is_link_only),
    }
    let written = serde_json::to_vec(&card).expect("a card read can be written");
    let again: ApprovalRequest =
        serde_json::from_slice(&written).expect("a card written can be read again");
    assert_eq!(card, again);
});
