//! What the scripted agent does for a task, decided from the task's words. The trigger words
//! are part of the simulator's contract with app and test authors (see the crate README):
//!
//! - approval before a step: delete/remove, send/email, buy/purchase/order, pay, install;
//!   buying and paying ask through a link-only approval page; "clear out" asks to delete a
//!   folder's files on a card with no command (only its words say it destroys something);
//!   "ask me first" asks a plain yes/no with no command before the work goes on;
//! - a secure input on the approval page: sign in / log in / password (a password), one-time
//!   code / verification code / 2fa (a one-time code);
//! - a choice before the work: "which city" (one question, plain options), "plan a trip" (two
//!   questions: a city, other text allowed, and the days, several allowed);
//! - `fail` (fail, failing, failure): a step errors and the turn fails with `agent_error`;
//! - `unreachable`: the computer cannot be reached, the turn fails with `machine_unavailable`;
//! - `take your time`: each step takes two (scaled) minutes instead of four seconds;
//! - `count to N`: N extra steps (long trajectories; at most 1000);
//! - `expensive`: one huge model call that costs about a dollar;
//! - `marathon`: on the free plan, uses up the day's computer time mid-task;
//! - `invalid output`: with `output_schema`, the answer does not match it (`output_invalid`);
//! - `broken card`: an approval card without an `approvalId` (nothing to answer) goes out
//!   first; the task goes on without waiting.
//! - `round in circles`: before its last step the agent looks for a button that never comes,
//!   saying and doing the same thing again and again, until a message joins the task (a
//!   hint), it is stopped, or [`LOOPS`] rounds have gone by.

use super::{home, results::result_for};
use crate::approvals::{Choice, Question, Secret};
use std::time::Duration;

/// A step that needs permission first.
#[derive(Debug, Clone)]
pub struct Sensitive {
    pub verb: &'static str,
    /// What was not done when the person says no: "delete the folder drafts in Documents".
    pub undone: String,
    pub title: String,
    /// What the step does, in words a person reads on the card.
    pub description: String,
    /// The command the card shows, and the folder it runs in; a card without one asks only
    /// in words.
    pub command: Option<String>,
    pub cwd: String,
    pub link_only: bool,
    /// A secret a person types on the approval page instead of a yes or no.
    pub secret: Option<Secret>,
}

/// A choice the agent asks for before it starts the work.
#[derive(Debug, Clone)]
pub struct ChoiceAsk {
    pub title: String,
    pub questions: Vec<Question>,
}

/// What happens on the desktop during a step.
#[derive(Debug, Clone)]
pub enum Action {
    OpenWindow(String),
    Type(String),
    Click(i32, i32),
    Look,
}

#[derive(Debug, Clone)]
pub struct StepPlan {
    pub title: String,
    pub rationale: String,
    pub code: String,
    pub action: Action,
    pub console: Vec<String>,
    pub error: Option<String>,
    pub sensitive: Option<Sensitive>,
    /// A quick look that takes less than a normal step.
    pub quick: bool,
}

#[derive(Debug, Clone)]
pub struct Script {
    pub app: String,
    pub steps: Vec<StepPlan>,
    pub step_time: Duration,
    pub fails: bool,
    pub unreachable: bool,
    pub expensive: bool,
    pub marathon: bool,
    pub invalid_output: bool,
    pub skipped_note: Option<String>,
    pub choice: Option<ChoiceAsk>,
    pub broken_card: bool,
    /// Goes round in circles before the last step (see [`LOOPS`]).
    pub loops: bool,
}

/// The most rounds a task that goes round in circles makes before it gives up looking: long
/// enough for a test to answer a card and watch more rounds go by, short of running forever.
pub const LOOPS: usize = 300;

/// The one step a looping task repeats, word for word.
pub fn round() -> StepPlan {
    StepPlan {
        title: "Look for the Save button".into(),
        rationale: "The Save button should be here; I look again.".into(),
        code: "await machine.find(\"Save\");".into(),
        action: Action::Look,
        console: vec!["The Save button is not there".into()],
        error: None,
        sensitive: None,
        quick: false,
    }
}

fn has_word(text: &str, stems: &[&str]) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| stems.iter().any(|s| w.starts_with(s)))
}

