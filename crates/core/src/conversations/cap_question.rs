//! The cap that asks before it stops, as the app runs it: after each update of a followed task
//! the question is asked once when due (`model/cap_question.rs` says when and what), and the
//! person's answer raises the cap for this task only or keeps it. Unanswered, nothing changes:
//! the cap holds and `spending_cap.rs` stops the task at it.

use super::{Conversation, Conversations};
use crate::error::{now_ms, AppError, AppResult};

impl Conversations {
    /// After an update of a followed task: asks the question when it is due.
    pub(super) fn ask_near_cap(&self, conversation: &Conversation) {
        let Some(question) = conversation.cap_question_due() else {
            return;
        };
        match self.change(&conversation.id, |c| {
            c.record_cap_question(question, now_ms())
        }) {
            Ok(asked) => self.notify().near_cap(&asked, &question),
            Err(err) => tracing::warn!(error = %err, "could not ask about a task's cap"),
        }
    }

    /// The person let the task go up to the raise its question offered (this task only: the
    /// next task starts with the cap the person gives it).
    pub fn raise_cap(&self, id: &str) -> AppResult<Conversation> {
        self.answer_cap_question(id, |c| c.record_cap_raised(now_ms()))
    }

    /// The person kept the cap: the task stops at it.
    pub fn keep_cap(&self, id: &str) -> AppResult<Conversation> {
        self.answer_cap_question(id, |c| c.record_cap_kept(now_ms()))
    }

    /// Refused when no question is open (the task ended, was stopped, or it was answered,
    /// perhaps in another window): the window then shows what is true now.
    fn answer_cap_question(
        &self,
        id: &str,
        answer: impl FnOnce(&mut Conversation) -> bool,
    ) -> AppResult<Conversation> {
        if self.store().get(id)?.open_cap_question().is_none() {
            return Err(AppError::NoPendingApproval);
        }
        let mut answered = false;
        let changed = self.change(id, |c| answered = answer(c))?;
        if answered {
            Ok(changed)
        } else {
            Err(AppError::NoPendingApproval)
        }
    }
}
