//! The words of a shared report (the HTML file a person sends on, `report::page`) and of the
//! dialog that saves it, from `locales/<language>/reportPage.json`: a report is written in the
//! app's language. Its date and its sum are worded by the page's Intl (`report::page_words`).

use super::catalog::{text, text_with};
use super::language::{self, Language};

pub fn save_title() -> String {
    text("reportPage.saveTitle")
}
pub fn file_name() -> String {
    text("reportPage.fileName")
}
pub fn file_kind() -> String {
    text("reportPage.fileKind")
}

/// The page's `lang`: the language its words are in.
pub fn lang() -> &'static str {
    match language::current() {
        Language::En => "en",
        Language::De => "de",
    }
}

pub fn kicker() -> String {
    text("reportPage.kicker")
}
/// The tab's title: "Task report: Look up the weather in Paris".
pub fn tab_title(task: &str) -> String {
    text_with("reportPage.tabTitle", &[("task", task.into())])
}

pub fn computer() -> String {
    text("reportPage.computer")
}
pub fn outcome() -> String {
    text("reportPage.outcome")
}
pub fn cost() -> String {
    text("reportPage.cost")
}
pub fn steps() -> String {
    text("reportPage.steps")
}
pub fn made() -> String {
    text("reportPage.made")
}
pub fn answer() -> String {
    text("reportPage.answer")
}
pub fn checks() -> String {
    text("reportPage.checks")
}

pub fn done() -> String {
    text("reportPage.done")
}
pub fn failed() -> String {
    text("reportPage.failed")
}
pub fn not_finished() -> String {
    text("reportPage.notFinished")
}
/// The computer, when the app no longer knows its name.
pub fn some_computer() -> String {
    text("reportPage.someComputer")
}
/// A check the service gave no name.
pub fn check_name(number: usize) -> String {
    text_with(
        "reportPage.checkName",
        &[("number", number.to_string().into())],
    )
}
pub fn passed() -> String {
    text("reportPage.passed")
}
pub fn not_met() -> String {
    text("reportPage.notMet")
}

/// A task whose cost the service did not report.
pub fn cost_not_reported() -> String {
    text("reportPage.costNotReported")
}

pub fn no_answer() -> String {
    text("reportPage.noAnswer")
}
pub fn not_recorded() -> String {
    text("reportPage.notRecorded")
}
pub fn no_steps() -> String {
    text("reportPage.noSteps")
}
pub fn footer() -> String {
    text("reportPage.footer")
}

/// A step the service gave no title.
pub fn untitled_step() -> String {
    text("reportPage.untitledStep")
}
pub fn final_screen() -> String {
    text("reportPage.finalScreen")
}
pub fn step_went_wrong() -> String {
    text("reportPage.stepWentWrong")
}
pub fn what_the_agent_did() -> String {
    text("reportPage.whatTheAgentDid")
}
pub fn screen_at(step: usize) -> String {
    text_with("reportPage.screenAt", &[("step", step.to_string().into())])
}
pub fn no_screenshot() -> String {
    text("reportPage.noScreenshot")
}
pub fn receipt() -> String {
    text("reportPage.receipt")
}
pub fn touched() -> String {
    text("reportPage.touched")
}
pub fn touched_none() -> String {
    text("reportPage.touchedNone")
}
/// Where the steps come from, as the Steps sheet says it.
pub fn from_service() -> String {
    text("reportPage.fromService")
}
pub fn from_film() -> String {
    text("reportPage.fromFilm")
}
/// A film frame's picture: "The computer's screen at 0:42".
pub fn frame_at(time: &str) -> String {
    text_with("reportPage.frameAt", &[("time", time.into())])
}
/// No turn id to read the service's record by, and no film.
pub fn no_film() -> String {
    text("reportPage.noFilm")
}
/// What replaces the service's address in anything the report quotes.
pub fn the_service() -> String {
    text("reportPage.theService")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::catalog::text_in;

    #[test]
    fn a_report_without_a_cost_says_so_in_each_language() {
        assert_eq!(cost_not_reported(), "Not reported");
        assert_eq!(
            text_in(Language::De, "reportPage.costNotReported", &[]),
            "Nicht gemeldet"
        );
    }
}
