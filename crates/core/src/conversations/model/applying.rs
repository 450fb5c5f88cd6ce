//! The follower's updates applied to a conversation: the one reducer from what the service
//! told (a step, a card, an answer, the task's end, its cost) to what is kept and shown.

use super::*;

impl Conversation {
    /// Applies one update of the follower and the state to save with it.
    pub fn apply(&mut self, update: &TaskUpdate, state: FollowerState, now: f64) {
        // After an abort the service's stream goes on delivering the stopped task (its last
        // words, its finish): none of it may make the task run again, or read as done. Only
        // its cost still counts, and the service's history is still read.
        if self.status == TaskStatus::Stopped
            && !matches!(
                update,
                TaskUpdate::Usage { .. } | TaskUpdate::History { .. }
            )
        {
            return;
        }
        self.updated_at = now;
        if let Some(session) = &state.session_id {
            self.session_id = Some(session.clone());
            // The service has the message: there is nothing to send again.
            self.unsent = None;
        }
        if matches!(update, TaskUpdate::Replied { .. }) {
            self.unsent = None;
        }
        self.reconnecting = matches!(update, TaskUpdate::Reconnecting { .. });
        self.follower = Some(state);
        match update {
            TaskUpdate::Started { session_id, .. } => {
                // Followed again: what it does shows as it happens.
                self.updates_lost = false;
                self.session_id = Some(session_id.clone());
                if !self.status.is_active() {
                    self.status = TaskStatus::Running;
                }
            }
            TaskUpdate::Replied { text } => {
                self.push(ThreadItem::Reply { text: text.clone() });
                self.status = TaskStatus::Idle;
            }
            TaskUpdate::Status { text, about } => {
                // The service's news is kept in its words; "Sending again…" is this app's own,
                // worded when shown, so none is saved.
                let text = if *about == Some(StatusKind::Resending) {
                    String::new()
                } else {
                    text.clone()
                };
                // Repeated status lines (a computer waking) replace each other.
                if let Some(ThreadItem::Status {
                    text: last,
                    about: last_about,
                }) = self.items.last_mut()
                {
                    *last = text;
                    *last_about = about.clone();
                } else {
                    self.push(ThreadItem::Status {
                        text,
                        about: about.clone(),
                    });
                }
            }
            TaskUpdate::Narration { text, .. } => {
                self.push(ThreadItem::Narration { text: text.clone() })
            }
            TaskUpdate::Progress { text, .. } => {
                // A tool call's title arrives again as its first progress line: show it once.
                // On the stream path, where the call came without one, that line is its title.
                match self.items.last_mut() {
                    Some(ThreadItem::Tool {
                        title: Some(title), ..
                    }) if title == text => {}
                    Some(ThreadItem::Tool {
                        title: title @ None,
                        ..
                    }) => {
                        *title = Some(text.clone());
                    }
                    _ => self.push(ThreadItem::Progress { text: text.clone() }),
                }
            }
            TaskUpdate::Tool {
                tool_name, input, ..
            } => {
                let title = input
                    .as_ref()
                    .and_then(|i| i.get("title"))
                    .and_then(|t| t.as_str())
                    .map(str::to_owned);
                // Without a title (the stream path) the call is kept, so the steps are counted
                // alike on both paths; its first progress line names it, and the window shows
                // no line for a call that stays nameless (a tool name says nothing to a person).
                self.push(ThreadItem::Tool {
                    name: tool_name.clone(),
                    title,
                });
            }
            TaskUpdate::ToolFailed { error_text, .. } => self.push(ThreadItem::ToolFailed {
                text: error_text.clone(),
            }),
            TaskUpdate::Message { text, .. } => {
                self.push(ThreadItem::Answer { text: text.clone() })
            }
            TaskUpdate::NeedsApproval { approval } => {
                self.push(ThreadItem::Approval {
                    title: approval.title.clone(),
                    asks: approval.kind,
                    deletes: approval.reading.deletes.clone(),
                });
                let mut approval = approval.clone();
                approval.read_against(&self.task_words());
                self.pending_approval = Some(approval);
                self.status = TaskStatus::NeedsApproval;
            }
            TaskUpdate::Usage { usage, .. } => {
                if usage.is_some() {
                    self.usage = usage.clone();
                }
            }
            TaskUpdate::Reconnecting { .. } => {}
            TaskUpdate::History { messages } => {
                self.catch_up(messages, now);
            }
            TaskUpdate::Finished {
                succeeded,
                text,
                failure,
                usage,
                ..
            } => {
                self.pending_approval = None;
                self.updates_lost = false;
                if usage.is_some() {
                    self.usage = usage.clone();
                }
                if self.status == TaskStatus::Stopped {
                    return;
                }
                self.task_ended_at = Some(now);
                if *succeeded {
                    self.status = TaskStatus::Succeeded;
                    if !text.is_empty() && !self.answered_since_last_message(text) {
                        self.push(ThreadItem::Answer { text: text.clone() });
                    }
                } else {
                    let error = failure.as_ref().map(of_task_failure).unwrap_or_else(|| {
                        of_task_failure(&porthole_client::TaskFailure {
                            text: String::new(),
                            code: None,
                            resets_at: None,
                            reason: None,
                        })
                    });
                    self.status = TaskStatus::Failed;
                    self.push(ThreadItem::Failure { error });
                    self.failure = Some(error);
                }
            }
        }
    }
}
