//! Parsing one WebSocket text frame, which always holds whole instructions: zero-copy, the
//! viewer's hot path.

use super::scan::{scan, Scan, ScanState};
use super::{CodecError, InstructionRef};

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
        match scan(rest.as_bytes(), &mut state, self.ascii) {
            Ok(Scan::Complete(end)) => {
                self.pos += end;
                let text = rest.get(..end).unwrap_or_default();
                Some(Ok(InstructionRef::new(text, state.opcode, state.elements)))
            }
            Ok(Scan::Incomplete { .. }) => {
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
