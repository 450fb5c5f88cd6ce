//! The stream's images decoded to pixels in the bridge, so the page puts them into the canvas
//! and WebKit never decodes an image file of the stream.
//!
//! Why: WebKitGTK 2.50's web process grew for as long as it decoded the stream's pictures,
//! whichever way it was asked to (a Blob per image + `createImageBitmap`, or a `data:` URL per
//! image element), by 0.26–0.7 MB a second at ~52 fps, while frames acknowledged without
//! decoding their images kept it flat (BENCHMARKS.md, "Live view in the app"). Decoding here
//! costs the bridge a PNG or JPEG decode per image (the `image` crate, the one the simulator
//! encodes with) and the page a `putImageData`; the price is bandwidth on the loopback socket
//! (3 or 4 bytes a pixel instead of the file), which the stream's dirty rectangles keep small.
//!
//! Opaque pictures (every JPEG, and the stream's PNGs) go as RGB, 3 bytes a pixel: WebKit's
//! time to carry a message to the page grows with its size, and a quarter fewer bytes brought
//! the bridge's p50 from ~1.0–1.1 ms to ~0.9 ms (BENCHMARKS.md, "Live view in the app"); the
//! page's loop that puts the alpha back runs after that, and its CPU did not rise.

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use std::io::Cursor;

/// The largest picture decoded here: past it (a hostile or broken stream), the file goes to the
/// page as it is, whose decoder has limits of its own. Larger than any screen.
const MAX_SIDE: u32 = 8192;
const MAX_ALLOC: u64 = 256 * 1024 * 1024;

/// The most bytes [`append_pixels`] would append for a picture of this size, or `None` past
/// what it decodes. From a header the stream sent, which may claim anything.
pub fn max_pixels_len((width, height): (u32, u32)) -> Option<usize> {
    (width <= MAX_SIDE && height <= MAX_SIDE).then(|| width as usize * height as usize * 4)
}

/// What [`append_pixels`] appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    /// Every pixel has full alpha: the pixels went as RGB, and putting them equals drawing them
    /// "over".
    pub opaque: bool,
}

/// Decodes a PNG or JPEG and appends its pixels to `out`, rows top to bottom: RGB when every
/// alpha is full, else RGBA with straight alpha (as `ImageData` holds them). `None`, with
/// nothing appended, for any other type, a file that does not decode, or one whose decoded
/// pixels would take more than `budget` bytes: the caller sends that file as it is.
pub fn append_pixels(
    mimetype: &str,
    data: &[u8],
    budget: usize,
    out: &mut Vec<u8>,
) -> Option<Pixels> {
    let format = match mimetype {
        "image/png" => ImageFormat::Png,
        "image/jpeg" => ImageFormat::Jpeg,
        _ => return None,
    };
    let mut reader = ImageReader::with_format(Cursor::new(data), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    // The decoder has read the header's size: a picture over budget costs nothing more. At
    // most 4 bytes a pixel are appended, whatever the file's own depth.
    let decoder = reader.into_decoder().ok()?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) * 4 > budget as u64 {
        return None;
    }
    let picture = DynamicImage::from_decoder(decoder).ok()?;
    let opaque = match picture {
        DynamicImage::ImageRgb8(rgb) => {
            out.extend_from_slice(rgb.as_raw());
            true
        }
        DynamicImage::ImageRgba8(rgba) => append_dropping_full_alpha(rgba.as_raw(), out),
        other if !other.color().has_alpha() => {
            out.extend_from_slice(other.into_rgb8().as_raw());
            true
        }
        other => append_dropping_full_alpha(other.into_rgba8().as_raw(), out),
    };
    Some(Pixels {
        width,
        height,
        opaque,
    })
}

