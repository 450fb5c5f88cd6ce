//! What an approval card asks, and how it looks in `data-approval-request.data`. Three kinds,
//! as the real service sends them: yes/no before a command (`approvalType: "exec"`, or asked
//! in words only, without `command` and `cwd`), a choice
//! (`approvalType: "choice"`: one question as `options` of plain strings, or several
//! `questions` whose options are `{ value, label }`), and a secure input entered on the
//! approval page (`approvalType: "input"`, ours, always `isLinkOnly`). Selections are checked
//! the way the real service checks them: one non-empty list per question, in order, each pick
//! an option's `value` matched exactly unless the question allows other text, several only
//! where `multiple`.

use serde_json::{json, Map, Value};

/// One choice of a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub value: String,
    pub label: String,
}

/// One question of a choice card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub text: String,
    pub options: Vec<Choice>,
    pub multiple: bool,
    pub allow_other: bool,
}

/// What a secure-input card asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secret {
    Password,
    OneTimeCode,
}

impl Secret {
    pub fn as_str(self) -> &'static str {
        match self {
            Secret::Password => "password",
            Secret::OneTimeCode => "one_time_code",
        }
    }

    /// How the page names it.
    pub fn words(self) -> &'static str {
        match self {
            Secret::Password => "password",
            Secret::OneTimeCode => "one-time code",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Card {
    /// Yes or no before running `command` in the folder `cwd`.
    Exec { command: String, cwd: String },
    /// Yes or no asked in words only: no command, no folder.
    Confirm,
    /// One question (sent as plain-string `options`) or several (`questions`).
    Choice { questions: Vec<Question> },
    /// A secret a person types on the approval page.
    Input { secret: Secret },
}

impl Card {
    /// The kind-specific fields of the card.
    pub fn fields(&self) -> Map<String, Value> {
        let mut m = Map::new();
        match self {
            Card::Exec { command, cwd } => {
                m.insert("approvalType".into(), json!("exec"));
                // The real service still sends it but treats "always" as one yes.
                m.insert("allowAlways".into(), json!(true));
                m.insert("command".into(), json!(command));
                m.insert("cwd".into(), json!(cwd));
            }
            Card::Confirm => {
                // `exec` is the only yes/no type the real service is seen to send; `command`
                // is its field "for exec approvals", left out when nothing is run.
                m.insert("approvalType".into(), json!("exec"));
                m.insert("allowAlways".into(), json!(true));
            }
            Card::Choice { questions } => {
                m.insert("approvalType".into(), json!("choice"));
                match questions.as_slice() {
                    [q] => {
                        let plain: Vec<&str> = q.options.iter().map(|o| o.value.as_str()).collect();
                        m.insert("question".into(), json!(q.text));
                        m.insert("options".into(), json!(plain));
                        m.insert("multiple".into(), json!(q.multiple));
                        m.insert("allowOther".into(), json!(q.allow_other));
                    }
                    qs => {
                        let qs: Vec<Value> = qs
                            .iter()
                            .map(|q| {
                                json!({
                                    "question": q.text,
                                    "options": q.options.iter()
                                        .map(|o| json!({ "value": o.value, "label": o.label }))
                                        .collect::<Vec<_>>(),
                                    "multiple": q.multiple,
                                    "allowOther": q.allow_other,
                                })
                            })
                            .collect();
                        m.insert("questions".into(), json!(qs));
                    }
                }
            }
            Card::Input { secret } => {
                m.insert("approvalType".into(), json!("input"));
                m.insert("inputKind".into(), json!(secret.as_str()));
            }
        }
        m
    }
}

/// Reads `selections` as lists of strings; `Err` says what is wrong with its shape.
pub fn parse_selections(v: &Value) -> Result<Vec<Vec<String>>, String> {
    let bad =
        || "selections must be a list with one list of chosen values per question.".to_owned();
    v.as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|group| {
            group
                .as_array()
                .ok_or_else(bad)?
                .iter()
                .map(|pick| pick.as_str().map(str::to_owned).ok_or_else(bad))
                .collect()
        })
        .collect()
}

/// Checks picks against the questions; `Err` is the sentence the 400 answers with.
pub fn check(questions: &[Question], picks: &[Vec<String>]) -> Result<(), String> {
    if picks.len() != questions.len() {
        return Err(format!(
            "selections must have one list per question, in order: {} expected, {} sent.",
            questions.len(),
            picks.len()
        ));
    }
    for (i, (q, group)) in questions.iter().zip(picks).enumerate() {
        let n = i + 1;
        if group.is_empty() {
            return Err(format!("Question {n} ({}) was not answered.", q.text));
        }
        if group.len() > 1 && !q.multiple {
            return Err(format!("Question {n} ({}) takes one answer.", q.text));
        }
        for pick in group {
            let known = q.options.iter().any(|o| o.value == *pick);
            if pick.trim().is_empty() || (!known && !q.allow_other) {
                return Err(format!(
                    "Question {n} ({}): \"{pick}\" is not one of its values ({}).",
                    q.text,
                    q.options
                        .iter()
                        .map(|o| o.value.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// What a person chose, in words: each pick's label, or the free text they typed.
pub fn chosen_words(questions: &[Question], picks: &[Vec<String>]) -> Vec<String> {
    questions
        .iter()
        .zip(picks)
        .map(|(q, group)| {
            let words: Vec<&str> = group
                .iter()
                .map(|p| {
                    q.options
                        .iter()
                        .find(|o| o.value == *p)
                        .map_or(p.as_str(), |o| o.label.as_str())
                })
                .collect();
            words.join(" and ")
        })
        .collect()
}
