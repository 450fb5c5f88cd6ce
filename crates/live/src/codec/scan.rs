//! The one scanner behind every parse path: finds where one instruction ends and checks each
//! element's length, in code points, against the text.
//!
//! It is resumable so a streaming parser fed small chunks rescans at most the one element that
//! was cut off, never the whole instruction.

use super::{CodecError, MAX_ELEMENTS, MAX_ELEMENT_CHARS, MAX_LENGTH_DIGITS};

/// Where a scan of one instruction stands. Offsets are relative to the instruction's first byte.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ScanState {
    /// Elements fully read so far (opcode included).
    pub elements: usize,
    /// Start of the next element's length prefix.
    pub pos: usize,
    /// Byte range of the opcode's value, known once `elements >= 1`.
    pub opcode: (usize, usize),
}

/// Outcome of scanning the text at the start of an instruction.
pub(crate) enum Scan {
    /// The instruction ends (terminator included) at this byte offset.
    Complete(usize),
    /// More text is needed; the state records how far the text was checked.
    Incomplete,
}

/// Scans `text`, which starts at an instruction's first byte, from where `state` left off.
/// `ascii` says the caller knows all of `text` is ASCII (checked once per message with a fast
/// whole-slice check), so a length in code points is a length in bytes.
/// Errors carry offsets relative to the start of `text`.
#[inline]
pub(crate) fn scan(text: &str, state: &mut ScanState, ascii: bool) -> Result<Scan, CodecError> {
    let b = text.as_bytes();
    // Locals rather than `state` fields in the loop: this is the hottest code of the viewer.
    let mut pos = state.pos;
    let mut elements = state.elements;
    let mut opcode = state.opcode;
    let outcome = loop {
        let Some((len, dot)) = read_length(b, pos)? else {
            break Scan::Incomplete;
        };
        if len > MAX_ELEMENT_CHARS {
            return Err(CodecError::ElementTooLong {
                offset: pos as u64,
                chars: len,
            });
        }
        if elements == MAX_ELEMENTS {
            return Err(CodecError::TooManyElements { offset: 0 });
        }
        let value = dot + 1;
        let end = if ascii {
            value + len
        } else {
            match advance_chars(b, value, len) {
                Some(end) => end,
                None => break Scan::Incomplete,
            }
        };
        let terminator = match b.get(end) {
            None => break Scan::Incomplete,
            Some(&t) => t,
        };
        if terminator != b',' && terminator != b';' {
            return Err(CodecError::BadTerminator { offset: end as u64 });
        }
        if elements == 0 {
            opcode = (value, end);
        }
        elements += 1;
        pos = end + 1;
        if terminator == b';' {
            break Scan::Complete(end + 1);
        }
    };
    state.pos = pos;
    state.elements = elements;
    state.opcode = opcode;
    Ok(outcome)
}

/// Reads `DIGITS.` at `at`: the length and the offset of the dot, or `None` if the text ends
/// first.
#[inline]
pub(crate) fn read_length(b: &[u8], at: usize) -> Result<Option<(usize, usize)>, CodecError> {
    let mut len = 0usize;
    let mut i = at;
    loop {
        match b.get(i) {
            None => return Ok(None),
            Some(&d) if d.wrapping_sub(b'0') < 10 => {
                if i - at == MAX_LENGTH_DIGITS {
                    return Err(CodecError::LengthTooManyDigits { offset: at as u64 });
                }
                len = len * 10 + usize::from(d - b'0');
            }
            Some(b'.') if i > at => return Ok(Some((len, i))),
            Some(_) => return Err(CodecError::ExpectedLength { offset: i as u64 }),
        }
        i += 1;
    }
}

/// The byte offset `chars` code points after `from`, or `None` if the text ends first.
/// `b` is valid UTF-8 and `from` a character boundary.
#[inline]
pub(crate) fn advance_chars(b: &[u8], from: usize, chars: usize) -> Option<usize> {
    // Every code point is at least one byte, so too few bytes is certainly too few characters;
    // and an ASCII run (base64, digits: nearly the whole stream) has one byte per character.
    let rest = b.get(from..)?;
    let head = rest.get(..chars)?;
    if head.is_ascii() {
        return Some(from + chars);
    }
    let mut seen = 0usize;
    for (i, &byte) in rest.iter().enumerate() {
        // A byte that is not a continuation byte (10xxxxxx) starts a code point.
        if (byte as i8) >= -0x40 {
            if seen == chars {
                return Some(from + i);
            }
            seen += 1;
        }
    }
    (seen == chars).then_some(b.len())
}