fn sensitive(task: &str) -> Option<Sensitive> {
    let pick =
        |verb: &'static str, title: &str, description: &str, command: &str, link_only| Sensitive {
            verb,
            undone: verb.to_owned(),
            title: title.to_owned(),
            description: description.to_owned(),
            command: Some(command.to_owned()),
            cwd: home::HOME.to_owned(),
            link_only,
            secret: None,
        };
    let secret = |secret: Secret| {
        Sensitive {
        verb: "sign in",
        undone: "sign in".to_owned(),
        title: format!("Enter your {}", secret.words()),
        description: format!(
            "The site asks for your {}. You type it on the service's page; the agent never sees it.",
            secret.words()
        ),
        command: Some(format!("machine.type(<your {}>)", secret.words())),
        cwd: home::HOME.to_owned(),
        link_only: true,
        secret: Some(secret),
    }
    };
    if ["one-time code", "verification code"]
        .iter()
        .any(|p| task.contains(p))
        || has_word(task, &["2fa", "otp"])
    {
        Some(secret(Secret::OneTimeCode))
    } else if ["sign in", "log in"].iter().any(|p| task.contains(p))
        || has_word(task, &["password", "login"])
    {
        Some(secret(Secret::Password))
    } else if asks_to_buy(task) {
        Some(pick(
            "buy",
            "Confirm the purchase",
            "Place the order and pay $24.99 with the card saved in the shop's account.",
            "checkout --confirm",
            true,
        ))
    } else if has_word(task, &["pay"]) && !is_look_up(task) {
        Some(pick(
            "pay",
            "Make the payment",
            "Pay $24.99 with the card saved in the account.",
            "pay --confirm",
            true,
        ))
    } else if task.contains("clear out") {
        // Destructive in words only: nothing on the card but its title and description says
        // what is lost, so a client must read them to warn.
        let folder = home::folder_to_delete(task);
        Some(Sensitive {
            undone: format!("clear out the folder {} in {}", folder.name, folder.place),
            title: format!(
                "Delete the {} files in the folder {}",
                folder.files, folder.name
            ),
            description: format!(
                "Permanently delete the {} files in the folder {} in {}. This can't be undone.",
                folder.files, folder.name, folder.place
            ),
            command: None,
            ..pick("clear out", "", "", "", false)
        })
    } else if has_word(task, &["delet", "remov"]) {
        let folder = home::folder_to_delete(task);
        let mut s = pick(
            "delete",
            &format!("Delete the folder {}", folder.name),
            &folder.delete_words(),
            &folder.delete_command(),
            false,
        );
        s.undone = format!("delete the folder {} in {}", folder.name, folder.place);
        Some(s)
    } else if has_word(task, &["send", "email", "mail"]) {
        Some(pick(
            "send",
            "Send the email",
            "Send the email drafted for this task from your mail account. Once sent it can't be called back.",
            "mail --send draft-1",
            false,
        ))
    } else if has_word(task, &["install"]) {
        Some(pick(
            "install",
            "Install the app",
            "Install the app on the computer. This needs administrator rights.",
            "sudo apt-get install -y app",
            false,
        ))
    } else if task.contains("ask me first") {
        // A plain yes or no: nothing is run, deleted, sent or paid.
        Some(Sensitive {
            undone: "go on".to_owned(),
            title: "Go on with the task?".to_owned(),
            description: "I have what I need and can finish now. Say yes to go on.".to_owned(),
            command: None,
            ..pick("go on", "", "", "", false)
        })
    } else {
        None
    }
}

/// A task that only looks something up ("the weather in…", "how much is…", "put the cities
/// in order"): nothing in it is bought or paid, so it never raises a money card.
fn is_look_up(task: &str) -> bool {
    [
        "look up",
        "how much",
        "what is",
        "what's",
        "check the",
        "search",
        "compare",
    ]
    .iter()
    .any(|p| task.contains(p))
        || has_word(task, &["weather", "price", "find", "forecast"])
}

