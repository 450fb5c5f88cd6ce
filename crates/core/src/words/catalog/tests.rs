//! The catalog is complete in every language: these fail when a key is missing in one of
//! them, when the two disagree on a message's holes or plural forms, or when the Rust code asks
//! for a key the catalog lacks. The page's side is checked by the type check (a key must be in
//! the English catalog, and the German one must have the English one's shape) and by
//! `ui/src/lib/i18n/catalog.test.ts`.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use super::*;

const PLURAL_CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

fn holes(sentence: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = sentence;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('}') else { break };
        found.insert(after[..end].to_owned());
        rest = &after[end + 1..];
    }
    found
}

fn message_holes(message: &Message) -> BTreeSet<String> {
    match message {
        Message::Text(s) => holes(s),
        Message::Plural(forms) => forms.values().flat_map(|s| holes(s)).collect(),
    }
}

#[test]
fn every_part_of_the_catalog_is_an_object_of_messages_in_both_languages() {
    for (language, parts) in [("en", ENGLISH), ("de", GERMAN)] {
        for (part, json) in parts {
            let read: Result<HashMap<String, Message>, _> = serde_json::from_str(json);
            assert!(read.is_ok(), "locales/{language}/{part}.json: {read:?}");
        }
    }
    let names = |parts: Parts| parts.iter().map(|(p, _)| *p).collect::<Vec<_>>();
    assert_eq!(
        names(ENGLISH),
        names(GERMAN),
        "the same parts in both languages"
    );
}

#[test]
fn german_has_every_english_key_and_no_other() {
    let en = parse(ENGLISH);
    let de = parse(GERMAN);
    let missing: BTreeSet<_> = en.keys().filter(|k| !de.contains_key(*k)).collect();
    let extra: BTreeSet<_> = de.keys().filter(|k| !en.contains_key(*k)).collect();
    assert!(missing.is_empty(), "missing in German: {missing:?}");
    assert!(extra.is_empty(), "in German only: {extra:?}");
}

#[test]
fn both_languages_fill_the_same_holes_and_plurals_are_complete() {
    let en = parse(ENGLISH);
    let de = parse(GERMAN);
    for (key, english) in &en {
        let Some(german) = de.get(key) else { continue };
        assert_eq!(
            message_holes(english),
            message_holes(german),
            "{key}: the holes differ"
        );
        for message in [english, german] {
            match message {
                Message::Text(s) => assert!(!s.trim().is_empty(), "{key} is empty"),
                Message::Plural(forms) => {
                    assert!(
                        forms.contains_key("one") && forms.contains_key("other"),
                        "{key}: a plural needs `one` and `other`"
                    );
                    for form in forms.keys() {
                        assert!(
                            PLURAL_CATEGORIES.contains(&form.as_str()),
                            "{key}: `{form}` is no plural category"
                        );
                    }
                    assert!(
                        message_holes(message).contains("count"),
                        "{key}: a plural is chosen by {{count}}"
                    );
                }
            }
        }
    }
}

/// Every literal key the Rust code asks for (`text("part.name"` or `text_with("part.name"`,
/// `text_in(language, "part.name"`) is in the catalog.
#[test]
fn every_key_the_rust_code_asks_for_is_in_the_catalog() {
    let en = parse(ENGLISH);
    let mut asked = Vec::new();
    // The core's code and the desktop shell's both ask for words.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    collect_keys(&root.join("src"), &mut asked);
    collect_keys(&root.join("../../src-tauri/src"), &mut asked);
    assert!(
        asked.len() > 50,
        "the scan found the source: {}",
        asked.len()
    );
    let missing: Vec<_> = asked.iter().filter(|(_, k)| !en.contains_key(k)).collect();
    assert!(missing.is_empty(), "keys not in the catalog: {missing:?}");
}

fn collect_keys(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_keys(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("catalog/tests.rs")
        {
            let source = std::fs::read_to_string(&path).unwrap_or_default();
            for call in [
                "text(\"",
                "text_with(\"",
                "Language::En, \"",
                "Language::De, \"",
            ] {
                for (at, _) in source.match_indices(call) {
                    let rest = &source[at + call.len()..];
                    if let Some(end) = rest.find('"') {
                        let key = &rest[..end];
                        if key.contains('.') && !key.contains(' ') {
                            out.push((path.display().to_string(), key.to_owned()));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn holes_are_filled_and_plurals_chosen_by_count() {
    let mut forms = HashMap::new();
    forms.insert("one".to_owned(), "{count} needs you".to_owned());
    forms.insert("other".to_owned(), "{count} need you".to_owned());
    let plural = Message::Plural(forms);
    let pick = |n: u64| match &plural {
        Message::Plural(forms) => fill(
            &forms[plural_category(Language::En, n)],
            &[("count", n.into())],
        ),
        Message::Text(_) => unreachable!(),
    };
    assert_eq!(pick(1), "1 needs you");
    assert_eq!(pick(0), "0 need you");
    assert_eq!(pick(3), "3 need you");
    assert_eq!(
        fill("Hello {name}, {name}!", &[("name", "Ada".into())]),
        "Hello Ada, Ada!"
    );
}

#[test]
fn a_missing_key_reads_as_itself_rather_than_ending_the_app() {
    assert_eq!(text_in(Language::De, "nowhere.atAll", &[]), "nowhere.atAll");
}
