//! Settings, the library and usage on disk, and today's files read by the next version:
//! nothing an earlier version wrote is lost, and a file that cannot be read is set aside.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::tests::whole;
use super::*;
use crate::conversations::usage::UsageStore;
use crate::reusable::library::Library;
use crate::store::Kept;

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
    assert_eq!(words.action, Some(crate::UiAction::ShowFile));
    assert!(!words
        .detail
        .contains(&set_aside.moved_to.display().to_string()));
}
