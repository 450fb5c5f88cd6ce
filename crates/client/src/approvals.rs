//! Approval cards and `POST /v1/agents/approve` `{ approvalId, response, selections? }`.
//!
//! A card is one of three kinds ([`ApprovalKind`]): a yes/no question, a choice among options
//! (one or several questions), or a link-only card for secure input (a password, a code),
//! which is answered on the service's own page (`approval_url`), never through the API.
//! The service accepts `response: "always"` only as a one-time yes, so it is not offered.

use serde::{Deserialize, Deserializer, Serialize};

use crate::card_reading::CardReading;
use crate::client::Client;
use crate::error::{InputError, Operation, Result};
use crate::executor::{Call, Retry};
use crate::open_enum::open_enum;

open_enum! {
    pub enum ApprovalType {
        Exec = "exec",
        Choice = "choice",
    }
}

/// What answer a card asks for; derived from the card, so the app never guesses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum ApprovalKind {
    /// Answered yes or no.
    YesNo,
    /// Answered with one list of picks per question of `questions`.
    Choice,
    /// Answered only on its page, `approval_url`.
    LinkOnly,
}

/// One option of a question: `value` is what a selection sends, `label` what a person reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChoiceOption {
    pub value: String,
    pub label: String,
}

/// The service sends an option as a plain string or as `{ value, label }`.
impl<'de> Deserialize<'de> for ChoiceOption {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire {
            Plain(String),
            Labelled {
                #[serde(default, deserialize_with = "crate::lenient::optional_text")]
                value: Option<String>,
                #[serde(default, deserialize_with = "crate::lenient::optional_text")]
                label: Option<String>,
            },
        }
        Ok(match Wire::deserialize(deserializer)? {
            Wire::Plain(value) => Self {
                label: value.clone(),
                value,
            },
            // An option without a value is shown by its label, and its value left empty: the
            // card then offers the service's own page where it has one (see below).
            Wire::Labelled { value, label } => Self {
                label: label.clone().or(value.clone()).unwrap_or_default(),
                value: value.unwrap_or_default(),
            },
        })
    }
}

/// One question of a choice card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ChoiceQuestion {
    /// The question's own words, when the card has several.
    #[serde(default)]
    pub question: Option<String>,
    #[serde(default)]
    pub options: Vec<ChoiceOption>,
    /// Several options may be picked.
    #[serde(default)]
    pub multiple: bool,
    /// Free text is accepted besides the options.
    #[serde(default)]
    pub allow_other: bool,
}

/// An approval card: the agent waits for this answer.
///
/// Decoded from the service's `data-approval-request` data: `options` (one question) and
/// `questions` (several) both become `questions`, and `kind` says how to answer. A card with
/// an empty `approval_id` has nothing to answer; the follower drops it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRequest {
    pub approval_id: String,
    pub kind: ApprovalKind,
    pub title: String,
    pub description: String,
    pub approval_type: Option<ApprovalType>,
    /// For a choice card: the questions, in the order selections are sent.
    pub questions: Vec<ChoiceQuestion>,
    /// When true, a person must answer through `approval_url`.
    pub is_link_only: bool,
    pub approval_url: Option<String>,
    pub command: Option<String>,
    pub cwd: Option<String>,
    /// ms since the epoch.
    #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
    pub expires_at: Option<i64>,
    /// What approving does, read by Porthole from the command, folder and title (never taken
    /// from the service): the page words it, a notification offers no Approve when it
    /// warns. Read without the task when decoded; [`ApprovalRequest::read_against`] adds it.
    pub reading: CardReading,
    /// The words of the task that asks, which `reading` was read against: set by Porthole
    /// ([`ApprovalRequest::read_against`]), never taken from the service (empty when decoded
    /// from it). Every place that shows the card (its thread, Needs you) shows it with these
    /// words, so the warning and the task named beside it cannot differ between them.
    pub task: String,
}

