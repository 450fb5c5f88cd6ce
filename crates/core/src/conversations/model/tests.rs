use super::*;
use porthole_client::approvals::Answer;
use porthole_client::events::EventErrorCode;
use porthole_client::TaskFailure;

/// Catching up on the service's history.
mod catch_up;

fn book_with_one() -> ConversationBook {
    let mut book = ConversationBook::default();
    book.create("c1".into(), "demo", "m1", 1.0);
    book
}

fn state(session: &str, cursor: &str) -> FollowerState {
    FollowerState {
        session_id: Some(session.into()),
        cursor: Some(cursor.into()),
        ..FollowerState::default()
    }
}

#[test]
fn first_message_names_the_conversation_and_starts_it() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("Find the cheapest flight to Lisbon\nin May", false, 2.0);
    assert_eq!(c.title, "Find the cheapest flight to Lisbon");
    assert_eq!(c.status, TaskStatus::Running);
    c.record_user_message("Also check trains", true, 3.0);
    assert_eq!(c.title, "Find the cheapest flight to Lisbon");
    assert_eq!(
        c.items[1],
        ThreadItem::User {
            text: "Also check trains".into(),
            joined: true,
            attachments: vec![],
        }
    );
}

#[test]
fn a_task_runs_to_its_answer_and_keeps_its_cursor() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("weather", false, 1.0);
    let started = TaskUpdate::Started {
        session_id: "cs_1".into(),
        turn_id: None,
        queued: false,
        title: None,
    };
    c.apply(&started, state("cs_1", "a"), 2.0);
    c.apply(
        &TaskUpdate::Narration {
            id: "n".into(),
            text: "Opening the browser".into(),
        },
        state("cs_1", "b"),
        3.0,
    );
    c.apply(
        &TaskUpdate::Message {
            id: "m".into(),
            text: "It is **sunny**.".into(),
        },
        state("cs_1", "c"),
        4.0,
    );
    let done = TaskUpdate::Finished {
        succeeded: true,
        text: "It is **sunny**.".into(),
        failure: None,
        turn_id: None,
        usage: None,
    };
    c.apply(&done, state("cs_1", "d"), 5.0);
    assert_eq!(c.status, TaskStatus::Succeeded);
    assert_eq!(c.session_id.as_deref(), Some("cs_1"));
    assert_eq!(c.follower.as_ref().unwrap().cursor.as_deref(), Some("d"));
    let answers = c
        .items
        .iter()
        .filter(|i| matches!(i, ThreadItem::Answer { .. }))
        .count();
    assert_eq!(answers, 1, "the final text is not repeated");
}

#[test]
fn approval_waits_then_runs_on() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("delete the old files", false, 1.0);
    let approval: porthole_client::approvals::ApprovalRequest = serde_json::from_value(
        serde_json::json!({"approvalId": "ap_1", "title": "Delete files", "command": "rm -r old"}),
    )
    .unwrap();
    c.apply(
        &TaskUpdate::NeedsApproval { approval },
        state("cs", "x"),
        2.0,
    );
    assert_eq!(c.status, TaskStatus::NeedsApproval);
    assert_eq!(c.pending_approval.as_ref().unwrap().approval_id, "ap_1");
    c.approval_answered(&Answer::No, 3.0);
    assert_eq!(c.status, TaskStatus::Running);
    assert!(c.pending_approval.is_none());
}

#[test]
fn a_choice_is_recorded_in_the_words_picked() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    let card: porthole_client::approvals::ApprovalRequest = serde_json::from_value(
        serde_json::json!({"approvalId": "ap_2", "approvalType": "choice",
            "options": [{"value": "b", "label": "Blue"}, "red"], "allowOther": true}),
    )
    .unwrap();
    c.apply(
        &TaskUpdate::NeedsApproval { approval: card },
        state("cs", "x"),
        2.0,
    );
    c.approval_answered(&Answer::Choose(vec![vec!["b".into(), "teal".into()]]), 3.0);
    assert!(c.pending_approval.is_none());
    assert!(matches!(c.items.last(),
        Some(ThreadItem::Notice { notice: Notice::Answered { picks } }) if picks == &["Blue", "teal"]));
}

#[test]
fn failure_is_worded_by_code() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("expensive", false, 1.0);
    let failed = TaskUpdate::Finished {
        succeeded: false,
        text: String::new(),
        failure: Some(TaskFailure {
            text: "whatever the service said".into(),
            code: Some(EventErrorCode::InsufficientCredits),
            resets_at: None,
            reason: None,
        }),
        turn_id: None,
        usage: None,
    };
    c.apply(&failed, state("cs", "x"), 2.0);
    assert_eq!(c.status, TaskStatus::Failed);
    assert_eq!(
        c.failure.as_ref().unwrap().code,
        crate::UiCode::InsufficientCredits
    );
}

#[test]
fn a_stopped_task_stays_stopped() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("take your time", false, 1.0);
    c.apply(
        &TaskUpdate::Started {
            session_id: "cs".into(),
            turn_id: None,
            queued: false,
            title: None,
        },
        state("cs", "a"),
        2.0,
    );
    c.record_stopped(3.0);
    let failed = TaskUpdate::Finished {
        succeeded: false,
        text: String::new(),
        failure: None,
        turn_id: None,
        usage: None,
    };
    c.apply(&failed, state("cs", "b"), 4.0);
    assert_eq!(c.status, TaskStatus::Stopped);
}

