//! "It seems stuck": from what a task's updates already carry, notices a task going round in
//! circles and asks the person once (Stop, Give it a hint, Let it keep going).
//!
//! [`Stuck`] is a pure watch fed each update and, while nothing arrives, the time
//! ([`Stuck::tick`]); the time is always passed in, so tests need no clock. It is saved with
//! its conversation, so a restart neither forgets "Let it keep going" nor asks again.

use porthole_client::TaskUpdate;
use serde::{Deserialize, Serialize};

use super::{Conversation, Conversations, SendRequest, TaskStatus};
use crate::error::{now_ms, AppResult};

/// The same narration or step this many times in a row. An agent retries a look that missed
/// once or twice as a matter of course; a third identical one in a row is rarely progress.
pub const REPEATS: u32 = 3;
/// No new step for this long while the task runs (never while it waits on the person). A step
/// (open an app, type, read a page) takes seconds; the slowest (a download, a computer waking)
/// stay under a few minutes, so five minutes of nothing is worth a question.
pub const QUIET_MS: f64 = 5.0 * 60_000.0;
/// Cost rising by this much with no new step in between: model calls that lead to no action.
/// Half a dollar is fifty ordinary steps' worth of model calls (about a cent each).
pub const COST_USD: f64 = 0.50;
/// ...over at least this many separate rises, so one large model call (a long page read, the
/// Demo's "expensive" task) is not taken for a loop.
pub const COST_RISES: u32 = 3;

/// The end-to-end tests' stand-in for [`QUIET_MS`], in milliseconds (debug builds only, as
/// every test switch): a test cannot wait five minutes.
const QUIET_SWITCH: &str = "PORTHOLE_TEST_STUCK_QUIET_MS";

/// Why the card asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum StuckSignal {
    /// The same narration or step several times in a row.
    Repeating,
    /// No new step for a few minutes.
    Quiet,
    /// Cost rising with no new step.
    CostWithoutSteps,
}

/// When each signal fires: the constants above, or a test's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    pub repeats: u32,
    pub quiet_ms: f64,
    pub cost_usd: f64,
    pub cost_rises: u32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            repeats: REPEATS,
            quiet_ms: QUIET_MS,
            cost_usd: COST_USD,
            cost_rises: COST_RISES,
        }
    }
}

impl Thresholds {
    /// The app's thresholds; only a test build reads the quiet one from its switch.
    pub fn current() -> Self {
        let quiet = crate::test_switch::var(QUIET_SWITCH).and_then(|v| v.parse::<f64>().ok());
        Self {
            quiet_ms: quiet.filter(|q| *q > 0.0).unwrap_or(QUIET_MS),
            ..Self::default()
        }
    }

    /// How often a followed task with no news is looked at for the quiet signal.
    pub fn check_every(&self) -> std::time::Duration {
        std::time::Duration::from_millis((self.quiet_ms / 5.0).max(200.0) as u64)
    }
}

