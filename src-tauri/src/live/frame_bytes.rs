//! One frame as one binary message for the page.
//!
//! Why a hand-written layout: a frame is a handful of integers, short strings and whole image
//! files. JSON would turn every image into a number array or base64 (the cost the bridge exists
//! to avoid), and a general binary format (bincode, MessagePack) would put a second decoder,
//! and a dependency, into the page. This layout is read by ~60 lines of TypeScript with a
//! `DataView` (`ui/src/lib/live/frame.ts`, tested there), and pictures with alpha reach the
//! page's `ImageData` as a view into the message, with no copy.
//!
//! Images go as decoded pixels, opaque ones as RGB that the page widens in one pass
//! ([`super::pixels`] says why for both); one this bridge cannot decode goes as its file, which
//! the page decodes itself.
//!
//! Memory: a frame's pictures are each within the screen (the viewer refuses larger ones), but
//! a frame may hold many, and a few hundred bytes of PNG can decode to megabytes. So one message
//! decodes at most [`DECODE_BUDGET`] bytes of pixels, and reserves no more than that for them
//! from what headers claim; pictures past it go as their files, drawn the same by the page.
//!
//! Layout (little endian), version 3:
//! ```text
//! u8  version (3)        u8  reserved (0)
//! u32 seq                u32 connection
//! f64 arrived_at_unix_ms (when the WebSocket message completing the frame arrived)
//! f64 sent_at_unix_ms    (when the bridge handed it to the page's socket)
//! u32 op count, then per op:
//!   u8 1 = image: i32 layer, i32 x, i32 y, u32 mask, u16 mimetype length + UTF-8,
//!                 u32 data length + bytes
//!   u8 2 = instruction: u16 opcode length + UTF-8, u16 arg count,
//!                       per arg: u32 length + UTF-8
//!   u8 3 = pixels: i32 layer, i32 x, i32 y, u32 mask, u32 width, u32 height,
//!                  u8 opaque: 1 when every alpha is full, then width × height × 3 bytes RGB;
//!                             0, then width × height × 4 bytes RGBA
//! ```
//! `seq` fits u32: at 60 frames a second it wraps after two years of one view.

use porthole_live::{DrawOp, Frame, Image};

use super::pixels;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

pub const VERSION: u8 = 3;
pub(super) const OP_IMAGE: u8 = 1;
pub(super) const OP_INSTRUCTION: u8 = 2;
pub(super) const OP_PIXELS: u8 = 3;

/// Pixels decoded into one message at most: two full 4K screens in RGB, and far more than the
/// stream's dirty rectangles of a frame.
pub const DECODE_BUDGET: usize = 64 << 20;

/// The encoded frame: the webview receives it as an `ArrayBuffer`.
pub fn encode(frame: &Frame) -> Vec<u8> {
    encode_within(frame, DECODE_BUDGET)
}

fn encode_within(frame: &Frame, budget: usize) -> Vec<u8> {
    let mut claimed_pixels = 0usize;
    let mut rest = 32usize;
    for op in &frame.ops {
        match op {
            DrawOp::Image(image) => {
                rest += 32 + image.mimetype.len() + image.data.len();
                claimed_pixels = claimed_pixels
                    .saturating_add(image.size.and_then(pixels::max_pixels_len).unwrap_or(0));
            }
            DrawOp::Instruction(i) => {
                rest += 8 + i.opcode.len() + i.args.iter().map(|a| 4 + a.len()).sum::<usize>()
            }
        }
    }
    // Room for the files and for the pixels headers claim, as far as they may be decoded.
    let mut out = Vec::with_capacity(rest + claimed_pixels.min(budget));
    let mut budget = budget;
    out.push(VERSION);
    out.push(0);
    out.extend_from_slice(&(frame.seq as u32).to_le_bytes());
    out.extend_from_slice(&(frame.connection as u32).to_le_bytes());
    let now = unix_ms_now();
    let age_ms = Instant::now()
        .saturating_duration_since(frame.arrived_at)
        .as_secs_f64()
        * 1000.0;
    out.extend_from_slice(&(now - age_ms).to_le_bytes());
    out.extend_from_slice(&now.to_le_bytes());
    out.extend_from_slice(&(frame.ops.len() as u32).to_le_bytes());
    for op in &frame.ops {
        match op {
            DrawOp::Image(image) => {
                if let Some(spent) = put_pixels(&mut out, image, budget) {
                    budget = budget.saturating_sub(spent);
                    continue;
                }
                out.push(OP_IMAGE);
                out.extend_from_slice(&image.layer.to_le_bytes());
                out.extend_from_slice(&image.x.to_le_bytes());
                out.extend_from_slice(&image.y.to_le_bytes());
                out.extend_from_slice(&image.mask.to_le_bytes());
                put_short_str(&mut out, &image.mimetype);
                out.extend_from_slice(&(image.data.len() as u32).to_le_bytes());
                out.extend_from_slice(&image.data);
            }
            DrawOp::Instruction(instruction) => {
                out.push(OP_INSTRUCTION);
                put_short_str(&mut out, &instruction.opcode);
                let argc = instruction.args.len().min(u16::MAX as usize);
                out.extend_from_slice(&(argc as u16).to_le_bytes());
                for arg in instruction.args.iter().take(argc) {
                    out.extend_from_slice(&(arg.len() as u32).to_le_bytes());
                    out.extend_from_slice(arg.as_bytes());
                }
            }
        }
    }
    out
}

