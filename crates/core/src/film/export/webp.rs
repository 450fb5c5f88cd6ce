//! The animated WebP container, written by hand around `image-webp`'s lossless pictures.
//!
//! Why by hand: `image-webp` (the `image` crate's own WebP codec, pure Rust) encodes one still
//! picture and no animation, and no well-kept pure-Rust crate writes an animated WebP (those
//! that do wrap the C libwebp). The container is a few fixed chunks (the WebP container
//! specification, "Extended File Format" and "Animation"), each `fourcc, u32 size (LE),
//! payload, a zero byte when the size is odd`:
//!
//! ```text
//! RIFF <size> WEBP
//!   VP8X  flags (u8: 0x02 animation), 3 reserved bytes, canvas width - 1 (u24), height - 1 (u24)
//!   ANIM  background colour (BGRA u32), loop count (u16, 0 = for ever)
//!   ANMF  x / 2 (u24), y / 2 (u24), width - 1 (u24), height - 1 (u24), duration ms (u24),
//!         flags (u8: 0x02 do not blend, 0x01 dispose to background), then the frame's
//!         VP8L chunk                                                   (one ANMF per frame)
//! ```
//!
//! Each frame after the first is only the rectangle that changed (its corner on even pixels,
//! as the format asks), drawn over the one before without blending: a task's screen changes
//! in places, so the file stays small enough to send in a chat. A frame that changes nothing
//! lengthens the one before instead.

use std::io;

use image_webp::{ColorType, WebPEncoder};

/// The longest a frame may show (24 bits of milliseconds).
const MAX_DURATION_MS: u32 = (1 << 24) - 1;

/// An animation being written, one picture at a time, all of one size.
pub struct AnimatedWebp {
    width: u32,
    height: u32,
    /// The ANMF chunks so far, without the last one.
    frames: Vec<u8>,
    /// The last frame, kept back in case the next changes nothing and lengthens it.
    pending: Option<Pending>,
    /// The canvas as the last frame left it.
    canvas: Vec<u8>,
    count: u32,
}

struct Pending {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    duration_ms: u32,
    vp8l: Vec<u8>,
}

impl AnimatedWebp {
    pub fn new(width: u32, height: u32) -> io::Result<Self> {
        if width == 0 || height == 0 || width > 16_383 || height > 16_383 {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "picture size"));
        }
        Ok(Self {
            width,
            height,
            frames: Vec::new(),
            pending: None,
            canvas: Vec::new(),
            count: 0,
        })
    }

    /// Frames in the file (pictures that changed nothing are not counted).
    pub fn frames(&self) -> u32 {
        self.count
    }

    /// The next picture (RGB, the animation's size), shown for `duration_ms`.
    pub fn push(&mut self, rgb: &[u8], duration_ms: u32) -> io::Result<()> {
        let row = self.width as usize * 3;
        if rgb.len() != row * self.height as usize {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "picture size"));
        }
        let duration_ms = duration_ms.clamp(1, MAX_DURATION_MS);
        let changed = if self.canvas.is_empty() {
            Some((0, 0, self.width, self.height))
        } else {
            changed_rect(&self.canvas, rgb, self.width, self.height)
        };
        let Some((x, y, width, height)) = changed else {
            if let Some(p) = &mut self.pending {
                p.duration_ms = (p.duration_ms + duration_ms).min(MAX_DURATION_MS);
            }
            return Ok(());
        };
        let mut part = Vec::with_capacity(width as usize * height as usize * 3);
        for r in y..y + height {
            let start = r as usize * row + x as usize * 3;
            part.extend_from_slice(&rgb[start..start + width as usize * 3]);
        }
        let mut still = Vec::new();
        WebPEncoder::new(&mut still)
            .encode(&part, width, height, ColorType::Rgb8)
            .map_err(io::Error::other)?;
        let vp8l = vp8l_of(&still)?;
        self.flush();
        self.pending = Some(Pending {
            x,
            y,
            width,
            height,
            duration_ms,
            vp8l,
        });
        self.canvas.clear();
        self.canvas.extend_from_slice(rgb);
        self.count += 1;
        Ok(())
    }

    /// The whole file; `None` without a frame.
    pub fn finish(mut self) -> io::Result<Option<Vec<u8>>> {
        if self.count == 0 {
            return Ok(None);
        }
        self.flush();
        let mut vp8x = vec![0x02, 0, 0, 0];
        vp8x.extend_from_slice(&u24(self.width - 1));
        vp8x.extend_from_slice(&u24(self.height - 1));
        let mut anim = vec![0, 0, 0, 0xff];
        anim.extend_from_slice(&0u16.to_le_bytes());
        let mut body = b"WEBP".to_vec();
        chunk(&mut body, b"VP8X", &vp8x);
        chunk(&mut body, b"ANIM", &anim);
        body.extend_from_slice(&self.frames);
        let size = u32::try_from(body.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "too long a film"))?;
        let mut file = Vec::with_capacity(body.len() + 8);
        file.extend_from_slice(b"RIFF");
        file.extend_from_slice(&size.to_le_bytes());
        file.extend_from_slice(&body);
        Ok(Some(file))
    }

    fn flush(&mut self) {
        let Some(p) = self.pending.take() else {
            return;
        };
        let mut anmf = Vec::with_capacity(p.vp8l.len() + 32);
        anmf.extend_from_slice(&u24(p.x / 2));
        anmf.extend_from_slice(&u24(p.y / 2));
        anmf.extend_from_slice(&u24(p.width - 1));
        anmf.extend_from_slice(&u24(p.height - 1));
        anmf.extend_from_slice(&u24(p.duration_ms));
        // Do not blend (the rectangle replaces what was there), do not dispose.
        anmf.push(0x02);
        chunk(&mut anmf, b"VP8L", &p.vp8l);
        chunk(&mut self.frames, b"ANMF", &anmf);
    }
}

