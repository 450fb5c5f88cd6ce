//! The index on its own: what goes in, what a query finds, what odd input does, and rebuilding
//! from the saved conversations. (Following a task into the index, against the simulator, is
//! in `conversations/tests/search.rs`.)

use super::*;
use crate::conversations::model::{ConversationBook, Speaker};
use crate::conversations::ThreadItem;

fn conversation(id: &str, scope: &str, items: Vec<ThreadItem>) -> Conversation {
    let mut book = ConversationBook::default();
    let mut c = book.create(id.into(), scope, "m1", 1.0).clone();
    c.title = format!("Title of {id}");
    c.items = items;
    c
}

fn user(text: &str, files: &[&str]) -> ThreadItem {
    ThreadItem::User {
        text: text.into(),
        joined: false,
        attachments: files.iter().map(|f| f.to_string()).collect(),
    }
}

fn answer(text: &str) -> ThreadItem {
    ThreadItem::Answer { text: text.into() }
}

fn sample() -> Vec<Conversation> {
    vec![
        conversation(
            "c1",
            "demo",
            vec![
                user("Find the weather in Lisbon", &["itinerary.pdf"]),
                ThreadItem::Status {
                    text: "Waking the computer".into(),
                    about: None,
                },
                ThreadItem::Narration {
                    text: "I'll open the browser".into(),
                },
                ThreadItem::Progress {
                    text: "Typing the city".into(),
                },
                answer("It is sunny in Lisbon, 24 °C."),
            ],
        ),
        conversation(
            "c2",
            "demo",
            vec![
                user("Book a table in Zürich", &[]),
                answer("Reserved at Café Zähringer for 8 pm."),
                ThreadItem::Elsewhere {
                    by: Speaker::Person,
                    text: "also check the trains".into(),
                },
            ],
        ),
        conversation(
            "c3",
            "https://api.example.com",
            vec![user("Find the weather in Lisbon on my account", &[])],
        ),
    ]
}

fn open(dir: &Path, saved: &[Conversation]) -> SearchIndex {
    SearchIndex::open_in(dir, saved).expect("the index opens")
}

fn found(index: &SearchIndex, typed: &str) -> Vec<(String, u32, String)> {
    index
        .search("demo", typed)
        .unwrap()
        .into_iter()
        .map(|h| (h.conversation_id, h.item, h.kind))
        .collect()
}

#[test]
fn tasks_answers_narration_progress_and_file_names_are_found_where_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let index = open(dir.path(), &sample());

    assert_eq!(found(&index, "sunny"), [("c1".into(), 4, "answer".into())]);
    assert_eq!(
        found(&index, "browser"),
        [("c1".into(), 2, "narration".into())]
    );
    assert_eq!(
        found(&index, "typing city"),
        [("c1".into(), 3, "progress".into())]
    );
    assert_eq!(
        found(&index, "itinerary"),
        [("c1".into(), 0, "task".into())]
    );
    assert_eq!(
        found(&index, "trains"),
        [("c2".into(), 2, "elsewhere".into())]
    );
    // Delivery news is not what a person looks for.
    assert!(found(&index, "waking").is_empty());
    // Only the active service's conversations: the account's Lisbon task is not the Demo's.
    let lisbon = found(&index, "lisbon");
    assert!(lisbon.iter().all(|(c, _, _)| c == "c1"), "{lisbon:?}");
    assert_eq!(
        index
            .search("https://api.example.com", "lisbon")
            .unwrap()
            .len(),
        1
    );

    let hit = &index.search("demo", "sunny").unwrap()[0];
    assert_eq!(hit.title, "Title of c1");
    assert_eq!(hit.machine_id, "m1");
    assert!(
        hit.excerpt
            .contains(&format!("{MARK_START}sunny{MARK_END}")),
        "{:?}",
        hit.excerpt
    );
}

