//! Parse throughput of the live codec on a desktop stream: whole WebSocket messages (the
//! viewer's path) and a raw stream cut into 8 KB and 64 KB chunks (the same cuts the Node script
//! feeds guacamole-common-js's parser). Prints where it wrote the stream for that script.
//!
//! `cargo bench -p porthole-live --bench codec`

mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use porthole_live::codec::{parse_frame, Parser};
use std::hint::black_box;
use std::path::PathBuf;

/// Streams measured: the synthetic desktops, and the simulator recordings committed under
/// `benches/data` if any.
fn streams() -> Vec<(String, String)> {
    let mut streams = vec![
        (
            "synthetic-1280x800".to_owned(),
            support::synthetic_desktop(1280, 800, 10),
        ),
        (
            "synthetic-1920x1080".to_owned(),
            support::synthetic_desktop(1920, 1080, 10),
        ),
        (
            "synthetic-small-ops".to_owned(),
            support::synthetic_small_ops(20_000),
        ),
    ];
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data");
    if let Ok(dir) = std::fs::read_dir(&data) {
        let mut files: Vec<_> = dir.flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            if path.extension().is_some_and(|e| e == "guac") {
                if let (Some(name), Ok(text)) = (path.file_stem(), std::fs::read_to_string(&path)) {
                    streams.push((name.to_string_lossy().into_owned(), text));
                }
            }
        }
    }
    streams
}

/// Writes the stream, and the byte lengths of its WebSocket messages one per line, for the
/// Node script.
fn write_for_node(name: &str, stream: &str, messages: &[&str]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/live-bench");
    if std::fs::create_dir_all(&dir).is_ok() {
        let path = dir.join(format!("{name}.guac"));
        let lengths: Vec<String> = messages.iter().map(|m| m.len().to_string()).collect();
        if std::fs::write(&path, stream).is_ok()
            && std::fs::write(dir.join(format!("{name}.lengths")), lengths.join("\n")).is_ok()
        {
            eprintln!(
                "stream {name}: {} bytes -> {}",
                stream.len(),
                path.display()
            );
        }
    }
}

fn count_frames(messages: &[&str]) -> usize {
    let mut n = 0;
    for message in messages {
        for instruction in parse_frame(message) {
            let instruction = instruction.expect("valid");
            n += usize::from(instruction.opcode() == "sync");
        }
    }
    n
}

fn count_chunked(stream: &str, chunk: usize) -> usize {
    let mut parser = Parser::new();
    let mut n = 0;
    let bytes = stream.as_bytes();
    for piece in bytes.chunks(chunk) {
        parser.push_bytes(piece);
        while let Some(instruction) = parser.next_ref() {
            n += usize::from(instruction.expect("valid").opcode() == "sync");
        }
    }
    n
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("live_codec_parse");
    group.sample_size(20);
    for (name, stream) in streams() {
        let messages = support::websocket_messages(&stream, 8192);
        write_for_node(&name, &stream, &messages);
        let syncs = count_frames(&messages);
        assert_eq!(syncs, count_chunked(&stream, 8192));
        eprintln!("stream {name}: {} messages, {syncs} frames", messages.len());
        group.throughput(Throughput::Bytes(stream.len() as u64));
        group.bench_with_input(BenchmarkId::new("ws_messages", &name), &messages, |b, m| {
            b.iter(|| count_frames(black_box(m)))
        });
        for chunk in [8192, 65536] {
            let id = BenchmarkId::new(format!("chunks_{}k", chunk / 1024), &name);
            group.bench_with_input(id, &stream, |b, s| {
                b.iter(|| count_chunked(black_box(s), chunk))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