/// What the watch remembers of one task. Not written when it is all default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", default)]
pub struct Stuck {
    /// The card is shown, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asking: Option<StuckSignal>,
    /// The person answered "Let it keep going": never asked again for this task.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub let_run: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_narration: Option<String>,
    #[serde(skip_serializing_if = "is_zero")]
    narration_repeats: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_step: Option<String>,
    #[serde(skip_serializing_if = "is_zero")]
    step_repeats: u32,
    /// A tool call came without a title (the stream path): its first progress line names it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    untitled_step: bool,
    /// When the last new step (or new narration) came, in ms since the epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    last_step_at: Option<f64>,
    /// The task waits on the person: time does not count.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    paused: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost_at_step: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_cost: Option<f64>,
    #[serde(skip_serializing_if = "is_zero")]
    cost_rises: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Stuck {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// One update of the running task.
    pub fn observe(&mut self, update: &TaskUpdate, now: f64, t: &Thresholds) {
        self.last_step_at.get_or_insert(now);
        match update {
            TaskUpdate::Narration { text, .. } => {
                if self.last_narration.as_deref() == Some(text.as_str()) {
                    self.narration_repeats += 1;
                } else {
                    self.last_narration = Some(text.clone());
                    self.narration_repeats = 1;
                    // Something new said: the agent is not quiet.
                    self.last_step_at = Some(now);
                }
                if self.narration_repeats >= t.repeats {
                    self.ask(StuckSignal::Repeating);
                }
            }
            TaskUpdate::Tool { input, .. } => {
                let title = input
                    .as_ref()
                    .and_then(|i| i.get("title"))
                    .and_then(|t| t.as_str());
                match title {
                    Some(title) => self.step(title, now, t),
                    None => self.untitled_step = true,
                }
            }
            TaskUpdate::Progress { text, .. } if self.untitled_step => {
                self.untitled_step = false;
                self.step(text, now, t);
            }
            TaskUpdate::Usage {
                usage: Some(usage), ..
            } => self.cost(usage.total.cost_usd, t),
            _ => {}
        }
    }

    fn step(&mut self, key: &str, now: f64, t: &Thresholds) {
        if self.last_step.as_deref() == Some(key) {
            // The same step again is no progress: the quiet and cost watches go on.
            self.step_repeats += 1;
        } else {
            self.last_step = Some(key.to_owned());
            self.step_repeats = 1;
            self.last_step_at = Some(now);
            self.cost_at_step = self.last_cost;
            self.cost_rises = 0;
        }
        if self.step_repeats >= t.repeats {
            self.ask(StuckSignal::Repeating);
        }
    }

    fn cost(&mut self, cost: f64, t: &Thresholds) {
        let base = *self.cost_at_step.get_or_insert(cost);
        if self.last_cost.is_some_and(|last| cost > last) {
            self.cost_rises += 1;
        }
        self.last_cost = Some(cost);
        if self.cost_rises >= t.cost_rises && cost - base >= t.cost_usd {
            self.ask(StuckSignal::CostWithoutSteps);
        }
    }

    /// Time passed with no update; `running` is false while the task waits on the person.
    pub fn tick(&mut self, now: f64, running: bool, t: &Thresholds) {
        if !running {
            self.paused = true;
            return;
        }
        if std::mem::take(&mut self.paused) || self.last_step_at.is_none() {
            // Back from waiting on the person (or never seen): time counts from now.
            self.last_step_at = Some(now);
        }
        if self.last_step_at.is_some_and(|at| now - at >= t.quiet_ms) {
            self.ask(StuckSignal::Quiet);
        }
    }

    /// Once per episode, and never after "Let it keep going".
    fn ask(&mut self, why: StuckSignal) {
        if !self.let_run && self.asking.is_none() {
            self.asking = Some(why);
        }
    }

    /// The person gave a hint: this episode is over, and the next starts from now.
    pub fn hinted(&mut self, now: f64) {
        *self = Self {
            last_step_at: Some(now),
            cost_at_step: self.last_cost,
            last_cost: self.last_cost,
            ..Self::default()
        };
    }

    /// The person answered "Let it keep going".
    pub fn keep_going(&mut self) {
        self.asking = None;
        self.let_run = true;
    }
}

impl Conversation {
    /// Feeds the stuck watch one update, after it was applied; an ended task asks nothing.
    pub fn watch_stuck(&mut self, update: &TaskUpdate, now: f64, t: &Thresholds) {
        if self.status.is_active() && !self.stopping {
            self.stuck.observe(update, now, t);
        } else {
            self.stuck.asking = None;
        }
    }
}

/// The person's answer to the card (Stop is the Stop button's own command).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum StuckAnswer {
    /// Sends `text` into the running task, as a message typed while it runs.
    Hint {
        text: String,
    },
    KeepGoing,
}

impl Conversations {
    /// While a followed task sends nothing: asks when it has been quiet too long. Saved only
    /// when the watch changed, so a quiet task is not written every few seconds.
    pub(super) fn stuck_tick(&self, id: &str, t: &Thresholds) {
        let Ok(conversation) = self.store().get(id) else {
            return;
        };
        if !conversation.status.is_active() || conversation.stopping {
            return;
        }
        let running = conversation.status == TaskStatus::Running;
        let now = now_ms();
        let mut probe = conversation.stuck.clone();
        probe.tick(now, running, t);
        if probe != conversation.stuck {
            if let Err(err) = self.change(id, |c| c.stuck.tick(now, running, t)) {
                tracing::warn!(error = %err, "could not save a quiet task's watch");
            }
        }
    }

    /// The person answered the card.
    pub async fn answer_stuck(&self, id: &str, answer: StuckAnswer) -> AppResult<()> {
        match answer {
            StuckAnswer::KeepGoing => {
                self.change(id, |c| c.stuck.keep_going())?;
            }
            StuckAnswer::Hint { text } => {
                self.send(SendRequest {
                    conversation_id: id.to_owned(),
                    text,
                    ..SendRequest::default()
                })
                .await?;
                self.change(id, |c| c.stuck.hinted(now_ms()))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
