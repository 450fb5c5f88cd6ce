//! Parsing a raw stream cut into chunks anywhere (a byte stream, a recording read in blocks).
//!
//! Why it is built this way: on a raw stream the cost is per byte (mostly image data) and per
//! element (small drawing instructions), so
//! - each chunk is checked once as UTF-8 and once as ASCII (two fast passes; the second reads
//!   memory the first brought into cache), after which an ASCII length is a byte count and the
//!   scanner jumps over values without reading them;
//! - complete instructions are handed out borrowed straight from the chunk, never copied;
//! - only the unfinished instruction at a chunk's end is copied, into a carry buffer the codec
//!   limits bound (one instruction: ≤ 128 elements of ≤ 8192 code points, ~4 MB at worst, a few
//!   KB in practice), and its scan resumes at the element where it stopped, so an instruction
//!   arriving in many small chunks is not rescanned from its start each time. From the next
//!   chunk only what that instruction still needs is copied.
//!
//! Instructions go to a callback (like guacamole-common-js's `oninstruction`) rather than out of
//! an iterator: they borrow the caller's chunk, and with a callback the parser always gets the
//! chunk's unfinished rest back once the caller is done; there is no half-read chunk to lose.

use super::scan::{scan, Scan, ScanState};
use super::utf8::{split_text, CutChar, Ending, Finished};
use super::{CodecError, InstructionRef};

/// A streaming parser for text that may split instructions, and characters, anywhere.
///
/// After the first error it hands out nothing more and every later call returns that error: the
/// stream has lost its framing.
#[derive(Debug, Default)]
pub struct Parser {
    /// The start of the one instruction not yet complete (whole characters only).
    carry: String,
    /// How far `carry` has been scanned.
    state: ScanState,
    /// Length `carry` must reach before scanning it again can get further.
    need: usize,
    /// `carry` is all ASCII.
    carry_ascii: bool,
    /// A character cut off at the end of the last chunk; it follows `carry`.
    cut: CutChar,
    /// Bytes fed so far (error offsets count from the stream's first byte).
    fed: u64,
    failed: Option<CodecError>,
}

/// Least copied from a chunk into the carry buffer at a time: enough for most of a small
/// instruction at once, small enough to copy little past its end.
const MIN_CARRY_STEP: usize = 256;

