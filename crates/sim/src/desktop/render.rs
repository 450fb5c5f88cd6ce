//! Draws a [`Scene`] into pixels with tiny-skia: a cached wallpaper with desktop icons,
//! windows with shadows, title bars and wrapped text, and a taskbar with a clock. The pointer
//! and the benchmark animation are drawn on top by `overlay`.

use tiny_skia::{
    Color, FillRule, GradientStop, LinearGradient, Paint, PathBuilder, Pixmap, Point,
    RadialGradient, Rect as SkRect, SpreadMode, Transform,
};

use super::clock::Clock;
use super::font::{self, Face, TextStyle};
use super::scene::{AppKind, Rect, Scene, Window, TASKBAR, TITLE_BAR};

const ICONS: [(&str, [u8; 3]); 4] = [
    ("Notes", [250, 190, 60]),
    ("Terminal", [60, 64, 72]),
    ("Browser", [66, 133, 244]),
    ("Files", [95, 180, 120]),
];

pub(super) fn paint(rgb: [u8; 3], alpha: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(rgb[0], rgb[1], rgb[2], alpha);
    p.anti_alias = true;
    p
}

fn rounded(r: Rect, radius: f32) -> Option<tiny_skia::Path> {
    let (x, y, w, h) = (r.x as f32, r.y as f32, r.w as f32, r.h as f32);
    let k = radius.min(w / 2.0).min(h / 2.0);
    let mut pb = PathBuilder::new();
    pb.move_to(x + k, y);
    pb.line_to(x + w - k, y);
    pb.quad_to(x + w, y, x + w, y + k);
    pb.line_to(x + w, y + h - k);
    pb.quad_to(x + w, y + h, x + w - k, y + h);
    pb.line_to(x + k, y + h);
    pb.quad_to(x, y + h, x, y + h - k);
    pb.line_to(x, y + k);
    pb.quad_to(x, y, x + k, y);
    pb.close();
    pb.finish()
}

