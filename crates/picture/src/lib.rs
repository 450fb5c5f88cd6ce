//! The film's pictures of a screen: made smaller, then written as JPEG.
//!
//! A crate of its own for speed, not for sharing: the JPEG encoder is generic code, compiled in
//! the crate that calls it, and the downscaling is a loop over every pixel of the screen. Here
//! both profiles build them at opt-level 3 (the workspace's Cargo.toml), as they build `image`
//! itself, while `porthole-core` stays at the dev profile's 0 (fast builds) and the release
//! profile's "z" (a small app). In a debug build a picture of a 1280×800 screen took ~350 ms
//! in `porthole-core` and takes a few ms here (BENCHMARKS.md, "Recording and the live view").

use image::codecs::jpeg::JpegEncoder;
use image::{ExtendedColorType, ImageEncoder};

/// `rgb` (RGB, 3 bytes a pixel, rows top to bottom) made `max_width` wide, its height in
/// proportion (at least 1): each pixel the average of the screen's pixels under it (a box
/// filter, as a thumbnail wants: every pixel counts, nothing shimmers). `None` when `rgb` is
/// not `width`×`height`, when the picture is not wider than `max_width` (nothing to do), or
/// when each pixel would stand for 2^15 of the screen's or more (`max_width` far too small).
///
/// Hand-written rather than `image::imageops`: that needs the pixels as an image it owns (a
/// copy of the whole screen), and this reads the screen's buffer where it is, so its caller
/// can hold the screen's lock for this and nothing more.
pub fn downscale(rgb: &[u8], width: u32, height: u32, max_width: u32) -> Option<Scaled> {
    if width <= max_width || max_width == 0 || rgb.len() != len(width, height)? {
        return None;
    }
    let out_w = max_width;
    let out_h = (u64::from(height) * u64::from(max_width) / u64::from(width)).max(1) as u32;
    let (w, h, ow, oh) = (
        width as usize,
        height as usize,
        out_w as usize,
        out_h as usize,
    );
    // The picture's column each of the screen's columns falls in (as many as it takes, at
    // least one: the screen is wider), and how many fall in each.
    let column_of: Vec<usize> = (0..w).map(|x| x * ow / w).collect();
    let mut wide = vec![0u32; ow];
    for &column in &column_of {
        wide[column] += 1;
    }
    // Sums divided by a multiplication (three divisions a pixel cost more than the sums): the
    // reciprocal of each count a pixel can have, in 40 bits, which rounds as the division
    // would for counts under 2^15 (a picture 64 or more wide of any screen up to 8192).
    let most = (w.div_ceil(ow) * h.div_ceil(oh)) as u64;
    if most >= 1 << 15 {
        return None;
    }
    let reciprocal: Vec<u64> = (0..=most)
        .map(|count| (1u64 << 40).div_ceil(count.max(1)))
        .collect();
    let mut out = Vec::with_capacity(ow * oh * 3);
    let mut sums = vec![0u32; ow * 3];
    let mut rows = rgb.chunks_exact(w * 3).enumerate().peekable();
    for picture_row in 0..oh {
        sums.fill(0);
        let mut tall = 0;
        while let Some((_, row)) = rows.next_if(|(y, _)| y * oh / h == picture_row) {
            tall += 1;
            for (pixel, &column) in row.chunks_exact(3).zip(&column_of) {
                let sum = &mut sums[column * 3..column * 3 + 3];
                sum[0] += u32::from(pixel[0]);
                sum[1] += u32::from(pixel[1]);
                sum[2] += u32::from(pixel[2]);
            }
        }
        for (sum, &wide) in sums.chunks_exact(3).zip(&wide) {
            let count = u64::from(tall * wide);
            let by = reciprocal[count as usize];
            out.extend(
                sum.iter()
                    .map(|&s| (((u64::from(s) * 2 + count) * by) >> 41) as u8),
            );
        }
    }
    Some(Scaled {
        width: out_w,
        height: out_h,
        rgb: out,
    })
}

/// A picture [`downscale`] made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scaled {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

/// `rgb` (`width`×`height`, RGB) as a JPEG of this `quality` (1–100); `None` when the pixels
/// are not that size or the encoder refuses them.
pub fn jpeg(rgb: &[u8], width: u32, height: u32, quality: u8) -> Option<Vec<u8>> {
    if width == 0 || height == 0 || rgb.len() != len(width, height)? {
        return None;
    }
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, quality)
        .write_image(rgb, width, height, ExtendedColorType::Rgb8)
        .ok()?;
    Some(out)
}

fn len(width: u32, height: u32) -> Option<usize> {
    (width as usize)
        .checked_mul(height as usize)?
        .checked_mul(3)
}
