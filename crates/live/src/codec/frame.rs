//! Parsing whole frames (zero-copy) and raw chunked streams (buffered).

use super::scan::{scan, Scan, ScanState};
use super::{CodecError, Instruction, InstructionRef};

/// The instructions of one WebSocket text frame, borrowed from it.
///
/// A frame must hold whole instructions: one cut off at the end is [`CodecError::Truncated`].
/// After the first error the iterator ends (the rest of the frame cannot be trusted).
pub fn parse_frame(frame: &str) -> FrameInstructions<'_> {
    FrameInstructions {
        frame,
        pos: 0,
        done: false,
        ascii: frame.is_ascii(),
    }
}

/// Iterator returned by [`parse_frame`].
#[derive(Debug, Clone)]
pub struct FrameInstructions<'a> {
    frame: &'a str,
    pos: usize,
    done: bool,
    /// The whole frame is ASCII (nearly always: base64 and numbers).
    ascii: bool,
}

impl<'a> Iterator for FrameInstructions<'a> {
    type Item = Result<InstructionRef<'a>, CodecError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let Some(rest) = self.frame.get(self.pos..).filter(|r| !r.is_empty()) else {
            self.done = true;
            return None;
        };
        let mut state = ScanState::default();
        let at = self.pos as u64;
        match scan(rest, &mut state, self.ascii) {
            Ok(Scan::Complete(end)) => {
                self.pos += end;
                let text = rest.get(..end).unwrap_or_default();
                Some(Ok(InstructionRef::new(text, state.opcode, state.elements)))
            }
            Ok(Scan::Incomplete) => {
                self.done = true;
                Some(Err(CodecError::Truncated { offset: at }))
            }
            Err(e) => {
                self.done = true;
                Some(Err(e.shifted(at)))
            }
        }
    }
}

impl std::iter::FusedIterator for FrameInstructions<'_> {}

/// A streaming parser for text that may split instructions anywhere (a raw byte stream decoded
/// to text, a recording read in blocks).
///
/// Feed it with [`Parser::push`], then drain it with [`Parser::next_ref`] (borrowed, no
/// allocation) or as an [`Iterator`] of owned instructions. It buffers at most one unfinished
/// instruction, which the codec limits bound (about 4 MB at worst). After the first error it
/// yields nothing more and ignores further input: the stream has lost its framing.
#[derive(Debug, Default)]
pub struct Parser {
    buf: String,
    /// Start of the next instruction in `buf`.
    start: usize,
    /// Scan progress of the instruction at `start`.
    state: ScanState,
    /// Stream offset of `buf[0]`, for error offsets.
    base: u64,
    failed: bool,
    /// Some of `buf` may not be ASCII (so lengths must be counted in code points).
    has_non_ascii: bool,
    /// The start of a UTF-8 sequence cut off at the end of the last [`Parser::push_bytes`].
    utf8_tail: Vec<u8>,
    /// Invalid UTF-8 met by [`Parser::push_bytes`], reported once the text before it is parsed.
    pending_error: Option<CodecError>,
}

impl Parser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a chunk of text.
    pub fn push(&mut self, chunk: &str) {
        if self.failed || self.pending_error.is_some() {
            return;
        }
        self.compact();
        if !self.utf8_tail.is_empty() {
            // Text after an unfinished UTF-8 sequence cannot finish it.
            self.fail_utf8();
            return;
        }
        self.append(chunk);
    }

    fn append(&mut self, text: &str) {
        self.has_non_ascii |= !text.is_ascii();
        self.buf.push_str(text);
    }

    /// Appends a chunk of raw bytes, which may end (or begin) in the middle of a character.
    pub fn push_bytes(&mut self, chunk: &[u8]) {
        if self.failed || self.pending_error.is_some() {
            return;
        }
        self.compact();
        let joined;
        let bytes = if self.utf8_tail.is_empty() {
            chunk
        } else {
            let mut v = std::mem::take(&mut self.utf8_tail);
            v.extend_from_slice(chunk);
            joined = v;
            &joined[..]
        };
        match std::str::from_utf8(bytes) {
            Ok(text) => self.append(text),
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                // `valid` is valid UTF-8 by construction; the fallback is never taken.
                self.append(std::str::from_utf8(valid).unwrap_or_default());
                if e.error_len().is_none() {
                    self.utf8_tail = rest.to_vec();
                } else {
                    self.fail_utf8();
                }
            }
        }
    }

    fn fail_utf8(&mut self) {
        self.pending_error = Some(CodecError::InvalidUtf8 {
            offset: self.base + self.buf.len() as u64,
        });
    }

    /// Drops the instructions already handed out; scan offsets are relative to the one kept.
    fn compact(&mut self) {
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.base += self.start as u64;
            self.start = 0;
            if self.has_non_ascii {
                // Only the unfinished instruction is left; it may well be ASCII again.
                self.has_non_ascii = !self.buf.is_ascii();
            }
        }
    }

    /// The next complete instruction, borrowed from the parser's buffer; `None` when more input
    /// is needed (or after an error).
    pub fn next_ref(&mut self) -> Option<Result<InstructionRef<'_>, CodecError>> {
        if self.failed {
            return None;
        }
        let at = self.start;
        let rest = self.buf.get(at..).unwrap_or_default();
        let scanned = if rest.is_empty() {
            Ok(Scan::Incomplete)
        } else {
            scan(rest, &mut self.state, !self.has_non_ascii)
        };
        match scanned {
            Ok(Scan::Complete(end)) => {
                let state = std::mem::take(&mut self.state);
                self.start += end;
                let text = self.buf.get(at..at + end).unwrap_or_default();
                Some(Ok(InstructionRef::new(text, state.opcode, state.elements)))
            }
            Ok(Scan::Incomplete) => {
                let e = self.pending_error.take()?;
                self.failed = true;
                Some(Err(e))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e.shifted(self.base + at as u64)))
            }
        }
    }

    /// True once malformed input was met.
    pub fn has_failed(&self) -> bool {
        self.failed
    }

    /// Bytes of an unfinished instruction waiting for more input.
    pub fn pending_len(&self) -> usize {
        self.buf.len() - self.start
    }
}

impl Iterator for Parser {
    type Item = Result<Instruction, CodecError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_ref().map(|r| r.map(|i| i.to_instruction()))
    }
}
