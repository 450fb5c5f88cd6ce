//! Bench inputs: a synthetic desktop stream shaped like the simulator's (and guacd's), and the
//! ways it is cut up on the wire.
//!
//! The stream: tunnel uuid, `size` of the screen, a full-frame JPEG (`img` + 8064-character
//! `blob`s + `end`), a cursor, then 60 frames a second of dirty-rectangle PNGs, pointer moves and
//! `sync`, with a full frame again every 2 seconds. Image bytes are random (incompressible, like
//! real compressed images), from a fixed seed so every run and the Node script see the same
//! bytes.

mod workload;

pub use workload::{count_chunked, count_frames};

use base64::Engine;
use porthole_live::codec::{encode_parts_into, parse_frame};
use std::path::PathBuf;

/// Names of the streams measured: the synthetic desktops, then the simulator recordings
/// committed under `benches/data`.
pub fn stream_names() -> Vec<String> {
    let mut names: Vec<String> = SYNTHETIC.iter().map(|s| (*s).to_owned()).collect();
    if let Ok(dir) = std::fs::read_dir(data_dir()) {
        let mut recorded: Vec<String> = dir
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "guac"))
            .filter_map(|p| Some(p.file_stem()?.to_string_lossy().into_owned()))
            .collect();
        recorded.sort();
        names.extend(recorded);
    }
    names
}

/// One stream by name: generated, or read from `benches/data/<name>.guac`.
pub fn stream(name: &str) -> Option<String> {
    match name {
        "synthetic-1280x800" => Some(synthetic_desktop(1280, 800, 10)),
        "synthetic-1920x1080" => Some(synthetic_desktop(1920, 1080, 10)),
        "synthetic-small-ops" => Some(synthetic_small_ops(20_000)),
        _ => std::fs::read_to_string(data_dir().join(format!("{name}.guac"))).ok(),
    }
}

const SYNTHETIC: [&str; 3] = [
    "synthetic-1280x800",
    "synthetic-1920x1080",
    "synthetic-small-ops",
];

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data")
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const BLOB_BYTES: usize = 6048;

fn image(
    out: &mut String,
    rng: &mut XorShift,
    stream: u32,
    mime: &str,
    (layer, x, y): (i32, u32, u32),
    bytes: usize,
) {
    let stream = stream.to_string();
    let mask = if mime == "image/jpeg" { "14" } else { "12" };
    let (layer, x, y) = (layer.to_string(), x.to_string(), y.to_string());
    encode_parts_into(out, "img", &[&stream, mask, &layer, mime, &x, &y]);
    let mut data = vec![0u8; bytes];
    for chunk in data.chunks_mut(8) {
        let r = rng.next().to_le_bytes();
        chunk.copy_from_slice(&r[..chunk.len()]);
    }
    for blob in data.chunks(BLOB_BYTES) {
        let b64 = base64::engine::general_purpose::STANDARD.encode(blob);
        encode_parts_into(out, "blob", &[stream.as_str(), b64.as_str()]);
    }
    encode_parts_into(out, "end", &[&stream]);
}

