//! Catching a conversation up with the service's history: the lines another copy of Porthole
//! (or a task that ended while the app was closed) added, shown once, marked as from
//! elsewhere.

use porthole_client::sessions::ContextMessage;

use super::{Conversation, Speaker, ThreadItem};

impl Conversation {
    /// Adds the lines of the service's history (oldest first) that this thread does not show,
    /// marked as from elsewhere; returns how many. Each line the thread shows is matched once,
    /// so a catch-up made again adds nothing twice. While a task runs, the agent's lines after
    /// the person's last matched message are that task's own answer, which its end shows. And
    /// a task whose answer this thread shows was heard here whole: the service's other lines of
    /// it (a step's note, a line without a role, as the makers' client shows the history may
    /// hold) are that task's own, never "answered elsewhere".
    pub fn catch_up(&mut self, history: &[ContextMessage], now: f64) -> usize {
        let mut shown = self.lines_shown();
        let mut unseen: Vec<Option<(Speaker, String, bool)>> = Vec::new();
        let mut after_own_message = false;
        // The task begun by the person's last matched message: whether this thread shows its
        // answer, and the agent lines of it this thread does not show (indices into `unseen`).
        let mut own_task: Option<(bool, Vec<usize>)> = None;
        let heard_whole = |task: Option<(bool, Vec<usize>)>, unseen: &mut Vec<_>| {
            if let Some((true, lines)) = task {
                for at in lines {
                    unseen[at] = None;
                }
            }
        };
        for line in history {
            let by = Speaker::of(&line.role);
            // The person's lines carry the local time Porthole told the agent: their words
            // are what the thread shows.
            let text = crate::conversations::local_time::without_local_time(line.content.trim());
            if text.is_empty() {
                continue;
            }
            let said = (by, same_words(text));
            if let Some(at) = shown.iter().position(|s| *s == said) {
                shown.remove(at);
                after_own_message = by == Speaker::Person;
                if by == Speaker::Person {
                    heard_whole(own_task.take(), &mut unseen);
                    own_task = Some((false, Vec::new()));
                } else if let Some((answered, _)) = own_task.as_mut() {
                    *answered = true;
                }
                continue;
            }
            if by == Speaker::Person {
                after_own_message = false;
                heard_whole(own_task.take(), &mut unseen);
            } else if let Some((_, lines)) = own_task.as_mut() {
                lines.push(unseen.len());
            }
            unseen.push(Some((by, text.to_owned(), after_own_message)));
        }
        heard_whole(own_task, &mut unseen);
        let running = self.status.is_active();
        let mut added = 0;
        for (by, text, after_own_message) in unseen.into_iter().flatten() {
            if running && by == Speaker::Agent && after_own_message {
                continue;
            }
            // The task whose updates were lost was this window's own: its answer read now is
            // its answer, not a line from elsewhere, and the warning that it may still be
            // working is over.
            if self.updates_lost && by == Speaker::Agent && after_own_message {
                self.updates_lost = false;
                self.items.retain(|i| {
                    !matches!(
                        i,
                        ThreadItem::Notice {
                            notice: super::Notice::UpdatesLost
                        }
                    )
                });
                self.push(ThreadItem::Answer { text });
                added += 1;
                continue;
            }
            self.push(ThreadItem::Elsewhere { by, text });
            added += 1;
        }
        if added > 0 {
            self.updated_at = now;
        }
        added
    }

    /// The lines this thread shows, as the service's history would hold them: what the person
    /// wrote, each answer, what came from elsewhere, and each task's answers together (the
    /// history keeps a task's answer as one line even when it arrived in several messages).
    fn lines_shown(&self) -> Vec<(Speaker, String)> {
        let mut shown = Vec::new();
        let mut task_answers: Vec<&str> = Vec::new();
        let end_task = |answers: &mut Vec<&str>, shown: &mut Vec<(Speaker, String)>| {
            if answers.len() > 1 {
                shown.push((Speaker::Agent, same_words(&answers.join(" "))));
            }
            answers.clear();
        };
        for item in &self.items {
            match item {
                ThreadItem::User { text, joined, .. } => {
                    if !joined {
                        end_task(&mut task_answers, &mut shown);
                    }
                    shown.push((Speaker::Person, same_words(text)));
                }
                ThreadItem::Answer { text } => {
                    task_answers.push(text);
                    shown.push((Speaker::Agent, same_words(text)));
                }
                ThreadItem::Reply { text } => shown.push((Speaker::Agent, same_words(text))),
                ThreadItem::Elsewhere { by, text } => shown.push((*by, same_words(text))),
                _ => {}
            }
        }
        end_task(&mut task_answers, &mut shown);
        shown
    }

    pub(super) fn answered_since_last_message(&self, text: &str) -> bool {
        self.items
            .iter()
            .rev()
            .take_while(|i| !matches!(i, ThreadItem::User { .. }))
            .any(|i| matches!(i, ThreadItem::Answer { text: t } if t.trim() == text.trim()))
    }
}

/// Text compared for sameness: the same words with any spacing between them.
fn same_words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
