//! Turning rendered pixels into image files: whole-screen JPEGs (screenshots, the live
//! stream's first frame), PNGs of regions (the live stream's dirty rectangles) and the
//! tile diff that finds those regions between two frames.

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder};
use jpeg_encoder::{ColorType, Encoder};
use tiny_skia::Pixmap;

use super::scene::Rect;

/// Side of the square tiles compared when looking for changes.
const TILE: i32 = 32;
/// Past this many rectangles one bounding box is cheaper to send than many small images.
const MAX_RECTS: usize = 48;

/// RGBA bytes of a region, copied row by row (the pixmap is opaque, so premultiplied
/// equals straight colour). Whole rows are `memcpy`s, which stay fast even in debug builds.
fn rgba_region(pm: &Pixmap, r: Rect) -> Vec<u8> {
    let pw = pm.width() as usize;
    let data = pm.data();
    let mut out = Vec::with_capacity((r.w * r.h * 4) as usize);
    for y in r.y..r.y + r.h {
        let start = (y as usize * pw + r.x as usize) * 4;
        out.extend_from_slice(&data[start..start + r.w as usize * 4]);
    }
    out
}

fn whole(pm: &Pixmap) -> Rect {
    Rect {
        x: 0,
        y: 0,
        w: pm.width() as i32,
        h: pm.height() as i32,
    }
}

/// The whole pixmap as a JPEG of the given quality (1–100). The encoder reads the RGBA
/// pixels in place and drops the alpha channel; `jpeg-encoder`, as the app's film does, for
/// its speed (about two and a half times the image crate's, with its colour at half
/// resolution, 4:2:0, as cameras and most services write JPEGs).
pub fn jpeg(pm: &Pixmap, quality: u8) -> Vec<u8> {
    let mut out = Vec::new();
    let (Ok(width), Ok(height)) = (u16::try_from(pm.width()), u16::try_from(pm.height())) else {
        return out;
    };
    let encoded = Encoder::new(&mut out, quality.clamp(1, 100)).encode(
        pm.data(),
        width,
        height,
        ColorType::Rgba,
    );
    if encoded.is_err() {
        out.clear();
    }
    out
}

/// One region of the pixmap as a PNG (the whole of it when `region` is `None`).
pub fn png(pm: &Pixmap, region: Option<Rect>) -> Vec<u8> {
    let r = region.unwrap_or_else(|| whole(pm));
    let rgba = rgba_region(pm, r);
    let mut out = Vec::new();
    let enc = PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Sub);
    if enc
        .write_image(&rgba, r.w as u32, r.h as u32, ExtendedColorType::Rgba8)
        .is_err()
    {
        out.clear();
    }
    out
}

/// Regions where `next` differs from `prev`, as tile-aligned rectangles clipped to the
/// screen, merged along rows and then down columns. Same-size pixmaps only; a size change
/// yields the whole screen.
pub fn dirty_rects(prev: &Pixmap, next: &Pixmap) -> Vec<Rect> {
    if prev.width() != next.width() || prev.height() != next.height() {
        return vec![whole(next)];
    }
    let (w, h) = (next.width() as i32, next.height() as i32);
    let (cols, rows) = ((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
    let (a, b) = (prev.data(), next.data());
    let mut runs: Vec<Rect> = Vec::new();
    for ty in 0..rows {
        let y0 = ty * TILE;
        let th = TILE.min(h - y0);
        let mut run: Option<Rect> = None;
        for tx in 0..cols {
            let x0 = tx * TILE;
            let tw = TILE.min(w - x0);
            let changed = (y0..y0 + th).any(|y| {
                let s = ((y * w + x0) * 4) as usize;
                let e = s + tw as usize * 4;
                a[s..e] != b[s..e]
            });
            match (&mut run, changed) {
                (Some(r), true) => r.w += tw,
                (None, true) => {
                    run = Some(Rect {
                        x: x0,
                        y: y0,
                        w: tw,
                        h: th,
                    })
                }
                (Some(_), false) => runs.extend(run.take()),
                (None, false) => {}
            }
        }
        runs.extend(run);
    }
    let mut merged: Vec<Rect> = Vec::new();
    for r in runs {
        if let Some(m) = merged
            .iter_mut()
            .find(|m| m.x == r.x && m.w == r.w && m.y + m.h == r.y)
        {
            m.h += r.h;
        } else {
            merged.push(r);
        }
    }
    if merged.len() > MAX_RECTS {
        return vec![bounding(&merged)];
    }
    merged
}

fn bounding(rects: &[Rect]) -> Rect {
    let x0 = rects.iter().map(|r| r.x).min().unwrap_or(0);
    let y0 = rects.iter().map(|r| r.y).min().unwrap_or(0);
    let x1 = rects.iter().map(|r| r.x + r.w).max().unwrap_or(0);
    let y1 = rects.iter().map(|r| r.y + r.h).max().unwrap_or(0);
    Rect {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_changed_pixel_dirties_one_tile() {
        let a = Pixmap::new(100, 70).unwrap_or_else(|| unreachable!());
        let mut b = a.clone();
        b.data_mut()[((40 * 100 + 70) * 4) as usize] = 9;
        assert_eq!(
            dirty_rects(&a, &b),
            vec![Rect {
                x: 64,
                y: 32,
                w: 32,
                h: 32
            }]
        );
        assert!(dirty_rects(&a, &a).is_empty());
    }

    #[test]
    fn edge_tiles_are_clipped_and_columns_merge() {
        let a = Pixmap::new(100, 70).unwrap_or_else(|| unreachable!());
        let mut b = a.clone();
        for y in [5, 40, 69] {
            b.data_mut()[((y * 100 + 99) * 4) as usize] = 9;
        }
        assert_eq!(
            dirty_rects(&a, &b),
            vec![Rect {
                x: 96,
                y: 0,
                w: 4,
                h: 70
            }]
        );
    }
}
