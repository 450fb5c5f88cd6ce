//! What is drawn over the desktop rather than as part of it: the benchmark animation (drawn
//! on a copy of the cached frame every tick) and the pointer (composited into screenshots,
//! sent as a Guacamole cursor to live viewers).

use tiny_skia::{FillRule, PathBuilder, Pixmap, Stroke, Transform};

use super::render::{fill_circle, fill_round, paint};
use super::scene::{Rect, Scene, TASKBAR};

/// The benchmark animation: a bouncing ball and a scrolling load graph, so every frame
/// changes a sizeable part of the screen.
pub fn animation(pm: &mut Pixmap, scene: &Scene, frame: u64) {
    let area = Rect {
        x: scene.width - 420,
        y: 30,
        w: 390,
        h: 180,
    };
    fill_round(pm, area, 10.0, [16, 20, 28], 220);
    let t = frame as f32;
    let mut pb = PathBuilder::new();
    for i in 0..=76 {
        let x = (area.x + 10 + i * 5) as f32;
        let v = ((t + i as f32) * 0.21).sin() * 0.5 + ((t * 0.7 + i as f32) * 0.047).cos() * 0.4;
        let y = area.y as f32 + area.h as f32 * (0.5 - v * 0.45);
        if i == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    if let Some(path) = pb.finish() {
        let stroke = Stroke {
            width: 2.5,
            ..Stroke::default()
        };
        pm.stroke_path(
            &path,
            &paint([120, 220, 160], 255),
            &stroke,
            Transform::identity(),
            None,
        );
    }
    let span_x = (scene.width - 80) as f32;
    let span_y = (scene.height - TASKBAR - 80) as f32;
    let bounce = |v: f32, span: f32| {
        let m = v % (2.0 * span);
        if m > span {
            2.0 * span - m
        } else {
            m
        }
    };
    let (bx, by) = (
        40.0 + bounce(t * 9.0, span_x),
        40.0 + bounce(t * 6.0, span_y),
    );
    fill_circle(pm, bx, by, 28.0, [255, 170, 60], 235);
}

/// The arrow pointer, hot spot at its tip (0, 0).
pub fn pointer_image() -> Option<Pixmap> {
    let mut pm = Pixmap::new(14, 21)?;
    let pts = [
        (1.0, 1.0),
        (1.0, 17.0),
        (5.0, 13.5),
        (8.0, 19.5),
        (10.5, 18.5),
        (7.7, 12.6),
        (12.5, 12.5),
    ];
    let mut pb = PathBuilder::new();
    for (i, (x, y)) in pts.iter().enumerate() {
        if i == 0 {
            pb.move_to(*x, *y);
        } else {
            pb.line_to(*x, *y);
        }
    }
    pb.close();
    let path = pb.finish()?;
    pm.fill_path(
        &path,
        &paint([10, 10, 10], 255),
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    let stroke = Stroke {
        width: 1.2,
        ..Stroke::default()
    };
    pm.stroke_path(
        &path,
        &paint([255, 255, 255], 255),
        &stroke,
        Transform::identity(),
        None,
    );
    Some(pm)
}

/// Composites the pointer image onto a frame with its tip at `(x, y)`.
pub fn draw_pointer(pm: &mut Pixmap, pointer: &Pixmap, x: i32, y: i32) {
    pm.draw_pixmap(
        x,
        y,
        pointer.as_ref(),
        &tiny_skia::PixmapPaint::default(),
        Transform::identity(),
        None,
    );
}

/// The pointer as an image and its hot spot, for the live stream's `cursor` instruction.
pub struct CursorImage {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub hotspot: (i32, i32),
}

/// The pointer image for a remote cursor.
pub fn cursor_image() -> CursorImage {
    match pointer_image() {
        Some(pm) => CursorImage {
            png: encode_rgba_png(&pm),
            width: pm.width(),
            height: pm.height(),
            hotspot: (1, 1),
        },
        None => CursorImage {
            png: Vec::new(),
            width: 0,
            height: 0,
            hotspot: (0, 0),
        },
    }
}

/// The cursor keeps its transparency, unlike screen frames, so it is encoded as RGBA.
fn encode_rgba_png(pm: &Pixmap) -> Vec<u8> {
    use image::ImageEncoder;
    let mut rgba = Vec::with_capacity(pm.data().len());
    for px in pm.pixels() {
        let c = px.demultiply();
        rgba.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
    }
    let mut out = Vec::new();
    let enc = image::codecs::png::PngEncoder::new(&mut out);
    if enc
        .write_image(
            &rgba,
            pm.width(),
            pm.height(),
            image::ExtendedColorType::Rgba8,
        )
        .is_err()
    {
        out.clear();
    }
    out
}
