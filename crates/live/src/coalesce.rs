//! Coalescing frames when the consumer falls behind: the rule that keeps memory bounded without
//! changing what ends up on screen.
//!
//! The rule:
//! 1. A frame the consumer has not taken yet absorbs the next one: their operations are joined
//!    in order and the newer `sync` timestamp is kept (so draw order is never changed, and only a
//!    timestamp the server sent is ever echoed).
//! 2. Then, if the joined list holds a *full-frame image* — on layer 0, at or above-left of the
//!    origin, at least the screen's size, and opaque (JPEG, or drawn with mask 12 = src) — every
//!    earlier drawing *onto layer 0* is dropped (`img`s, `rect`/`cfill` on layer 0, `copy` into
//!    layer 0), since the full frame paints over all of it. Drawings that something later read
//!    out of layer 0 (a `copy` or `cursor` from layer 0, or any instruction this module does not
//!    know, to be safe) are kept, as are all operations on other layers and all state
//!    (`size`, `move`, `shade`, `dispose`, `mouse`, `cursor`).
//! 3. If the frame is still larger than the viewer's bound, the viewer stops reading the socket
//!    until the consumer takes it (the server is then slowed by TCP and unanswered `sync`s).

use crate::frame::{DrawOp, Frame};

/// Joins `newer` onto the untaken `older` frame and drops what is superseded; returns how many
/// operations were dropped.
pub(crate) fn absorb(older: &mut Frame, newer: Frame, screen: Option<(u32, u32)>) -> usize {
    older.ops.extend(newer.ops);
    older.sync_timestamp = newer.sync_timestamp;
    older.upstream_frames += newer.upstream_frames;
    older.arrived_at = newer.arrived_at;
    match screen {
        Some(screen) => drop_superseded(&mut older.ops, screen),
        None => 0,
    }
}

fn is_full_frame(op: &DrawOp, (width, height): (u32, u32)) -> bool {
    let DrawOp::Image(image) = op else {
        return false;
    };
    let opaque = image.mask == 12 || image.mimetype == "image/jpeg";
    let covers = match image.size {
        Some((w, h)) => {
            image.x <= 0
                && image.y <= 0
                && i64::from(image.x) + i64::from(w) >= i64::from(width)
                && i64::from(image.y) + i64::from(h) >= i64::from(height)
        }
        None => false,
    };
    image.layer == 0 && opaque && covers
}

fn layer_arg(op: &DrawOp, index: usize) -> Option<&str> {
    match op {
        DrawOp::Instruction(i) => i.args.get(index).map(String::as_str),
        DrawOp::Image(_) => None,
    }
}

/// Drawing onto layer 0 that a later full frame makes invisible.
fn draws_on_screen_only(op: &DrawOp) -> bool {
    match op {
        DrawOp::Image(image) => image.layer == 0,
        DrawOp::Instruction(i) => match i.opcode.as_str() {
            "rect" => layer_arg(op, 0) == Some("0"),
            "cfill" => layer_arg(op, 1) == Some("0"),
            "copy" => layer_arg(op, 7) == Some("0"),
            _ => false,
        },
    }
}

/// An operation whose effect depends on what layer 0 holds at that point.
fn reads_screen(op: &DrawOp) -> bool {
    match op {
        DrawOp::Image(_) => false,
        DrawOp::Instruction(i) => match i.opcode.as_str() {
            "copy" => layer_arg(op, 0) == Some("0") && layer_arg(op, 7) != Some("0"),
            "cursor" => layer_arg(op, 2) == Some("0"),
            "size" | "move" | "shade" | "dispose" | "mouse" | "rect" | "cfill" => false,
            _ => true,
        },
    }
}

