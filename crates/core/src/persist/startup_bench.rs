//! Start-up and one task update against a data folder of 10,000 conversations, beside one
//! with none (or 10): how long the person's history holds back the first screen, and whether
//! the work of one update grows with the number of conversations (security review N10, N14).
//! A measurement, not a check: ignored, run by hand, figures in BENCHMARKS.md ("Start-up and
//! one update with 10,000 conversations").
//!
//! `nice -n 19 cargo test -p porthole-core --lib startup_bench -- --ignored --nocapture --test-threads 1`

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use porthole_client::approvals::ApprovalRequest;

use crate::connection::Connection;
use crate::conversations::usage::UsageStore;
use crate::conversations::{Conversation, Conversations, Notify, TaskStatus, ThreadItem};
use crate::persist::ConversationStore;
use crate::search::SearchIndex;

const MANY: usize = 10_000;
const FEW: usize = 10;
const UPDATES: usize = 50;
const STARTS: usize = 3;

/// A finished conversation of three tasks, as a person's history holds them: a request, the
/// agent's narration, a few progress lines and an answer each; one in ten failed.
fn conversation(i: usize) -> Conversation {
    let mut book = crate::conversations::model::ConversationBook::default();
    let mut c = book
        .create(
            format!("conv-{}-{i}", 1_700_000_000_000u64 + i as u64),
            "demo",
            &format!("m{}", i % 4),
            i as f64,
        )
        .clone();
    c.title = format!("Sales figures for week {i}");
    for t in 0..3 {
        c.items.push(ThreadItem::User {
            text: format!("Please open the sales sheet of week {i} and total column {t}"),
            joined: false,
            attachments: vec![],
        });
        c.items.push(ThreadItem::Narration {
            text: format!("I'll open the spreadsheet, find week {i} and add up column {t}."),
        });
        for p in 0..4 {
            c.items.push(ThreadItem::Progress {
                text: format!("Clicking the cell B{p} of sheet {t}"),
            });
        }
        c.items.push(ThreadItem::Answer {
            text: format!("## Done\n\nColumn {t} of week {i} totals **1,234.56**."),
        });
    }
    c.status = if i % 10 == 3 {
        TaskStatus::Failed
    } else {
        TaskStatus::Succeeded
    };
    c.updated_at = i as f64 + 0.5;
    c
}

/// A data folder as the app leaves it after `n` conversations: their journals and the
/// search index.
fn data_folder(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = ConversationStore::open_in(dir.path()).expect("store");
    store
        .write(|book| book.conversations = (0..n).map(conversation).collect())
        .expect("saved");
    let all = store.read(|b| b.conversations.clone());
    SearchIndex::open_in(dir.path(), &all).expect("index");
    dir
}

/// A start as the app makes it: the store made on the main thread and its journals read on a
/// thread of their own (`lib.rs`), then the search index opened there (checked as the start
/// checks it). Returns what held the main thread, when the list could be answered, and the
/// index's opening.
fn start(
    dir: &Path,
) -> (
    Duration,
    Duration,
    Duration,
    Arc<ConversationStore>,
    SearchIndex,
) {
    let started = Instant::now();
    let store = Arc::new(ConversationStore::loading());
    let (loader, folder) = (store.clone(), dir.to_owned());
    let loading = std::thread::spawn(move || loader.load(&folder).expect("loaded"));
    let main_thread = started.elapsed();
    // What a command asking for the list meanwhile sees, and when.
    let listed = store.read(|b| b.conversations.len());
    let answered = started.elapsed();
    loading.join().expect("the load");
    std::hint::black_box(listed);
    let started = Instant::now();
    let all = store.read(|b| b.conversations.clone());
    let index = SearchIndex::open_in(dir, &all).expect("index");
    (main_thread, answered, started.elapsed(), store, index)
}

struct Quiet;
impl Notify for Quiet {
    fn conversation_changed(&self, _: &Conversation, _: bool) {}
    fn needs_answer(&self, _: &Conversation, _: &ApprovalRequest) {}
    fn machine_starting(&self, _: &str) {}
    fn machines_changed(&self) {}
}

/// One progress line arriving in a running task, as `following` applies it: the change
/// handed to the writer, then the inbox the window would be shown.
fn one_update(core: &Conversations, inbox: &crate::inbox::Inbox, id: &str, n: usize) -> Duration {
    let connection = Connection::default().info();
    let started = Instant::now();
    let changed = core
        .change(id, |c| {
            c.items.push(ThreadItem::Progress {
                text: format!("Clicking the cell C{n}"),
            })
        })
        .expect("changed");
    // As `inbox::window::refresh_for` does.
    if !inbox.shows_change_of(&changed) {
        return started.elapsed();
    }
    let view = core.store().read(|book| {
        crate::inbox::derive(&crate::inbox::Sources {
            scope: Some("demo"),
            conversations: &book.conversations,
            connection: &connection,
            machines: &[],
            wake_failures: &HashMap::new(),
            dismissed: &HashSet::new(),
        })
    });
    std::hint::black_box(view);
    started.elapsed()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

#[test]
#[ignore = "a measurement, run by hand"]
fn startup_and_update_with_10k_conversations() {
    for n in [0, MANY] {
        let made = Instant::now();
        let dir = data_folder(n);
        println!("{n} conversations: folder made in {:.1?}", made.elapsed());
        let (mut mains, mut answers, mut indexes) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..STARTS {
            let (main_thread, answered, indexed, _, _) = start(dir.path());
            mains.push(main_thread);
            answers.push(answered);
            indexes.push(indexed);
        }
        println!(
            "| start, {n} conversations | main thread {:.1?} | list answered after {:.1?} | search index {:.1?} |",
            median(mains),
            median(answers),
            median(indexes)
        );
    }
    for n in [FEW, MANY] {
        let dir = data_folder(n);
        let store = ConversationStore::open_in(dir.path()).expect("store");
        let all = store.read(|b| b.conversations.clone());
        let index = SearchIndex::open_in(dir.path(), &all).expect("index");
        let usage = UsageStore::open_in(dir.path()).expect("usage");
        let core = Conversations::new(Connection::default(), store, usage, Arc::new(Quiet));
        core.index_into(Arc::new(index), &all);
        let id = core.store().read(|b| b.conversations[n / 2].id.clone());
        let inbox = crate::inbox::Inbox::open_in(dir.path());
        // The first update is seen by the inbox; the task's later lines are timed.
        one_update(&core, &inbox, &id, UPDATES);
        let times: Vec<_> = (0..UPDATES)
            .map(|u| one_update(&core, &inbox, &id, u))
            .collect();
        // The same, waiting each time for the writer to have it on disk and in the index.
        let written: Vec<_> = (0..UPDATES)
            .map(|u| {
                let started = Instant::now();
                one_update(&core, &inbox, &id, UPDATES + u);
                core.store().flush();
                started.elapsed()
            })
            .collect();
        println!(
            "| one update, {n} conversations | caller: median {:.2?}, slowest {:.2?} | written: median {:.2?}, slowest {:.2?} |",
            median(times.clone()),
            times.iter().max().expect("some"),
            median(written.clone()),
            written.iter().max().expect("some")
        );
    }
}
