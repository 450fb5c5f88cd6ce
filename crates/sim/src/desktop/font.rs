//! Text for the synthetic desktop: the bundled DejaVu fonts (no system font is read at run
//! time), a process-wide glyph cache, measuring, wrapping and drawing onto a pixmap.
//!
//! Glyphs are rasterised once per (font, character, size) and kept for the life of the
//! process: the desktop uses a handful of sizes, so the cache stays small while the live
//! stream re-renders many times a second.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use fontdue::{Font, FontSettings, Metrics};
use tiny_skia::Pixmap;

/// Which bundled face to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Face {
    Sans,
    SansBold,
    Mono,
}

struct Fonts {
    sans: Option<Font>,
    bold: Option<Font>,
    mono: Option<Font>,
}

static FONTS: LazyLock<Fonts> = LazyLock::new(|| {
    let load = |bytes: &'static [u8]| Font::from_bytes(bytes, FontSettings::default()).ok();
    Fonts {
        sans: load(dejavu::sans::regular()),
        bold: load(dejavu::sans::bold()),
        mono: load(dejavu::sans_mono::regular()),
    }
});

type GlyphKey = (Face, char, u16);

struct Glyph {
    metrics: Metrics,
    coverage: Vec<u8>,
}

static GLYPHS: LazyLock<Mutex<HashMap<GlyphKey, Arc<Glyph>>>> = LazyLock::new(Mutex::default);

fn font(face: Face) -> Option<&'static Font> {
    let fonts = &*FONTS;
    match face {
        Face::Sans => fonts.sans.as_ref(),
        Face::SansBold => fonts.bold.as_ref().or(fonts.sans.as_ref()),
        Face::Mono => fonts.mono.as_ref().or(fonts.sans.as_ref()),
    }
}

fn glyph(face: Face, c: char, px: u16) -> Option<Arc<Glyph>> {
    let key = (face, c, px);
    let mut cache = GLYPHS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(g) = cache.get(&key) {
        return Some(g.clone());
    }
    let (metrics, coverage) = font(face)?.rasterize(c, f32::from(px));
    let g = Arc::new(Glyph { metrics, coverage });
    cache.insert(key, g.clone());
    Some(g)
}

/// A style of text: face, pixel size and colour (RGB).
#[derive(Debug, Clone, Copy)]
pub struct TextStyle {
    pub face: Face,
    pub px: u16,
    pub color: [u8; 3],
}

impl TextStyle {
    pub const fn new(face: Face, px: u16, color: [u8; 3]) -> Self {
        Self { face, px, color }
    }

    /// Distance from one baseline to the next.
    pub fn line_height(&self) -> i32 {
        (f32::from(self.px) * 1.35).round() as i32
    }

    /// Height of capitals above the baseline, for vertical centring.
    pub fn ascent(&self) -> i32 {
        (f32::from(self.px) * 0.76).round() as i32
    }
}

/// Width in pixels of `text` drawn in `style`.
pub fn measure(text: &str, style: TextStyle) -> i32 {
    text.chars().map(|c| advance(c, style)).sum::<f32>().round() as i32
}

fn advance(c: char, style: TextStyle) -> f32 {
    let c = printable(c);
    glyph(style.face, c, style.px).map_or(0.0, |g| g.metrics.advance_width)
}

fn printable(c: char) -> char {
    match c {
        '\t' => ' ',
        c if c.is_control() => ' ',
        c => c,
    }
}

/// Cuts `text` to fit `max_width`, ending with an ellipsis when it had to cut.
pub fn ellipsize(text: &str, style: TextStyle, max_width: i32) -> String {
    if measure(text, style) <= max_width {
        return text.to_owned();
    }
    let ellipsis = measure("…", style);
    let mut width = 0.0;
    let mut out = String::new();
    for c in text.chars() {
        width += advance(c, style);
        if width.round() as i32 + ellipsis > max_width {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// Breaks `text` into lines no wider than `max_width`: at `\n`, else at the last space that
/// fits, else mid-word (a long URL still wraps).
pub fn wrap(text: &str, style: TextStyle, max_width: i32) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut width = 0.0f32;
        let mut last_space: Option<usize> = None;
        for c in paragraph.chars() {
            let w = advance(c, style);
            if width + w > max_width as f32 && !line.is_empty() {
                let rest = match last_space {
                    Some(at) if at > 0 => {
                        let rest = line[at + 1..].to_owned();
                        line.truncate(at);
                        rest
                    }
                    _ => String::new(),
                };
                lines.push(std::mem::take(&mut line));
                line = rest;
                width = measure(&line, style) as f32;
                last_space = None;
            }
            if c == ' ' {
                last_space = Some(line.len());
            }
            line.push(c);
            width += w;
        }
        lines.push(line);
    }
    lines
}

/// Draws one line of text with its baseline at `y`, clipped to the pixmap. Returns the x
/// where the next character would go.
pub fn draw(pixmap: &mut Pixmap, text: &str, x: i32, baseline: i32, style: TextStyle) -> i32 {
    let mut pen = x as f32;
    for c in text.chars() {
        let c = printable(c);
        let Some(g) = glyph(style.face, c, style.px) else {
            continue;
        };
        let left = pen.round() as i32 + g.metrics.xmin;
        let top = baseline - g.metrics.height as i32 - g.metrics.ymin;
        blend_coverage(pixmap, left, top, g.metrics.width, &g.coverage, style.color);
        pen += g.metrics.advance_width;
    }
    pen.round() as i32
}

/// Blends an 8-bit coverage mask of `width` columns onto an opaque pixmap in `color`.
fn blend_coverage(
    pixmap: &mut Pixmap,
    left: i32,
    top: i32,
    width: usize,
    mask: &[u8],
    color: [u8; 3],
) {
    if width == 0 {
        return;
    }
    let (pw, ph) = (pixmap.width() as i32, pixmap.height() as i32);
    let data = pixmap.data_mut();
    for (row, line) in mask.chunks(width).enumerate() {
        let y = top + row as i32;
        if y < 0 || y >= ph {
            continue;
        }
        for (col, &a) in line.iter().enumerate() {
            let x = left + col as i32;
            if a == 0 || x < 0 || x >= pw {
                continue;
            }
            let i = ((y * pw + x) * 4) as usize;
            let a = u16::from(a);
            for ch in 0..3 {
                let dst = u16::from(data[i + ch]);
                data[i + ch] = ((u16::from(color[ch]) * a + dst * (255 - a) + 127) / 255) as u8;
            }
        }
    }
}