#[test]
fn unfinished_tasks_are_found_for_resuming_and_survive_a_round_trip() {
    let mut book = book_with_one();
    book.create("c2".into(), "demo", "m1", 5.0);
    book.create("c3".into(), "https://other", "m1", 6.0);
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("work", false, 1.0);
    c.apply(
        &TaskUpdate::Started {
            session_id: "cs".into(),
            turn_id: None,
            queued: false,
            title: None,
        },
        state("cs", "cur"),
        2.0,
    );
    let saved = serde_json::to_string(&book).unwrap();
    let loaded: ConversationBook = serde_json::from_str(&saved).unwrap();
    let unfinished = loaded.unfinished("demo");
    assert_eq!(unfinished.len(), 1);
    assert_eq!(unfinished[0].0, "c1");
    assert_eq!(unfinished[0].1.cursor.as_deref(), Some("cur"));
    let rows = loaded.list("demo", "m1");
    assert_eq!(
        rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["c2", "c1"]
    );
}

#[test]
fn long_threads_keep_the_newest_items() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    for i in 0..(MAX_ITEMS + 10) {
        c.record_reply(&format!("n{i}"), 1.0);
    }
    assert_eq!(c.items.len(), MAX_ITEMS);
    assert_eq!(
        c.items.last(),
        Some(&ThreadItem::Reply {
            text: format!("n{}", MAX_ITEMS + 9)
        })
    );
}

#[test]
fn tool_activity_is_shown_once_and_only_when_it_says_something() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    let tool = |input: Option<serde_json::Value>| TaskUpdate::Tool {
        tool_call_id: "t".into(),
        tool_name: "execute".into(),
        input,
    };
    let progress = TaskUpdate::Progress {
        text: "Open Browser".into(),
        tool: None,
    };
    // The stream path: a call without its input, then its title as the first progress line.
    c.apply(&tool(None), state("cs", "a0"), 0.5);
    c.apply(&progress, state("cs", "a1"), 0.6);
    assert_eq!(
        c.items,
        [ThreadItem::Tool {
            name: "execute".into(),
            title: Some("Open Browser".into())
        }],
        "counted as a step and named by its progress line"
    );
    c.items.clear();
    c.apply(&tool(None), state("cs", "a"), 1.0);
    assert!(
        matches!(c.items[..], [ThreadItem::Tool { title: None, .. }]),
        "kept (and counted), though the window shows no line for a bare tool name"
    );
    c.items.clear();
    c.apply(
        &tool(Some(
            serde_json::json!({"title": "Open Browser", "code": "x"}),
        )),
        state("cs", "b"),
        2.0,
    );
    c.apply(&progress, state("cs", "c"), 3.0);
    assert_eq!(
        c.items,
        [ThreadItem::Tool {
            name: "execute".into(),
            title: Some("Open Browser".into())
        }]
    );
    let next = TaskUpdate::Progress {
        text: "Browser is open".into(),
        tool: None,
    };
    c.apply(&next, state("cs", "d"), 4.0);
    assert_eq!(c.items.len(), 2);
}

#[test]
fn the_files_sent_with_a_message_stay_with_it_across_a_save() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    let files = ["table.csv".to_owned(), "my notes.md".to_owned()];
    c.record_user_message_with_files("Sum the table", &files, false, 1.0);
    c.record_user_message("Also this one", true, 2.0);
    let saved = serde_json::to_string(&book).unwrap();
    let loaded: ConversationBook = serde_json::from_str(&saved).unwrap();
    let attached: Vec<&[String]> = loaded
        .get("c1")
        .unwrap()
        .items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::User { attachments, .. } => Some(attachments.as_slice()),
            _ => None,
        })
        .collect();
    assert_eq!(attached, [&files[..], &[][..]]);
}

#[test]
fn messages_saved_before_files_were_recorded_still_load() {
    let saved = r#"{"kind":"user","text":"hi","joined":false}"#;
    let item: ThreadItem = serde_json::from_str(saved).unwrap();
    assert_eq!(
        item,
        ThreadItem::User {
            text: "hi".into(),
            joined: false,
            attachments: vec![],
        }
    );
}

#[test]
fn a_card_line_says_what_the_card_asks_and_an_older_line_reads_as_a_permission() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("Delete the old files in Downloads", false, 1.0);
    let card: porthole_client::approvals::ApprovalRequest = serde_json::from_value(
        serde_json::json!({"approvalId": "ap_1", "title": "Delete the folder old-reports",
            "command": "rm -r ~/Documents/old-reports"}),
    )
    .unwrap();
    c.apply(
        &TaskUpdate::NeedsApproval { approval: card },
        state("cs", "x"),
        2.0,
    );
    let Some(ThreadItem::Approval { asks, deletes, .. }) = c.items.last() else {
        panic!("a card line: {:?}", c.items.last());
    };
    assert_eq!(*asks, porthole_client::approvals::ApprovalKind::YesNo);
    assert_eq!(
        deletes.len(),
        1,
        "what Porthole read it deletes, to word the line"
    );
    assert_eq!(
        c.pending_approval.as_ref().unwrap().task,
        "Delete the old files in Downloads",
        "the card carries the words of the task that asks"
    );

    let older: ThreadItem =
        serde_json::from_value(serde_json::json!({"kind": "approval", "title": "Which city?"}))
            .unwrap();
    assert_eq!(
        older,
        ThreadItem::Approval {
            title: "Which city?".into(),
            asks: porthole_client::approvals::ApprovalKind::YesNo,
            deletes: Vec::new(),
        }
    );
}
