//! Parse throughput of the live codec on a desktop stream: whole WebSocket messages (the
//! viewer's path) and a raw stream cut into 8 KB and 64 KB chunks (the same cuts the Node script
//! feeds guacamole-common-js's parser), and a single read of those chunks (`one_pass_*`) as the
//! ceiling for any parser that must look at every byte. Prints where it wrote the stream for the
//! Node script.
//!
//! `cargo bench -p porthole-live --bench codec`

mod support;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;

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

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("live_codec_parse");
    group.sample_size(20);
    for name in support::stream_names() {
        let Some(stream) = support::stream(&name) else {
            continue;
        };
        let messages = support::websocket_messages(&stream, 8192);
        write_for_node(&name, &stream, &messages);
        let syncs = support::count_frames(&messages);
        assert_eq!(syncs, support::count_chunked(&stream, 8192));
        eprintln!("stream {name}: {} messages, {syncs} frames", messages.len());
        group.throughput(Throughput::Bytes(stream.len() as u64));
        group.bench_with_input(BenchmarkId::new("ws_messages", &name), &messages, |b, m| {
            b.iter(|| support::count_frames(black_box(m)))
        });
        for chunk in [8192, 65536] {
            let id = BenchmarkId::new(format!("chunks_{}k", chunk / 1024), &name);
            group.bench_with_input(id, &stream, |b, s| {
                b.iter(|| support::count_chunked(black_box(s), chunk))
            });
            // The ceiling for any parser that must look at every byte (UTF-8 text whose lengths
            // count code points): one read of the same chunks and nothing else.
            let id = BenchmarkId::new(format!("one_pass_{}k", chunk / 1024), &name);
            group.bench_with_input(id, &stream, |b, s| {
                b.iter(|| {
                    let chunks = black_box(s).as_bytes().chunks(chunk);
                    chunks.filter(|c| c.is_ascii()).count()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
