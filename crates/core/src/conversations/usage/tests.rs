//! Per-task usage as kept: which task is running, the words that started it, and the file
//! across a restart. Two tasks followed against the simulator are in `conversations/tests.rs`.

use super::*;
use crate::conversations::model::ConversationBook;

#[test]
fn a_running_task_is_marked_and_a_steering_message_keeps_the_task_words() {
    let mut conversations = ConversationBook::default();
    conversations.create("c1".into(), "demo", "m1", 0.0);
    let mut c = conversations.get("c1").unwrap().clone();
    c.record_user_message("Count the invoices", false, 0.0);
    c.record_user_message("and the receipts too", true, 0.0);
    c.follower = Some(porthole_client::FollowerState {
        turn_id: Some("turn_1".into()),
        ..Default::default()
    });
    let mut book = UsageBook::default();
    assert!(!book.record(&c), "nothing before the first model call");
    c.usage = Some(TaskUsage::default());
    assert!(book.record(&c));
    assert!(!book.record(&c), "the same figures again change nothing");
    let rows = book.tasks(&c);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].task, "Count the invoices");
    assert!(rows[0].running);
}

#[test]
fn kept_figures_survive_a_restart_and_the_same_figures_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut conversations = ConversationBook::default();
    conversations.create("c1".into(), "demo", "m1", 0.0);
    let mut c = conversations.get("c1").unwrap().clone();
    c.record_user_message("Count the invoices", false, 0.0);
    c.follower = Some(porthole_client::FollowerState {
        turn_id: Some("turn_1".into()),
        ..Default::default()
    });
    c.usage = Some(TaskUsage {
        total: porthole_client::events::UsageFigures {
            input_tokens: 42,
            ..Default::default()
        },
        ..Default::default()
    });
    let store = UsageStore::open_in(dir.path()).unwrap();
    assert!(store.record(&c).unwrap());
    assert!(!store.record(&c).unwrap());
    // A save replaces the file and keeps the one before beside it: none was made.
    assert!(!dir.path().join("usage.prev.json").exists());
    let rows = store.tasks(&c);
    drop(store);

    let again = UsageStore::open_in(dir.path()).unwrap();
    assert_eq!(again.tasks(&c), rows);
    assert_eq!(rows[0].usage.total.input_tokens, 42);
    assert!(again.set_aside().is_none());
}
