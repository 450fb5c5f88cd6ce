//! The words of a shared report (the HTML file a person sends on, `report::page`) and of the
//! dialog that saves it, from `locales/<language>/reportPage.json`: a report is written in the
//! app's language, its dates and sums too.

use super::catalog::{text, text_with};
use super::language::{self, Language};
use super::money;

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

/// What the task cost, as the window says it: never a cost that rounds to nothing.
pub fn cost_of(usd: Option<f64>) -> String {
    let language = language::current();
    match usd {
        None => text("reportPage.costNotReported"),
        Some(usd) if usd > 0.0 && usd < 0.01 => text_with(
            "reportPage.lessThanACent",
            &[("cent", money::usd_in(language, 0.01).into())],
        ),
        Some(usd) => money::usd_in(language, usd),
    }
}

/// When the report was made, in UTC: "26 November 2026, 14:05 UTC" / "26. November 2026,
/// 14:05 UTC".
pub fn made_at(at: time::OffsetDateTime) -> String {
    let month = match at.month() {
        time::Month::January => text("reportPage.january"),
        time::Month::February => text("reportPage.february"),
        time::Month::March => text("reportPage.march"),
        time::Month::April => text("reportPage.april"),
        time::Month::May => text("reportPage.may"),
        time::Month::June => text("reportPage.june"),
        time::Month::July => text("reportPage.july"),
        time::Month::August => text("reportPage.august"),
        time::Month::September => text("reportPage.september"),
        time::Month::October => text("reportPage.october"),
        time::Month::November => text("reportPage.november"),
        time::Month::December => text("reportPage.december"),
    };
    text_with(
        "reportPage.madeAt",
        &[
            ("day", at.day().to_string().into()),
            ("month", month.into()),
            ("year", at.year().to_string().into()),
            (
                "time",
                format!("{:02}:{:02}", at.hour(), at.minute()).into(),
            ),
        ],
    )
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
/// What replaces the service's address in anything the report quotes.
pub fn the_service() -> String {
    text("reportPage.theService")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_says_when_it_was_made_and_what_it_cost_as_before() {
        let at = time::OffsetDateTime::from_unix_timestamp(1_795_701_900).unwrap();
        assert_eq!(made_at(at), "26 November 2026, 14:05 UTC");
        assert_eq!(cost_of(Some(0.004)), "less than $0.01");
        assert_eq!(cost_of(Some(1.5)), "$1.50");
        assert_eq!(cost_of(None), "Not reported");
    }
}