/// Appends RGBA pixels as RGB when every alpha is full (`true`), else as they are.
fn append_dropping_full_alpha(rgba: &[u8], out: &mut Vec<u8>) -> bool {
    if !rgba.chunks_exact(4).all(|p| p[3] == u8::MAX) {
        out.extend_from_slice(rgba);
        return false;
    }
    out.reserve(rgba.len() / 4 * 3);
    for pixel in rgba.chunks_exact(4) {
        out.extend_from_slice(&pixel[..3]);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::codecs::jpeg::JpegEncoder;
    use image::codecs::png::PngEncoder;
    use image::{ExtendedColorType, ImageEncoder};

    fn png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        PngEncoder::new(&mut out)
            .write_image(rgba, width, height, ExtendedColorType::Rgba8)
            .unwrap();
        out
    }

    #[test]
    fn a_png_becomes_its_exact_pixels_after_what_was_there() {
        let rgba: Vec<u8> = (0..3 * 2 * 4).map(|i| (i * 11) as u8 | 1).collect();
        let mut pixels_opaque = rgba.clone();
        pixels_opaque
            .chunks_exact_mut(4)
            .for_each(|p| p[3] = u8::MAX);
        let mut out = vec![9, 9];
        let got = append_pixels(
            "image/png",
            &png(3, 2, &pixels_opaque),
            usize::MAX,
            &mut out,
        )
        .unwrap();
        assert_eq!(
            got,
            Pixels {
                width: 3,
                height: 2,
                opaque: true
            }
        );
        assert_eq!(&out[..2], &[9, 9], "appended, never overwriting");
        let rgb: Vec<u8> = pixels_opaque
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        assert_eq!(&out[2..], &rgb[..], "opaque pixels go as RGB");

        let mut out = Vec::new();
        let got = append_pixels("image/png", &png(3, 2, &rgba), usize::MAX, &mut out).unwrap();
        assert!(!got.opaque, "a pixel with alpha below full says so");
        assert_eq!(out, rgba, "and the pixels keep their alpha");
    }

    #[test]
    fn a_jpeg_becomes_opaque_rgb_of_its_size() {
        let rgb: Vec<u8> = (0..16 * 8).flat_map(|_| [200u8, 40, 90]).collect();
        let mut jpeg = Vec::new();
        JpegEncoder::new_with_quality(&mut jpeg, 95)
            .write_image(&rgb, 16, 8, ExtendedColorType::Rgb8)
            .unwrap();
        let mut out = Vec::new();
        let got = append_pixels("image/jpeg", &jpeg, usize::MAX, &mut out).unwrap();
        assert_eq!((got.width, got.height, got.opaque), (16, 8, true));
        assert_eq!(out.len(), 16 * 8 * 3);
        // Lossy, so near the colour.
        assert!(out
            .chunks_exact(3)
            .all(|p| p[0].abs_diff(200) < 8 && p[1].abs_diff(40) < 8 && p[2].abs_diff(90) < 8));
    }

    #[test]
    fn anything_else_is_left_to_the_page_and_appends_nothing() {
        let mut out = vec![1];
        assert_eq!(
            append_pixels("image/webp", b"RIFF....WEBP", usize::MAX, &mut out),
            None
        );
        assert_eq!(
            append_pixels("image/png", b"\x89PNG broken", usize::MAX, &mut out),
            None
        );
        assert_eq!(
            append_pixels("image/jpeg", &[0xFF, 0xD8, 0xFF], usize::MAX, &mut out),
            None
        );
        // A header claiming a picture past the limit is not decoded here.
        let mut huge = png(1, 1, &[0, 0, 0, 255]);
        huge[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        assert_eq!(
            append_pixels("image/png", &huge, usize::MAX, &mut out),
            None
        );
        // And one that would decode to more than the budget is not decoded either.
        let small = png(4, 4, &[7; 4 * 4 * 4]);
        assert_eq!(
            append_pixels("image/png", &small, 4 * 4 * 4 - 1, &mut out),
            None
        );
        assert_eq!(out, vec![1]);
        assert!(append_pixels("image/png", &small, 4 * 4 * 4, &mut out).is_some());
    }
}
