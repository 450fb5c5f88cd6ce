//! Throughput of the SSE parser against `eventsource-stream` on the same input: a task
//! stream of typical frames (short deltas, progress lines with JSON, a long tool input),
//! fed in 1,460-byte chunks as a TCP connection would deliver them.
//!
//! Run: `cargo bench -p porthole-client --bench sse`

use std::hint::black_box;

use bytes::Bytes;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use porthole_client::sse::SseParser;

fn task_stream() -> Vec<u8> {
    let mut text = String::new();
    text.push_str("data: {\"type\":\"start\",\"messageId\":\"msg_1\",\"turnId\":\"turn_1\"}\n\n");
    for i in 0..2_000 {
        match i % 5 {
            0 => text.push_str(&format!(
                "data: {{\"type\":\"text-delta\",\"id\":\"t{i}\",\"delta\":\"word {i} \"}}\n\n"
            )),
            1 => text.push_str(&format!(
                "data: {{\"type\":\"data-progress\",\"data\":{{\"text\":\"Opening the browser and typing the address of page {i}\",\"tool\":\"execute\"}}}}\r\n\r\n"
            )),
            2 => text.push_str(": keep-alive\n\n"),
            3 => text.push_str(&format!(
                "data: {{\"type\":\"tool-input-available\",\"toolCallId\":\"c{i}\",\"toolName\":\"execute\",\"input\":{{\"title\":\"Step\",\"code\":\"{}\"}}}}\n\n",
                "x".repeat(600)
            )),
            // A frame whose JSON spans two `data:` lines.
            _ => text.push_str(&format!(
                "data: {{\"type\":\"reasoning-delta\",\"id\":\"r{i}\",\ndata: \"delta\":\"Now I check the result\"}}\n\n"
            )),
        }
    }
    text.push_str("data: [DONE]\n\n");
    text.into_bytes()
}

fn chunks(input: &[u8]) -> Vec<Bytes> {
    input.chunks(1460).map(Bytes::copy_from_slice).collect()
}

fn ours(chunks: &[Bytes]) -> usize {
    let mut parser = SseParser::new();
    let mut out = Vec::new();
    let mut total = 0;
    for chunk in chunks {
        parser.feed(chunk, &mut out);
        total += out.iter().map(|e| e.data.len()).sum::<usize>();
        out.clear();
    }
    total
}

fn theirs(chunks: &[Bytes]) -> usize {
    let stream = futures_util::stream::iter(chunks.iter().cloned().map(Ok::<_, std::io::Error>));
    let mut events = stream.eventsource();
    futures::executor::block_on(async {
        let mut total = 0;
        while let Some(event) = events.next().await {
            total += event.map(|e| e.data.len()).unwrap_or(0);
        }
        total
    })
}

fn bench(c: &mut Criterion) {
    let input = task_stream();
    let chunks = chunks(&input);
    assert_eq!(
        ours(&chunks),
        theirs(&chunks),
        "both parsers see the same data"
    );
    let mut group = c.benchmark_group("sse_task_stream");
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("porthole_client", |b| b.iter(|| ours(black_box(&chunks))));
    group.bench_function("eventsource_stream", |b| {
        b.iter(|| theirs(black_box(&chunks)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
