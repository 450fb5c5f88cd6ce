//! Parses one stream in one cut a given number of times, for counting CPU instructions with
//! valgrind's callgrind: a count is deterministic where wall-clock time is not (the bench
//! machine is shared and noisy). `benches/callgrind.sh` runs it with 1 and 2 parses and divides
//! the difference by the stream's bytes, which leaves out loading or generating the stream.
//! It also prints the best wall-clock time of its parses: on a loaded machine the fastest of
//! many short runs is the one least disturbed (criterion's median is not).
//!
//! `codec_callgrind <stream> <ws_messages|chunks_8k|chunks_64k> <parses>`. Run by `cargo bench`
//! (no such arguments), it parses every stream every way once and checks the frame counts agree.

mod support;

use std::hint::black_box;
use std::time::{Duration, Instant};

fn parse(way: &str, stream: &str, messages: &[&str]) -> Option<usize> {
    match way {
        "ws_messages" => Some(support::count_frames(black_box(messages))),
        "chunks_8k" => Some(support::count_chunked(black_box(stream), 8192)),
        "chunks_64k" => Some(support::count_chunked(black_box(stream), 65536)),
        _ => None,
    }
}

const WAYS: [&str; 3] = ["ws_messages", "chunks_8k", "chunks_64k"];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (names, ways, parses) = match &args[..] {
        [name, way, parses] if !name.starts_with('-') => {
            let Ok(parses) = parses.parse::<u32>() else {
                eprintln!("parses must be a number");
                std::process::exit(2);
            };
            (vec![name.clone()], vec![way.as_str()], parses)
        }
        _ => (support::stream_names(), WAYS.to_vec(), 1),
    };
    for name in names {
        let Some(stream) = support::stream(&name) else {
            eprintln!("no stream named {name}");
            std::process::exit(2);
        };
        let messages = support::websocket_messages(&stream, 8192);
        let mut counts = Vec::new();
        for way in &ways {
            let mut frames = None;
            let mut best = Duration::MAX;
            for _ in 0..parses {
                let start = Instant::now();
                frames = parse(way, &stream, &messages);
                best = best.min(start.elapsed());
                if frames.is_none() {
                    eprintln!("unknown way {way}: one of {WAYS:?}");
                    std::process::exit(2);
                }
            }
            if parses > 0 {
                let gb_per_s = stream.len() as f64 / best.as_secs_f64() / 1e9;
                eprintln!("{name} {way}: best of {parses} parses {gb_per_s:.2} GB/s");
            }
            counts.push(frames);
        }
        println!("{name} bytes={} frames={counts:?}", stream.len());
        if parses > 0 && counts.windows(2).any(|w| w[0] != w[1]) {
            eprintln!("{name}: the ways disagree on the frame count");
            std::process::exit(1);
        }
    }
}
