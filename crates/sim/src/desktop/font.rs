//! Text for the synthetic desktop: the bundled DejaVu fonts (no system font is read at run
//! time), a process-wide glyph cache, measuring, wrapping and drawing onto a pixmap.
//!
//! The fonts are DejaVu 2.37 cut to the characters a desktop is reasonably asked to draw
//! (Latin, Greek, Cyrillic, punctuation, currency, arrows, common symbols, box drawing),
//! without hinting, and stored compressed: 0.4 MB in the app instead of 1.8 MB. They are
//! made by `scripts/subset-fonts.sh`; `fonts/LICENSE` is DejaVu's licence.
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

const SANS: &[u8] = include_bytes!("../../fonts/DejaVuSans.ttf.deflate");
const SANS_BOLD: &[u8] = include_bytes!("../../fonts/DejaVuSans-Bold.ttf.deflate");
const SANS_MONO: &[u8] = include_bytes!("../../fonts/DejaVuSansMono.ttf.deflate");

/// Inflated once, on the first text drawn; a font that does not load leaves its face to the
/// fallback in `font()` (and with none, text is not drawn) rather than failing the Demo.
static FONTS: LazyLock<Fonts> = LazyLock::new(|| {
    let load = |deflated: &[u8]| {
        let bytes = miniz_oxide::inflate::decompress_to_vec(deflated).ok()?;
        Font::from_bytes(bytes, FontSettings::default()).ok()
    };
    Fonts {
        sans: load(SANS),
        bold: load(SANS_BOLD),
        mono: load(SANS_MONO),
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
    let canvas = Canvas {
        width: pixmap.width() as i32,
        height: pixmap.height() as i32,
        channels: 4,
    };
    draw_on(canvas, pixmap.data_mut(), text, x, baseline, style)
}

/// [`draw`] onto an RGB picture: the film's captions burnt into a shared video
/// (porthole-core's `film::export`), with the same fonts, so the app carries one font.
pub fn draw_rgb(
    picture: &mut image::RgbImage,
    text: &str,
    x: i32,
    baseline: i32,
    style: TextStyle,
) -> i32 {
    let canvas = Canvas {
        width: picture.width() as i32,
        height: picture.height() as i32,
        channels: 3,
    };
    draw_on(canvas, picture, text, x, baseline, style)
}

/// Opaque pixels, row after row, the colour in the first three of `channels` bytes each.
#[derive(Clone, Copy)]
struct Canvas {
    width: i32,
    height: i32,
    channels: usize,
}

fn draw_on(
    canvas: Canvas,
    data: &mut [u8],
    text: &str,
    x: i32,
    baseline: i32,
    style: TextStyle,
) -> i32 {
    let mut pen = x as f32;
    for c in text.chars() {
        let c = printable(c);
        let Some(g) = glyph(style.face, c, style.px) else {
            continue;
        };
        let left = pen.round() as i32 + g.metrics.xmin;
        let top = baseline - g.metrics.height as i32 - g.metrics.ymin;
        blend_coverage(
            canvas,
            data,
            (left, top),
            g.metrics.width,
            &g.coverage,
            style.color,
        );
        pen += g.metrics.advance_width;
    }
    pen.round() as i32
}

/// Blends an 8-bit coverage mask of `width` columns onto an opaque canvas in `color`.
fn blend_coverage(
    canvas: Canvas,
    data: &mut [u8],
    (left, top): (i32, i32),
    width: usize,
    mask: &[u8],
    color: [u8; 3],
) {
    if width == 0 {
        return;
    }
    let Canvas {
        width: pw,
        height: ph,
        channels,
    } = canvas;
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
            let i = (y * pw + x) as usize * channels;
            let a = u16::from(a);
            for ch in 0..3 {
                let dst = u16::from(data[i + ch]);
                data[i + ch] = ((u16::from(color[ch]) * a + dst * (255 - a) + 127) / 255) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges `scripts/subset-fonts.sh` keeps (its `unicodes`), as inclusive pairs.
    const KEPT: &[(u32, u32)] = &[
        (0x20, 0x7E),
        (0xA0, 0x24F),
        (0x2B0, 0x36F),
        (0x370, 0x3FF),
        (0x400, 0x4FF),
        (0x1E00, 0x1EFF),
        (0x2000, 0x206F),
        (0x2070, 0x209F),
        (0x20A0, 0x20CF),
        (0x2100, 0x218F),
        (0x2190, 0x21FF),
        (0x2200, 0x22FF),
        (0x2300, 0x23FF),
        (0x2500, 0x25FF),
        (0x2600, 0x27BF),
        (0xFFFD, 0xFFFD),
    ];

    fn kept(c: char) -> bool {
        KEPT.iter().any(|&(a, b)| (a..=b).contains(&u32::from(c)))
    }

    /// Every character of the kept ranges that DejaVu has draws exactly as the whole DejaVu
    /// font drew it (same advance, box and pixels), in each face: cutting the font lost no
    /// character the desktop may be asked to draw and changed none.
    #[test]
    fn the_cut_fonts_draw_every_kept_character_as_dejavu_does() {
        let full_fonts = [
            (Face::Sans, dejavu::sans::regular()),
            (Face::SansBold, dejavu::sans::bold()),
            (Face::Mono, dejavu::sans_mono::regular()),
        ];
        for (face, bytes) in full_fonts {
            let full = Font::from_bytes(bytes, FontSettings::default()).unwrap();
            let cut = font(face).unwrap();
            let mut chars: Vec<char> = full.chars().keys().copied().filter(|&c| kept(c)).collect();
            chars.sort_unstable();
            assert!(
                chars.len() > 1500,
                "{face:?}: only {} kept characters",
                chars.len()
            );
            for c in chars {
                assert_ne!(cut.lookup_glyph_index(c), 0, "{face:?} lost {c:?}");
                let (want, want_px) = full.rasterize(c, 15.0);
                let (got, got_px) = cut.rasterize(c, 15.0);
                assert_eq!(
                    (got.advance_width, got.xmin, got.ymin, got.width, got.height),
                    (
                        want.advance_width,
                        want.xmin,
                        want.ymin,
                        want.width,
                        want.height
                    ),
                    "{face:?} {c:?}"
                );
                assert!(got_px == want_px, "{face:?} {c:?} draws differently");
            }
        }
    }

    /// What the Demo's own scripts and a person's typing put on its desktop: accents, Greek,
    /// Cyrillic, typographic quotes and dashes, currency, arrows, degrees.
    #[test]
    fn text_a_person_reads_on_the_demo_desktop_has_glyphs() {
        let text = "Köln “Invoice” – Documents › 21 °C € £ ¥ → ✓ … Ελληνικά Привет ŁódźŞİ";
        for face in [Face::Sans, Face::SansBold, Face::Mono] {
            for c in text.chars().filter(|c| !c.is_whitespace()) {
                assert_ne!(
                    font(face).unwrap().lookup_glyph_index(c),
                    0,
                    "{face:?} {c:?}"
                );
            }
        }
    }
}
