//! The store's files without any of the app's records: documents of each version, and a
//! folder of journals.

use std::fs;

use serde_json::{json, Value};

use super::*;

#[test]
fn a_document_from_a_newer_app_is_set_aside_not_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("library.json");
    fs::write(&path, br#"{"version": 2, "library": {"tasks": []}}"#).unwrap();
    let opened = Document::new(path.clone(), "library")
        .open::<Value>()
        .unwrap();
    assert_eq!(opened.value, None);
    let set_aside = opened.set_aside.unwrap();
    assert_eq!(set_aside.kept, Kept::Nothing);
    assert!(!path.exists());
    assert_eq!(
        fs::read(set_aside.moved_to).unwrap(),
        br#"{"version": 2, "library": {"tasks": []}}"#
    );
}

#[test]
fn a_document_of_either_version_reads_the_same_and_saves_as_version_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("usage.json");
    let doc = Document::new(path.clone(), "tasks");
    for text in [
        r#"{"tasks": {"a": 1}}"#,
        r#"{"version": 1, "tasks": {"a": 1}}"#,
    ] {
        fs::write(&path, text).unwrap();
        assert_eq!(doc.open::<Value>().unwrap().value, Some(json!({"a": 1})));
    }
    // What the plugin wrote before anything was set: nothing yet, not damage.
    fs::write(&path, "{}").unwrap();
    let opened = doc.open::<Value>().unwrap();
    assert!(opened.value.is_none() && opened.set_aside.is_none());
    doc.save(&json!({"b": 2})).unwrap();
    let saved: Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(saved, json!({"version": 1, "tasks": {"b": 2}}));
    assert_eq!(
        fs::read_to_string(atomic::previous(&path)).unwrap(),
        "{}",
        "the content it replaced is kept as the last good copy"
    );
}

#[test]
fn journals_keep_each_record_apart_and_forget_a_removed_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut journals = Journals::open(dir.path()).unwrap().journals;
    journals.save("a", json!({"n": 1})).unwrap();
    journals.save("odd/id", json!({"n": 2})).unwrap();
    journals.save("a", json!({"n": 3})).unwrap();
    journals.save("gone", json!({"n": 4})).unwrap();
    journals.remove("gone").unwrap();
    let mut records = Journals::open(dir.path()).unwrap().records;
    records.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        records,
        vec![
            ("a".to_owned(), json!({"n": 3})),
            ("odd/id".to_owned(), json!({"n": 2}))
        ]
    );
}
