//! Feeds arbitrary bytes to the SSE parser, split at an arbitrary point, and checks that the
//! split changes nothing: the same events come out however the bytes arrive, and nothing
//! panics.
//!
//! Run from `crates/client`: `cargo +nightly fuzz run sse_parser -- -max_total_time=60`
#![no_main]

use libfuzzer_sys::fuzz_target;
use porthole_client::sse::{SseEvent, SseParser};

fn parse(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut parser = SseParser::new();
    let mut out = Vec::new();
    for chunk in chunks {
        parser.feed(chunk, &mut out);
    }
    parser.finish();
    out
}

fuzz_target!(|input: &[u8]| {
    let Some((&cut, bytes)) = input.split_first() else {
        return;
    };
    let cut = usize::from(cut) % (bytes.len() + 1);
    let whole = parse(&[bytes]);
    let split = parse(&[&bytes[..cut], &bytes[cut..]]);
    let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(whole, split);
    assert_eq!(whole, parse(&bytewise));
});
