//! Bytes written per task event, the new way (one journal line per conversation changed)
//! and the old (the whole book serialized and rewritten, as tauri-plugin-store saved it).
//! A measurement, not a check: ignored, run by hand, figures in BENCHMARKS.md.
//!
//! `cargo test -p porthole-core --lib bytes_written_per_event -- --ignored --nocapture`

use std::collections::HashMap;
use std::path::Path;

use porthole_client::FollowerState;

use super::*;
use crate::conversations::{TaskStatus, ThreadItem};

const CONVERSATIONS: usize = 100;
const ITEMS: usize = 1_000;

/// Bytes this process has handed to `write` and its kin so far (Linux).
fn written() -> u64 {
    let io = std::fs::read_to_string("/proc/self/io").expect("/proc/self/io (Linux only)");
    io.lines()
        .find_map(|l| l.strip_prefix("wchar: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("wchar in /proc/self/io")
}

fn item(i: usize) -> ThreadItem {
    match i % 5 {
        0 => ThreadItem::Narration {
            text: format!("I opened the spreadsheet and I am reading row {i} of the sales table."),
        },
        1 => ThreadItem::Progress {
            text: format!("Clicking the cell B{i}"),
        },
        2 => ThreadItem::Tool {
            name: "computer".into(),
            title: Some(format!("Type the value for row {i}")),
        },
        3 => ThreadItem::Status {
            text: "The computer is ready".into(),
            about: None,
        },
        _ => ThreadItem::Answer {
            text: format!("Row {i} now holds **1,234.56** and the total is updated."),
        },
    }
}

fn book() -> ConversationBook {
    let mut book = ConversationBook::default();
    for c in 0..CONVERSATIONS {
        let id = format!("conv-1700000000000-{c}");
        book.create(id.clone(), "demo", "m1", c as f64);
        let conversation = book.get_mut(&id).expect("just made");
        conversation.items = (0..ITEMS).map(item).collect();
        conversation.status = TaskStatus::Running;
        conversation.follower = Some(FollowerState {
            session_id: Some(format!("sess_{c}")),
            cursor: Some("0".into()),
            turn_id: Some(format!("turn_{c}")),
            ..FollowerState::default()
        });
    }
    book
}

/// The `n`th event of a running task: a narration line growing, a progress line added, or
/// the status changing, each moving the follower's cursor as the app's updates do.
fn event(c: &mut Conversation, n: usize) {
    match n % 3 {
        0 => match c.items.last_mut() {
            Some(ThreadItem::Narration { text }) => text.push_str(" and then the next cell"),
            _ => c.items.push(ThreadItem::Narration {
                text: "Now I am filling in".into(),
            }),
        },
        1 => {
            let text = format!("Clicking the cell C{n}");
            if let Some(f) = &mut c.follower {
                f.delivered.fingerprints.push(format!("progress:{text}"));
                f.delivered.replayable += 1;
            }
            c.items.push(ThreadItem::Progress { text });
        }
        _ => {
            c.status = match c.status {
                TaskStatus::Running => TaskStatus::NeedsApproval,
                _ => TaskStatus::Running,
            }
        }
    }
    c.updated_at += 1.0;
    if let Some(f) = &mut c.follower {
        f.cursor = Some(format!("{n}"));
    }
}

/// What tauri-plugin-store wrote on each save: the whole key map, pretty printed.
fn save_whole(path: &Path, book: &ConversationBook) {
    let cache = HashMap::from([("book", serde_json::to_value(book).unwrap())]);
    std::fs::write(path, serde_json::to_vec_pretty(&cache).unwrap()).unwrap();
}

#[test]
#[ignore]
fn bytes_written_per_event() {
    let id = "conv-1700000000000-7";

    // Before: one event, one whole book on disk.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("conversations.json");
    let mut old = book();
    save_whole(&path, &old);
    let old_events = 20;
    let start = written();
    for n in 0..old_events {
        event(old.get_mut(id).unwrap(), n);
        save_whole(&path, &old);
    }
    let before = (written() - start) / old_events as u64;

    // After: the same events through the conversation store.
    let dir = tempfile::tempdir().unwrap();
    let store = ConversationStore::open_in(dir.path()).unwrap();
    store.write(|b| *b = book()).unwrap();
    let new_events = 6_000;
    let start = written();
    for n in 0..new_events {
        store.update(id, |c| event(c, n)).unwrap();
    }
    let after = (written() - start) / new_events as u64;
    let journal = std::fs::metadata(dir.path().join(format!("conversations/{id}.jsonl")))
        .unwrap()
        .len();

    println!(
        "{CONVERSATIONS} conversations x {ITEMS} items: before {before} bytes per event \
         ({old_events} events), after {after} bytes per event ({new_events} events, \
         rewrites included; journal now {journal} bytes)"
    );
    let reopened = ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(reopened.get(id).unwrap(), store.get(id).unwrap());
}
