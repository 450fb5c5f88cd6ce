//! A finished task's receipt: did it do what was asked (Done, Not done, Partly) and how that
//! was told, what the agent touched, how long it took and what it cost. It leads every
//! finished task in the thread and the shared report.
//!
//! Read from what the app itself kept of the task (its thread lines, its end, its times and
//! usage), so it needs no `turnId`: against the real service the turn may never be known.
//! When the service's check of the result against the task's words is known, it decides the
//! outcome, and the receipt says so ([`Judged::Check`]).

mod outcome;
mod touched;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::conversations::{Conversation, TaskStatus, ThreadItem};
pub use outcome::{Judged, ReceiptOutcome, Why};
pub use touched::Touched;

/// One finished task's receipt.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    /// The thread line of the message that started the task: where the receipt belongs.
    pub item: u32,
    pub outcome: ReceiptOutcome,
    /// Why it is not (fully) done, when the receipt can say.
    pub why: Option<Why>,
    /// How the outcome was told: by the service's check, or read from how the task ended.
    pub judged: Judged,
    /// What the agent touched, in the order it did.
    pub touched: Vec<Touched>,
    /// How long it ran, in seconds; known for the conversation's last task only.
    pub seconds: Option<f64>,
    /// What it cost in dollars, as the service reported it; known for the last task only.
    pub cost_usd: Option<f64>,
}

/// The service's check of the last task: how many of its criteria passed, of how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Check {
    pub passed: u32,
    pub of: u32,
}

/// The receipts of the conversation's finished tasks, oldest first; a task still running (or
/// waiting on the person) has none yet. `check` is the service's check of the last task.
pub fn receipts(conversation: &Conversation, check: Option<Check>) -> Vec<Receipt> {
    let starts: Vec<usize> = conversation
        .items
        .iter()
        .enumerate()
        .filter(|(_, item)| matches!(item, ThreadItem::User { joined: false, .. }))
        .map(|(i, _)| i)
        .collect();
    let mut receipts = Vec::new();
    for (n, &start) in starts.iter().enumerate() {
        let end = starts
            .get(n + 1)
            .copied()
            .unwrap_or(conversation.items.len());
        let lines = &conversation.items[start..end];
        let last = n + 1 == starts.len();
        let read = if last {
            if conversation.status.is_active() || conversation.status == TaskStatus::Idle {
                continue;
            }
            outcome::of_last(conversation.status, lines, check)
        } else {
            outcome::of_lines(lines)
        };
        let Some((outcome, why, judged)) = read else {
            continue;
        };
        receipts.push(Receipt {
            item: start as u32,
            outcome,
            why,
            judged,
            touched: touched::read(lines),
            seconds: last.then(|| took(conversation)).flatten(),
            cost_usd: last
                .then(|| conversation.usage.as_ref().map(|u| u.total.cost_usd))
                .flatten(),
        });
    }
    receipts
}

fn took(conversation: &Conversation) -> Option<f64> {
    let (start, end) = (conversation.task_started_at?, conversation.task_ended_at?);
    (end >= start).then(|| ((end - start) / 1000.0).round())
}