#[test]
fn an_answer_in_markdown_is_found_and_shown_without_its_marks() {
    let dir = tempfile::tempdir().unwrap();
    let saved = vec![conversation(
        "c1",
        "demo",
        vec![
            user("Find the cheapest offer", &[]),
            answer("## Price\n\n**The best price found is $24.99** at [the shop](https://shop.example/deal)."),
        ],
    )];
    let index = open(dir.path(), &saved);
    let hits = index.search("demo", "price").unwrap();
    assert_eq!(hits.len(), 1, "{hits:?}");
    let hit = &hits[0];
    assert_eq!(hit.kind, "answer");
    let shown: String = hit
        .excerpt
        .chars()
        .filter(|c| *c != MARK_START && *c != MARK_END)
        .collect();
    assert!(
        shown.contains("The best price found is $24.99 at the shop."),
        "{shown:?}"
    );
    for mark in ["**", "##", "](", "https://"] {
        assert!(!shown.contains(mark), "{mark} in {shown:?}");
    }
    // The link's address is not a word of the answer.
    assert!(index.search("demo", "deal").unwrap().is_empty());
}

#[test]
fn half_typed_words_accents_and_case_all_find() {
    let dir = tempfile::tempdir().unwrap();
    let index = open(dir.path(), &sample());
    assert_eq!(found(&index, "sun").len(), 1, "a prefix finds while typing");
    assert_eq!(found(&index, "SUNNY lis").len(), 1, "every word, any case");
    assert_eq!(found(&index, "zurich").len(), 1, "without the accent");
    assert_eq!(found(&index, "zähringer").len(), 1, "with it");
    assert!(
        found(&index, "sunny trains").is_empty(),
        "all words on one line"
    );
}

#[test]
fn odd_input_finds_what_its_words_find_and_never_fails() {
    let dir = tempfile::tempdir().unwrap();
    let index = open(dir.path(), &sample());
    let odd = [
        "",
        "   ",
        "\"",
        "\"\"",
        "*",
        "**",
        "\"sunny",
        "sunny\"",
        "sun*",
        "*sun",
        "-sunny",
        "NOT sunny",
        "sunny OR",
        "AND",
        "NEAR(sunny lisbon)",
        "lines_fts:sunny",
        "text:sunny",
        "(",
        ")",
        "^sunny",
        "{sunny}",
        "sunny;DROP TABLE lines",
        "'",
        "\\",
        "\0",
        "\u{2}",
        "🙂",
        "東京",
        "ß",
        "\u{301}",
        "e\u{301}",
        "%_",
        "sunny\nlisbon",
    ];
    for typed in odd {
        let hits = index.search("demo", typed);
        assert!(hits.is_ok(), "{typed:?}: {hits:?}");
    }
    assert_eq!(found(&index, "\"sunny").len(), 1);
    assert_eq!(
        found(&index, "NEAR(sunny lisbon)").len(),
        0,
        "NEAR is only a word here"
    );
    assert_eq!(found(&index, "sunny;DROP TABLE lines").len(), 0);
    assert_eq!(
        found(&index, "sunny").len(),
        1,
        "and the index is still there"
    );
    let long = "sunny ".repeat(10_000);
    assert_eq!(
        found(&index, &long).len(),
        1,
        "a pasted page is cut to its first words"
    );
}

#[test]
fn a_change_rewrites_only_what_changed_and_is_found_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut saved = sample();
    let index = open(dir.path(), &saved);
    let c1 = &mut saved[0];
    c1.items.push(answer("Tomorrow brings rain."));
    c1.title = "Lisbon weather".into();
    index.update(c1).unwrap();
    assert_eq!(found(&index, "rain"), [("c1".into(), 5, "answer".into())]);
    assert_eq!(
        index.search("demo", "rain").unwrap()[0].title,
        "Lisbon weather"
    );

    // A line that changed in place (the oldest dropped, so every line moved up) is found at
    // its new place, and only there.
    c1.items.remove(0);
    index.update(c1).unwrap();
    assert_eq!(found(&index, "rain"), [("c1".into(), 4, "answer".into())]);
    assert!(found(&index, "itinerary").is_empty());
    assert_eq!(indexed_lines(&index, "c1"), 4);
}