impl ApprovalRequest {
    /// Reads the card again against the words of the task it is part of, so a target
    /// elsewhere than the place the task named is told.
    pub fn read_against(&mut self, task: &str) {
        task.clone_into(&mut self.task);
        self.reading = CardReading::read(
            &self.title,
            self.command.as_deref(),
            self.cwd.as_deref(),
            task,
        );
    }

    /// Only the card in the window may be answered: it destroys something, works elsewhere
    /// than the task said, or runs a command a person should see before approving.
    pub fn needs_the_window(&self) -> bool {
        self.reading.needs_the_window()
            || self
                .command
                .as_deref()
                .is_some_and(|c| !c.trim().is_empty())
    }
}

/// The card as sent, and as [`ApprovalRequest`] serializes itself (for a saved state).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireApproval {
    #[serde(default, deserialize_with = "crate::lenient::text")]
    approval_id: String,
    #[serde(default, deserialize_with = "crate::lenient::text")]
    title: String,
    #[serde(default, deserialize_with = "crate::lenient::text")]
    description: String,
    #[serde(default)]
    approval_type: Option<ApprovalType>,
    #[serde(default, deserialize_with = "crate::lenient::flag")]
    is_link_only: bool,
    #[serde(default, deserialize_with = "crate::lenient::optional_text")]
    approval_url: Option<String>,
    #[serde(default, deserialize_with = "crate::lenient::optional_text")]
    command: Option<String>,
    #[serde(default, deserialize_with = "crate::lenient::optional_text")]
    cwd: Option<String>,
    /// ms since the epoch; also a fraction, a number in text or a date (`lenient::millis`).
    #[serde(default, deserialize_with = "crate::lenient::millis")]
    expires_at: Option<i64>,
    #[serde(default, deserialize_with = "crate::lenient::rows")]
    questions: Vec<ChoiceQuestion>,
    #[serde(default, deserialize_with = "crate::lenient::rows")]
    options: Vec<ChoiceOption>,
    /// The words of a one-question card's question, when sent beside `options`.
    #[serde(default, deserialize_with = "crate::lenient::optional_text")]
    question: Option<String>,
    #[serde(default, deserialize_with = "crate::lenient::flag")]
    multiple: bool,
    #[serde(default, deserialize_with = "crate::lenient::flag")]
    allow_other: bool,
}

impl<'de> Deserialize<'de> for ApprovalRequest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = WireApproval::deserialize(deserializer)?;
        let questions = if !wire.questions.is_empty() {
            wire.questions
        } else if !wire.options.is_empty() {
            vec![ChoiceQuestion {
                question: wire.question,
                options: wire.options,
                multiple: wire.multiple,
                allow_other: wire.allow_other,
            }]
        } else {
            Vec::new()
        };
        // An option sent without a value cannot be picked here (a pick sends the value): the
        // card is answered on the service's own page where it names one.
        let unpickable = questions
            .iter()
            .any(|q| q.options.iter().any(|o| o.value.trim().is_empty()));
        // Nothing to pick from (and no free text) cannot be answered as a choice: the only
        // answer left is yes or no.
        let answerable = questions
            .iter()
            .any(|q| !q.options.is_empty() || q.allow_other);
        let kind = if wire.is_link_only || (unpickable && wire.approval_url.is_some()) {
            ApprovalKind::LinkOnly
        } else if answerable {
            ApprovalKind::Choice
        } else {
            ApprovalKind::YesNo
        };
        let reading = CardReading::read(
            &wire.title,
            wire.command.as_deref(),
            wire.cwd.as_deref(),
            "",
        );
        Ok(Self {
            approval_id: wire.approval_id,
            kind,
            title: wire.title,
            description: wire.description,
            approval_type: wire.approval_type,
            questions: if answerable { questions } else { Vec::new() },
            is_link_only: wire.is_link_only,
            approval_url: wire.approval_url,
            command: wire.command,
            cwd: wire.cwd,
            expires_at: wire.expires_at,
            reading,
            task: String::new(),
        })
    }
}

