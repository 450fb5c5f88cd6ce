//! A picture's caption burnt into the shared video: the step's title and the agent's narration
//! in a dark band at the bottom of the picture, so a person who receives the video in a chat
//! can tell what the agent was doing (the in-app player shows them beside the picture).
//!
//! The text is drawn with the Demo desktop's fonts and glyph cache (`porthole_sim`'s
//! `desktop::font`: DejaVu, cut and compressed), not a font of its own: the release binary
//! has about 0.07 MB left of its 20 MB budget (BENCHMARKS.md, "Footprint"), and a second font
//! would cost hundreds of kilobytes.
//!
//! The band is drawn after the person's redactions are painted in, over the painted picture:
//! a hidden area never hides the caption, and the band (a blend with what is under it) shows
//! of a hidden area only its cover colour.

use porthole_sim::desktop::font::{self, Face, TextStyle};

use crate::film::FilmFrame;

/// The band's colour and how much of it covers the picture (out of 255): dark enough for
/// white text on any screen, light enough that the picture still shows through.
pub const BAND: [u8; 3] = [10, 10, 14];
pub const BAND_ALPHA: u16 = 190;
/// The text's colour.
pub const TEXT: [u8; 3] = [255, 255, 255];
/// Lines a caption takes at most: the title's one and the narration's, wrapped.
pub const MAX_LINES: usize = 3;

/// The text size for a picture `width` pixels wide: about 40 characters of the title to a
/// line, never smaller than a phone shows legibly.
fn px(width: u32) -> u16 {
    (width / 40).clamp(11, 24) as u16
}

/// The caption's lines for `frame`, each with its face: the title in bold on one line, the
/// narration wrapped under it, at most [`MAX_LINES`] in all, the last ellipsised when the
/// text goes on.
pub(super) fn lines(frame: &FilmFrame, px: u16, max_width: i32) -> Vec<(String, TextStyle)> {
    // Whitespace collapsed: a narration's paragraphs read as one in a caption.
    let flat = |text: &Option<String>| {
        text.as_deref()
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|t| !t.is_empty())
    };
    let bold = TextStyle::new(Face::SansBold, px, TEXT);
    let plain = TextStyle::new(Face::Sans, px, TEXT);
    let mut out = Vec::new();
    if let Some(title) = flat(&frame.title) {
        out.push((font::ellipsize(&title, bold, max_width), bold));
    }
    if let Some(narration) = flat(&frame.narration) {
        let room = MAX_LINES - out.len();
        let wrapped = font::wrap(&narration, plain, max_width);
        let cut = wrapped.len() > room;
        for (i, line) in wrapped.into_iter().take(room).enumerate() {
            let line = if cut && i + 1 == room {
                // The words that did not fit are why it ends with an ellipsis.
                font::ellipsize(&format!("{line} …"), plain, max_width)
            } else {
                line
            };
            out.push((line, plain));
        }
    }
    out
}

/// Draws `frame`'s caption at the bottom of `picture`; nothing when the frame has no words,
/// and fewer lines when the picture is too small for all (the band never takes more than
/// half the picture).
pub fn burn(picture: &mut image::RgbImage, frame: &FilmFrame) {
    let (width, height) = picture.dimensions();
    let px = px(width);
    let pad = (i32::from(px) * 2 / 3).max(4);
    let mut lines = lines(frame, px, width as i32 - 2 * pad);
    let line_height = TextStyle::new(Face::Sans, px, TEXT).line_height();
    let band_height = |n: usize| n as i32 * line_height + 2 * pad;
    while !lines.is_empty() && band_height(lines.len()) > height as i32 / 2 {
        lines.pop();
    }
    if lines.is_empty() {
        return;
    }
    let top = height as i32 - band_height(lines.len());
    for y in top as u32..height {
        for x in 0..width {
            let p = picture.get_pixel_mut(x, y);
            for (c, band) in p.0.iter_mut().zip(BAND) {
                *c = ((u16::from(band) * BAND_ALPHA + u16::from(*c) * (255 - BAND_ALPHA) + 127)
                    / 255) as u8;
            }
        }
    }
    for (i, (line, style)) in lines.iter().enumerate() {
        // Each line centred in its line height.
        let baseline = top + pad + i as i32 * line_height + (line_height + style.ascent()) / 2 - 1;
        font::draw_rgb(picture, line, pad, baseline, *style);
    }
}

/// Where the band of [`burn`] starts on a picture `height` high for `frame`, `None` without a
/// caption: for tests that look above and in it.
#[cfg(test)]
pub fn band_top(width: u32, height: u32, frame: &FilmFrame) -> Option<u32> {
    let mut probe = image::RgbImage::from_pixel(width, height, image::Rgb([255, 0, 255]));
    burn(&mut probe, frame);
    (0..height).find(|&y| probe.get_pixel(0, y).0 != [255, 0, 255])
}
