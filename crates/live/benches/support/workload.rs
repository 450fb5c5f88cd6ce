//! What every bench does to a stream, so the criterion bench and the instruction-count bench
//! measure the same code: read every instruction (opcode and elements, as the Node script's
//! `oninstruction` receives them) and count the `sync`s.

use porthole_live::codec::{parse_frame, Parser};

/// The viewer's path: whole-instruction WebSocket messages, parsed in place.
pub fn count_frames(messages: &[&str]) -> usize {
    let mut n = 0;
    for message in messages {
        for instruction in parse_frame(message) {
            let instruction = instruction.expect("valid");
            n += usize::from(instruction.opcode() == "sync");
        }
    }
    n
}

/// A raw stream cut every `chunk` bytes, wherever that falls.
pub fn count_chunked(stream: &str, chunk: usize) -> usize {
    let mut parser = Parser::new();
    let mut n = 0;
    for piece in stream.as_bytes().chunks(chunk) {
        parser
            .feed(piece, |instruction| {
                n += usize::from(instruction.opcode() == "sync");
            })
            .expect("valid");
    }
    n
}
