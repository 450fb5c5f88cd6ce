//! The film's view of one encoded frame ([`super::frame_bytes`]): the drawing on the visible
//! layer, read back from the very message sent to the page, so the pictures the bridge
//! decoded for the page are not decoded a second time for the film.

use crate::film::Paint;

use super::frame_bytes::{OP_IMAGE, OP_INSTRUCTION, OP_PIXELS};

/// The message's drawing as the film's screen takes it; stops at the first op it cannot read
/// (the message is this bridge's own, so that is never expected).
pub fn paints(message: &[u8]) -> Vec<Paint<'_>> {
    let mut out = Vec::new();
    let mut r = Reader {
        bytes: message,
        at: 26,
    };
    let Some(count) = r.u32() else { return out };
    for _ in 0..count {
        let Some(op) = r.op() else { break };
        if let Some(op) = op {
            out.push(op);
        }
    }
    out
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let bytes = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(bytes)
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn i32(&mut self) -> Option<i32> {
        Some(i32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    /// One op: `Some(None)` for one the film leaves out.
    fn op(&mut self) -> Option<Option<Paint<'a>>> {
        match self.u8()? {
            OP_PIXELS => {
                let (layer, x, y, mask) = (self.i32()?, self.i32()?, self.i32()?, self.u32()?);
                let (width, height, opaque) = (self.u32()?, self.u32()?, self.u8()? == 1);
                let bpp = if opaque { 3 } else { 4 };
                let len = (width as usize)
                    .checked_mul(height as usize)?
                    .checked_mul(bpp)?;
                let data = self.take(len)?;
                Some(Some(Paint::Pixels {
                    layer,
                    x,
                    y,
                    width,
                    height,
                    opaque,
                    // Guacamole's channel mask 12 draws in place of what is there.
                    over: mask != 12,
                    data,
                }))
            }
            OP_IMAGE => {
                // A picture the bridge could not decode: the page draws it, the film does not.
                self.take(16)?;
                let mime = self.u16()? as usize;
                self.take(mime)?;
                let len = self.u32()? as usize;
                self.take(len)?;
                Some(None)
            }
            OP_INSTRUCTION => {
                let len = self.u16()? as usize;
                let opcode = self.take(len)?;
                let argc = self.u16()?;
                let mut args = Vec::with_capacity(argc.min(16) as usize);
                for _ in 0..argc {
                    let len = self.u32()? as usize;
                    args.push(std::str::from_utf8(self.take(len)?).ok()?);
                }
                Some(instruction(opcode, &args))
            }
            _ => None,
        }
    }
}

fn instruction<'a>(opcode: &[u8], args: &[&str]) -> Option<Paint<'a>> {
    let int = |i: usize| args.get(i)?.parse::<i32>().ok();
    match opcode {
        b"size" => Some(Paint::Size {
            layer: int(0)?,
            width: u32::try_from(int(1)?).ok()?,
            height: u32::try_from(int(2)?).ok()?,
        }),
        // copy,srclayer,srcx,srcy,srcwidth,srcheight,mask,dstlayer,dstx,dsty
        b"copy" => Some(Paint::Copy {
            from: int(0)?,
            x: int(1)?,
            y: int(2)?,
            width: int(3)?,
            height: int(4)?,
            to: int(6)?,
            to_x: int(7)?,
            to_y: int(8)?,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use image::ImageEncoder;
    use porthole_live::codec::Instruction;
    use porthole_live::{DrawOp, Frame, Image};
    use std::time::Instant;

    #[test]
    fn the_film_reads_the_size_pictures_and_copies_the_page_was_sent() {
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(
                &[9, 8, 7, 255, 6, 5, 4, 255],
                2,
                1,
                image::ExtendedColorType::Rgba8,
            )
            .unwrap();
        let frame = Frame {
            seq: 1,
            connection: 1,
            ops: vec![
                DrawOp::Instruction(Instruction::new("size", ["0", "1280", "800"])),
                DrawOp::Image(Image {
                    mimetype: "image/webp".into(),
                    layer: 0,
                    x: 0,
                    y: 0,
                    mask: 14,
                    size: None,
                    data: Bytes::from_static(b"RIFF....WEBP"),
                }),
                DrawOp::Image(Image {
                    mimetype: "image/png".into(),
                    layer: 0,
                    x: 3,
                    y: 4,
                    mask: 12,
                    size: Some((2, 1)),
                    data: Bytes::from(png),
                }),
                DrawOp::Instruction(Instruction::new(
                    "copy",
                    ["0", "1", "2", "30", "40", "14", "0", "5", "6"],
                )),
                DrawOp::Instruction(Instruction::new("sync", ["1"])),
            ],
            sync_timestamp: "1".into(),
            upstream_frames: 1,
            arrived_at: Instant::now(),
        };
        let message = super::super::frame_bytes::encode(&frame);
        assert_eq!(
            paints(&message),
            vec![
                Paint::Size {
                    layer: 0,
                    width: 1280,
                    height: 800
                },
                Paint::Pixels {
                    layer: 0,
                    x: 3,
                    y: 4,
                    width: 2,
                    height: 1,
                    opaque: true,
                    over: false,
                    data: &[9, 8, 7, 6, 5, 4]
                },
                Paint::Copy {
                    from: 0,
                    x: 1,
                    y: 2,
                    width: 30,
                    height: 40,
                    to: 0,
                    to_x: 5,
                    to_y: 6
                },
            ]
        );
        assert_eq!(
            paints(&message[..60]).len(),
            1,
            "a cut message is read as far as it goes"
        );
    }
}