/// Writes the image as a pixels op and gives the bytes its pixels took; `None`, with nothing
/// written, when it does not decode within `budget` bytes.
fn put_pixels(out: &mut Vec<u8>, image: &Image, budget: usize) -> Option<usize> {
    let start = out.len();
    out.push(OP_PIXELS);
    out.extend_from_slice(&image.layer.to_le_bytes());
    out.extend_from_slice(&image.x.to_le_bytes());
    out.extend_from_slice(&image.y.to_le_bytes());
    out.extend_from_slice(&image.mask.to_le_bytes());
    let dims_at = out.len();
    out.extend_from_slice(&[0; 9]);
    match pixels::append_pixels(&image.mimetype, &image.data, budget, out) {
        Some(p) => {
            out[dims_at..dims_at + 4].copy_from_slice(&p.width.to_le_bytes());
            out[dims_at + 4..dims_at + 8].copy_from_slice(&p.height.to_le_bytes());
            out[dims_at + 8] = u8::from(p.opaque);
            Some(out.len() - dims_at - 9)
        }
        None => {
            out.truncate(start);
            None
        }
    }
}

/// Strings bounded by the codec (an element is at most 8192 code points); a longer one is cut
/// at a character boundary rather than corrupting the layout.
fn put_short_str(out: &mut Vec<u8>, s: &str) {
    let mut end = s.len().min(u16::MAX as usize);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    out.extend_from_slice(&(end as u16).to_le_bytes());
    out.extend_from_slice(&s.as_bytes()[..end]);
}

