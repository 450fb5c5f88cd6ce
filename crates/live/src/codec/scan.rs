//! The one scanner behind every parse path: finds where one instruction ends and checks each
//! element's length, in code points, against the text.
//!
//! It is resumable at element granularity, so a streaming parser fed small chunks rescans at
//! most the one element that was cut off, never the whole instruction.
//!
//! Hand-written rather than built on a search library (memchr and the like): a value is skipped
//! by its length, not searched for a delimiter (values may hold `,` `;` `.`), so the work is a
//! few instructions per element and no byte of an ASCII value is read at all. Reading every
//! byte, which only non-ASCII text needs, is left to the caller's one whole-chunk check.

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scan {
    /// The instruction ends (terminator included) at this byte offset.
    Complete(usize),
    /// More text is needed: the scan cannot move on until the text is at least `min_len` bytes
    /// long (every code point is at least one byte, so this never overshoots the instruction).
    Incomplete { min_len: usize },
}

/// Scans `b`, which starts at an instruction's first byte and is valid UTF-8, from where `state`
/// left off. `ascii` says the caller knows all of `b` is ASCII (one fast whole-chunk check), so a
/// length in code points is a length in bytes. Errors carry offsets relative to `b`'s start.
#[inline]
pub(crate) fn scan(b: &[u8], state: &mut ScanState, ascii: bool) -> Result<Scan, CodecError> {
    // One loop per case, so the ASCII one carries no test of the flag per element.
    if ascii {
        scan_as::<true>(b, state)
    } else {
        scan_as::<false>(b, state)
    }
}

#[inline(always)]
fn scan_as<const ASCII: bool>(b: &[u8], state: &mut ScanState) -> Result<Scan, CodecError> {
    // Locals rather than `state` fields in the loop: this is the hottest code of the viewer.
    let mut pos = state.pos;
    let mut elements = state.elements;
    // The opcode apart, so the loop over the arguments does not ask each one whether it is it.
    if elements == 0 {
        match element::<ASCII>(b, pos, false)? {
            Element::Next { value, end } => {
                state.opcode = (value, end);
                elements = 1;
                pos = end + 1;
            }
            Element::Last { value, end } => {
                state.opcode = (value, end);
                state.elements = 1;
                state.pos = end + 1;
                return Ok(Scan::Complete(end + 1));
            }
            Element::More { min_len } => return Ok(Scan::Incomplete { min_len }),
        }
    }
    let outcome = loop {
        match element::<ASCII>(b, pos, elements == MAX_ELEMENTS)? {
            Element::Next { end, .. } => {
                elements += 1;
                pos = end + 1;
            }
            Element::Last { end, .. } => {
                elements += 1;
                pos = end + 1;
                break Scan::Complete(pos);
            }
            Element::More { min_len } => break Scan::Incomplete { min_len },
        }
    };
    state.pos = pos;
    state.elements = elements;
    Ok(outcome)
}

/// One element read at `pos`: where its value lies and what ends it.
enum Element {
    /// Followed by `,`.
    Next { value: usize, end: usize },
    /// Followed by `;`, the instruction's end.
    Last { value: usize, end: usize },
    /// The text ends first; see [`Scan::Incomplete`].
    More { min_len: usize },
}

/// Reads the element at `pos`. `full`: the instruction already has [`MAX_ELEMENTS`] elements.
#[inline(always)]
fn element<const ASCII: bool>(b: &[u8], pos: usize, full: bool) -> Result<Element, CodecError> {
    // A one-digit length first: nearly every element of the small drawing instructions that
    // dominate a stream's instruction count, and it cannot be over the limit.
    let (len, value) = match (b.get(pos), b.get(pos + 1)) {
        (Some(&d), Some(b'.')) if d.wrapping_sub(b'0') <= 9 => {
            (usize::from(d.wrapping_sub(b'0')), pos + 2)
        }
        _ => match read_length(b, pos)? {
            Some((len, _)) if len > MAX_ELEMENT_CHARS => {
                return Err(CodecError::ElementTooLong {
                    offset: pos as u64,
                    chars: len,
                })
            }
            Some(read) => read,
            None => {
                return Ok(Element::More {
                    min_len: b.len() + 1,
                })
            }
        },
    };
    if full {
        return Err(CodecError::TooManyElements { offset: 0 });
    }
    let end = if ASCII {
        value + len
    } else {
        match advance_chars(b, value, len) {
            Ok(end) => end,
            // Each missing character is at least one more byte, then the terminator: so a
            // caller fed tiny chunks need not recount this element until that much is there.
            Err(seen) => {
                return Ok(Element::More {
                    min_len: b.len() + len.saturating_sub(seen) + 1,
                })
            }
        }
    };
    match b.get(end) {
        Some(b',') => Ok(Element::Next { value, end }),
        Some(b';') => Ok(Element::Last { value, end }),
        Some(_) => Err(CodecError::BadTerminator { offset: end as u64 }),
        None => Ok(Element::More { min_len: end + 1 }),
    }
}

/// Reads `DIGITS.` at `at`: the length and the offset of the value after the dot, or `None` if
/// the text ends first.
#[inline(always)]
pub(crate) fn read_length(b: &[u8], at: usize) -> Result<Option<(usize, usize)>, CodecError> {
    // The first digit apart: nearly every length in a stream has one or two digits, and an
    // element cannot start with the dot.
    let Some(&first) = b.get(at) else {
        return Ok(None);
    };
    let mut len = usize::from(first.wrapping_sub(b'0'));
    if len > 9 {
        return Err(CodecError::ExpectedLength { offset: at as u64 });
    }
    let mut i = at + 1;
    loop {
        let Some(&c) = b.get(i) else {
            return Ok(None);
        };
        let digit = c.wrapping_sub(b'0');
        if digit <= 9 {
            if i - at == MAX_LENGTH_DIGITS {
                return Err(CodecError::LengthTooManyDigits { offset: at as u64 });
            }
            len = len * 10 + usize::from(digit);
            i += 1;
        } else if c == b'.' {
            return Ok(Some((len, i + 1)));
        } else {
            return Err(CodecError::ExpectedLength { offset: i as u64 });
        }
    }
}

/// The byte offset `chars` code points after `from`, or, if the text ends first, at most how
/// many of them it holds. `b` is valid UTF-8 and `from` a character boundary.
#[inline]
pub(crate) fn advance_chars(b: &[u8], from: usize, chars: usize) -> Result<usize, usize> {
    // Every code point is at least one byte, so too few bytes is certainly too few characters;
    // and an ASCII run (base64, digits: nearly the whole stream) has one byte per character.
    let rest = b.get(from..).unwrap_or_default();
    let Some(head) = rest.get(..chars) else {
        return Err(rest.len());
    };
    if head.is_ascii() {
        return Ok(from + chars);
    }
    let mut seen = 0usize;
    for (i, &byte) in rest.iter().enumerate() {
        // A byte that is not a continuation byte (10xxxxxx) starts a code point.
        if (byte as i8) >= -0x40 {
            if seen == chars {
                return Ok(from + i);
            }
            seen += 1;
        }
    }
    if seen == chars {
        Ok(b.len())
    } else {
        Err(seen)
    }
}