/// A task that asks to buy: "buy", "purchase", or "order" as a verb (not "in order", "the
/// order of"), and not a look-up that only mentions them ("look up what a coffee costs to buy"
/// still asks first when it says "buy" outright).
fn asks_to_buy(task: &str) -> bool {
    if has_word(task, &["buy", "purchas"]) {
        return true;
    }
    let words: Vec<&str> = task
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let ordered = words.iter().enumerate().any(|(i, w)| {
        w.starts_with("order")
            && !matches!(
                i.checked_sub(1).and_then(|p| words.get(p)),
                Some(&("in" | "the" | "an" | "of" | "my" | "your" | "alphabetical" | "same"))
            )
    });
    ordered && !is_look_up(task)
}

fn count_to(task: &str) -> usize {
    let words: Vec<&str> = task.split_whitespace().collect();
    words
        .windows(3)
        .find(|w| w[0] == "count" && w[1] == "to")
        .and_then(|w| {
            w[2].trim_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()
        })
        .unwrap_or(0usize)
        .min(1000)
}

fn choices(values: &[(&str, &str)]) -> Vec<Choice> {
    values
        .iter()
        .map(|(value, label)| Choice {
            value: (*value).to_owned(),
            label: (*label).to_owned(),
        })
        .collect()
}

/// The choice a task asks for first, if any.
fn choice(task: &str) -> Option<ChoiceAsk> {
    if task.contains("which city") {
        let city = ["Paris", "Rome", "Lisbon"];
        return Some(ChoiceAsk {
            title: "Which city?".into(),
            questions: vec![Question {
                text: "Which city?".into(),
                options: choices(&city.map(|c| (c, c))),
                multiple: false,
                allow_other: false,
            }],
        });
    }
    if task.contains("plan a trip") {
        return Some(ChoiceAsk {
            title: "A few questions about the trip".into(),
            questions: vec![
                Question {
                    text: "Which city?".into(),
                    options: choices(&[("paris", "Paris"), ("rome", "Rome"), ("lisbon", "Lisbon")]),
                    multiple: false,
                    allow_other: true,
                },
                Question {
                    text: "Which days?".into(),
                    options: choices(&[("sat", "Saturday"), ("sun", "Sunday")]),
                    multiple: true,
                    allow_other: false,
                },
            ],
        });
    }
    None
}

/// The work follows what a person chose: the request typed and the result read name it.
pub fn apply_choice(script: &mut Script, message: &str, chosen: &[String]) {
    let picks = chosen.join("; ");
    let short: String = message.chars().take(120).collect();
    if let Some(step) = script.steps.get_mut(1) {
        step.action = Action::Type(format!("{short} ({picks})\n"));
        step.console = vec![format!("Typed: {message} ({picks})")];
    }
    let result = match chosen.first() {
        Some(city) if has_word(&message.to_lowercase(), &["weather"]) => {
            format!("{city}: 21 °C and sunny, light wind.")
        }
        _ => format!("Planned for {picks}."),
    };
    if let Some(step) = script.steps.last_mut() {
        step.action = Action::Type(format!("\nResult: {result}\n"));
    }
}

