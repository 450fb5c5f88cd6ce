//! The words of a shared report (the HTML file a person sends on, `report::page`) and of the
//! dialog that saves it.

pub const SAVE_TITLE: &str = "Save the report";
pub const FILE_NAME: &str = "Porthole report.html";
pub const FILE_KIND: &str = "Web page";

pub const KICKER: &str = "Porthole task report";
/// The tab's title: "Task report: Look up the weather in Paris".
pub fn tab_title(task: &str) -> String {
    format!("Task report: {task}")
}

pub const COMPUTER: &str = "Computer";
pub const OUTCOME: &str = "Outcome";
pub const COST: &str = "Cost";
pub const STEPS: &str = "Steps";
pub const MADE: &str = "Report made";
pub const ANSWER: &str = "Answer";
pub const CHECKS: &str = "Checks";

pub const DONE: &str = "Done";
pub const FAILED: &str = "Failed";
pub const NOT_FINISHED: &str = "Not finished";
/// The computer, when the app no longer knows its name.
pub const SOME_COMPUTER: &str = "a computer";
/// A check the service gave no name.
pub fn check_name(number: usize) -> String {
    format!("Check {number}")
}
pub const PASSED: &str = "Passed";
pub const NOT_MET: &str = "Not met";
pub const COST_NOT_REPORTED: &str = "Not reported";

pub const NO_ANSWER: &str = "The agent gave no answer.";
pub const NOT_RECORDED: &str =
    "The steps of this task were not recorded (\u{201c}Record steps\u{201d} was off when it was sent).";
pub const NO_STEPS: &str = "The service recorded no steps for this task.";
pub const FOOTER: &str =
    "Made with Porthole. This file holds everything it shows; it needs no connection.";

/// A step the service gave no title.
pub const UNTITLED_STEP: &str = "Step";
pub const FINAL_SCREEN: &str = "The final screen";
pub const STEP_WENT_WRONG: &str = "This step went wrong: ";
pub const WHAT_THE_AGENT_DID: &str = "What the agent did";
pub fn screen_at(step: usize) -> String {
    format!("The screen at step {step}")
}
pub const NO_SCREENSHOT: &str = "No screenshot for this step.";
/// What replaces the service's address in anything the report quotes.
pub const THE_SERVICE: &str = "[the service]";
