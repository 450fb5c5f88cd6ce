//! Searching 10,000 tasks: how long a rebuild takes and how long each kind of query takes.
//! A measurement, not a check: ignored, run by hand, figures in BENCHMARKS.md ("Search").
//!
//! `nice -n 19 cargo test -p porthole-core --lib search::bench -- --ignored --nocapture` (SQLite is
//! built at the release's opt-level in debug builds too; BENCHMARKS.md says what that measures).

use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::conversations::model::ConversationBook;
use crate::conversations::ThreadItem;

const TASKS: usize = 10_000;
const TASKS_PER_CONVERSATION: usize = 5;
const RUNS: usize = 200;

const WORDS: &[&str] = &[
    "weather",
    "invoice",
    "spreadsheet",
    "browser",
    "calendar",
    "meeting",
    "flight",
    "hotel",
    "receipt",
    "budget",
    "report",
    "email",
    "contract",
    "photo",
    "folder",
    "download",
    "price",
    "order",
    "table",
    "chart",
    "summary",
    "address",
    "phone",
    "ticket",
    "account",
    "password",
    "printer",
    "document",
    "slide",
    "review",
    "customer",
    "supplier",
    "shipping",
    "refund",
    "quarter",
    "sales",
    "total",
    "column",
    "row",
    "window",
    "button",
    "page",
    "search",
    "result",
    "Lisbon",
    "Zürich",
    "Tokyo",
    "Oslo",
    "Paris",
    "Berlin",
    "Madrid",
    "Rome",
    "Vienna",
    "Prague",
];

fn sentence(rng: &mut StdRng, words: usize) -> String {
    (0..words)
        .map(|_| WORDS[rng.random_range(0..WORDS.len())])
        .collect::<Vec<_>>()
        .join(" ")
}

/// 10,000 tasks: each a request, narration, three progress lines and an answer; one task in
/// a thousand mentions "aquamarine", so a rare word is timed too.
fn conversations() -> Vec<Conversation> {
    let mut rng = StdRng::seed_from_u64(7);
    let mut book = ConversationBook::default();
    let mut all = Vec::new();
    for c in 0..TASKS / TASKS_PER_CONVERSATION {
        let mut conversation = book
            .create(format!("c{c}"), "demo", &format!("m{}", c % 4), c as f64)
            .clone();
        for t in 0..TASKS_PER_CONVERSATION {
            let rare = if (c * TASKS_PER_CONVERSATION + t).is_multiple_of(1000) {
                " aquamarine"
            } else {
                ""
            };
            conversation.items.push(ThreadItem::User {
                text: format!("Please {}{rare}", sentence(&mut rng, 8)),
                joined: false,
                attachments: vec![format!("{}.pdf", sentence(&mut rng, 1))],
            });
            conversation.items.push(ThreadItem::Narration {
                text: format!("I'll {}", sentence(&mut rng, 12)),
            });
            for _ in 0..3 {
                conversation.items.push(ThreadItem::Progress {
                    text: sentence(&mut rng, 5),
                });
            }
            conversation.items.push(ThreadItem::Answer {
                text: format!(
                    "## Done\n\n{}\n\n- {}",
                    sentence(&mut rng, 40),
                    sentence(&mut rng, 10)
                ),
            });
        }
        all.push(conversation);
    }
    all
}

fn median_and_max(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], *times.last().unwrap())
}

#[test]
#[ignore = "a measurement, run by hand"]
fn search_10k_tasks() {
    let saved = conversations();
    let lines: usize = saved.iter().map(|c| lines::lines_of(c).len()).sum();
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let index = SearchIndex::open_in(dir.path(), &saved).unwrap();
    let rebuild = started.elapsed();
    let file = dir.path().join(FILE);
    let size = std::fs::metadata(&file).unwrap().len()
        + std::fs::metadata(wal(&file, "-wal")).map_or(0, |m| m.len());

    // An update as a task streams: one new line in a conversation of 30.
    let mut one = saved[17].clone();
    let mut updates = Vec::new();
    for i in 0..RUNS {
        one.items.push(ThreadItem::Progress {
            text: format!("Clicking the cell B{i}"),
        });
        let started = Instant::now();
        index.update(&one).unwrap();
        updates.push(started.elapsed());
        one.items.pop();
    }

    println!(
        "{TASKS} tasks, {} conversations, {lines} lines",
        saved.len()
    );
    println!(
        "rebuild: {rebuild:.2?}; index on disk: {:.1} MB",
        size as f64 / 1e6
    );
    let (median, max) = median_and_max(updates);
    println!("| an update (one new line) | {median:.2?} | {max:.2?} |");
    let queries = [
        ("a common word", "weather"),
        ("two common words", "weather invoice"),
        ("a prefix of two letters", "sp"),
        ("a prefix, as typed", "spreadsh"),
        ("a rare word", "aquamarine"),
        ("no match", "xylophone"),
        ("accented, unaccented", "zurich"),
    ];
    for (what, typed) in queries {
        let mut times = Vec::new();
        let mut hits = 0;
        for _ in 0..RUNS {
            let started = Instant::now();
            hits = index.search("demo", typed).unwrap().len();
            times.push(started.elapsed());
        }
        let (median, max) = median_and_max(times);
        println!("| {what} (`{typed}`, {hits} shown) | {median:.2?} | {max:.2?} |");
    }
}