pub(super) fn fill_round(pm: &mut Pixmap, r: Rect, radius: f32, rgb: [u8; 3], alpha: u8) {
    if let Some(path) = rounded(r, radius) {
        pm.fill_path(
            &path,
            &paint(rgb, alpha),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

fn fill_rect(pm: &mut Pixmap, r: Rect, rgb: [u8; 3], alpha: u8) {
    if let Some(rect) = SkRect::from_xywh(r.x as f32, r.y as f32, r.w as f32, r.h as f32) {
        pm.fill_rect(rect, &paint(rgb, alpha), Transform::identity(), None);
    }
}

pub(super) fn fill_circle(pm: &mut Pixmap, cx: f32, cy: f32, radius: f32, rgb: [u8; 3], alpha: u8) {
    if let Some(path) = PathBuilder::from_circle(cx, cy, radius) {
        pm.fill_path(
            &path,
            &paint(rgb, alpha),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

/// The background: a dusk gradient with two soft glows and the desktop icons. Drawn once
/// per screen size and copied under every frame.
pub fn wallpaper(width: u32, height: u32) -> Option<Pixmap> {
    let mut pm = Pixmap::new(width, height)?;
    let (w, h) = (width as f32, height as f32);
    let stops = vec![
        GradientStop::new(0.0, Color::from_rgba8(22, 46, 84, 255)),
        GradientStop::new(0.55, Color::from_rgba8(40, 88, 124, 255)),
        GradientStop::new(1.0, Color::from_rgba8(92, 74, 128, 255)),
    ];
    let full = SkRect::from_xywh(0.0, 0.0, w, h)?;
    if let Some(shader) = LinearGradient::new(
        Point::from_xy(0.0, 0.0),
        Point::from_xy(w * 0.4, h),
        stops,
        SpreadMode::Pad,
        Transform::identity(),
    ) {
        let p = Paint {
            shader,
            anti_alias: true,
            ..Paint::default()
        };
        pm.fill_rect(full, &p, Transform::identity(), None);
    }
    for (cx, cy, r, rgb) in [
        (w * 0.78, h * 0.28, h * 0.55, [120, 190, 220]),
        (w * 0.22, h * 0.92, h * 0.5, [200, 120, 170]),
    ] {
        let stops = vec![
            GradientStop::new(0.0, Color::from_rgba8(rgb[0], rgb[1], rgb[2], 90)),
            GradientStop::new(1.0, Color::from_rgba8(rgb[0], rgb[1], rgb[2], 0)),
        ];
        if let Some(shader) = RadialGradient::new(
            Point::from_xy(cx, cy),
            Point::from_xy(cx, cy),
            r,
            stops,
            SpreadMode::Pad,
            Transform::identity(),
        ) {
            let p = Paint {
                shader,
                anti_alias: true,
                ..Paint::default()
            };
            pm.fill_rect(full, &p, Transform::identity(), None);
        }
    }
    let label = TextStyle::new(Face::Sans, 13, [240, 244, 250]);
    for (i, (name, rgb)) in ICONS.iter().enumerate() {
        let (x, y) = (28, 28 + i as i32 * 96);
        fill_round(
            &mut pm,
            Rect {
                x: x + 2,
                y: y + 3,
                w: 56,
                h: 56,
            },
            12.0,
            [0, 0, 0],
            60,
        );
        fill_round(&mut pm, Rect { x, y, w: 56, h: 56 }, 12.0, *rgb, 255);
        fill_round(
            &mut pm,
            Rect {
                x: x + 14,
                y: y + 14,
                w: 28,
                h: 28,
            },
            5.0,
            [255, 255, 255],
            200,
        );
        let tw = font::measure(name, label);
        font::draw(
            &mut pm,
            name,
            x + 28 - tw / 2 + 1,
            y + 77,
            TextStyle {
                color: [0, 0, 0],
                ..label
            },
        );
        font::draw(&mut pm, name, x + 28 - tw / 2, y + 76, label);
    }
    Some(pm)
}

/// Renders the whole screen except the pointer and the benchmark animation on top of a copy
/// of `wallpaper`.
pub fn scene(scene: &Scene, wallpaper: &Pixmap, clock: &Clock) -> Pixmap {
    let mut pm = wallpaper.clone();
    if scene.asleep {
        pm.fill(Color::from_rgba8(8, 10, 14, 255));
        let style = TextStyle::new(Face::Sans, 22, [150, 160, 175]);
        let text = "This computer is asleep";
        let w = font::measure(text, style);
        font::draw(
            &mut pm,
            text,
            (scene.width - w) / 2,
            scene.height / 2,
            style,
        );
        return pm;
    }
    let focused = scene.focused();
    for w in &scene.windows {
        window(&mut pm, w, Some(w.id) == focused);
    }
    taskbar(&mut pm, scene, clock);
    pm
}

fn window(pm: &mut Pixmap, w: &Window, focused: bool) {
    let r = w.rect;
    for (grow, alpha) in [(10, 14), (6, 22), (3, 34)] {
        let s = Rect {
            x: r.x - grow,
            y: r.y - grow + 6,
            w: r.w + 2 * grow,
            h: r.h + 2 * grow,
        };
        fill_round(pm, s, 10.0 + grow as f32, [0, 0, 0], alpha);
    }
    let body_bg = match w.kind {
        AppKind::Terminal => [24, 26, 32],
        _ => [250, 250, 252],
    };
    fill_round(pm, r, 9.0, body_bg, 255);
    let bar = if focused {
        [44, 62, 94]
    } else {
        [96, 104, 118]
    };
    fill_round(pm, Rect { h: TITLE_BAR, ..r }, 9.0, bar, 255);
    fill_rect(
        pm,
        Rect {
            y: r.y + TITLE_BAR - 10,
            h: 10,
            ..r
        },
        bar,
        255,
    );
    let title_style = TextStyle::new(Face::SansBold, 14, [240, 243, 248]);
    let title = font::ellipsize(&w.title, title_style, r.w - 130);
    font::draw(pm, &title, r.x + 14, r.y + 22, title_style);
    let cy = (r.y + TITLE_BAR / 2) as f32;
    for (i, rgb) in [[255, 95, 87], [255, 189, 46], [39, 201, 63]]
        .iter()
        .enumerate()
    {
        let cx = (r.x + r.w - TITLE_BAR / 2 - i as i32 * 24) as f32;
        fill_circle(pm, cx, cy, 6.5, *rgb, if focused { 255 } else { 150 });
    }
    let mut content = Rect {
        x: r.x + 16,
        y: r.y + TITLE_BAR + 12,
        w: r.w - 32,
        h: r.h - TITLE_BAR - 24,
    };
    if w.kind == AppKind::Browser {
        let bar = Rect {
            x: r.x + 12,
            y: r.y + TITLE_BAR + 8,
            w: r.w - 24,
            h: 28,
        };
        fill_round(pm, bar, 14.0, [232, 236, 242], 255);
        let url_style = TextStyle::new(Face::Sans, 13, [70, 78, 92]);
        let slug: Vec<String> = w
            .title
            .split(|c: char| !c.is_alphanumeric())
            .filter(|s| !s.is_empty())
            .map(str::to_lowercase)
            .collect();
        let url = format!("https://www.example.com/{}", slug.join("-"));
        font::draw(
            pm,
            &font::ellipsize(&url, url_style, bar.w - 30),
            bar.x + 14,
            bar.y + 19,
            url_style,
        );
        content.y += 40;
        content.h -= 40;
    }
    let style = match w.kind {
        AppKind::Terminal => TextStyle::new(Face::Mono, 14, [200, 235, 200]),
        _ => TextStyle::new(Face::Sans, 15, [34, 38, 46]),
    };
    // Only the end of a long body can be on screen; wrapping just that keeps a window with
    // megabytes of typed text as cheap to draw as a short one.
    let mut lines = font::wrap(tail(&w.body, 16_000), style, content.w);
    let visible = (content.h / style.line_height()).max(1) as usize;
    if lines.len() > visible {
        lines.drain(..lines.len() - visible);
    }
    let mut end = (content.x, content.y);
    for (i, line) in lines.iter().enumerate() {
        let baseline = content.y + style.ascent() + i as i32 * style.line_height();
        let x = font::draw(pm, line, content.x, baseline, style);
        end = (x, baseline);
    }
    if focused {
        let caret = Rect {
            x: end.0 + 1,
            y: end.1 - style.ascent(),
            w: 2,
            h: style.px as i32 + 2,
        };
        fill_rect(pm, caret, style.color, 220);
    }
}

fn taskbar(pm: &mut Pixmap, scene: &Scene, clock: &Clock) {
    let y = scene.height - TASKBAR;
    fill_rect(
        pm,
        Rect {
            x: 0,
            y,
            w: scene.width,
            h: TASKBAR,
        },
        [18, 22, 30],
        235,
    );
    fill_rect(
        pm,
        Rect {
            x: 0,
            y,
            w: scene.width,
            h: 1,
        },
        [255, 255, 255],
        40,
    );
    fill_round(
        pm,
        Rect {
            x: 10,
            y: y + 8,
            w: 28,
            h: 28,
        },
        7.0,
        [66, 133, 244],
        255,
    );
    fill_circle(pm, 24.0, (y + 22) as f32, 6.0, [255, 255, 255], 230);
    let style = TextStyle::new(Face::Sans, 13, [225, 230, 238]);
    let focused = scene.focused();
    let mut x = 52;
    for w in &scene.windows {
        if x + 160 > scene.width - 260 {
            break;
        }
        let tab = Rect {
            x,
            y: y + 6,
            w: 160,
            h: TASKBAR - 12,
        };
        let on = Some(w.id) == focused;
        fill_round(pm, tab, 6.0, [255, 255, 255], if on { 46 } else { 18 });
        if on {
            fill_rect(
                pm,
                Rect {
                    x: tab.x + 20,
                    y: tab.y + tab.h - 3,
                    w: tab.w - 40,
                    h: 3,
                },
                [110, 170, 255],
                255,
            );
        }
        font::draw(
            pm,
            &font::ellipsize(&w.title, style, tab.w - 20),
            tab.x + 10,
            tab.y + 21,
            style,
        );
        x += 168;
    }
    let time = TextStyle::new(Face::SansBold, 14, [240, 243, 248]);
    let tw = font::measure(&clock.time, time);
    font::draw(pm, &clock.time, scene.width - 16 - tw, y + 20, time);
    let small = TextStyle::new(Face::Sans, 11, [170, 180, 195]);
    let dw = font::measure(&clock.date, small);
    font::draw(pm, &clock.date, scene.width - 16 - dw, y + 36, small);
    let name = font::ellipsize(&scene.machine_name, style, 200);
    let nw = font::measure(&name, style);
    font::draw(pm, &name, scene.width - 40 - tw.max(dw) - nw, y + 27, style);
}

/// The last `max` bytes of `text` (or all of it), cut at a character boundary.
fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}