/// A card as Porthole saved it: the card, and the words of the task that asks, against which
/// its reading is made again (a reading is never read back from a file).
#[derive(Deserialize)]
struct SavedApproval {
    #[serde(flatten)]
    card: ApprovalRequest,
    #[serde(default, deserialize_with = "crate::lenient::text")]
    task: String,
}

/// Reads back a card Porthole saved (`serde(deserialize_with)`), with its reading made again
/// against the task that asks, so a restart keeps the card's warning.
pub fn saved_card<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<ApprovalRequest>, D::Error> {
    Ok(
        Option::<SavedApproval>::deserialize(deserializer)?.map(|saved| {
            let mut card = saved.card;
            card.read_against(&saved.task);
            card
        }),
    )
}

/// An answer to a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    /// For a choice card: one non-empty list of option values per question, in the card's
    /// order (free text only where the question has `allow_other`).
    Choose(Vec<Vec<String>>),
}

impl Answer {
    fn body(&self, approval_id: &str) -> Result<serde_json::Value> {
        Ok(match self {
            Self::Yes => serde_json::json!({ "approvalId": approval_id, "response": "yes" }),
            Self::No => serde_json::json!({ "approvalId": approval_id, "response": "no" }),
            Self::Choose(selections) => {
                // The service refuses an answer that leaves a question unanswered; say so
                // before sending.
                if selections.is_empty() || selections.iter().any(Vec::is_empty) {
                    return Err(InputError::Invalid {
                        field: "selections",
                        reason: "every question needs at least one pick".into(),
                    }
                    .into());
                }
                serde_json::json!({
                    "approvalId": approval_id,
                    "response": "yes",
                    "selections": selections,
                })
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AnswerOutcome {
    #[serde(default)]
    pub ok: bool,
}

pub struct Approvals<'c> {
    client: &'c Client,
}

impl Client {
    pub fn approvals(&self) -> Approvals<'_> {
        Approvals { client: self }
    }
}

impl Approvals<'_> {
    /// Answers a card. A pick the service refuses is `ErrorCode::SelectionRejected`: the card
    /// is still waiting and may be answered again.
    pub async fn answer(&self, approval_id: &str, answer: &Answer) -> Result<AnswerOutcome> {
        if approval_id.trim().is_empty() {
            return Err(InputError::Invalid {
                field: "approvalId",
                reason: "is empty".into(),
            }
            .into());
        }
        let body = answer.body(approval_id)?;
        // Answering twice has the effect of answering once (the second is refused as already
        // answered), so an answer lost to a 5xx or a broken connection is resent.
        let call = Call::post(Operation::Approval, "/v1/agents/approve")
            .json(&body)?
            .retry(Retry::Idempotent);
        self.client.call_blank_ok(call).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(json: serde_json::Value) -> ApprovalRequest {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn kinds_come_from_the_card() {
        let exec = card(serde_json::json!({
            "approvalId": "ap_1", "title": "Run", "approvalType": "exec", "command": "rm x",
            "allowAlways": true
        }));
        assert_eq!(exec.kind, ApprovalKind::YesNo);
        assert!(exec.questions.is_empty());
        let link = card(serde_json::json!({
            "approvalId": "ap_2", "isLinkOnly": true, "approvalUrl": "https://p/approval/u/ap_2"
        }));
        assert_eq!(link.kind, ApprovalKind::LinkOnly);
        let empty_choice =
            card(serde_json::json!({"approvalId": "ap_3", "approvalType": "choice"}));
        assert_eq!(empty_choice.kind, ApprovalKind::YesNo, "nothing to pick");
    }

    #[test]
    fn options_are_normalised_to_value_and_label() {
        let one = card(serde_json::json!({
            "approvalId": "ap_1", "approvalType": "choice", "multiple": true,
            "question": "Which colours?",
            "options": ["red", {"value": "b", "label": "Blue"}, {"value": "g"}]
        }));
        assert_eq!(one.kind, ApprovalKind::Choice);
        assert_eq!(one.questions.len(), 1);
        let q = &one.questions[0];
        assert_eq!(q.question.as_deref(), Some("Which colours?"));
        assert!(q.multiple && !q.allow_other);
        let pairs: Vec<_> = q
            .options
            .iter()
            .map(|o| (o.value.as_str(), o.label.as_str()))
            .collect();
        assert_eq!(pairs, [("red", "red"), ("b", "Blue"), ("g", "g")]);

        let several = card(serde_json::json!({
            "approvalId": "ap_2", "approvalType": "choice",
            "options": ["ignored when questions are given"],
            "questions": [
                {"options": ["a", "b"]},
                {"options": [{"value": "x", "label": "X"}], "multiple": true, "allowOther": true}
            ]
        }));
        assert_eq!(several.questions.len(), 2);
        assert!(several.questions[1].allow_other && several.questions[1].multiple);
    }

    #[test]
    fn a_card_reads_back_what_it_wrote() {
        let original = card(serde_json::json!({
            "approvalId": "ap_1", "approvalType": "choice", "title": "Pick",
            "questions": [{"options": ["a", {"value": "b", "label": "Bee"}], "allowOther": true}]
        }));
        let saved = serde_json::to_string(&original).unwrap();
        assert_eq!(
            serde_json::from_str::<ApprovalRequest>(&saved).unwrap(),
            original
        );
    }

    /// A Documents delete asked by a task that named Downloads.
    fn documents_delete() -> ApprovalRequest {
        card(serde_json::json!({
            "approvalId": "ap_1", "approvalType": "exec",
            "title": "Delete the folder old-reports",
            "command": "rm -rf ~/Documents/old-reports"
        }))
    }

    #[test]
    fn the_service_cannot_name_the_task_a_card_is_read_against() {
        let mut sent = serde_json::to_value(documents_delete()).unwrap();
        sent["task"] = "Tidy up Documents".into();
        let decoded = card(sent);
        assert_eq!(
            decoded.task, "",
            "the task's words are Porthole's, never the service's"
        );
        assert_eq!(decoded.reading.mismatch, None);
    }

    #[test]
    fn a_saved_card_keeps_its_task_and_its_warning() {
        #[derive(Deserialize)]
        struct Holder {
            #[serde(deserialize_with = "saved_card")]
            card: Option<ApprovalRequest>,
        }
        let mut asked = documents_delete();
        asked.read_against("Delete the old files in Downloads");
        assert_eq!(asked.task, "Delete the old files in Downloads");
        assert!(
            asked.reading.mismatch.is_some(),
            "Documents is not Downloads"
        );

        let saved = serde_json::json!({ "card": asked });
        let back = serde_json::from_value::<Holder>(saved)
            .unwrap()
            .card
            .unwrap();
        assert_eq!(
            back, asked,
            "read back with the same task and the same warning"
        );
        let none = serde_json::from_value::<Holder>(serde_json::json!({ "card": null }));
        assert_eq!(none.unwrap().card, None);
    }

    #[test]
    fn answers_have_the_service_shape() {
        assert_eq!(
            Answer::No.body("ap_1").unwrap(),
            serde_json::json!({"approvalId": "ap_1", "response": "no"})
        );
        let picks = Answer::Choose(vec![vec!["a".into()], vec!["x".into(), "y".into()]]);
        assert_eq!(
            picks.body("ap_1").unwrap()["selections"],
            serde_json::json!([["a"], ["x", "y"]])
        );
        assert!(Answer::Choose(vec![]).body("ap_1").is_err());
        assert!(Answer::Choose(vec![vec![]]).body("ap_1").is_err());
    }
}
