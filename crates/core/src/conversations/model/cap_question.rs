//! The cap that asks before it stops: when a task's cost nears its cap, the thread asks once
//! whether it may go further ("This task has cost $1.60 of your $2.00. Let it go up to $4?").
//! The service cannot pause a task, so a stop at the cap throws away the work done; asked a
//! little before, the person can let a task that is nearly there finish. No answer changes
//! nothing: the cap holds and the task stops at it (`spending_cap.rs`).

use serde::{Deserialize, Serialize};

use super::{Conversation, Notice};

/// The share of the cap at which the task asks. The simulator's and the service's agents pay
/// per model call, a step's worth at a time: at four fifths there is usually a step or more
/// left before the cap, time for the person to read one line and click; asked earlier, most
/// tasks that would finish well under their cap would ask for nothing.
pub const ASK_AT: f64 = 0.8;

/// The raise offered: the cap doubled. One rule the person can predict from the cap they typed
/// (it gives the task as much again as they first gave it), and it matches the question's
/// round example ($2 → $4); a task that needs more still stops at the raised cap.
pub const RAISE_BY: f64 = 2.0;

/// The question the thread shows while the task runs near its cap.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CapQuestion {
    /// What the task had cost when asked.
    pub cost_usd: f64,
    pub cap_usd: f64,
    /// The cap "Let it go up to" sets.
    pub raise_to_usd: f64,
}

impl Conversation {
    /// The question to ask now: the task runs, has a cap, has not asked yet, and its cost is
    /// at [`ASK_AT`] of the cap or more but below it (at the cap it stops instead).
    pub fn cap_question_due(&self) -> Option<CapQuestion> {
        if self.cap_asked || self.stopping || !self.status.is_active() {
            return None;
        }
        let cap = self.cap_usd?;
        let cost = self.usage.as_ref()?.total.cost_usd;
        (cost >= cap * ASK_AT && cost < cap).then(|| CapQuestion {
            cost_usd: cost,
            cap_usd: cap,
            raise_to_usd: raised(cap),
        })
    }

    /// Shows `question` in the thread; it is asked once per task.
    pub fn record_cap_question(&mut self, question: CapQuestion, now: f64) {
        self.cap_question = Some(question);
        self.cap_asked = true;
        self.updated_at = now;
    }

    /// The question still open: asked, not answered, and the task still runs.
    pub fn open_cap_question(&self) -> Option<CapQuestion> {
        self.cap_question
            .filter(|_| self.status.is_active() && !self.stopping)
    }

    /// The person let the task go up to the question's raise; `false` when no question is open.
    pub fn record_cap_raised(&mut self, now: f64) -> bool {
        let Some(question) = self.open_cap_question() else {
            return false;
        };
        self.cap_usd = Some(question.raise_to_usd);
        self.cap_question = None;
        self.record_notice(
            Notice::CapRaised {
                cap_usd: question.raise_to_usd,
            },
            now,
        );
        true
    }

    /// The person kept the cap; `false` when no question is open.
    pub fn record_cap_kept(&mut self, now: f64) -> bool {
        let Some(question) = self.open_cap_question() else {
            return false;
        };
        self.cap_question = None;
        self.record_notice(
            Notice::CapKept {
                cap_usd: question.cap_usd,
            },
            now,
        );
        true
    }

    /// A new task starts: it may ask once of its own.
    pub(super) fn forget_cap_question(&mut self) {
        self.cap_question = None;
        self.cap_asked = false;
    }
}

/// The raised cap, in whole cents (the cap typed is).
fn raised(cap: f64) -> f64 {
    (cap * RAISE_BY * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::super::{ConversationBook, TaskStatus};
    use super::*;
    use porthole_client::events::{TaskUsage, UsageFigures};

    fn running_at(cost: f64, cap: Option<f64>) -> Conversation {
        let mut book = ConversationBook::default();
        book.create("c1".into(), "demo", "m1", 1.0);
        let mut c = book.get_mut("c1").unwrap().clone();
        c.record_user_message("Count to 20", false, 2.0);
        c.cap_usd = cap;
        c.usage = Some(TaskUsage {
            total: UsageFigures {
                cost_usd: cost,
                ..UsageFigures::default()
            },
            by_model: Default::default(),
        });
        c
    }

    #[test]
    fn the_question_is_due_from_four_fifths_of_the_cap_until_the_cap() {
        assert_eq!(running_at(1.59, Some(2.0)).cap_question_due(), None);
        assert_eq!(
            running_at(1.6, Some(2.0)).cap_question_due(),
            Some(CapQuestion {
                cost_usd: 1.6,
                cap_usd: 2.0,
                raise_to_usd: 4.0
            })
        );
        assert_eq!(running_at(2.0, Some(2.0)).cap_question_due(), None, "stops");
        assert_eq!(running_at(1.9, None).cap_question_due(), None);
        let mut ended = running_at(1.9, Some(2.0));
        ended.status = TaskStatus::Succeeded;
        assert_eq!(ended.cap_question_due(), None);
    }

    #[test]
    fn asked_once_per_task_and_answered_once() {
        let mut c = running_at(1.7, Some(2.0));
        let question = c.cap_question_due().unwrap();
        c.record_cap_question(question, 3.0);
        assert_eq!(c.cap_question_due(), None, "asked once");
        assert!(c.record_cap_raised(4.0));
        assert_eq!(c.cap_usd, Some(4.0));
        assert!(!c.record_cap_kept(5.0), "already answered");
        c.record_user_message("Again", false, 6.0);
        assert!(
            !c.cap_asked && c.cap_question.is_none(),
            "a new task asks anew"
        );
    }

    #[test]
    fn a_conversation_saved_before_the_question_existed_still_loads() {
        let mut c = running_at(1.7, Some(2.0));
        c.record_cap_question(c.cap_question_due().unwrap(), 3.0);
        let mut saved = serde_json::to_value(&c).unwrap();
        assert!(saved.get("capQuestion").is_some() && saved.get("capAsked").is_some());
        let old = saved.as_object_mut().unwrap();
        old.remove("capQuestion");
        old.remove("capAsked");
        let read: Conversation = serde_json::from_value(saved).unwrap();
        assert_eq!((read.cap_question, read.cap_asked), (None, false));
    }
}
