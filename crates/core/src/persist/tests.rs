//! The conversation book, settings, library and usage on disk: what a restart sees, what a
//! crash costs, what happens to a file that cannot be read, and today's files read by the
//! next version. Each test opens the stores from a folder, as the app does at start.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::*;
use crate::conversations::usage::UsageStore;
use crate::conversations::{TaskStatus, ThreadItem};
use crate::reusable::library::Library;
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

fn whole(store: &ConversationStore) -> ConversationBook {
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
    assert!(words
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

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store/fixtures/v0")
}

/// A folder holding the four files exactly as the version with tauri-plugin-store wrote them.
fn todays_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for file in [
        "conversations.json",
        "settings.json",
        "library.json",
        "usage.json",
    ] {
        fs::copy(fixtures().join(file), dir.path().join(file)).unwrap();
    }
    dir
}

/// Everything `old` holds is in `now`, the same: fields a later version added (with their
/// defaults) may come beside it, but nothing of the old file may be lost or changed.
fn assert_kept(old: &Value, now: &Value, at: &str) {
    match (old, now) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                let here = format!("{at}.{key}");
                let kept = b.get(key).unwrap_or_else(|| panic!("{here} was lost"));
                assert_kept(value, kept, &here);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{at} kept every item");
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                assert_kept(x, y, &format!("{at}[{i}]"));
            }
        }
        _ => assert_eq!(old, now, "{at} kept its value"),
    }
}

/// The book as kept now: a failure keeps its code and time, a notice what happened and its
/// facts, an untitled conversation no title; their words are made when shown (`persist/saved_words_tests.rs` checks they are the
/// same words).
fn without_failure_words(mut book: Value) -> Value {
    let strip = |error: Option<&mut Value>| {
        if let Some(error) = error.and_then(Value::as_object_mut) {
            for words in ["title", "detail", "action"] {
                error.remove(words);
            }
        }
    };
    for c in book["conversations"].as_array_mut().unwrap() {
        strip(c.get_mut("failure"));
        // An untitled conversation is kept untitled, worded when shown.
        if c["title"] == "New conversation" {
            c["title"] = "".into();
        }
        for item in c["items"].as_array_mut().unwrap() {
            strip(item.get_mut("error"));
            if item["kind"] == "notice" {
                let said = item["text"].as_str().unwrap();
                let notice = crate::conversations::Notice::from_saved_words(said);
                *item = serde_json::to_value(crate::conversations::ThreadItem::Notice { notice })
                    .unwrap();
            }
        }
    }
    book
}

fn fixture(file: &str, key: &str) -> Value {
    let doc: Value = serde_json::from_slice(&fs::read(fixtures().join(file)).unwrap()).unwrap();
    doc[key].clone()
}

#[test]
fn todays_files_migrate_with_everything_kept() {
    let dir = todays_files();
    let check = |dir: &Path| {
        let conversations = ConversationStore::open_in(dir).unwrap();
        assert_kept(
            &without_failure_words(fixture("conversations.json", "book")),
            &serde_json::to_value(whole(&conversations)).unwrap(),
            "book",
        );
        assert!(conversations.set_aside().is_empty());
        let settings = SettingsStore::open_in(dir).unwrap();
        assert_kept(
            &fixture("settings.json", "settings"),
            &serde_json::to_value(settings.get()).unwrap(),
            "settings",
        );
        let library = Library::open_in(dir).unwrap();
        assert_kept(
            &fixture("library.json", "library"),
            &library.read(|b| serde_json::to_value(b).unwrap()),
            "library",
        );
        let usage = UsageStore::open_in(dir).unwrap();
        let paris = conversations.get("conv-1700000000000-1").unwrap();
        assert_kept(
            &fixture("usage.json", "tasks")["conversations"]["conv-1700000000000-1"],
            &serde_json::to_value(usage.tasks(&paris)).unwrap(),
            "usage",
        );
        (settings, library)
    };
    let (settings, library) = check(dir.path());
    assert!(!dir.path().join("conversations.json").exists());
    assert!(dir
        .path()
        .join("conversations/conv-1700000000000-1.jsonl")
        .exists());
    // Saved again in the new form, and read back the same.
    settings.update(|_| {}).unwrap();
    library.write(|_| {}).unwrap();
    let saved: Value =
        serde_json::from_slice(&fs::read(dir.path().join("settings.json")).unwrap()).unwrap();
    assert_eq!(saved["version"], json!(1));
    check(dir.path());
}