#[test]
fn a_missing_damaged_or_older_index_is_rebuilt_from_the_conversations() {
    let dir = tempfile::tempdir().unwrap();
    let saved = sample();
    drop(open(dir.path(), &saved));
    let file = dir.path().join(FILE);
    assert!(file.exists());

    // Kept as it was: reopening reads it, and does not need the conversations.
    let reopened = open(dir.path(), &[]);
    assert_eq!(found(&reopened, "sunny").len(), 1);
    drop(reopened);

    // Missing.
    std::fs::remove_file(&file).unwrap();
    let _ = std::fs::remove_file(wal(&file, "-wal"));
    assert_eq!(found(&open(dir.path(), &saved), "sunny").len(), 1);

    // Damaged: not a database at all.
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(wal(&file, suffix));
    }
    std::fs::write(&file, b"this is not an index").unwrap();
    assert_eq!(found(&open(dir.path(), &saved), "sunny").len(), 1);

    // Of another version.
    {
        let db = Db::open(&file).unwrap();
        db.pragma_update(None, "user_version", VERSION + 1).unwrap();
    }
    let rebuilt = open(dir.path(), &saved);
    assert_eq!(found(&rebuilt, "sunny").len(), 1);
    let version: i64 = rebuilt
        .lock()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, VERSION);
}

#[test]
fn a_folder_that_cannot_hold_the_index_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_folder = dir.path().join("file");
    std::fs::write(&not_a_folder, b"x").unwrap();
    assert!(SearchIndex::open_in(&not_a_folder, &sample()).is_err());
}

/// Every line of every conversation is in the index: its files are the person's alone, also
/// ones an earlier version left readable by others (security review N9).
#[cfg(unix)]
#[test]
fn the_index_files_are_readable_by_the_person_alone() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE);

    let index = SearchIndex::open_in(dir.path(), &sample()).unwrap();
    assert!(!index.search("demo", "weather").unwrap().is_empty());
    for file in [path.clone(), wal(&path, "-wal"), wal(&path, "-shm")] {
        if file.exists() {
            assert_eq!(mode(&file), 0o600, "{}", file.display());
        }
    }
    assert_eq!(mode(&path), 0o600, "the index itself");
    drop(index);

    for file in [path.clone(), wal(&path, "-wal"), wal(&path, "-shm")] {
        if file.exists() {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
    let reopened = SearchIndex::open_in(dir.path(), &sample()).unwrap();
    for file in [path.clone(), wal(&path, "-wal"), wal(&path, "-shm")] {
        if file.exists() {
            assert_eq!(mode(&file), 0o600, "narrowed: {}", file.display());
        }
    }
    drop(reopened);
}

/// The whole index is checked (and, found damaged, rebuilt) only at a start after a run that
/// did not end cleanly; after a clean end it opens as it was, unread (security review N10).
#[test]
fn the_index_is_checked_whole_only_after_a_run_that_did_not_end_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let index = open(dir.path(), &sample());
    assert!(!found(&index, "lisbon").is_empty());
    // Damage that only the full checks see: FTS5's own pages of words, zeroed; SQLite's
    // tables around them stay sound.
    index
        .lock()
        .execute(
            "UPDATE lines_fts_data SET block = zeroblob(length(block)) WHERE id > 10",
            [],
        )
        .unwrap();
    let lisbon = |index: &SearchIndex| index.search("demo", "lisbon").map(|hits| hits.len());
    assert_eq!(
        lisbon(&index).unwrap(),
        0,
        "the damage loses what was found"
    );
    drop(index);
    closed_in(dir.path());

    let index = open(dir.path(), &sample());
    assert_eq!(
        lisbon(&index).unwrap(),
        0,
        "after a clean end: opened unchecked"
    );
    // This run ends without closing, as when the app is killed.
    drop(index);

    let index = open(dir.path(), &sample());
    assert_eq!(
        lisbon(&index).unwrap(),
        2,
        "after an unclean end: checked and rebuilt"
    );
}
