//! The conversation book on disk: what a restart sees, what a crash costs, what happens to a
//! file that cannot be read. Each test opens the stores from a folder, as the app does at
//! start. Settings, the library and the files of earlier versions: `kept_files_tests.rs`.

use std::fs;
use std::path::{Path, PathBuf};

use super::*;
use crate::conversations::{TaskStatus, ThreadItem};
use crate::store::Kept;

fn journal_path(dir: &Path, id: &str) -> PathBuf {
    dir.join("conversations").join(format!("{id}.jsonl"))
}

/// A book with `n` conversations as the app makes them.
fn book_of(dir: &Path, n: usize) -> ConversationStore {
    let store = ConversationStore::open_in(dir).unwrap();
    for i in 0..n {
        store
            .write(|b| b.create(format!("c{i}"), "demo", "m1", i as f64).clone())
            .unwrap();
        store
            .update(&format!("c{i}"), |c| {
                c.record_user_message(&format!("task {i}"), false, i as f64)
            })
            .unwrap();
    }
    store
}

fn say(store: &ConversationStore, id: &str, text: &str) {
    store
        .update(id, |c| {
            c.items.push(ThreadItem::Progress { text: text.into() });
            c.updated_at += 1.0;
        })
        .unwrap();
}

pub(super) fn whole(store: &ConversationStore) -> ConversationBook {
    store.read(ConversationBook::clone)
}

#[test]
fn a_restart_sees_exactly_what_was_written() {
    let dir = tempfile::tempdir().unwrap();
    let store = book_of(dir.path(), 3);
    for i in 0..50 {
        say(&store, "c1", &format!("step {i}"));
    }
    store
        .update("c2", |c| {
            c.record_stopped(9.0);
            c.title = "Renamed".into();
        })
        .unwrap();
    store
        .update("c0", |c| {
            c.items.remove(0);
            c.status = TaskStatus::Succeeded;
        })
        .unwrap();
    let before = whole(&store);
    drop(store);

    let again = ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(whole(&again), before);
    assert!(again.set_aside().is_empty());
}

#[test]
fn a_task_event_writes_to_its_own_conversation_only_and_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let store = book_of(dir.path(), 3);
    store.flush();
    let other = fs::read(journal_path(dir.path(), "c0")).unwrap();
    let before = fs::read(journal_path(dir.path(), "c1")).unwrap();

    say(&store, "c1", "Opening the browser");
    store.flush();

    assert_eq!(fs::read(journal_path(dir.path(), "c0")).unwrap(), other);
    let after = fs::read(journal_path(dir.path(), "c1")).unwrap();
    assert!(after.starts_with(&before), "appended, not rewritten");
    let line = String::from_utf8(after[before.len()..].to_vec()).unwrap();
    assert!(
        line.contains("Opening the browser") && !line.contains("task 1"),
        "{line}"
    );
}

#[test]
fn a_crash_mid_append_loses_the_last_change_only() {
    let dir = tempfile::tempdir().unwrap();
    let store = book_of(dir.path(), 2);
    say(&store, "c1", "kept");
    let kept = whole(&store);
    say(&store, "c1", "cut short");
    drop(store);
    // The crash: the last line reached the disk only in part.
    let path = journal_path(dir.path(), "c1");
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() - 7]).unwrap();

    let again = ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(whole(&again), kept);
    assert!(
        again.set_aside().is_empty(),
        "a cut last line is a crash, not damage"
    );
    // The next save does not land after the cut line.
    say(&again, "c1", "after the crash");
    let expected = whole(&again);
    drop(again);
    assert_eq!(
        whole(&ConversationStore::open_in(dir.path()).unwrap()),
        expected
    );
}

#[test]
fn a_crash_mid_rewrite_keeps_the_last_complete_save() {
    let dir = tempfile::tempdir().unwrap();
    let store = book_of(dir.path(), 2);
    say(&store, "c0", "kept");
    let kept = whole(&store);
    drop(store);
    let path = journal_path(dir.path(), "c0");
    // Cut before the new file took the name: a temporary file half written.
    fs::write(
        store_sibling(&path, "tmp"),
        b"{\"version\":1,\"id\":\"c0\",\"snap",
    )
    .unwrap();
    assert_eq!(
        whole(&ConversationStore::open_in(dir.path()).unwrap()),
        kept
    );
    // Cut between the two renames: only the last good copy holds the name's content.
    fs::rename(&path, store_sibling(&path, "prev")).unwrap();
    assert_eq!(
        whole(&ConversationStore::open_in(dir.path()).unwrap()),
        kept
    );
}

fn store_sibling(path: &Path, tag: &str) -> PathBuf {
    crate::store::atomic::sibling(path, tag)
}

