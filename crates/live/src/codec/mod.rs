//! The Guacamole instruction codec: `LEN.VALUE,LEN.VALUE,...;`, opcode first.
//!
//! Why it exists: the live stream is a Guacamole tunnel, and the viewer must read it at well over
//! the rate the service can send it (goal: ≥ 1 GB/s) so that the bridge adds no latency.
//!
//! Invariants:
//! - `LEN` counts Unicode code points, not bytes (checked on every element).
//! - Limits follow guacd: an element holds at most [`MAX_ELEMENT_CHARS`] code points, an
//!   instruction at most [`MAX_ELEMENTS`] elements (opcode included), a length prefix at most
//!   [`MAX_LENGTH_DIGITS`] digits. So the text buffered for one unfinished instruction is bounded.
//! - Malformed input yields a [`CodecError`] naming the byte offset; nothing here panics.
//!
//! Two ways in:
//! - [`parse_frame`] walks one WebSocket text frame (which always holds whole instructions)
//!   without copying: it yields [`InstructionRef`]s that borrow the frame. This is the hot path.
//! - [`Parser`] is fed arbitrary chunks of a raw stream (instructions and characters may split
//!   across chunks) and hands each complete instruction to a callback as an [`InstructionRef`]
//!   borrowed from the chunk; only an instruction cut off at a chunk's end is copied.
//!
//! Out: [`Instruction::encode`] / [`encode_parts_into`] write what the viewer (or the simulator)
//! sends.

mod encode;
mod error;
mod frame;
mod instruction;
mod scan;
mod stream;
mod utf8;

#[cfg(test)]
mod tests;

pub use encode::{encode_element, encode_parts_into};
pub use error::CodecError;
pub use frame::{parse_frame, FrameInstructions};
pub use instruction::{Args, Instruction, InstructionRef};
pub use stream::Parser;

/// Longest element guacd accepts, in Unicode code points.
pub const MAX_ELEMENT_CHARS: usize = 8192;
/// Most elements in one instruction, the opcode included.
pub const MAX_ELEMENTS: usize = 128;
/// Most digits in one length prefix.
pub const MAX_LENGTH_DIGITS: usize = 5;
