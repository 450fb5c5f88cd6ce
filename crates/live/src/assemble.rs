//! Turning the instructions of one connection into frames: image streams (`img`, `blob`…, `end`)
//! become whole images in bytes, other drawing instructions pass through parsed, and `sync`
//! closes a frame.
//!
//! Memory is bounded: at most [`MAX_OPEN_STREAMS`] image streams open at once, each at most
//! [`MAX_IMAGE_BYTES`], and everything held between two `sync`s (drawing and open streams) at
//! most the limit given to [`FrameAssembler::new`]; a stream that never syncs is garbled.
//!
//! What pictures cost once decoded is bounded too: a picture may be no larger than the screen
//! (as announced at connect, then as layer 0's `size` says) and no layer larger than
//! [`MAX_SIDE`] a side. A few bytes of header can claim 65,535 × 65,535 pixels (17 GB to
//! decode), so a stream claiming more is garbled here, before anyone reserves room for it.

use crate::codec::InstructionRef;
use crate::frame::{DrawOp, Image};
use crate::image_size::image_size;
use base64::Engine;
use std::collections::HashMap;

pub(crate) const MAX_OPEN_STREAMS: usize = 64;
pub(crate) const MAX_IMAGE_BYTES: usize = 32 << 20;
/// The widest and tallest screen or layer accepted, whatever the service announces: above any
/// display made (8K is 7680 × 4320), and 256 MB a layer at 4 bytes a pixel.
pub(crate) const MAX_SIDE: u32 = 8192;

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
    /// The screen's size, which bounds every picture; a side of 0 is not known yet.
    screen: (u32, u32),
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
    /// `screen` is the size announced at connect (0 × 0 when unknown).
    pub(crate) fn new(limit: usize, screen: (u32, u32)) -> Self {
        Self {
            ops: Vec::new(),
            streams: HashMap::new(),
            held: 0,
            limit,
            screen,
        }
    }

    /// The largest picture accepted: the screen, and never more than [`MAX_SIDE`] a side.
    fn picture_bound(&self) -> (u32, u32) {
        let side = |s: u32| if s == 0 { MAX_SIDE } else { s.min(MAX_SIDE) };
        (side(self.screen.0), side(self.screen.1))
    }

    /// The picture's size read from its header, refused when larger than the screen.
    fn checked_size(&self, data: &[u8]) -> Result<Option<(u32, u32)>, StreamProblem> {
        let size = image_size(data);
        let (max_w, max_h) = self.picture_bound();
        match size {
            Some((w, h)) if w > max_w || h > max_h => Err(format!(
                "a picture of {w} × {h} pixels, larger than the {max_w} × {max_h} screen"
            )),
            _ => Ok(size),
        }
    }

    /// A layer's new size: the page makes a canvas of it, so it is bounded like a picture;
    /// layer 0's is the screen's.
    fn resize(&mut self, inst: &InstructionRef<'_>) -> Result<(), StreamProblem> {
        if inst.arg_count() < 3 {
            return Err("`size` has too few arguments".into());
        }
        let layer: i64 = num(inst, 0)?;
        let (w, h): (i64, i64) = (num(inst, 1)?, num(inst, 2)?);
        let side = |v: i64| u32::try_from(v).ok().filter(|&v| v <= MAX_SIDE);
        let (Some(w), Some(h)) = (side(w), side(h)) else {
            return Err(format!(
                "a layer of {w} × {h} pixels, larger than the viewer accepts"
            ));
        };
        if layer == 0 {
            self.screen = (w, h);
        }
        Ok(())
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
                    let size = self.checked_size(&open.data)?;
                    self.ops.push(DrawOp::Image(Image {
                        size,
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
                let size = self.checked_size(&data)?;
                self.ops.push(DrawOp::Image(Image {
                    mimetype: format!("image/{legacy}"),
                    mask: num(inst, 0)?,
                    layer: num(inst, 1)?,
                    x: num(inst, 2)?,
                    y: num(inst, 3)?,
                    size,
                    data: data.into(),
                }));
            }
            opcode => {
                if opcode == "size" {
                    self.resize(inst)?;
                }
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

    const SCREEN: (u32, u32) = (1280, 800);

    /// A PNG's first 24 bytes claiming `w` × `h`, in base64: all the header reader looks at.
    fn png_header(w: u32, h: u32) -> String {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&w.to_be_bytes());
        png.extend_from_slice(&h.to_be_bytes());
        base64::engine::general_purpose::STANDARD.encode(png)
    }

    fn picture(stream: u32, w: u32, h: u32) -> String {
        let data = png_header(w, h);
        format!(
            "3.img,{}.{stream},2.14,1.0,9.image/png,1.0,1.0;4.blob,{}.{stream},{}.{data};3.end,{}.{stream};",
            stream.to_string().len(),
            stream.to_string().len(),
            data.len(),
            stream.to_string().len(),
        )
    }

    #[test]
    fn a_picture_larger_than_the_screen_is_refused_before_anything_is_reserved_for_it() {
        let mut a = FrameAssembler::new(1 << 20, SCREEN);
        feed(&mut a, &picture(1, 1280, 800)).unwrap();
        assert_eq!(
            feed(&mut a, &picture(2, 65_535, 65_535)),
            Err("a picture of 65535 × 65535 pixels, larger than the 1280 × 800 screen".into())
        );
        let mut a = FrameAssembler::new(1 << 20, SCREEN);
        let legacy = format!("3.png,2.14,1.0,1.0,1.0,32.{};", png_header(1281, 10));
        assert!(feed(&mut a, &legacy).unwrap_err().contains("larger than"));
    }

    #[test]
    fn the_screen_bound_follows_layer_zero_and_never_passes_the_cap() {
        let mut a = FrameAssembler::new(1 << 20, SCREEN);
        feed(&mut a, "4.size,1.0,4.1920,4.1080;").unwrap();
        feed(&mut a, &picture(1, 1920, 1080)).unwrap();
        // Another layer's size does not raise the bound.
        feed(&mut a, "4.size,1.1,4.4000,4.4000;").unwrap();
        assert!(feed(&mut a, &picture(2, 4000, 4000)).is_err());
        // Unknown at connect: the cap alone.
        let mut a = FrameAssembler::new(1 << 20, (0, 0));
        feed(&mut a, &picture(1, 8192, 8192)).unwrap();
        assert!(feed(&mut a, &picture(2, 8193, 1)).is_err());
    }

    #[test]
    fn a_layer_past_the_cap_is_refused() {
        let mut a = FrameAssembler::new(1 << 20, SCREEN);
        assert_eq!(
            feed(&mut a, "4.size,2.-1,5.65535,5.65535;"),
            Err("a layer of 65535 × 65535 pixels, larger than the viewer accepts".into())
        );
        let mut a = FrameAssembler::new(1 << 20, SCREEN);
        assert!(feed(&mut a, "4.size,1.0,2.-5,2.10;").is_err());
        assert!(feed(&mut a, "4.size,1.0,2.10;").is_err());
    }

    fn feed(a: &mut FrameAssembler, text: &str) -> Result<(), StreamProblem> {
        for inst in parse_frame(text) {
            a.push(&inst.map_err(|e| e.to_string())?)?;
        }
        Ok(())
    }

    #[test]
    fn image_streams_become_bytes_in_end_order() {
        let mut a = FrameAssembler::new(1 << 20, SCREEN);
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
        let mut a = FrameAssembler::new(1000, SCREEN);
        let rect = "4.rect,1.0,1.1,1.2,1.3,1.4;".repeat(100);
        assert_eq!(
            feed(&mut a, &rect),
            Err("a frame is larger than the viewer accepts".to_owned())
        );
        let mut a = FrameAssembler::new(1000, SCREEN);
        for _ in 0..100 {
            feed(&mut a, "4.rect,1.0,1.1,1.2,1.3,1.4;").unwrap();
            a.take_ops();
        }
    }

    #[test]
    fn bad_streams_are_named_not_panicked_on() {
        let mut a = FrameAssembler::new(1 << 20, SCREEN);
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
