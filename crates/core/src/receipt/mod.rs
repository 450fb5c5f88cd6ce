//! A finished task's receipt: did it do what was asked (Done, Not done, Partly) and how that
//! was told, what the agent touched, how long it took and what it cost. It leads every
//! finished task in the thread and the shared report.
//!
//! Read from what the app itself kept of the task (its thread lines, its end, its times and
//! usage), so it needs no `turnId`: against the real service the turn may never be known.
//! When the service's check of the result against the task's words is known, it decides the
//! outcome, and the receipt says so ([`Judged::Check`]).

mod kept;
mod outcome;
mod touched;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::conversations::{Conversation, PastTask, TaskStatus, ThreadItem};
use crate::film::FilmSummary;
pub use kept::KeptCheck;
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
    /// How long it ran, in seconds, when its start and end were kept.
    pub seconds: Option<f64>,
    /// What it cost in dollars, as the service reported it, when it was kept.
    pub cost_usd: Option<f64>,
    /// When it started, Unix ms, when kept: its film is the one recorded from then on.
    pub started_ms: Option<f64>,
    /// Porthole's film of it ("Watch again"), when one was recorded ([`with_films`]).
    pub film_id: Option<String>,
}

/// The service's check of the last task: how many of its criteria passed, of how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
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
    // The figures of earlier tasks line up with the messages that started them from the end:
    // the newest message is the running (or last) task, the one before it the last kept.
    let past = &conversation.past_tasks;
    let earlier = starts.len().saturating_sub(1);
    let figures = |n: usize| -> PastTask {
        if n + 1 == starts.len() {
            return PastTask {
                started_at: conversation.task_started_at,
                ended_at: conversation.task_ended_at,
                cost_usd: conversation.usage.as_ref().map(|u| u.total.cost_usd),
            };
        }
        (past.len() + n)
            .checked_sub(earlier)
            .and_then(|i| past.get(i).copied())
            .unwrap_or(PastTask {
                started_at: None,
                ended_at: None,
                cost_usd: None,
            })
    };
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
        let task = figures(n);
        receipts.push(Receipt {
            item: start as u32,
            outcome,
            why,
            judged,
            touched: touched::read(lines),
            seconds: took(&task),
            cost_usd: task.cost_usd,
            started_ms: task.started_at,
            film_id: None,
        });
    }
    receipts
}

fn took(task: &PastTask) -> Option<f64> {
    let (start, end) = (task.started_at?, task.ended_at?);
    (end >= start).then(|| ((end - start) / 1000.0).round())
}

/// Gives each receipt the film recorded while its task ran: the newest film that began at
/// or after the task started (a second's leeway: the recorder starts as it sees the task
/// run) and before the next task started. A task whose start was not kept has none.
pub fn with_films(
    conversation: &Conversation,
    mut receipts: Vec<Receipt>,
    films: &[FilmSummary],
) -> Vec<Receipt> {
    const LEEWAY_MS: f64 = 1000.0;
    // A task still running has no receipt, but its film is its own.
    let running = conversation
        .status
        .is_active()
        .then_some(conversation.task_started_at)
        .flatten();
    let starts: Vec<Option<f64>> = receipts
        .iter()
        .map(|r| r.started_ms)
        .chain([running])
        .collect();
    for (n, receipt) in receipts.iter_mut().enumerate() {
        let Some(from) = receipt.started_ms else {
            continue;
        };
        let until = starts[n + 1..].iter().flatten().next().copied();
        receipt.film_id = films
            .iter()
            .filter(|f| f.started_ms >= from - LEEWAY_MS && until.is_none_or(|u| f.started_ms < u))
            .max_by(|a, b| a.started_ms.total_cmp(&b.started_ms))
            .map(|f| f.id.clone());
    }
    receipts
}