fn unix_ms_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use image::ImageEncoder;
    use porthole_live::codec::Instruction;

    fn frame(ops: Vec<DrawOp>) -> Frame {
        Frame {
            seq: 7,
            connection: 2,
            ops,
            sync_timestamp: "123".into(),
            upstream_frames: 1,
            arrived_at: Instant::now(),
        }
    }

    #[test]
    fn header_then_ops_in_draw_order() {
        let bytes = encode(&frame(vec![
            DrawOp::Instruction(Instruction::new("size", ["0", "1280", "800"])),
            DrawOp::Image(Image {
                mimetype: "image/png".into(),
                layer: -1,
                x: 3,
                y: 4,
                mask: 14,
                size: None,
                data: Bytes::from_static(b"\x89PNG"),
            }),
        ]));
        assert_eq!(bytes[0], VERSION);
        assert_eq!(u32::from_le_bytes(bytes[2..6].try_into().unwrap()), 7);
        assert_eq!(u32::from_le_bytes(bytes[6..10].try_into().unwrap()), 2);
        assert_eq!(u32::from_le_bytes(bytes[26..30].try_into().unwrap()), 2);
        // size: opcode "size", 3 args
        assert_eq!(bytes[30], OP_INSTRUCTION);
        assert_eq!(&bytes[33..37], b"size");
        assert_eq!(u16::from_le_bytes([bytes[37], bytes[38]]), 3);
        // The image's bytes are the last thing, unchanged (never base64).
        assert!(bytes.ends_with(b"\x89PNG"));
        let image_at = 39 + (4 + 1) + (4 + 4) + (4 + 3);
        assert_eq!(bytes[image_at], OP_IMAGE);
        assert_eq!(
            i32::from_le_bytes(bytes[image_at + 1..image_at + 5].try_into().unwrap()),
            -1
        );
    }

    #[test]
    fn a_picture_goes_as_its_pixels_where_it_was_drawn() {
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(
                &[10, 20, 30, 255, 40, 50, 60, 255],
                2,
                1,
                image::ExtendedColorType::Rgba8,
            )
            .unwrap();
        let bytes = encode(&frame(vec![DrawOp::Image(Image {
            mimetype: "image/png".into(),
            layer: -2,
            x: 5,
            y: 6,
            mask: 12,
            size: Some((2, 1)),
            data: Bytes::from(png),
        })]));
        let op = &bytes[30..];
        assert_eq!(op[0], OP_PIXELS);
        let int = |at: usize| i32::from_le_bytes(op[at..at + 4].try_into().unwrap());
        assert_eq!([int(1), int(5), int(9), int(13)], [-2, 5, 6, 12]);
        assert_eq!([int(17), int(21)], [2, 1], "width, height");
        assert_eq!(op[25], 1, "opaque");
        assert_eq!(
            &op[26..],
            &[10, 20, 30, 40, 50, 60],
            "so RGB, 3 bytes a pixel"
        );
    }

    #[test]
    fn a_header_claiming_a_huge_picture_costs_no_more_than_its_file() {
        // The viewer reads sizes from headers the stream sent; reserving room for what one
        // claims (here 4 × 10^10 bytes) would abort the app.
        let bytes = encode(&frame(vec![DrawOp::Image(Image {
            mimetype: "image/png".into(),
            layer: 0,
            x: 0,
            y: 0,
            mask: 14,
            size: Some((100_000, 100_000)),
            data: Bytes::from_static(b"\x89PNG not really"),
        })]));
        assert_eq!(
            bytes[30], OP_IMAGE,
            "sent as its file, for the page to refuse"
        );
        assert!(bytes.capacity() < 1024);
    }

    fn png_of(width: u32, height: u32) -> Bytes {
        let mut png = Vec::new();
        let rgba = vec![200; (width * height * 4) as usize];
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(&rgba, width, height, image::ExtendedColorType::Rgba8)
            .unwrap();
        Bytes::from(png)
    }

    fn picture(size: (u32, u32), data: Bytes) -> DrawOp {
        DrawOp::Image(Image {
            mimetype: "image/png".into(),
            layer: 0,
            x: 0,
            y: 0,
            mask: 14,
            size: Some(size),
            data,
        })
    }

    /// The op codes of an encoded frame, walking its layout.
    fn op_codes(bytes: &[u8]) -> Vec<u8> {
        let count = u32::from_le_bytes(bytes[26..30].try_into().unwrap());
        let mut at = 30;
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        (0..count)
            .map(|_| {
                let code = bytes[at];
                at += match code {
                    OP_IMAGE => {
                        let mime = u16::from_le_bytes([bytes[at + 17], bytes[at + 18]]) as usize;
                        19 + mime + 4 + u32_at(at + 19 + mime)
                    }
                    OP_PIXELS => {
                        let bpp = if bytes[at + 25] == 1 { 3 } else { 4 };
                        26 + u32_at(at + 17) * u32_at(at + 21) * bpp
                    }
                    _ => panic!("only pictures here"),
                };
                code
            })
            .collect()
    }

    #[test]
    fn a_hundred_pictures_claiming_huge_sizes_reserve_a_bounded_amount() {
        // Headers (the first 24 bytes of a PNG) claiming 65,535 × 65,535 and 8,192 × 8,192
        // pixels: 17 GB and 268 MB each once decoded, 14 GB for the frame.
        let mut ops = Vec::new();
        for (i, side) in [65_535u32, 8192].into_iter().cycle().take(100).enumerate() {
            let mut header = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
            header.extend_from_slice(&side.to_be_bytes());
            header.extend_from_slice(&side.to_be_bytes());
            header.push(i as u8);
            ops.push(picture((side, side), Bytes::from(header)));
        }
        let bytes = encode(&frame(ops));
        assert!(
            bytes.capacity() <= DECODE_BUDGET + 64 * 1024,
            "reserved {} bytes",
            bytes.capacity()
        );
        assert_eq!(
            op_codes(&bytes),
            vec![OP_IMAGE; 100],
            "all sent as their files"
        );
    }

    #[test]
    fn pictures_past_the_decode_budget_go_as_their_files() {
        // Each 16 × 16 picture (not opaque, so RGBA) decodes to 1,024 bytes; the budget holds
        // two of them.
        let ops = (0..4).map(|_| picture((16, 16), png_of(16, 16))).collect();
        let bytes = encode_within(&frame(ops), 2 * 16 * 16 * 4);
        assert_eq!(
            op_codes(&bytes),
            vec![OP_PIXELS, OP_PIXELS, OP_IMAGE, OP_IMAGE]
        );
    }

    #[test]
    fn arrival_is_not_after_sending() {
        let bytes = encode(&frame(vec![]));
        let arrived = f64::from_le_bytes(bytes[10..18].try_into().unwrap());
        let sent = f64::from_le_bytes(bytes[18..26].try_into().unwrap());
        assert!(arrived <= sent && sent > 1.6e12);
    }
}