impl Parser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses a chunk of raw bytes, which may begin or end in the middle of an instruction or
    /// a character: calls `each` with every instruction the chunk completes, in order.
    pub fn feed(
        &mut self,
        chunk: &[u8],
        mut each: impl FnMut(InstructionRef<'_>),
    ) -> Result<(), CodecError> {
        self.guarded(chunk.len(), |p, start| {
            let mut rest = chunk;
            if !p.cut.is_empty() {
                let cut_at = start - p.cut.len() as u64;
                match p.cut.finish(rest, &mut p.carry) {
                    Finished::Done { used } => {
                        p.carry_ascii = false;
                        rest = rest.get(used..).unwrap_or_default();
                    }
                    Finished::NeedMore => return Ok(()),
                    Finished::Invalid => return Err(CodecError::InvalidUtf8 { offset: cut_at }),
                }
            }
            let text_at = start + (chunk.len() - rest.len()) as u64;
            let (text, ending) = split_text(rest);
            p.parse_text(text, text_at, &mut each)?;
            let after = text_at + text.len() as u64;
            match ending {
                Ending::Clean => Ok(()),
                Ending::Cut(bytes) if p.cut.keep(bytes) => Ok(()),
                Ending::Cut(_) | Ending::Invalid => Err(CodecError::InvalidUtf8 { offset: after }),
            }
        })
    }

    /// Parses a chunk of text (already known to be UTF-8), like [`Parser::feed`].
    pub fn feed_str(
        &mut self,
        chunk: &str,
        mut each: impl FnMut(InstructionRef<'_>),
    ) -> Result<(), CodecError> {
        self.guarded(chunk.len(), |p, start| {
            if !p.cut.is_empty() {
                // Text cannot finish a character cut off by the last raw chunk.
                return Err(CodecError::InvalidUtf8 {
                    offset: start - p.cut.len() as u64,
                });
            }
            p.parse_text(chunk, start, &mut each)
        })
    }

    /// Runs one feed (given the stream offset of the chunk) unless the parser has failed, and
    /// makes a failure stick.
    fn guarded(
        &mut self,
        len: usize,
        feed: impl FnOnce(&mut Self, u64) -> Result<(), CodecError>,
    ) -> Result<(), CodecError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let start = self.fed;
        self.fed += len as u64;
        let outcome = feed(self, start);
        if let Err(e) = &outcome {
            self.failed = Some(e.clone());
            self.carry = String::new();
            self.cut = CutChar::default();
        }
        outcome
    }

    /// Finishes the carried instruction from the start of `text`, hands out every complete
    /// instruction of `text` and carries its unfinished end. `text_at` is the stream offset of
    /// `text`.
    fn parse_text(
        &mut self,
        text: &str,
        text_at: u64,
        each: &mut impl FnMut(InstructionRef<'_>),
    ) -> Result<(), CodecError> {
        let mut pos = 0;
        if !self.carry.is_empty() {
            match self.finish_carry(text, text_at, each)? {
                Some(used) => pos = used,
                None => return Ok(()),
            }
        }
        let Some(rest) = text.get(pos..) else {
            return Ok(());
        };
        let ascii = rest.is_ascii();
        let bytes = text.as_bytes();
        while let Some(at) = bytes.get(pos..).filter(|b| !b.is_empty()) {
            let mut state = ScanState::default();
            match scan(at, &mut state, ascii) {
                Ok(Scan::Complete(end)) => {
                    let instruction = text.get(pos..pos + end).unwrap_or_default();
                    each(InstructionRef::new(
                        instruction,
                        state.opcode,
                        state.elements,
                    ));
                    pos += end;
                }
                Ok(Scan::Incomplete { min_len }) => {
                    let tail = text.get(pos..).unwrap_or_default();
                    self.carry.push_str(tail);
                    self.carry_ascii = ascii || tail.is_ascii();
                    self.state = state;
                    self.need = min_len;
                    break;
                }
                Err(e) => return Err(e.shifted(text_at + pos as u64)),
            }
        }
        Ok(())
    }

    /// Completes the carried instruction with the start of `text`: the bytes of `text` it used,
    /// or `None` if `text` ran out first (all of it is then carried).
    fn finish_carry(
        &mut self,
        text: &str,
        text_at: u64,
        each: &mut impl FnMut(InstructionRef<'_>),
    ) -> Result<Option<usize>, CodecError> {
        // `carry` ends where `text` begins; `taken` bytes of `text` have been appended.
        let carry_at = text_at - self.carry.len() as u64;
        if self.carry.len() + text.len() < self.need {
            // Too short to get further (tiny chunks): keep it without rescanning the element
            // that was cut, which for non-ASCII text means recounting its characters.
            self.carry_ascii &= text.is_ascii();
            self.carry.push_str(text);
            return Ok(None);
        }
        let mut taken = 0;
        loop {
            match scan(self.carry.as_bytes(), &mut self.state, self.carry_ascii) {
                Ok(Scan::Complete(end)) => {
                    let state = std::mem::take(&mut self.state);
                    let instruction = self.carry.get(..end).unwrap_or_default();
                    each(InstructionRef::new(
                        instruction,
                        state.opcode,
                        state.elements,
                    ));
                    // The carry before this call held no terminator, so the end lies in the
                    // part of `text` appended.
                    let used = (taken + end).saturating_sub(self.carry.len());
                    self.carry.clear();
                    self.need = 0;
                    return Ok(Some(used));
                }
                Ok(Scan::Incomplete { min_len }) => {
                    if taken == text.len() {
                        self.need = min_len;
                        return Ok(None);
                    }
                    let want = min_len.saturating_sub(self.carry.len()).max(MIN_CARRY_STEP);
                    let mut next = taken.saturating_add(want).min(text.len());
                    while !text.is_char_boundary(next) {
                        next += 1;
                    }
                    let piece = text.get(taken..next).unwrap_or_default();
                    self.carry_ascii &= piece.is_ascii();
                    self.carry.push_str(piece);
                    taken = next;
                }
                Err(e) => return Err(e.shifted(carry_at)),
            }
        }
    }

    /// True once malformed input was met.
    pub fn has_failed(&self) -> bool {
        self.failed.is_some()
    }

    /// Bytes of an unfinished instruction waiting for more input.
    pub fn pending_len(&self) -> usize {
        self.carry.len() + self.cut.len()
    }
}
