//! Turning the instructions of one connection into frames: image streams (`img`, `blob`…, `end`)
//! become whole images in bytes, other drawing instructions pass through parsed, and `sync`
//! closes a frame.
//!
//! Memory is bounded: at most [`MAX_OPEN_STREAMS`] image streams open at once, each at most
//! [`MAX_IMAGE_BYTES`], and everything held between two `sync`s (drawing and open streams) at
//! most the limit given to [`FrameAssembler::new`]; a stream that never syncs is garbled.

use crate::codec::InstructionRef;
use crate::frame::{DrawOp, Image};
use crate::image_size::image_size;
use base64::Engine;
use std::collections::HashMap;

pub(crate) const MAX_OPEN_STREAMS: usize = 64;
pub(crate) const MAX_IMAGE_BYTES: usize = 32 << 20;

/// A stream violation, in words for the end reason.
pub(crate) type StreamProblem = String;

struct OpenImage {
    mimetype: String,
    layer: i32,
    x: i32,
    y: i32,
    mask: u32,
    data: Vec<u8>,
}

pub(crate) struct FrameAssembler {
    ops: Vec<DrawOp>,
    streams: HashMap<i64, OpenImage>,
    /// Approximate bytes held in `ops` and `streams`.
    held: usize,
    limit: usize,
}

fn num<T: std::str::FromStr>(inst: &InstructionRef<'_>, index: usize) -> Result<T, StreamProblem> {
    let arg = inst.arg(index).unwrap_or_default();
    arg.parse().map_err(|_| {
        format!(
            "`{}` has a bad number in argument {index}",
            inst.opcode().escape_default()
        )
    })
}

fn decode_into(base64: &str, out: &mut Vec<u8>) -> Result<(), StreamProblem> {
    base64::engine::general_purpose::STANDARD
        .decode_vec(base64, out)
        .map_err(|_| "an image arrived with bad base64 data".to_owned())
}

