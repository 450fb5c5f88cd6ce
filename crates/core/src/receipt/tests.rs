//! The receipt read from a conversation's lines, as the app keeps them.

use porthole_client::approvals::ApprovalKind;
use porthole_client::card_reading::{Deletion, DeletionKind, Place};
use porthole_client::events::{TaskUsage, UsageFigures};

use super::*;
use crate::conversations::model::ConversationBook;
use crate::conversations::Notice;

fn conversation(task: &str) -> Conversation {
    let mut book = ConversationBook::default();
    book.create("c1".into(), "demo", "m1", 1.0);
    let mut c = book.conversations.remove(0);
    c.record_user_message(task, false, 10_000.0);
    c
}

fn tool(title: &str) -> ThreadItem {
    ThreadItem::Tool {
        name: "execute".into(),
        title: Some(title.into()),
    }
}

fn progress(text: &str) -> ThreadItem {
    ThreadItem::Progress { text: text.into() }
}

fn answer(text: &str) -> ThreadItem {
    ThreadItem::Answer { text: text.into() }
}

fn notice(notice: Notice) -> ThreadItem {
    ThreadItem::Notice { notice }
}

fn card(title: &str, deletes: Vec<Deletion>) -> ThreadItem {
    ThreadItem::Approval {
        title: title.into(),
        asks: ApprovalKind::YesNo,
        deletes,
    }
}

fn finish(c: &mut Conversation, status: TaskStatus, at: f64) {
    c.status = status;
    c.task_ended_at = Some(at);
}

fn only(c: &Conversation) -> Receipt {
    let mut all = receipts(c, None);
    assert_eq!(all.len(), 1, "one finished task, one receipt: {all:?}");
    all.remove(0)
}

#[test]
fn an_answered_task_is_done_read_from_its_answer_with_its_time_and_cost() {
    let mut c = conversation("Look up the weather in Paris");
    c.items.extend([
        tool("Open Browser"),
        progress("Browser is open"),
        tool("Go to https://www.weather.com/paris"),
        answer("It is 18 °C and sunny in Paris."),
    ]);
    c.usage = Some(TaskUsage {
        total: UsageFigures {
            cost_usd: 0.04,
            ..UsageFigures::default()
        },
        by_model: Default::default(),
    });
    finish(&mut c, TaskStatus::Succeeded, 52_400.0);
    let r = only(&c);
    assert_eq!(r.item, 0);
    assert_eq!(
        (r.outcome, r.why, r.judged),
        (ReceiptOutcome::Done, None, Judged::Answer)
    );
    assert_eq!(
        r.touched,
        [
            Touched::App {
                name: "Browser".into()
            },
            Touched::Site {
                host: "weather.com".into()
            },
        ]
    );
    assert_eq!(r.seconds, Some(42.0));
    assert_eq!(r.cost_usd, Some(0.04));
}

#[test]
fn a_running_or_waiting_task_has_no_receipt_yet() {
    let mut c = conversation("Book a table");
    assert!(receipts(&c, None).is_empty());
    c.status = TaskStatus::NeedsApproval;
    assert!(receipts(&c, None).is_empty());
}

#[test]
fn a_declined_card_makes_it_not_done_even_with_an_answer() {
    let mut c = conversation("Buy the blue mug");
    c.items.extend([
        card("Confirm the purchase", vec![]),
        notice(Notice::Denied),
        answer("I did not buy it, as you declined."),
    ]);
    finish(&mut c, TaskStatus::Succeeded, 20_000.0);
    let r = only(&c);
    assert_eq!(
        (r.outcome, r.why),
        (ReceiptOutcome::NotDone, Some(Why::Declined))
    );
    assert!(r.touched.is_empty(), "nothing was bought: {:?}", r.touched);
}

#[test]
fn an_approved_purchase_and_an_approved_delete_are_what_it_touched() {
    let mut c = conversation("Buy the mug and clear the drafts folder");
    let gone = Deletion {
        kind: DeletionKind::Folder,
        name: "drafts".into(),
        place: Place::Within {
            folders: vec!["Documents".into()],
        },
    };
    c.items.extend([
        card("Confirm the purchase", vec![]),
        notice(Notice::Approved),
        card("Delete the folder drafts", vec![gone.clone()]),
        notice(Notice::Approved),
        progress("Saved receipt-42.pdf"),
        answer("Bought it and cleared the folder."),
    ]);
    finish(&mut c, TaskStatus::Succeeded, 20_000.0);
    assert_eq!(
        only(&c).touched,
        [
            Touched::Purchase {
                title: "Confirm the purchase".into()
            },
            Touched::Deleted { deletion: gone },
            Touched::File {
                name: "receipt-42.pdf".into()
            },
        ]
    );
}

#[test]
fn an_answer_that_admits_a_shortfall_is_partly_done() {
    let mut c = conversation("Find three flights to Rome");
    c.items.push(answer(
        "I found two flights but couldn't find a third under $200.",
    ));
    finish(&mut c, TaskStatus::Succeeded, 20_000.0);
    let r = only(&c);
    assert_eq!(
        (r.outcome, r.why),
        (ReceiptOutcome::Partly, Some(Why::AnswerSaysNotAll))
    );
}

