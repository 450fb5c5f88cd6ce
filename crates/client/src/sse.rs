//! Incremental parser for `text/event-stream` bodies.
//!
//! Why our own instead of `eventsource-stream`: that crate parses each line with `nom` and
//! allocates a `String` per line and per field before it knows whether the line matters. A
//! task stream is mostly small `data:` frames, so the parser here scans for line ends with
//! `memchr`, reads lines straight out of the received chunk (copying only a line that is
//! split across chunks), and moves the collected `data` bytes into the event without another
//! copy. The benchmark in `benches/sse.rs` measures it against `eventsource-stream` on the
//! same input (figures in `BENCHMARKS.md`).
//!
//! Exact behaviour (the WHATWG event-stream rules, restricted to what the service sends):
//! - Lines end with LF, CRLF or a lone CR. A CR that ends one chunk with the LF at the start of
//!   the next is one line end, not two.
//! - Frames may be split anywhere, including inside a UTF-8 sequence or a line end.
//! - A blank line dispatches the event. An event with no `data` line is not dispatched.
//! - Several `data:` lines are joined with `\n`. One space after the colon is removed.
//! - Lines starting with `:` are comments and are ignored; so are unknown fields and `retry`.
//! - A byte-order mark at the very start is skipped.
//! - `data: [DONE]` is an ordinary event here; [`SseEvent::is_done`] recognises it.
//! - Invalid UTF-8 in a field is replaced (U+FFFD), never a panic.
//! - Bytes after the last line end stay buffered; [`SseParser::finish`] drops an unterminated
//!   event, as the standard says a stream that ends mid-event does.

use memchr::memchr2;

/// One dispatched server-sent event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field; `None` means the default type `message`.
    pub event: Option<String>,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
    /// The `id:` field of this event, if it carried one.
    pub id: Option<String>,
}

impl SseEvent {
    /// Whether this is the `data: [DONE]` sentinel that ends a task stream.
    pub fn is_done(&self) -> bool {
        self.data == "[DONE]"
    }
}

/// Push-style parser: feed it chunks as they arrive, collect complete events.
#[derive(Debug, Default)]
pub struct SseParser {
    /// Start of a line that has not ended yet (split across chunks).
    partial: Vec<u8>,
    /// `data` collected for the event being built.
    data: Vec<u8>,
    has_data: bool,
    event: Option<String>,
    id: Option<String>,
    /// The previous chunk ended with CR, so an LF opening this one belongs to it.
    skip_lf: bool,
    /// Still at the very start of the stream (a BOM may follow).
    at_start: bool,
}

impl SseParser {
    pub fn new() -> Self {
        Self {
            at_start: true,
            ..Self::default()
        }
    }

    /// Parses `chunk`, appending every event it completes to `out`.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<SseEvent>) {
        let mut rest = chunk;
        if self.skip_lf {
            if let Some((&first, tail)) = rest.split_first() {
                self.skip_lf = false;
                if first == b'\n' {
                    rest = tail;
                }
            }
        }
        if self.at_start {
            // The BOM may itself arrive split; wait until three bytes are known.
            const BOM: &[u8] = b"\xEF\xBB\xBF";
            let known = self.partial.len() + rest.len();
            if known < BOM.len() && BOM.starts_with(&[&self.partial[..], rest].concat()) {
                self.partial.extend_from_slice(rest);
                return;
            }
            self.at_start = false;
            if !self.partial.is_empty() {
                let mut head = std::mem::take(&mut self.partial);
                head.extend_from_slice(rest);
                let start = if head.starts_with(BOM) { BOM.len() } else { 0 };
                self.feed_lines(&head[start..], out);
                return;
            }
            if rest.starts_with(BOM) {
                rest = &rest[BOM.len()..];
            }
        }
        self.feed_lines(rest, out);
    }

    fn feed_lines(&mut self, mut rest: &[u8], out: &mut Vec<SseEvent>) {
        while let Some(end) = memchr2(b'\n', b'\r', rest) {
            let crlf_pending = rest[end] == b'\r';
            if self.partial.is_empty() {
                self.line(&rest[..end], out);
            } else {
                let mut line = std::mem::take(&mut self.partial);
                line.extend_from_slice(&rest[..end]);
                self.line(&line, out);
                // Keep the allocation for the next split line.
                line.clear();
                self.partial = line;
            }
            rest = &rest[end + 1..];
            if crlf_pending {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    Some(_) => {}
                    None => self.skip_lf = true,
                }
            }
        }
        self.partial.extend_from_slice(rest);
    }

    fn line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        if line[0] == b':' {
            return;
        }
        let (name, value) = match memchr::memchr(b':', line) {
            Some(colon) => {
                let value = &line[colon + 1..];
                let value = value.strip_prefix(b" ").unwrap_or(value);
                (&line[..colon], value)
            }
            None => (line, &b""[..]),
        };
        match name {
            b"data" => {
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => self.event = Some(lossy(value.to_vec())),
            // An id containing NUL is ignored by the standard.
            b"id" if !value.contains(&0) => self.id = Some(lossy(value.to_vec())),
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        if !self.has_data {
            self.event = None;
            return;
        }
        self.has_data = false;
        let data = lossy(std::mem::take(&mut self.data));
        out.push(SseEvent {
            event: self.event.take(),
            data,
            id: self.id.clone(),
        });
    }

    /// Ends the stream. An event without its closing blank line is dropped; returns whether
    /// one was, so a caller can tell a clean end from a cut one.
    pub fn finish(&mut self) -> bool {
        let cut = self.has_data || !self.partial.is_empty();
        self.partial.clear();
        self.data.clear();
        self.has_data = false;
        self.event = None;
        cut
    }
}

fn lossy(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
    }
}

#[cfg(test)]
#[path = "sse_tests.rs"]
mod tests;