impl FrameAssembler {
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            ops: Vec::new(),
            streams: HashMap::new(),
            held: 0,
            limit,
        }
    }

    fn hold(&mut self, bytes: usize) -> Result<(), StreamProblem> {
        self.held += bytes;
        if self.held > self.limit {
            return Err("a frame is larger than the viewer accepts".into());
        }
        Ok(())
    }

    /// Takes one drawing instruction (not `sync`, `nop`, `error`, `disconnect` or internal ones).
    pub(crate) fn push(&mut self, inst: &InstructionRef<'_>) -> Result<(), StreamProblem> {
        match inst.opcode() {
            "img" => {
                if inst.arg_count() < 6 {
                    return Err("`img` has too few arguments".into());
                }
                let stream: i64 = num(inst, 0)?;
                if !self.streams.contains_key(&stream) && self.streams.len() >= MAX_OPEN_STREAMS {
                    return Err("too many image streams open at once".into());
                }
                let image = OpenImage {
                    mask: num(inst, 1)?,
                    layer: num(inst, 2)?,
                    mimetype: inst.arg(3).unwrap_or_default().to_owned(),
                    x: num(inst, 4)?,
                    y: num(inst, 5)?,
                    data: Vec::new(),
                };
                // A reused index abandons whatever the old stream had.
                if let Some(old) = self.streams.insert(stream, image) {
                    self.held -= old.data.len();
                }
            }
            "blob" => {
                let stream: i64 = num(inst, 0)?;
                // Blobs of streams we do not read (e.g. audio) are ignored, as the JS client does.
                if let Some(open) = self.streams.get_mut(&stream) {
                    let data = inst.arg(1).unwrap_or_default();
                    if open.data.len() + data.len() / 4 * 3 > MAX_IMAGE_BYTES {
                        return Err("an image is larger than the viewer accepts".into());
                    }
                    let before = open.data.len();
                    decode_into(data, &mut open.data)?;
                    let added = open.data.len() - before;
                    self.hold(added)?;
                }
            }
            "end" => {
                let stream: i64 = num(inst, 0)?;
                if let Some(open) = self.streams.remove(&stream) {
                    self.ops.push(DrawOp::Image(Image {
                        size: image_size(&open.data),
                        mimetype: open.mimetype,
                        layer: open.layer,
                        x: open.x,
                        y: open.y,
                        mask: open.mask,
                        data: open.data.into(),
                    }));
                }
            }
            legacy @ ("png" | "jpeg") => {
                if inst.arg_count() < 5 {
                    return Err(format!("`{legacy}` has too few arguments"));
                }
                let mut data = Vec::new();
                decode_into(inst.arg(4).unwrap_or_default(), &mut data)?;
                self.hold(data.len())?;
                self.ops.push(DrawOp::Image(Image {
                    mimetype: format!("image/{legacy}"),
                    mask: num(inst, 0)?,
                    layer: num(inst, 1)?,
                    x: num(inst, 2)?,
                    y: num(inst, 3)?,
                    size: image_size(&data),
                    data: data.into(),
                }));
            }
            _ => {
                self.hold(inst.as_wire().len() + 64)?;
                self.ops.push(DrawOp::Instruction(inst.to_instruction()));
            }
        }
        Ok(())
    }

    /// Closes the frame at `sync`: the drawing since the last one. Image streams still open
    /// carry over to the next frame.
    pub(crate) fn take_ops(&mut self) -> Vec<DrawOp> {
        self.held = self.streams.values().map(|s| s.data.len()).sum();
        std::mem::take(&mut self.ops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::parse_frame;

    fn feed(a: &mut FrameAssembler, text: &str) -> Result<(), StreamProblem> {
        for inst in parse_frame(text) {
            a.push(&inst.map_err(|e| e.to_string())?)?;
        }
        Ok(())
    }

    #[test]
    fn image_streams_become_bytes_in_end_order() {
        let mut a = FrameAssembler::new(1 << 20);
        feed(
            &mut a,
            "3.img,1.1,2.14,1.0,9.image/png,2.10,2.20;3.img,1.2,2.12,2.-1,10.image/jpeg,1.0,1.0;\
             4.blob,1.1,4.aGVs;4.blob,1.2,4.AAEC;4.blob,1.1,4.bG8h;4.blob,1.9,4.AAAA;\
             3.end,1.2;4.rect,1.0,1.1,1.2,1.3,1.4;3.end,1.1;",
        )
        .unwrap();
        let ops = a.take_ops();
        assert_eq!(ops.len(), 3);
        let DrawOp::Image(first) = &ops[0] else {
            panic!()
        };
        assert_eq!(
            (first.layer, first.mask, &first.data[..]),
            (-1, 12, &[0, 1, 2][..])
        );
        assert!(matches!(&ops[1], DrawOp::Instruction(i) if i.opcode == "rect"));
        let DrawOp::Image(second) = &ops[2] else {
            panic!()
        };
        assert_eq!(
            (
                second.x,
                second.y,
                second.mimetype.as_str(),
                &second.data[..]
            ),
            (10, 20, "image/png", &b"hello!"[..])
        );
        assert!(a.take_ops().is_empty());
    }

    #[test]
    fn a_stream_that_never_syncs_is_bounded() {
        let mut a = FrameAssembler::new(1000);
        let rect = "4.rect,1.0,1.1,1.2,1.3,1.4;".repeat(100);
        assert_eq!(
            feed(&mut a, &rect),
            Err("a frame is larger than the viewer accepts".to_owned())
        );
        let mut a = FrameAssembler::new(1000);
        for _ in 0..100 {
            feed(&mut a, "4.rect,1.0,1.1,1.2,1.3,1.4;").unwrap();
            a.take_ops();
        }
    }

    #[test]
    fn bad_streams_are_named_not_panicked_on() {
        let mut a = FrameAssembler::new(1 << 20);
        assert!(feed(&mut a, "3.img,1.x,2.14,1.0,9.image/png,1.0,1.0;").is_err());
        assert!(feed(&mut a, "3.img,1.1;").is_err());
        assert!(feed(
            &mut a,
            "3.img,1.1,2.14,1.0,9.image/png,1.0,1.0;4.blob,1.1,2.@@;"
        )
        .is_err());
        assert!(feed(&mut a, "3.png,2.14,1.0,1.0;").is_err());
    }
}
