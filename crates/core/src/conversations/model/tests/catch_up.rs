//! Catching up on what was said on the service while the thread did not follow it: only what
//! the thread does not show, once, and never the task's own lines it heard.

use super::*;
use porthole_client::sessions::ContextMessage;

fn msg(id: &str, text: &str) -> TaskUpdate {
    TaskUpdate::Message {
        id: id.into(),
        text: text.into(),
    }
}

fn finished(text: &str) -> TaskUpdate {
    TaskUpdate::Finished {
        succeeded: true,
        text: text.into(),
        failure: None,
        turn_id: None,
        usage: None,
    }
}

fn line(role: &str, content: &str) -> ContextMessage {
    serde_json::from_value(serde_json::json!({ "role": role, "content": content })).unwrap()
}

fn elsewhere(c: &Conversation) -> Vec<(Speaker, &str)> {
    c.items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::Elsewhere { by, text } => Some((*by, text.as_str())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_catch_up_adds_only_what_the_thread_does_not_show_and_only_once() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("Find a flight", false, 1.0);
    // The answer arrived in two messages; the history keeps it as one line, spaced its way.
    c.apply(&msg("m1", "Found three."), state("s1", "1"), 2.0);
    c.apply(
        &msg("m2", "The cheapest is on Friday."),
        state("s1", "2"),
        3.0,
    );
    c.status = TaskStatus::Succeeded;
    let history = [
        line("user", "Find a flight"),
        line("assistant", "Found three.\n\nThe cheapest is on Friday."),
        line("user", "ok"),
        line("user", "ok"),
        line("assistant", "Anything else?"),
    ];
    assert_eq!(c.catch_up(&history, 4.0), 3);
    assert_eq!(
        elsewhere(c),
        [
            (Speaker::Person, "ok"),
            (Speaker::Person, "ok"),
            (Speaker::Agent, "Anything else?")
        ],
        "the same words said twice elsewhere are shown twice"
    );
    assert_eq!(c.catch_up(&history, 5.0), 0, "nothing twice");
}

#[test]
fn while_a_task_runs_its_own_answer_is_left_to_its_end() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("Find a flight", false, 1.0);
    let history = [
        line("user", "Find a flight"),
        line("assistant", "The cheapest is on Friday."),
    ];
    assert_eq!(c.catch_up(&history, 2.0), 0);
    c.apply(
        &finished("The cheapest is on Friday."),
        state("s1", "3"),
        3.0,
    );
    assert_eq!(
        c.catch_up(&history, 4.0),
        0,
        "shown by the task's end, once"
    );
    let answers = c
        .items
        .iter()
        .filter(|i| matches!(i, ThreadItem::Answer { .. }))
        .count();
    assert_eq!(answers, 1);
}

/// The makers' client reads a history line without a role as the agent's, and a tool call's
/// line has no text: a task this thread heard to its end keeps such lines of it out of the
/// thread, whether they come before its answer or after; a task that ended unheard (its answer
/// missing here) is caught up whole.
#[test]
fn a_heard_tasks_own_other_lines_are_not_from_elsewhere() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("Find a flight", false, 1.0);
    c.apply(
        &finished("The cheapest is on Friday."),
        state("s1", "3"),
        2.0,
    );
    c.record_user_message("And a hotel", false, 3.0);
    c.status = TaskStatus::Succeeded;
    let role_less = || -> ContextMessage {
        serde_json::from_value(serde_json::json!({ "content": "Working on it." })).unwrap()
    };
    let history = [
        line("user", "Find a flight"),
        role_less(),
        line("assistant", "The cheapest is on Friday."),
        role_less(),
        line("user", "And a hotel"),
        role_less(),
        line("assistant", "The Hotel Lisboa has a room."),
    ];
    assert_eq!(c.catch_up(&history, 4.0), 2);
    assert_eq!(
        elsewhere(c),
        [
            (Speaker::Agent, "Working on it."),
            (Speaker::Agent, "The Hotel Lisboa has a room.")
        ],
        "only the unheard task's lines"
    );
}

/// The makers write that moving to another computer retires the conversation behind you, and
/// reading it back answers empty: that is a fresh conversation on the service, never lost
/// history here.
#[test]
fn an_empty_history_after_a_move_keeps_the_thread_as_it_was() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("Find a flight", false, 1.0);
    c.apply(&msg("m1", "Found three."), state("s1", "1"), 2.0);
    c.status = TaskStatus::Succeeded;
    let before = c.clone();
    assert_eq!(c.catch_up(&[], 3.0), 0);
    assert_eq!(*c, before, "nothing removed, nothing added, nothing marked");
}

/// The person's lines in the service's history carry the local time Porthole told the agent:
/// read back, they are the person's own words, not a line said elsewhere.
#[test]
fn a_catch_up_knows_the_persons_words_under_the_local_time_line() {
    let mut book = book_with_one();
    let c = book.get_mut("c1").unwrap();
    c.record_user_message("Find a flight", false, 1.0);
    c.status = TaskStatus::Succeeded;
    let sent = crate::conversations::local_time::with_local_time("Find a flight");
    assert_eq!(c.catch_up(&[line("user", &sent)], 2.0), 0);
    assert!(elsewhere(c).is_empty());
}
