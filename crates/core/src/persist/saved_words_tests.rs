//! Conversations saved by versions that wrote sentences (a failure's whole `UiError`, a
//! notice's words) still load with nothing lost (the code, the time to try again, the action,
//! a notice's facts), and are saved back with codes and facts only.

use std::fs;
use std::path::Path;

use serde_json::Value;

use super::*;
use crate::conversations::ThreadItem;
use crate::error::{Problem, UiCode, UiError};

const ID: &str = "conv-1700000300000-4";

/// The data folder of a version that saved words, copied so the test can write to it.
fn old_folder() -> tempfile::TempDir {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/store/fixtures/words-in-failures/conversations");
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("conversations")).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        fs::copy(
            entry.path(),
            dir.path().join("conversations").join(entry.file_name()),
        )
        .unwrap();
    }
    dir
}

/// The old file's failures, in the order they come: the thread's, then the conversation's.
fn old_failures(dir: &Path) -> Vec<Value> {
    let text = fs::read_to_string(dir.join(format!("conversations/{ID}.jsonl"))).unwrap();
    let line: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let snapshot = &line["snapshot"];
    let mut failures: Vec<Value> = snapshot["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["kind"] == "failure" || i["kind"] == "notSent")
        .map(|i| i["error"].clone())
        .collect();
    failures.push(snapshot["failure"].clone());
    failures
}

fn failures(c: &crate::conversations::Conversation) -> Vec<Problem> {
    let mut all: Vec<Problem> = c
        .items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::Failure { error } | ThreadItem::NotSent { error } => Some(*error),
            _ => None,
        })
        .collect();
    all.extend(c.failure);
    all
}

#[test]
fn failures_saved_with_their_words_load_with_nothing_lost() {
    let dir = old_folder();
    let old = old_failures(dir.path());
    let store = ConversationStore::open_in(dir.path()).unwrap();
    assert!(
        store.set_aside().is_empty(),
        "the old file was read, not set aside"
    );
    let loaded = store.get(ID).unwrap();
    let now = failures(&loaded);
    assert_eq!(now.len(), old.len(), "every failure is still there");
    assert_eq!(
        now.iter().map(|p| p.code).collect::<Vec<_>>(),
        [
            UiCode::MessageNotSent,
            UiCode::MessageNotKnownSent,
            // Names older versions gave codes that now read more exactly.
            UiCode::CreationBusy,
            UiCode::ConsoleEnded,
            UiCode::TaskFailed,
            UiCode::InsufficientCredits,
            UiCode::InsufficientCredits,
        ]
    );
    for (was, problem) in old.iter().zip(&now) {
        let shown = UiError::from(problem);
        assert_eq!(
            serde_json::to_value(shown.retry_at).unwrap(),
            was["retryAt"],
            "{was}: the time to try again is kept"
        );
        assert_eq!(
            serde_json::to_value(shown.action).unwrap(),
            was["action"],
            "{was}: the same way out"
        );
        assert!(!shown.title.is_empty() && shown.detail.ends_with('.'));
    }
    // The words that were saved are the words shown now, for codes that kept their name.
    let credits = UiError::from(&now[5]);
    assert_eq!(credits.title, old[5]["title"]);
    assert_eq!(credits.detail, old[5]["detail"]);
    assert_eq!(loaded.title, "Book the table");
}