/// About `seconds` of a `width`×`height` desktop at 60 fps.
pub fn synthetic_desktop(width: u32, height: u32, seconds: u32) -> String {
    let mut rng = XorShift(0x5EED_2026_0001);
    let mut out = String::new();
    let (w, h) = (width.to_string(), height.to_string());
    encode_parts_into(&mut out, "", &["6e2d1b6c-7d45-4c1c-9d6b-9f3a2a1b0c4d"]);
    encode_parts_into(&mut out, "size", &["0", &w, &h]);
    let full_jpeg = (width * height / 8) as usize;
    for frame in 0..seconds * 60 {
        if frame % 120 == 0 {
            image(&mut out, &mut rng, 1, "image/jpeg", (0, 0, 0), full_jpeg);
            if frame == 0 {
                encode_parts_into(&mut out, "size", &["-1", "11", "16"]);
                image(&mut out, &mut rng, 2, "image/png", (-1, 0, 0), 300);
                encode_parts_into(&mut out, "cursor", &["0", "0", "-1", "0", "0", "11", "16"]);
            }
        } else {
            for rect in 0..1 + rng.below(3) {
                let x = rng.below(u64::from(width - 200)) as u32;
                let y = rng.below(u64::from(height - 100)) as u32;
                let bytes = 1000 + rng.below(12_000) as usize;
                image(
                    &mut out,
                    &mut rng,
                    3 + rect as u32,
                    "image/png",
                    (0, x, y),
                    bytes,
                );
            }
        }
        let (mx, my) = (rng.below(u64::from(width)), rng.below(u64::from(height)));
        let ts = (1_763_770_000_000u64 + u64::from(frame) * 16).to_string();
        encode_parts_into(
            &mut out,
            "mouse",
            &[&mx.to_string(), &my.to_string(), "0", &ts],
        );
        encode_parts_into(&mut out, "sync", &[ts.as_str(), "1"]);
        if frame % 30 == 29 {
            encode_parts_into(&mut out, "nop", &[] as &[&str]);
        }
    }
    out
}

/// `frames` frames of small drawing instructions only (scrolling, rectangles, pointer moves):
/// the case where per-instruction cost, not per-byte cost, decides a parser's speed.
pub fn synthetic_small_ops(frames: u32) -> String {
    let mut rng = XorShift(0x5EED_2026_0002);
    let mut out = String::new();
    encode_parts_into(&mut out, "size", &["0", "1280", "800"]);
    for frame in 0..frames {
        for _ in 0..20 + rng.below(40) {
            let n = |rng: &mut XorShift, max: u64| rng.below(max).to_string();
            match rng.below(4) {
                0 => {
                    let (x, y, w, h) = (
                        n(&mut rng, 1200),
                        n(&mut rng, 700),
                        n(&mut rng, 80),
                        n(&mut rng, 80),
                    );
                    encode_parts_into(&mut out, "copy", &["0", &x, &y, &w, &h, "12", "0", &x, &y]);
                }
                1 => {
                    let (x, y, w, h) = (
                        n(&mut rng, 1200),
                        n(&mut rng, 700),
                        n(&mut rng, 80),
                        n(&mut rng, 80),
                    );
                    encode_parts_into(&mut out, "rect", &["0", &x, &y, &w, &h]);
                    let (r, g, b) = (n(&mut rng, 256), n(&mut rng, 256), n(&mut rng, 256));
                    encode_parts_into(&mut out, "cfill", &["14", "0", &r, &g, &b, "255"]);
                }
                2 => {
                    let (x, y) = (n(&mut rng, 1280), n(&mut rng, 800));
                    encode_parts_into(&mut out, "mouse", &[&x, &y, "0", "1763770000000"]);
                }
                _ => {
                    let (x, y) = (n(&mut rng, 1200), n(&mut rng, 700));
                    encode_parts_into(&mut out, "move", &["-2", "0", &x, &y, "1"]);
                }
            }
        }
        let ts = (1_763_770_000_000u64 + u64::from(frame) * 16).to_string();
        encode_parts_into(&mut out, "sync", &[ts.as_str(), "1"]);
    }
    out
}

/// The stream as a server sends it over WebSocket: whole instructions batched into messages of
/// at most `limit` bytes (an instruction longer than that goes alone).
pub fn websocket_messages(stream: &str, limit: usize) -> Vec<&str> {
    let mut messages = Vec::new();
    let mut start = 0;
    let mut end = 0;
    for instruction in parse_frame(stream) {
        let len = instruction
            .expect("the bench stream is valid")
            .as_wire()
            .len();
        if end + len - start > limit && end > start {
            messages.push(&stream[start..end]);
            start = end;
        }
        end += len;
    }
    if end > start {
        messages.push(&stream[start..end]);
    }
    messages
}
