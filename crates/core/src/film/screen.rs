//! The live stream's drawing put together into one picture of the screen, for the film.
//!
//! Hand-written rather than a Guacamole display library: no Rust one exists, and the film
//! needs only the visible layer (0) of what the services send: its size, the pictures drawn on
//! it (already decoded by the live view, so nothing is decoded twice) and copies within it
//! (scrolling). Off-screen layers, the cursor and drawn paths (`rect`/`cfill`) are left out:
//! the next picture over them puts the screen right again.

/// The largest screen put together (a side), as the live view's decoder allows.
const MAX_SIDE: u32 = 8192;

/// One drawing step on the stream, as the live view decoded it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint<'a> {
    /// A layer's new size (`size`).
    Size { layer: i32, width: u32, height: u32 },
    /// Decoded pixels drawn at `(x, y)`: RGB (3 bytes a pixel) when `opaque`, else RGBA with
    /// straight alpha, drawn over (`over`) or in place of (`!over`) what is there.
    Pixels {
        layer: i32,
        x: i32,
        y: i32,
        width: u32,
        height: u32,
        opaque: bool,
        over: bool,
        data: &'a [u8],
    },
    /// A rectangle copied from one layer to another (`copy`).
    Copy {
        from: i32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        to: i32,
        to_x: i32,
        to_y: i32,
    },
}

/// The visible layer, RGB.
#[derive(Debug, Default)]
pub struct Screen {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
    /// Something was drawn since the last size: a picture of it shows the screen.
    drawn: bool,
}

impl Screen {
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The picture so far (width, height, RGB), `None` before anything was drawn.
    pub fn picture(&self) -> Option<(u32, u32, Vec<u8>)> {
        (self.drawn && !self.rgb.is_empty()).then(|| (self.width, self.height, self.rgb.clone()))
    }

    /// The picture so far made at most `max_width` wide (width, height, RGB), read straight
    /// from the screen: no copy of the whole screen, so whoever holds the screen's lock for
    /// this holds it briefly (a few ms for 1280×800 in any build, `porthole_picture`).
    pub fn small_picture(&self, max_width: u32) -> Option<(u32, u32, Vec<u8>)> {
        if !self.drawn || self.rgb.is_empty() {
            return None;
        }
        match porthole_picture::downscale(&self.rgb, self.width, self.height, max_width) {
            Some(small) => Some((small.width, small.height, small.rgb)),
            None => self.picture(),
        }
    }

    /// A new connection: the stream starts its display afresh.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    pub fn paint(&mut self, op: Paint<'_>) {
        match op {
            Paint::Size {
                layer: 0,
                width,
                height,
            } => self.resize(width, height),
            Paint::Pixels {
                layer: 0,
                x,
                y,
                width,
                height,
                opaque,
                over,
                data,
            } => self.put(x, y, width, height, opaque, over, data),
            Paint::Copy {
                from: 0,
                to: 0,
                x,
                y,
                width,
                height,
                to_x,
                to_y,
            } => self.copy(x, y, width, height, to_x, to_y),
            _ => {}
        }
    }

    fn resize(&mut self, width: u32, height: u32) {
        if width > MAX_SIDE || height > MAX_SIDE || (width, height) == (self.width, self.height) {
            return;
        }
        // As a browser's canvas: a new size keeps what fits of the old picture.
        let mut rgb = vec![0; width as usize * height as usize * 3];
        let keep_w = width.min(self.width) as usize * 3;
        for row in 0..height.min(self.height) as usize {
            let old = row * self.width as usize * 3;
            let new = row * width as usize * 3;
            rgb[new..new + keep_w].copy_from_slice(&self.rgb[old..old + keep_w]);
        }
        self.width = width;
        self.height = height;
        self.rgb = rgb;
    }

    /// The part of a `w`×`h` rectangle at `(x, y)` on the screen: its first column and row in
    /// the rectangle, where they land, and how many of each.
    fn clip(
        &self,
        x: i32,
        y: i32,
        w: u32,
        h: u32,
    ) -> Option<(usize, usize, usize, usize, usize, usize)> {
        let (x, y, w, h) = (i64::from(x), i64::from(y), i64::from(w), i64::from(h));
        let left = x.max(0);
        let top = y.max(0);
        let right = (x + w).min(i64::from(self.width));
        let bottom = (y + h).min(i64::from(self.height));
        (right > left && bottom > top).then(|| {
            (
                (left - x) as usize,
                (top - y) as usize,
                left as usize,
                top as usize,
                (right - left) as usize,
                (bottom - top) as usize,
            )
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn put(&mut self, x: i32, y: i32, w: u32, h: u32, opaque: bool, over: bool, data: &[u8]) {
        let bpp = if opaque { 3 } else { 4 };
        if data.len() < w as usize * h as usize * bpp {
            return;
        }
        let Some((sx, sy, dx, dy, cw, ch)) = self.clip(x, y, w, h) else {
            return;
        };
        self.drawn = true;
        let stride = self.width as usize * 3;
        for row in 0..ch {
            let src = ((sy + row) * w as usize + sx) * bpp;
            let dst = (dy + row) * stride + dx * 3;
            let src = &data[src..src + cw * bpp];
            let dst = &mut self.rgb[dst..dst + cw * 3];
            if opaque {
                dst.copy_from_slice(src);
                continue;
            }
            for (d, s) in dst.chunks_exact_mut(3).zip(src.chunks_exact(4)) {
                if !over || s[3] == u8::MAX {
                    d.copy_from_slice(&s[..3]);
                } else {
                    let a = u16::from(s[3]);
                    for c in 0..3 {
                        d[c] =
                            ((u16::from(s[c]) * a + u16::from(d[c]) * (255 - a) + 127) / 255) as u8;
                    }
                }
            }
        }
    }

    fn copy(&mut self, x: i32, y: i32, w: i32, h: i32, to_x: i32, to_y: i32) {
        if w <= 0 || h <= 0 {
            return;
        }
        // Clip the source, then the destination, moving both together.
        let Some((ox, oy, sx, sy, cw, ch)) = self.clip(x, y, w as u32, h as u32) else {
            return;
        };
        let to_x = i64::from(to_x) + ox as i64;
        let to_y = i64::from(to_y) + oy as i64;
        let Some((ox2, oy2, dx, dy, cw, ch)) =
            self.clip(to_x as i32, to_y as i32, cw as u32, ch as u32)
        else {
            return;
        };
        let (sx, sy) = (sx + ox2, sy + oy2);
        self.drawn = true;
        let stride = self.width as usize * 3;
        // Rows in the order that does not read a row already overwritten.
        let rows: Box<dyn Iterator<Item = usize>> = if dy > sy {
            Box::new((0..ch).rev())
        } else {
            Box::new(0..ch)
        };
        for row in rows {
            let src = (sy + row) * stride + sx * 3;
            let dst = (dy + row) * stride + dx * 3;
            self.rgb.copy_within(src..src + cw * 3, dst);
        }
    }
}