#[test]
fn a_conversation_saved_again_keeps_codes_not_sentences() {
    let dir = old_folder();
    let store = ConversationStore::open_in(dir.path()).unwrap();
    let before = failures(&store.get(ID).unwrap());
    store.update(ID, |c| c.record_stopped(1.0)).unwrap();
    drop(store);
    // What the journal holds now, replayed line by line: codes and times, no sentence.
    let file = dir.path().join(format!("conversations/{ID}.jsonl"));
    let crate::store::journal::Read::Whole(replayed) = crate::store::journal::read(&file).unwrap()
    else {
        panic!("the journal reads whole");
    };
    let on_disk = replayed.value.to_string();
    for words in [
        "You are out of credits",
        "Your message was not sent",
        "The task did not finish",
        "A task took the computer",
    ] {
        assert!(!on_disk.contains(words), "{words:?} is not kept on disk");
    }
    assert!(on_disk.contains(r#"{"code":"insufficient_credits","retryAt":1893542400000.0}"#));
    let again = ConversationStore::open_in(dir.path()).unwrap();
    assert_eq!(failures(&again.get(ID).unwrap()), before);
}

/// Notices (Porthole's own lines: a stop, an answer, a cap reached) that versions before
/// saved as sentences load as their facts, show the same words, and are saved back as facts.
#[test]
fn notices_saved_as_sentences_load_as_facts_and_are_saved_back_without_them() {
    use crate::conversations::Notice;
    use crate::words::notices::text;

    const NOTICES: &str = "conv-1700000500000-7";
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/store/fixtures/words-in-notices/conversations");
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("conversations")).unwrap();
    let file = dir.path().join(format!("conversations/{NOTICES}.jsonl"));
    fs::copy(from.join(format!("{NOTICES}.jsonl")), &file).unwrap();
    let saved: Vec<String> = {
        let line: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
        line["snapshot"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["kind"] == "notice")
            .map(|i| i["text"].as_str().unwrap().to_owned())
            .collect()
    };

    let store = ConversationStore::open_in(dir.path()).unwrap();
    assert!(store.set_aside().is_empty(), "the old file was read");
    let notices = |c: &crate::conversations::Conversation| -> Vec<Notice> {
        c.items
            .iter()
            .filter_map(|i| match i {
                ThreadItem::Notice { notice } => Some(notice.clone()),
                _ => None,
            })
            .collect()
    };
    let loaded = notices(&store.get(NOTICES).unwrap());
    assert_eq!(
        loaded,
        [
            Notice::Approved,
            Notice::Denied,
            Notice::Answered {
                picks: vec!["Rome".into(), "Florence".into()]
            },
            Notice::NotStoppedAtCap { cap_usd: 0.5 },
            Notice::StoppedAtCap {
                cap_usd: 0.5,
                cost_usd: 0.52
            },
            Notice::Stopped,
            Notice::DemoRestarted,
            // The agent's reply to a message that joined its task, which older versions also
            // kept as a notice: its words are the agent's, kept as they were.
            Notice::Earlier {
                text: "Sure, I will also look at trains.".into()
            },
        ]
    );
    let shown: Vec<String> = loaded.iter().map(text).collect();
    // Each line reads as before, but in today's words: the cap's refusal now says that
    // Porthole keeps trying (its sentence changed when it began to).
    let today: Vec<String> = saved
        .iter()
        .map(|line| match line.as_str() {
            "This task reached your $0.50 cap, but Porthole could not stop it. Press Stop to stop it." => {
                "This task reached your $0.50 cap, but Porthole could not stop it. It keeps trying, and you can stop it now.".to_owned()
            }
            other => other.to_owned(),
        })
        .collect();
    assert_eq!(shown, today, "the person reads what they read before");

    store.update(NOTICES, |c| c.record_stopped(2.0)).unwrap();
    drop(store);
    let crate::store::journal::Read::Whole(replayed) = crate::store::journal::read(&file).unwrap()
    else {
        panic!("the journal reads whole");
    };
    let on_disk = replayed.value.to_string();
    for words in &saved[..saved.len() - 1] {
        assert!(!on_disk.contains(words.as_str()), "{words:?} is not kept");
    }
    assert!(on_disk.contains(r#"{"kind":"notice","what":"stopped"}"#));
    assert!(
        on_disk.contains(r#"{"capUsd":0.5,"costUsd":0.52,"kind":"notice","what":"stoppedAtCap"}"#)
            || on_disk
                .contains(r#"{"kind":"notice","what":"stoppedAtCap","capUsd":0.5,"costUsd":0.52}"#)
    );
    let again = ConversationStore::open_in(dir.path()).unwrap();
    let mut expected = loaded.clone();
    expected.push(Notice::Stopped);
    assert_eq!(notices(&again.get(NOTICES).unwrap()), expected);
}

#[test]
fn an_untitled_conversation_saved_with_english_words_loads_untitled_and_a_real_title_stays() {
    use crate::conversations::model::ConversationBook;
    use crate::conversations::Conversation;

    let mut book = ConversationBook::default();
    let made = book.create("c1".into(), "demo", "m1", 1.0).clone();
    assert_eq!(
        made.title, "",
        "a new conversation is saved untitled, not with words"
    );
    let mut saved = serde_json::to_value(&made).unwrap();
    let read = |saved: &Value| serde_json::from_value::<Conversation>(saved.clone()).unwrap();
    saved["title"] = "New conversation".into();
    assert_eq!(read(&saved).title, "");
    saved["title"] = "Check the weather in Oslo".into();
    assert_eq!(read(&saved).title, "Check the weather in Oslo");
}
