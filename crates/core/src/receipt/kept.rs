//! The service's check the person ran of a task ("Check this result"), kept with its
//! conversation: the task's receipt reads its outcome from it, after a restart too, and it is
//! deleted with the conversation. Only the last task's check is kept: the receipt of an
//! earlier task reads its lines (outcome.rs).

use serde::{Deserialize, Serialize};

use super::Check;
use crate::conversations::{Conversation, Conversations};
use crate::error::AppResult;

/// A check and the task (`turnId`) it checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct KeptCheck {
    pub turn_id: String,
    pub passed: u32,
    pub of: u32,
}

impl Conversation {
    /// The check kept of the conversation's last task; one of an earlier task is not its.
    pub fn last_check(&self) -> Option<Check> {
        let kept = self.check.as_ref()?;
        let last = self.follower.as_ref()?.turn_id.as_deref()?;
        (kept.turn_id == last).then_some(Check {
            passed: kept.passed,
            of: kept.of,
        })
    }
}

impl Conversations {
    /// Keeps the check the person ran of task `turn_id` in conversation `id`; `None` (the
    /// service could not tell) forgets the one kept of that task.
    pub fn keep_check(&self, id: &str, turn_id: &str, check: Option<Check>) -> AppResult<()> {
        self.change(id, |c| match check {
            Some(check) => {
                c.check = Some(KeptCheck {
                    turn_id: turn_id.to_owned(),
                    passed: check.passed,
                    of: check.of,
                })
            }
            None if c.check.as_ref().is_some_and(|k| k.turn_id == turn_id) => c.check = None,
            None => {}
        })?;
        Ok(())
    }
}
