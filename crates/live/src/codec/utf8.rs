//! Raw chunks as text. A chunk cut anywhere may end inside a character (whose first bytes wait
//! for the next chunk) or hold bytes that are not UTF-8 at all (the stream is broken there).

/// How the text part of a chunk ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending<'a> {
    /// The whole chunk is text.
    Clean,
    /// The chunk ends with the first bytes of a character (at most 3).
    Cut(&'a [u8]),
    /// Bytes that are not UTF-8 follow the text.
    Invalid,
}

/// The longest prefix of `chunk` that is text, and what comes after it.
#[inline]
pub(crate) fn split_text(chunk: &[u8]) -> (&str, Ending<'_>) {
    match std::str::from_utf8(chunk) {
        Ok(text) => (text, Ending::Clean),
        Err(e) => {
            let (valid, rest) = chunk.split_at(e.valid_up_to());
            // Valid by construction, so this validates again without failing; only chunks that
            // are cut inside a character or broken pay for it.
            let text = std::str::from_utf8(valid).unwrap_or_default();
            match e.error_len() {
                None => (text, Ending::Cut(rest)),
                Some(_) => (text, Ending::Invalid),
            }
        }
    }
}

/// The first bytes of a character cut off at the end of a chunk.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CutChar {
    bytes: [u8; 4],
    len: usize,
}

/// What the next chunk's first bytes made of a [`CutChar`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finished {
    /// The character is whole and was appended; `used` bytes of the chunk went into it.
    Done { used: usize },
    /// The chunk ended first (it was shorter than the rest of the character).
    NeedMore,
    /// The bytes do not make a character.
    Invalid,
}

impl CutChar {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Keeps `bytes` (the [`Ending::Cut`] of a chunk, so at most 3) for the next chunk; false
    /// if they cannot be the start of one character.
    pub(crate) fn keep(&mut self, bytes: &[u8]) -> bool {
        match self.bytes.get_mut(..bytes.len()) {
            Some(slot) if bytes.len() < 4 => {
                slot.copy_from_slice(bytes);
                self.len = bytes.len();
                true
            }
            _ => false,
        }
    }

    /// Completes the character with the start of `next` and appends it to `text`.
    pub(crate) fn finish(&mut self, next: &[u8], text: &mut String) -> Finished {
        let width: usize = match self.bytes[0] {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return Finished::Invalid,
        };
        let take = width.saturating_sub(self.len).min(next.len());
        let (Some(slot), Some(src)) = (
            self.bytes.get_mut(self.len..self.len + take),
            next.get(..take),
        ) else {
            return Finished::Invalid;
        };
        slot.copy_from_slice(src);
        self.len += take;
        match std::str::from_utf8(self.bytes.get(..self.len).unwrap_or_default()) {
            Ok(c) => {
                text.push_str(c);
                self.len = 0;
                Finished::Done { used: take }
            }
            Err(e) if e.error_len().is_none() => Finished::NeedMore,
            Err(_) => Finished::Invalid,
        }
    }
}
