//! Words for tasks that ended badly, and for replay, reusable tasks and checks.

use super::Words;
use crate::error::UiAction::*;

pub const TASK_FAILED: Words = Words::new(
    "The task did not finish",
    "The agent could not finish this task. You can try again, perhaps with more detail.",
    Some(Retry),
);
pub const OUTPUT_INVALID: Words = Words::new(
    "The answer didn't fit the shape you asked for",
    "The agent answered, but not in the form the output schema describes. Its answer and what did not fit are shown below.",
    None,
);
pub const CRITERIA_NOT_MET: Words = Words::new(
    "The success checks did not pass",
    "The agent finished, but at least one of your success checks failed. Each check and its evidence are shown below.",
    None,
);
pub const CRITERIA_UNCHECKED: Words = Words::new(
    "A success check could not be checked",
    "The agent finished, but at least one of your checks could not be verified from what it did. See the evidence for each check.",
    None,
);
pub const TURN_NOT_FOUND: Words = Words::new(
    "That task is gone",
    "The service no longer has this task or its screenshots.",
    None,
);
pub const TURN_NOT_FINISHED: Words = Words::new(
    "The task is still running",
    "Wait until the task has finished, then try again.",
    Some(Retry),
);
pub const TRAJECTORY_NOT_RECORDED: Words = Words::new(
    "Steps were not recorded",
    "This task ran without \"Record steps\". Turn it on in the composer, run the task again, then make it reusable.",
    None,
);
pub const NO_STEPS: Words = Words::new(
    "Nothing to learn from",
    "The agent took no steps on the computer in this task, so there is nothing to turn into a reusable task.",
    None,
);
pub const TEMPLATE_MISMATCH: Words = Words::new(
    "The template doesn't match the task",
    "With every {{placeholder}} filled in with its word, the template must read exactly like the task you sent. Check the text around the placeholders.",
    None,
);
pub const MIXED_SESSIONS: Words = Words::new(
    "Tasks from different conversations",
    "Only tasks from one conversation can be used together.",
    None,
);
pub const VALIDATION: Words = Words::new(
    "The service could not take this request",
    "Something in the request was missing or not allowed. Check the template or criteria and try again.",
    None,
);
pub const NOT_SUPPORTED: Words = Words::new(
    "Not available",
    "The service does not offer this kind of check yet.",
    None,
);
pub const LEARN_FAILED: Words = Words::new(
    "Learning did not work this time",
    "The service could not produce working code on this try. Try again; you will not be charged twice for the same try.",
    Some(Retry),
);
pub const RESULT_NOT_FOUND: Words = Words::new(
    "Result not found",
    "The service no longer has this result.",
    None,
);
pub const NO_TURN_YET: Words = Words::new(
    "No task yet",
    "Send a task in this conversation first.",
    None,
);
pub const UNKNOWN_REUSABLE_TASK: Words = Words::new(
    "Reusable task not found",
    "This reusable task is no longer in your library.",
    None,
);
pub const NO_CRITERIA: Words = Words::new(
    "Nothing to check",
    "Write what a good result looks like, as a sentence or as a list of checks.",
    None,
);
pub const INVALID_SCHEMA: Words = Words::new(
    "The output schema isn't valid",
    "The output schema must be a JSON object, for example {\"type\": \"object\", \"properties\": {\"price\": {\"type\": \"number\"}}}.",
    None,
);
pub const INVALID_CAP: Words = Words::new(
    "The spending cap isn't a sum of money",
    "Type the most this task may cost in dollars, at least $0.01 (for example 0.50), or leave the cap empty.",
    None,
);
