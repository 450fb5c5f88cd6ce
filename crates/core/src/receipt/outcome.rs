//! Did the task do what was asked: from the service's check when there is one, else from how
//! the task ended and what its answer says.

use serde::{Deserialize, Serialize};

use super::Check;
use crate::conversations::{Notice, TaskStatus, ThreadItem};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ReceiptOutcome {
    Done,
    NotDone,
    Partly,
}

/// How the outcome was told, which the receipt says beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum Judged {
    /// The service checked the result against the task's own words.
    Check,
    /// Read from how the task ended and the agent's answer.
    Answer,
}

/// Why a task is not done, or only partly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum Why {
    /// The person declined a card it asked.
    Declined,
    /// The task failed.
    Failed,
    /// The person stopped it.
    Stopped,
    /// Porthole stopped it at its spending cap.
    StoppedAtCap,
    /// The agent's answer says it did not do all of it.
    AnswerSaysNotAll,
    /// The service's check found criteria not met.
    CriteriaNotMet,
}

type Read = Option<(ReceiptOutcome, Option<Why>, Judged)>;

/// A task before the conversation's last, read from its lines alone.
pub(super) fn of_lines(lines: &[ThreadItem]) -> Read {
    if let Some(why) = stopped(lines) {
        return Some((ReceiptOutcome::NotDone, Some(why), Judged::Answer));
    }
    if lines
        .iter()
        .any(|l| matches!(l, ThreadItem::Failure { .. }))
    {
        return Some((ReceiptOutcome::NotDone, Some(Why::Failed), Judged::Answer));
    }
    answered(lines)
}

/// The conversation's last task, which ended with `status`.
pub(super) fn of_last(status: TaskStatus, lines: &[ThreadItem], check: Option<Check>) -> Read {
    if let Some(check) = check.filter(|c| c.of > 0) {
        let (outcome, why) = if check.passed >= check.of {
            (ReceiptOutcome::Done, None)
        } else if check.passed > 0 {
            (ReceiptOutcome::Partly, Some(Why::CriteriaNotMet))
        } else {
            (ReceiptOutcome::NotDone, Some(Why::CriteriaNotMet))
        };
        return Some((outcome, why, Judged::Check));
    }
    match status {
        TaskStatus::Stopped => Some((
            ReceiptOutcome::NotDone,
            Some(stopped(lines).unwrap_or(Why::Stopped)),
            Judged::Answer,
        )),
        TaskStatus::Failed => Some((ReceiptOutcome::NotDone, Some(Why::Failed), Judged::Answer)),
        TaskStatus::Succeeded => {
            answered(lines).or(Some((ReceiptOutcome::Done, None, Judged::Answer)))
        }
        TaskStatus::Idle | TaskStatus::Running | TaskStatus::NeedsApproval => None,
    }
}

fn stopped(lines: &[ThreadItem]) -> Option<Why> {
    lines.iter().rev().find_map(|l| match l {
        ThreadItem::Notice {
            notice: Notice::Stopped,
        } => Some(Why::Stopped),
        ThreadItem::Notice {
            notice: Notice::StoppedAtCap { .. },
        } => Some(Why::StoppedAtCap),
        _ => None,
    })
}

/// A task that answered: done, unless the person declined what it asked or the answer itself
/// says part of it was not done.
fn answered(lines: &[ThreadItem]) -> Read {
    let declined = lines.iter().any(|l| {
        matches!(
            l,
            ThreadItem::Notice {
                notice: Notice::Denied
            }
        )
    });
    if declined {
        return Some((ReceiptOutcome::NotDone, Some(Why::Declined), Judged::Answer));
    }
    let answer = lines.iter().rev().find_map(|l| match l {
        ThreadItem::Answer { text } => Some(text.as_str()),
        _ => None,
    })?;
    if admits_shortfall(answer) {
        return Some((
            ReceiptOutcome::Partly,
            Some(Why::AnswerSaysNotAll),
            Judged::Answer,
        ));
    }
    Some((ReceiptOutcome::Done, None, Judged::Answer))
}

/// The answer says in so many words that something was not done. Only plain admissions are
/// read (English, as the agent writes); anything subtler is left to the service's check.
fn admits_shortfall(answer: &str) -> bool {
    let lower = answer.to_lowercase().replace('’', "'");
    [
        "couldn't",
        "could not",
        "unable to",
        "wasn't able",
        "was not able",
        "weren't able",
        "not able to",
        "only partly",
        "partially",
    ]
    .iter()
    .any(|words| lower.contains(words))
}
