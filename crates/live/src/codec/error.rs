//! Why a stream could not be read as Guacamole instructions.

/// Malformed input. Offsets are in bytes from the start of the frame given to [`super::parse_frame`]
/// or of everything fed to a [`super::Parser`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// Something other than a digit where an element's length should be.
    #[error("the live stream is garbled: expected an element length at byte {offset}")]
    ExpectedLength { offset: u64 },
    /// A length prefix with more digits than guacd allows.
    #[error("the live stream is garbled: element length too long at byte {offset}")]
    LengthTooManyDigits { offset: u64 },
    /// An element longer than guacd allows.
    #[error("the live stream is garbled: an element of {chars} characters at byte {offset} is over the limit of {max}", max = super::MAX_ELEMENT_CHARS)]
    ElementTooLong { offset: u64, chars: usize },
    /// An instruction with more elements than guacd allows.
    #[error("the live stream is garbled: an instruction at byte {offset} has more than {max} parts", max = super::MAX_ELEMENTS)]
    TooManyElements { offset: u64 },
    /// An element's value not followed by `,` or `;` (its length was wrong).
    #[error("the live stream is garbled: an element does not end where its length says, at byte {offset}")]
    BadTerminator { offset: u64 },
    /// Bytes that are not UTF-8 text.
    #[error("the live stream is garbled: it is not text at byte {offset}")]
    InvalidUtf8 { offset: u64 },
    /// A WebSocket frame that ended inside an instruction (frames must hold whole instructions).
    #[error("the live stream is garbled: a message ended in the middle of an instruction at byte {offset}")]
    Truncated { offset: u64 },
}

impl CodecError {
    /// The same error with its offset moved by `by` bytes (from instruction-relative to
    /// stream-relative).
    pub(crate) fn shifted(self, by: u64) -> Self {
        use CodecError::*;
        match self {
            ExpectedLength { offset } => ExpectedLength {
                offset: offset + by,
            },
            LengthTooManyDigits { offset } => LengthTooManyDigits {
                offset: offset + by,
            },
            ElementTooLong { offset, chars } => ElementTooLong {
                offset: offset + by,
                chars,
            },
            TooManyElements { offset } => TooManyElements {
                offset: offset + by,
            },
            BadTerminator { offset } => BadTerminator {
                offset: offset + by,
            },
            Truncated { offset } => Truncated {
                offset: offset + by,
            },
            InvalidUtf8 { offset } => InvalidUtf8 {
                offset: offset + by,
            },
        }
    }
}