/// Plans the work for a task.
pub fn plan(message: &str) -> Script {
    let task = message.to_lowercase();
    let app = if has_word(&task, &["email", "mail", "inbox"]) {
        "Mail"
    } else if has_word(&task, &["spreadsheet", "excel", "sheet", "table"]) {
        "Spreadsheet"
    } else if has_word(&task, &["file", "folder", "document"]) {
        "Files"
    } else {
        "Browser"
    };
    let fails = has_word(&task, &["fail"]);
    let short: String = message.chars().take(120).collect();
    let mut steps = vec![
        StepPlan {
            title: format!("Open {app}"),
            rationale: format!("The task needs {app}, so I open it first."),
            code: format!("await machine.open({app:?});"),
            action: Action::OpenWindow(app.to_owned()),
            console: vec![format!("{app} is open")],
            error: None,
            sensitive: None,
            quick: false,
        },
        StepPlan {
            title: "Type the request".into(),
            rationale: "I enter what was asked so the app can find it.".into(),
            code: format!("await machine.type({message:?});\nawait machine.press(\"Enter\");"),
            action: Action::Type(format!("{short}\n")),
            console: vec![format!("Typed: {message}")],
            error: None,
            sensitive: None,
            quick: false,
        },
    ];
    for k in 1..=count_to(&task) {
        steps.push(StepPlan {
            title: format!("Check item {k}"),
            rationale: format!("Counting, as asked: item {k}."),
            code: format!("await machine.wait(100); // item {k}"),
            action: Action::Look,
            console: vec![format!("Item {k} checked")],
            error: None,
            sensitive: None,
            quick: true,
        });
    }
    if let Some(s) = sensitive(&task) {
        steps.push(StepPlan {
            title: s.title.clone(),
            rationale: format!(
                "The task asks me to {}; this needs your permission.",
                s.verb
            ),
            code: format!(
                "await machine.click(640, 520); // {}",
                s.command.as_deref().unwrap_or(&s.title)
            ),
            action: Action::Click(640, 520),
            console: vec![format!("{} done", s.title)],
            error: None,
            sensitive: Some(s),
            quick: false,
        });
    }
    steps.push(StepPlan {
        title: "Read the results".into(),
        rationale: "I read what is on the screen to answer.".into(),
        code: "return await machine.readText();".into(),
        action: Action::Type(format!("\nResult: {}\n", result_for(message))),
        console: vec![
            "Read 1 result from the screen".into(),
            // An element-reference listing: the progress lines leave it out.
            "- [ref=e14] link \"Result\" [cursor=pointer]".into(),
        ],
        error: fails.then(|| "The page did not load: the connection was reset.".to_owned()),
        sensitive: None,
        quick: false,
    });
    Script {
        app: app.to_owned(),
        steps,
        step_time: if task.contains("take your time") {
            Duration::from_secs(120)
        } else {
            Duration::from_secs(4)
        },
        fails,
        unreachable: has_word(&task, &["unreachable"]),
        expensive: has_word(&task, &["expensive"]),
        marathon: has_word(&task, &["marathon"]),
        invalid_output: task.contains("invalid output"),
        skipped_note: None,
        choice: choice(&task),
        broken_card: task.contains("broken card"),
        loops: task.contains("round in circles"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_words_ask_first_and_money_is_link_only() {
        assert!(plan("Weather in Paris")
            .steps
            .iter()
            .all(|s| s.sensitive.is_none()));
        let s = plan("Delete old reports")
            .steps
            .into_iter()
            .find_map(|s| s.sensitive)
            .unwrap();
        assert!(!s.link_only);
        let s = plan("Buy a coffee")
            .steps
            .into_iter()
            .find_map(|s| s.sensitive)
            .unwrap();
        assert!(s.link_only);
        for look_up in [
            "Look up the weather in Lisbon, Porto and Faro, then put the cities in order from the warmest",
            "Find the price of a coffee grinder and what shipping I would pay",
            "How much is an order of 12 bagels?",
        ] {
            assert!(
                plan(look_up).steps.iter().all(|s| s.sensitive.is_none()),
                "a look-up never asks to buy or pay: {look_up}"
            );
        }
        assert!(plan("Order a pizza for tonight")
            .steps
            .iter()
            .any(|s| s.sensitive.as_ref().is_some_and(|s| s.verb == "buy")));
        assert_eq!(plan("please count to 12").steps.len(), 15);
        assert!(plan("this should fail").fails);
        let delete = plan("Delete the old files in Downloads")
            .steps
            .into_iter()
            .find_map(|s| s.sensitive)
            .unwrap();
        assert_eq!(
            delete.command.as_deref(),
            Some("rm -r ~/Documents/old-reports")
        );
        assert!(delete
            .description
            .starts_with("Permanently delete the folder old-reports in Documents"));
    }

    #[test]
    fn clearing_out_and_asking_first_ask_in_words_only() {
        let card = |task: &str| {
            plan(task)
                .steps
                .into_iter()
                .find_map(|s| s.sensitive)
                .unwrap()
        };
        let clear = card("Clear out the drafts folder");
        assert_eq!(clear.command, None);
        assert_eq!(clear.title, "Delete the 6 files in the folder drafts");
        assert_eq!(
            result_for("Clear out the drafts folder"),
            "Cleared out the folder drafts in Documents: 6 files deleted."
        );
        assert!(!clear.link_only);
        let ask = card("Tidy up the desktop, but ask me first");
        assert_eq!(ask.command, None);
        assert_eq!(ask.title, "Go on with the task?");
        assert!(!ask.link_only && ask.secret.is_none());
    }
}
