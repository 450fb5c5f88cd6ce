//! A message on its way to the service: kept while it is sent, shown as not sent (with Retry)
//! when the service did not take it, taken back for Retry, and the task's end when its updates
//! were lost before it named where it runs.

use super::{Conversation, Notice, TaskStatus, ThreadItem};
use crate::error::Problem;

impl Conversation {
    /// The message that starts a task is on its way: kept until the service is known to have it.
    pub fn record_sending(&mut self, request: crate::conversations::SendRequest) {
        self.unsent = Some(request);
    }

    /// The service did not take the message (or it is not known to have): nothing started, so
    /// no failed task; the message stays with a way to send it again.
    pub fn record_not_sent(&mut self, error: Problem, now: f64) {
        self.status = TaskStatus::Idle;
        self.pending_approval = None;
        self.follower = None;
        self.reconnecting = false;
        // "Sending again…" is over: the line that says how it ended takes its place.
        if matches!(self.items.last(), Some(ThreadItem::Status { .. })) {
            self.items.pop();
        }
        self.push(ThreadItem::NotSent { error });
        self.updated_at = now;
    }

    /// The follower lost the task's updates before it learned where the task runs. The service
    /// has the message and the agent may still be working, so the task is neither failed nor
    /// done: nothing more is followed, and what the agent does shows when the conversation is
    /// caught up again (when the window is focused, or the conversation opened).
    pub fn record_updates_lost(&mut self, now: f64) {
        self.status = TaskStatus::Idle;
        self.pending_approval = None;
        self.reconnecting = false;
        self.updates_lost = true;
        // Taken: there is nothing to send again.
        self.unsent = None;
        if let Some(state) = &mut self.follower {
            state.finished = true;
        }
        self.push(ThreadItem::Notice {
            notice: Notice::UpdatesLost,
        });
        self.updated_at = now;
    }

    /// The message to send again, taking its "not sent" line away; `None` when there is none.
    pub fn take_retry(&mut self, now: f64) -> Option<crate::conversations::SendRequest> {
        let request = self.unsent.clone()?;
        if self.status.is_active() {
            return None;
        }
        let at = self
            .items
            .iter()
            .rposition(|i| matches!(i, ThreadItem::NotSent { .. }))?;
        self.items.remove(at);
        self.status = TaskStatus::Running;
        self.failure = None;
        self.usage = None;
        self.follower = None;
        self.updated_at = now;
        Some(request)
    }
}
