//! What the consumer receives: frames of drawing operations, images already decoded from base64.

use crate::codec::Instruction;
use bytes::Bytes;
use std::time::Instant;

/// Everything the server drew between two `sync`s (or several such frames coalesced, see
/// [`Frame::upstream_frames`]), in draw order.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Identifies the frame to [`crate::ViewerControl::ack`].
    pub seq: u64,
    /// The connection this frame came from (see [`crate::Status::Connected`]); a consumer drops
    /// frames of an older connection.
    pub connection: u64,
    pub ops: Vec<DrawOp>,
    /// The newest `sync` timestamp this frame covers, as the server sent it.
    pub sync_timestamp: String,
    /// How many upstream frames this one carries (more than 1 when the consumer fell behind).
    pub upstream_frames: u32,
    /// When the WebSocket message that completed the frame arrived.
    pub arrived_at: Instant,
}

impl Frame {
    /// Approximate memory held, for the bound on queued frames.
    pub(crate) fn weight(&self) -> usize {
        self.ops.iter().map(DrawOp::weight).sum::<usize>() + 64
    }
}

/// One drawing step.
#[derive(Debug, Clone, PartialEq)]
pub enum DrawOp {
    /// An image, from `img` + `blob`s + `end` (placed where `end` came) or legacy `png`/`jpeg`.
    Image(Image),
    /// Any other drawing instruction, parsed: `size`, `copy`, `rect`, `cfill`, `cursor`, `mouse`,
    /// `move`, `shade`, `dispose`, and anything unknown, passed through in order.
    Instruction(Instruction),
}

impl DrawOp {
    fn weight(&self) -> usize {
        match self {
            DrawOp::Image(image) => image.data.len() + 64,
            DrawOp::Instruction(i) => {
                i.opcode.len() + i.args.iter().map(|a| a.len() + 24).sum::<usize>() + 48
            }
        }
    }
}

/// A whole image, as the bytes of its file format (JPEG, PNG, WebP): never base64.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    pub mimetype: String,
    /// 0 is the screen; negative layers are off-screen buffers.
    pub layer: i32,
    pub x: i32,
    pub y: i32,
    /// Guacamole channel mask (14 = over, 12 = src).
    pub mask: u32,
    /// Pixel size read from the file header, when it could be read.
    pub size: Option<(u32, u32)>,
    pub data: Bytes,
}
