//! Arbitrary bytes, cut into arbitrary chunks, must never panic the parser, and a stream parsed
//! in chunks must give what the whole-frame parser gives.
#![no_main]

use libfuzzer_sys::fuzz_target;
use porthole_live::codec::{parse_frame, CodecError, Parser};

fuzz_target!(|data: &[u8]| {
    // The first byte picks the chunk size, the rest is the stream.
    let Some((&size, stream)) = data.split_first() else {
        return;
    };
    let size = usize::from(size).max(1);
    let mut parser = Parser::new();
    let mut chunked = Vec::new();
    for chunk in stream.chunks(size) {
        let fed = parser.feed(chunk, |i| chunked.push(Ok(i.to_instruction())));
        if let Err(e) = fed {
            chunked.push(Err(e));
            break;
        }
    }
    if let Ok(text) = std::str::from_utf8(stream) {
        let mut whole: Vec<_> = parse_frame(text)
            .map(|r| r.map(|i| i.to_instruction()))
            .collect();
        if matches!(whole.last(), Some(Err(CodecError::Truncated { .. }))) {
            whole.pop();
        }
        assert_eq!(chunked, whole);
    }
});
