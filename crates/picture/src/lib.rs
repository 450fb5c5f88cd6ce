//! The film's pictures of a screen: made smaller, then written as JPEG.
//!
//! A crate of its own for speed, not for sharing: the JPEG encoder is generic code, compiled in
//! the crate that calls it, and the downscaling is a loop over every pixel of the screen. Here
//! both profiles build them at opt-level 3 (the workspace's Cargo.toml), as they build `image`
//! itself, while `porthole-core` stays at the dev profile's 0 (fast builds) and the release
//! profile's "z" (a small app). In a debug build a picture of a 1280×800 screen took ~350 ms
//! in `porthole-core` and takes a few ms here (BENCHMARKS.md, "Recording and the live view").

use jpeg_encoder::{ColorType, Encoder, SamplingFactor};

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
    let rgb = if w == ow * 2 && h == oh * 2 {
        halved(rgb, w, h)
    } else {
        boxed(rgb, w, h, ow, oh)?
    };
    Some(Scaled {
        width: out_w,
        height: out_h,
        rgb,
    })
}

/// The general box filter: `rgb` (`w`×`h`) made `ow`×`oh`; `None` when a pixel would stand
/// for 2^15 of the screen's or more.
fn boxed(rgb: &[u8], w: usize, h: usize, ow: usize, oh: usize) -> Option<Vec<u8>> {
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
    Some(out)
}

/// The common case made quick: a screen exactly twice the picture's size each way (1280×800
/// to the film's 640×400), each pixel the average of a 2×2 block, rounded as [`downscale`]
/// rounds. A quarter of the general loop's time: no column lookup, no division, and rows
/// read in pairs (BENCHMARKS.md, "Recording and the live view").
fn halved(rgb: &[u8], w: usize, h: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(w / 2 * (h / 2) * 3);
    for pair in rgb.chunks_exact(w * 3 * 2).take(h / 2) {
        let (top, bottom) = pair.split_at(w * 3);
        for (a, b) in top.chunks_exact(6).zip(bottom.chunks_exact(6)) {
            for c in 0..3 {
                let sum =
                    u16::from(a[c]) + u16::from(a[c + 3]) + u16::from(b[c]) + u16::from(b[c + 3]);
                out.push(((sum + 2) / 4) as u8);
            }
        }
    }
    out
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
///
/// `jpeg-encoder` rather than the `image` crate's encoder (which the app still has for
/// decoding): about a third faster for the film's 640×400 pictures (~5 ms against ~7.5 ms).
/// Colour at full resolution (4:4:4), as the image crate wrote it: with colour at half
/// resolution (4:2:0, another 40 % faster) a decoder's smoothing of the colour carries a tint
/// of the pixels along a hidden part's edge into those just outside it, and a film's redaction
/// promises that what was hidden changes no pixel of what leaves (the captions' and redaction
/// tests read that back); screen text keeps its coloured edges sharp too.
pub fn jpeg(rgb: &[u8], width: u32, height: u32, quality: u8) -> Option<Vec<u8>> {
    if width == 0 || height == 0 || rgb.len() != len(width, height)? {
        return None;
    }
    let (width, height) = (u16::try_from(width).ok()?, u16::try_from(height).ok()?);
    let mut out = Vec::new();
    let mut encoder = Encoder::new(&mut out, quality.clamp(1, 100));
    encoder.set_sampling_factor(SamplingFactor::R_4_4_4);
    encoder.encode(rgb, width, height, ColorType::Rgb).ok()?;
    Some(out)
}

fn len(width: u32, height: u32) -> Option<usize> {
    (width as usize)
        .checked_mul(height as usize)?
        .checked_mul(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A screen of noise, the same every run.
    fn noise(width: u32, height: u32) -> Vec<u8> {
        let mut seed = 0x2545_f491_u32;
        (0..len(width, height).unwrap())
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                (seed >> 24) as u8
            })
            .collect()
    }

    #[test]
    fn halving_is_the_box_filter_made_quick() {
        let screen = noise(1280, 800);
        let quick = downscale(&screen, 1280, 800, 640).unwrap();
        assert_eq!((quick.width, quick.height), (640, 400));
        assert_eq!(Some(quick.rgb), boxed(&screen, 1280, 800, 640, 400));
        // Each pixel the rounded average of its 2×2 block.
        let at = |x: usize, y: usize, c: usize| u32::from(screen[(y * 1280 + x) * 3 + c]);
        let (x, y) = (17, 3);
        let average = (at(34, 6, 1) + at(35, 6, 1) + at(34, 7, 1) + at(35, 7, 1) + 2) / 4;
        let small = downscale(&screen, 1280, 800, 640).unwrap();
        assert_eq!(u32::from(small.rgb[(y * 640 + x) * 3 + 1]), average);
        // Not twice the size: the general loop.
        assert_eq!(downscale(&screen, 1280, 800, 639).unwrap().width, 639);
    }

    #[test]
    fn a_jpeg_of_the_picture_decodes_to_it() {
        let flat: Vec<u8> = [40u8, 120, 200].repeat(64 * 40);
        let bytes = jpeg(&flat, 64, 40, 70).unwrap();
        let back = image::load_from_memory(&bytes).unwrap().to_rgb8();
        assert_eq!(back.dimensions(), (64, 40));
        assert!(back.pixels().all(|p| p
            .0
            .iter()
            .zip([40u8, 120, 200])
            .all(|(a, b)| a.abs_diff(b) <= 4)));
        assert_eq!(jpeg(&flat, 64, 41, 70), None, "not that size");
        assert_eq!(jpeg(&[], 0, 0, 70), None);
    }
}