#[test]
fn stopped_failed_and_capped_tasks_are_not_done_and_say_why() {
    let mut c = conversation("Tidy my inbox");
    c.items.push(notice(Notice::Stopped));
    finish(&mut c, TaskStatus::Stopped, 20_000.0);
    assert_eq!(only(&c).why, Some(Why::Stopped));

    let mut c = conversation("Tidy my inbox");
    c.items.push(notice(Notice::StoppedAtCap {
        cap_usd: 0.5,
        cost_usd: 0.5,
    }));
    finish(&mut c, TaskStatus::Stopped, 20_000.0);
    assert_eq!(only(&c).why, Some(Why::StoppedAtCap));

    let mut c = conversation("Tidy my inbox");
    finish(&mut c, TaskStatus::Failed, 20_000.0);
    let r = only(&c);
    assert_eq!(
        (r.outcome, r.why),
        (ReceiptOutcome::NotDone, Some(Why::Failed))
    );
}

#[test]
fn the_services_check_decides_when_known_and_says_so() {
    let mut c = conversation("Find three flights to Rome");
    c.items.push(answer("Here are three flights."));
    finish(&mut c, TaskStatus::Succeeded, 20_000.0);
    let all = |passed, of| receipts(&c, Some(Check { passed, of }))[0].clone();
    let r = all(3, 3);
    assert_eq!((r.outcome, r.judged), (ReceiptOutcome::Done, Judged::Check));
    let r = all(1, 3);
    assert_eq!(
        (r.outcome, r.why, r.judged),
        (
            ReceiptOutcome::Partly,
            Some(Why::CriteriaNotMet),
            Judged::Check
        )
    );
    assert_eq!(all(0, 3).outcome, ReceiptOutcome::NotDone);
    // A check without criteria says nothing: the answer decides.
    assert_eq!(all(0, 0).judged, Judged::Answer);
}

fn cost(c: &mut Conversation, usd: f64) {
    c.usage = Some(TaskUsage {
        total: UsageFigures {
            cost_usd: usd,
            ..UsageFigures::default()
        },
        by_model: Default::default(),
    });
}

#[test]
fn each_finished_task_of_a_conversation_has_its_own_receipt_at_its_message() {
    let mut c = conversation("Look up the weather in Paris");
    c.items.push(answer("Sunny."));
    cost(&mut c, 0.02);
    finish(&mut c, TaskStatus::Succeeded, 25_000.0);
    c.record_user_message("And in Rome?", false, 30_000.0);
    c.items.push(tool("Open Browser"));
    c.items.push(answer("Rainy."));
    c.record_user_message("Also Oslo", true, 31_000.0);
    cost(&mut c, 0.05);
    finish(&mut c, TaskStatus::Succeeded, 40_000.0);
    let all = receipts(&c, None);
    assert_eq!(all.iter().map(|r| r.item).collect::<Vec<_>>(), [0, 2]);
    // Every finished task says its own time and cost, not only the last.
    assert_eq!((all[0].seconds, all[1].seconds), (Some(15.0), Some(10.0)));
    assert_eq!((all[0].cost_usd, all[1].cost_usd), (Some(0.02), Some(0.05)));
    assert_eq!(
        (all[0].started_ms, all[1].started_ms),
        (Some(10_000.0), Some(30_000.0))
    );
    assert!(all[0].touched.is_empty());
    assert_eq!(all[1].outcome, ReceiptOutcome::Done);

    // A third task running: the two finished keep their figures, it has no receipt yet.
    c.record_user_message("And Madrid?", false, 50_000.0);
    let all = receipts(&c, None);
    assert_eq!(all.len(), 2);
    assert_eq!((all[0].seconds, all[1].seconds), (Some(15.0), Some(10.0)));
    assert_eq!((all[0].cost_usd, all[1].cost_usd), (Some(0.02), Some(0.05)));
}

#[test]
fn each_task_gets_the_film_recorded_while_it_ran_and_the_running_one_keeps_its_own() {
    let film = |ms: f64| crate::film::FilmSummary {
        id: (ms as u64).to_string(),
        started_ms: ms,
        frames: 3,
    };
    let mut c = conversation("Look up the weather in Paris");
    c.items.push(answer("Sunny."));
    finish(&mut c, TaskStatus::Succeeded, 25_000.0);
    c.record_user_message("And in Rome?", false, 30_000.0);
    c.items.push(answer("Rainy."));
    finish(&mut c, TaskStatus::Succeeded, 40_000.0);
    c.record_user_message("And Madrid?", false, 50_000.0);
    // The first task's film began just after it was sent; the second task had none; the
    // third runs and is being recorded.
    let films = [film(10_400.0), film(50_300.0)];
    let all = with_films(&c, receipts(&c, None), &films);
    assert_eq!(
        all.iter().map(|r| r.film_id.as_deref()).collect::<Vec<_>>(),
        [Some("10400"), None]
    );
    // Ended, the third has its receipt and its film.
    c.items.push(answer("Hot."));
    finish(&mut c, TaskStatus::Succeeded, 60_000.0);
    let all = with_films(&c, receipts(&c, None), &films);
    assert_eq!(all[2].film_id.as_deref(), Some("50300"));
    assert_eq!(all[1].film_id, None);
}

#[test]
fn plain_forms_only_a_file_is_not_a_site_and_a_sentence_is_not_an_app() {
    let mut c = conversation("Make the report");
    c.items.extend([
        tool("Open the report.pdf in the viewer"),
        progress("Downloaded report.pdf"),
        tool("Send the email to Ana"),
        answer("Done."),
    ]);
    finish(&mut c, TaskStatus::Succeeded, 20_000.0);
    assert_eq!(
        only(&c).touched,
        [
            Touched::File {
                name: "report.pdf".into()
            },
            Touched::Message {
                title: "Send the email to Ana".into()
            },
        ]
    );
}