/// Applies rule 2 to `ops`; returns how many were dropped.
pub(crate) fn drop_superseded(ops: &mut Vec<DrawOp>, screen: (u32, u32)) -> usize {
    let Some(full) = ops.iter().rposition(|op| is_full_frame(op, screen)) else {
        return 0;
    };
    // Drawings up to the last read of layer 0 before the full frame must stay.
    let keep_until = ops[..full]
        .iter()
        .rposition(reads_screen)
        .map_or(0, |i| i + 1);
    let before = ops.len();
    let mut index = 0;
    ops.retain(|op| {
        let drop = index >= keep_until && index < full && draws_on_screen_only(op);
        index += 1;
        !drop
    });
    before - ops.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Instruction;
    use crate::frame::Image;
    use std::time::Instant;

    fn image(layer: i32, x: i32, size: (u32, u32), mime: &str, mask: u32) -> DrawOp {
        DrawOp::Image(Image {
            mimetype: mime.into(),
            layer,
            x,
            y: 0,
            mask,
            size: Some(size),
            data: Default::default(),
        })
    }

    fn inst(op: &str, args: &[&str]) -> DrawOp {
        DrawOp::Instruction(Instruction::new(op, args.iter().copied()))
    }

    fn frame(ops: Vec<DrawOp>, ts: &str) -> Frame {
        Frame {
            seq: 0,
            connection: 1,
            ops,
            sync_timestamp: ts.into(),
            upstream_frames: 1,
            arrived_at: Instant::now(),
        }
    }

    const SCREEN: (u32, u32) = (100, 50);

    #[test]
    fn a_full_frame_supersedes_earlier_screen_drawing_only() {
        let mut older = frame(
            vec![
                inst("size", &["0", "100", "50"]),
                image(0, 5, (10, 10), "image/png", 14),
                image(-1, 0, (10, 10), "image/png", 14),
                inst("rect", &["0", "1", "1", "2", "2"]),
                inst("cfill", &["14", "0", "1", "2", "3", "255"]),
                inst("mouse", &["1", "2", "0", "5"]),
            ],
            "10",
        );
        let newer = frame(
            vec![
                image(0, 0, SCREEN, "image/jpeg", 14),
                image(0, 5, (10, 10), "image/png", 14),
            ],
            "20",
        );
        let dropped = absorb(&mut older, newer, Some(SCREEN));
        assert_eq!(dropped, 3);
        assert_eq!(older.sync_timestamp, "20");
        assert_eq!(older.upstream_frames, 2);
        let kinds: Vec<_> = older
            .ops
            .iter()
            .map(|op| match op {
                DrawOp::Image(i) => format!("img{}", i.layer),
                DrawOp::Instruction(i) => i.opcode.clone(),
            })
            .collect();
        assert_eq!(kinds, ["size", "img-1", "mouse", "img0", "img0"]);
    }

    #[test]
    fn partial_or_transparent_images_supersede_nothing() {
        for full in [
            image(0, 1, SCREEN, "image/jpeg", 14),
            image(0, 0, (99, 50), "image/jpeg", 14),
            image(0, 0, SCREEN, "image/png", 14),
            image(-2, 0, SCREEN, "image/jpeg", 14),
        ] {
            let mut ops = vec![image(0, 0, (1, 1), "image/png", 14), full];
            assert_eq!(drop_superseded(&mut ops, SCREEN), 0);
        }
        let mut ops = vec![
            image(0, 0, (1, 1), "image/png", 14),
            image(0, 0, SCREEN, "image/png", 12),
        ];
        assert_eq!(drop_superseded(&mut ops, SCREEN), 1);
    }

    #[test]
    fn drawing_read_back_from_the_screen_is_kept() {
        let mut ops = vec![
            image(0, 0, (1, 1), "image/png", 14),
            inst("copy", &["0", "0", "0", "1", "1", "12", "-3", "0", "0"]),
            image(0, 0, (1, 1), "image/png", 14),
            inst("lstroke", &["0"]),
            image(0, 0, (1, 1), "image/png", 14),
            image(0, 0, SCREEN, "image/jpeg", 14),
        ];
        assert_eq!(drop_superseded(&mut ops, SCREEN), 1);
        assert_eq!(ops.len(), 5);
    }
}