fn u24(v: u32) -> [u8; 3] {
    let [a, b, c, _] = v.to_le_bytes();
    [a, b, c]
}

fn chunk(out: &mut Vec<u8>, fourcc: &[u8; 4], payload: &[u8]) {
    out.extend_from_slice(fourcc);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    if payload.len() % 2 == 1 {
        out.push(0);
    }
}

/// The VP8L bitstream of a still WebP as `image-webp` writes one without metadata:
/// `RIFF <size> WEBP VP8L <size> <bitstream>`.
fn vp8l_of(still: &[u8]) -> io::Result<Vec<u8>> {
    let bad = || io::Error::new(io::ErrorKind::InvalidData, "not a lossless still WebP");
    if still.len() < 20 || &still[..4] != b"RIFF" || &still[8..12] != b"WEBP" {
        return Err(bad());
    }
    if &still[12..16] != b"VP8L" {
        return Err(bad());
    }
    let size = u32::from_le_bytes(still[16..20].try_into().map_err(|_| bad())?) as usize;
    still.get(20..20 + size).map(<[u8]>::to_vec).ok_or_else(bad)
}

/// The smallest rectangle holding every pixel that differs, its corner moved to even pixels;
/// `None` when the pictures are the same.
fn changed_rect(old: &[u8], new: &[u8], width: u32, height: u32) -> Option<(u32, u32, u32, u32)> {
    let row = width as usize * 3;
    let rows = |r: u32| {
        let at = r as usize * row;
        (&old[at..at + row], &new[at..at + row])
    };
    let top = (0..height).find(|&r| rows(r).0 != rows(r).1)?;
    let bottom = (top..height).rev().find(|&r| rows(r).0 != rows(r).1)?;
    let (mut left, mut right) = (width, 0);
    for r in top..=bottom {
        let (a, b) = rows(r);
        if let Some(first) =
            (0..width as usize).find(|&c| a[c * 3..c * 3 + 3] != b[c * 3..c * 3 + 3])
        {
            left = left.min(first as u32);
            let last = (first..width as usize)
                .rev()
                .find(|&c| a[c * 3..c * 3 + 3] != b[c * 3..c * 3 + 3])
                .unwrap_or(first);
            right = right.max(last as u32);
        }
    }
    let (x, y) = (left & !1, top & !1);
    Some((x, y, right + 1 - x, bottom + 1 - y))
}
