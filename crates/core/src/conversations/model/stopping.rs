//! Stop in the thread: "Stopping…" while the service is asked, then what it answered (stopped,
//! nothing was running, or not reached, with Stop still offered).

use super::{Conversation, Notice, TaskStatus, ThreadItem};

impl Conversation {
    pub fn record_stopped(&mut self, now: f64) {
        self.record_stopped_with(Notice::Stopped, now);
    }

    /// The person pressed Stop; the service has been asked and has not answered yet.
    pub fn record_stopping(&mut self, now: f64) {
        self.stopping = true;
        self.updated_at = now;
    }

    /// The service answered Stop with "nothing was running": a task still shown as running
    /// is over (the service has nothing of it running); one that ended meanwhile keeps its end.
    pub fn record_nothing_to_stop(&mut self, now: f64) {
        if self.status.is_active() {
            self.record_stopped_with(Notice::NothingToStop, now);
        } else {
            self.stopping = false;
            self.record_notice(Notice::NothingToStop, now);
        }
    }

    /// Stop did not reach the service (or it refused): the task is not stopped, and the
    /// thread says so with Stop still offered.
    pub fn record_not_stopped(&mut self, now: f64) {
        self.stopping = false;
        self.record_notice(Notice::NotStopped, now);
    }

    /// The task was stopped; `why` says by whom or what.
    pub fn record_stopped_with(&mut self, why: Notice, now: f64) {
        self.status = TaskStatus::Stopped;
        self.task_ended_at = Some(now);
        self.stopping = false;
        self.updates_lost = false;
        self.pending_approval = None;
        self.stuck.asking = None;
        if let Some(state) = &mut self.follower {
            state.finished = true;
        }
        self.push(ThreadItem::Notice { notice: why });
        self.updated_at = now;
    }
}