#[test]
fn an_unreadable_old_book_is_set_aside_not_emptied() {
    let dir = todays_files();
    let path = dir.path().join("conversations.json");
    let bytes = fs::read(&path).unwrap();
    let truncated = &bytes[..bytes.len() / 2];
    fs::write(&path, truncated).unwrap();

    let store = ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(store.set_aside().len(), 1);
    assert_eq!(fs::read(&store.set_aside()[0].moved_to).unwrap(), truncated);
    assert!(whole(&store).conversations.is_empty());
    store
        .write(|b| b.create("new".into(), "demo", "m1", 1.0).clone())
        .unwrap();
    assert_eq!(fs::read(&store.set_aside()[0].moved_to).unwrap(), truncated);
}

#[test]
fn unreadable_settings_start_from_the_last_good_copy_and_stay_aside() {
    let dir = tempfile::tempdir().unwrap();
    let settings = SettingsStore::open_in(dir.path()).unwrap();
    settings
        .update(|s| s.connected("https://one.example"))
        .unwrap();
    settings
        .update(|s| s.connected("https://two.example"))
        .unwrap();
    drop(settings);
    let path = dir.path().join("settings.json");
    fs::write(&path, b"{\"version\":1,\"settings\":{\"accountBaseUrl\":").unwrap();

    let again = SettingsStore::open_in(dir.path()).unwrap();
    assert_eq!(
        again.get().account_base_url.as_deref(),
        Some("https://one.example")
    );
    let set_aside = again.kept.set_aside().unwrap().clone();
    assert_eq!(set_aside.kept, Kept::LastGoodCopy);
    let name = set_aside.moved_to.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with("settings.unreadable-20") && name.ends_with(".json"),
        "{name}"
    );
    again.update(|s| s.signed_out()).unwrap();
    again.update(|s| s.signed_out()).unwrap();
    assert_eq!(
        fs::read(&set_aside.moved_to).unwrap(),
        b"{\"version\":1,\"settings\":{\"accountBaseUrl\":"
    );
}

#[test]
fn a_crash_mid_settings_write_keeps_the_last_complete_save() {
    let dir = tempfile::tempdir().unwrap();
    let settings = SettingsStore::open_in(dir.path()).unwrap();
    settings
        .update(|s| s.connected("https://one.example"))
        .unwrap();
    drop(settings);
    fs::write(dir.path().join("settings.tmp.json"), b"{\"vers").unwrap();
    let again = SettingsStore::open_in(dir.path()).unwrap();
    assert_eq!(
        again.get().account_base_url.as_deref(),
        Some("https://one.example")
    );
    assert!(again.kept.set_aside().is_none());
}

#[test]
fn an_unreadable_library_is_set_aside_and_reported() {
    let dir = todays_files();
    let path = dir.path().join("library.json");
    fs::write(&path, b"{\"library\": {\"tasks\": [{\"id\": 7}]}}").unwrap();
    let library = Library::open_in(dir.path()).unwrap();
    let set_aside = library.set_aside().unwrap().clone();
    assert_eq!(set_aside.kept, Kept::Nothing);
    assert!(library.read(|b| b.tasks.is_empty()));
    library.write(|_| {}).unwrap();
    assert_eq!(
        fs::read(&set_aside.moved_to).unwrap(),
        b"{\"library\": {\"tasks\": [{\"id\": 7}]}}"
    );
    let words = crate::words::stored::set_aside(crate::words::stored::Stored::Library, &set_aside);
    assert_eq!(words.code, crate::UiCode::StoredDataSetAside);
    assert!(words
        .detail
        .contains(&set_aside.moved_to.display().to_string()));
}
