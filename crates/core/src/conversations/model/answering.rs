//! A card answered: the conversation runs on, and the thread says what the person answered
//! (in the labels they saw, not the values sent). Apart from `model.rs`, which records what
//! the task itself does.

use porthole_client::approvals::Answer;

use super::{Conversation, Notice, TaskStatus};

impl Conversation {
    /// The approval was answered (or expired): the task runs on.
    pub fn approval_answered(&mut self, answer: &Answer, now: f64) {
        let card = self.pending_approval.take();
        if self.status == TaskStatus::NeedsApproval {
            self.status = TaskStatus::Running;
        }
        let notice = match answer {
            Answer::Yes => Notice::Approved,
            Answer::No => Notice::Denied,
            Answer::Choose(selections) => {
                // The person's own words: the labels they picked, not the values sent.
                let label = |q: usize, value: &String| {
                    card.as_ref()
                        .and_then(|c| c.questions.get(q))
                        .and_then(|q| q.options.iter().find(|o| &o.value == value))
                        .map_or_else(|| value.clone(), |o| o.label.clone())
                };
                let picks: Vec<String> = selections
                    .iter()
                    .enumerate()
                    .flat_map(|(q, values)| values.iter().map(move |v| label(q, v)))
                    .collect();
                Notice::Answered { picks }
            }
        };
        self.record_notice(notice, now);
    }
}