#[test]
fn an_unreadable_conversation_is_set_aside_reported_and_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let store = book_of(dir.path(), 2);
    drop(store);
    let path = journal_path(dir.path(), "c0");
    let garbage = b"\0\0\0 not a journal \xff".to_vec();
    fs::write(&path, &garbage).unwrap();

    let again = ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(again.set_aside().len(), 1);
    let set_aside = &again.set_aside()[0].clone();
    assert_eq!(set_aside.kept, Kept::Nothing);
    let name = set_aside.moved_to.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("c0.unreadable-20") && name.ends_with(".jsonl"),
        "{name}"
    );
    assert_eq!(fs::read(&set_aside.moved_to).unwrap(), garbage);
    assert!(again.get("c1").is_ok(), "the others are still there");
    let words =
        crate::words::stored::set_aside(crate::words::stored::Stored::Conversations, set_aside);
    // Where it went is shown in the file manager ("Show the file"), never said as a path.
    assert_eq!(words.action, Some(crate::UiAction::ShowFile));
    assert!(!words
        .detail
        .contains(&set_aside.moved_to.display().to_string()));

    // Saving and a new conversation under the same id leave the set-aside file as it was.
    again
        .write(|b| b.create("c0".into(), "demo", "m1", 5.0).clone())
        .unwrap();
    say(&again, "c1", "more");
    drop(again);
    ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(fs::read(&set_aside.moved_to).unwrap(), garbage);
}

#[test]
fn a_journal_that_is_not_a_conversation_is_set_aside_and_the_others_kept() {
    let dir = tempfile::tempdir().unwrap();
    drop(book_of(dir.path(), 2));
    let path = journal_path(dir.path(), "c0");
    let odd = b"{\"version\":1,\"id\":\"c0\",\"snapshot\":{\"id\":\"c0\"}}\n".to_vec();
    fs::write(&path, &odd).unwrap();

    let again = ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(again.set_aside().len(), 1);
    assert_eq!(fs::read(&again.set_aside()[0].moved_to).unwrap(), odd);
    assert!(again.get("c0").is_err());
    assert!(again.get("c1").is_ok());
}

#[test]
fn an_unreadable_conversation_starts_from_its_last_good_copy() {
    let dir = tempfile::tempdir().unwrap();
    let store = book_of(dir.path(), 1);
    // Long enough for the journal to be rewritten at least once, which keeps a copy.
    for i in 0..600 {
        say(&store, "c0", &format!("step {i} {}", "x".repeat(40)));
    }
    drop(store);
    let path = journal_path(dir.path(), "c0");
    let previous = crate::store::atomic::previous(&path);
    let good: Conversation = match crate::store::journal::read(&previous).unwrap() {
        crate::store::journal::Read::Whole(copy) => serde_json::from_value(copy.value).unwrap(),
        other => panic!("the last good copy reads whole: {other:?}"),
    };
    fs::write(&path, b"{torn").unwrap();

    let again = ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(again.set_aside().len(), 1);
    assert_eq!(again.set_aside()[0].kept, Kept::LastGoodCopy);
    assert_eq!(fs::read(&again.set_aside()[0].moved_to).unwrap(), b"{torn");
    assert_eq!(again.get("c0").unwrap(), good);
    assert!(
        good.items.len() > 100,
        "the copy holds the conversation, not an empty one"
    );
}

#[test]
fn a_damaged_line_keeps_the_conversation_up_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = book_of(dir.path(), 1);
    say(&store, "c0", "one");
    let kept = whole(&store);
    say(&store, "c0", "two");
    say(&store, "c0", "three");
    drop(store);
    let path = journal_path(dir.path(), "c0");
    let text = fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let damaged = lines.len() - 2;
    let mut broken: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    broken[damaged] = "[{\"push\":[[\"nowhere\"],[1]]}]".into();
    fs::write(&path, broken.join("\n") + "\n").unwrap();

    let again = ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(whole(&again), kept);
    assert_eq!(again.set_aside()[0].kept, Kept::ReadablePart);
    assert_eq!(
        fs::read_to_string(&again.set_aside()[0].moved_to).unwrap(),
        broken.join("\n") + "\n"
    );
}

#[test]
fn a_long_journal_is_rewritten_as_one_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let store = book_of(dir.path(), 1);
    for i in 0..2000 {
        store
            .update("c0", |c| {
                c.items.push(ThreadItem::Narration {
                    text: format!("n{i}"),
                });
                c.updated_at += 1.0;
            })
            .unwrap();
    }
    store.flush();
    let path = journal_path(dir.path(), "c0");
    let snapshot_len =
        crate::store::journal::snapshot("c0", &to_value(&store.get("c0").unwrap()).unwrap())
            .unwrap()
            .len();
    let len = fs::metadata(&path).unwrap().len() as usize;
    assert!(
        len <= 4 * snapshot_len.max(16 * 1024) + 1024,
        "{len} bytes for a {snapshot_len}-byte snapshot"
    );
    let expected = whole(&store);
    drop(store);
    assert_eq!(
        whole(&ConversationStore::open_in(dir.path()).unwrap()),
        expected
    );
}
