//! "Share a report": a finished task as one HTML file that opens in any browser without
//! Porthole: the task, each recorded step with its screenshot, the answer, the cost and the
//! checks the service made. Screenshots are inside it as `data:` URIs and its style inline, so
//! it needs nothing from anywhere; it holds no script.
//!
//! What it must never hold: the API key, a sign-in or live-view token (none of them is read
//! here at all), or the service's address (a step's screenshot path is not copied, and the
//! address is taken out of every text the agent wrote, in case it appears there).
//!
//! Every picture it carries is seen first: the page shows the sheet over them ([`pictures`]:
//! Porthole's film, or the service's screenshots of the recorded steps) and the person hides
//! what must not leave; [`timeline`] and [`service_pictures`] paint that into the pixels. A
//! report saved without a sheet (an old page) leaves a step that types a password hidden.
//!
//! [`gather`] reads the task from the service and the app's own records, [`page::html`]
//! writes the file's text; no Tauri in either. When it was made and what it cost are worded by
//! the page with Intl ([`page_words`]).

pub mod export;
pub mod page;
pub mod page_words;
pub mod pictures;
pub mod service_pictures;
pub mod timeline;

#[cfg(test)]
mod export_tests;
#[cfg(test)]
mod film_tests;
#[cfg(test)]
mod service_tests;
#[cfg(test)]
mod tests;

use std::path::Path;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use porthole_client::turns::TurnStatus;
use porthole_client::Client;

use crate::conversations::{Conversation, Conversations, TaskStatus, ThreadItem};
use crate::error::{AppError, AppResult};
use crate::film::Shelf;
use crate::words::report as words;
pub use page_words::{ReportWords, SaidReceipt};
pub use pictures::{pictures_for, ReportPictures, ReportRedactions};
pub use service_pictures::{HiddenOnSteps, ServiceShot, ServiceSteps};
pub use timeline::{HiddenOnFilm, ReportFilm, ReportFrame, Source};

/// One finished task, as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The words that started the task.
    pub task: String,
    /// The task's receipt, as the thread shows it: the report opens with it.
    pub receipt: Option<SaidReceipt>,
    /// The computer it ran on, by name when known.
    pub computer: String,
    /// How the task ended, in words ("Done", "Failed", "Not finished").
    pub outcome: String,
    /// The task was read from the service by its `turnId`.
    pub by_turn: bool,
    /// The steps were recorded ("Record steps" was on).
    pub recorded: bool,
    /// Where the steps come from: the service's record (`steps`) or Porthole's film
    /// (`frames`); none when neither was kept.
    pub source: Option<Source>,
    pub steps: Vec<ReportStep>,
    /// The film's frames, when it is the timeline.
    pub frames: Vec<ReportFrame>,
    /// The agent's answer (Markdown as written), when it gave one.
    pub answer: Option<String>,
    /// What the task cost, as the window says it ("$0.52", "< $0.01", "Not reported").
    pub cost: String,
    /// The service's checks of the result against the task's success criteria.
    pub checks: Vec<ReportCheck>,
    /// When the report was made, as the page words a date and time in the person's zone;
    /// none when the page did not say.
    pub made_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReportStep {
    /// Its place among the steps, as the Steps sheet numbers them; `None` for the final screen
    /// (the service's last, `final` entry), which is not a step.
    pub number: Option<usize>,
    pub title: String,
    pub rationale: String,
    pub code: String,
    pub error: Option<String>,
    /// The screen before the step, as a `data:` URI; `None` when the service had none.
    pub screenshot: Option<String>,
}

/// A report the page asks for: task `turn_id` (without one, the conversation's last task), the
/// page's words for its receipt, date and cost, and what the person hid on the pictures it
/// carries ([`pictures_for`]; none when it carries none, or the sheet was not shown).
#[derive(Debug, Clone, Default, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ShareRequest {
    pub conversation_id: String,
    pub turn_id: Option<String>,
    pub words: ReportWords,
    pub hidden: Option<ReportRedactions>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReportCheck {
    pub name: String,
    pub passed: bool,
    pub evidence: Option<String>,
}

/// What task `turn_id` of `conversation` cost, in US dollars, from what the app kept; none
/// when the service did not report it. Without a turn, the conversation's last task. The
/// page words it for the report.
pub fn cost_usd(
    conversations: &Conversations,
    conversation: &Conversation,
    turn_id: Option<&str>,
) -> Option<f64> {
    let latest = || conversation.usage.as_ref().map(|u| u.total.cost_usd);
    let Some(turn_id) = turn_id else {
        return latest();
    };
    kept_row(conversations, conversation, turn_id)
        .map(|row| row.usage.total.cost_usd)
        .or_else(|| is_latest(conversation, turn_id).then(latest).flatten())
}

fn kept_row(
    conversations: &Conversations,
    conversation: &Conversation,
    turn_id: &str,
) -> Option<crate::conversations::usage::TaskUsageRow> {
    conversations
        .usage()
        .tasks(conversation)
        .into_iter()
        .find(|row| row.turn_id == turn_id)
}

fn is_latest(conversation: &Conversation, turn_id: &str) -> bool {
    conversation
        .follower
        .as_ref()
        .and_then(|f| f.turn_id.as_deref())
        == Some(turn_id)
}

/// Reads the task `request` names for its report: task `turn_id` from the service (the turn,
/// its steps and their screenshots), or without a turn the conversation's last task from what
/// the app kept, its steps from Porthole's film on `shelf`; either's pictures with what the
/// person hid painted in.
/// The task's words from what the app kept; its receipt, date and cost as the page worded them.
pub async fn gather(
    client: &Client,
    conversations: &Conversations,
    shelf: &Shelf,
    request: &ShareRequest,
    computer: Option<String>,
) -> AppResult<Report> {
    let said = &request.words;
    let conversation = conversations.store().get(&request.conversation_id)?;
    let mut report = match request.turn_id.as_deref() {
        Some(turn_id) => {
            from_service(client, conversations, &conversation, turn_id, request).await?
        }
        None => from_the_app(&conversation),
    };
    if report.source.is_none() {
        let hidden = match &request.hidden {
            None => None,
            Some(ReportRedactions::Film(hidden)) => Some(hidden),
            Some(ReportRedactions::Steps(_)) => {
                return Err(AppError::RedactionsRefused(
                    "the service's steps, not a film".into(),
                ))
            }
        };
        report.frames = timeline::of_last_task(shelf, &conversation, hidden)
            .map_err(|e| AppError::RedactionsRefused(e.to_string()))?;
        if !report.frames.is_empty() {
            report.source = Some(Source::Film);
        }
    }
    report.receipt = said.receipt();
    report.computer = computer.unwrap_or_else(words::some_computer);
    report.cost = said.cost().unwrap_or_else(words::cost_not_reported);
    report.made_at = said.made_at();
    Ok(without_address(report, client.base_url()))
}

/// The conversation's last task as the app kept it: no service asked, so no `turnId` needed.
fn from_the_app(conversation: &Conversation) -> Report {
    Report {
        task: last_task_words(conversation),
        receipt: None,
        computer: String::new(),
        outcome: match conversation.status {
            TaskStatus::Succeeded => words::done(),
            TaskStatus::Failed => words::failed(),
            _ => words::not_finished(),
        },
        by_turn: false,
        recorded: false,
        source: None,
        steps: Vec::new(),
        frames: Vec::new(),
        answer: last_answer(conversation),
        cost: String::new(),
        checks: Vec::new(),
        made_at: None,
    }
}

async fn from_service(
    client: &Client,
    conversations: &Conversations,
    conversation: &Conversation,
    turn_id: &str,
    request: &ShareRequest,
) -> AppResult<Report> {
    let turn = client.turns().get(turn_id).await?;
    let is_latest = is_latest(conversation, turn_id);
    let task = kept_row(conversations, conversation, turn_id)
        .map(|row| row.task)
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| last_task_words(conversation));
    let answer = answer_of(&turn.output, turn.raw_answer.as_deref())
        .or_else(|| is_latest.then(|| last_answer(conversation)).flatten());
    let mut steps = Vec::new();
    if turn.record_trajectory {
        let recorded = client.turns().trajectory(turn_id).await?.steps;
        // What the person hid on the sheet over these screenshots, painted into them.
        let hidden = service_pictures::chosen(request.hidden.as_ref(), turn_id, &recorded)?;
        steps = service_pictures::steps(client, turn_id, &recorded, &hidden).await;
    }
    let checks = turn
        .evidence
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, e)| ReportCheck {
            name: e.id.clone().unwrap_or_else(|| words::check_name(i + 1)),
            passed: e.passed,
            evidence: e.evidence.clone(),
        })
        .collect();
    Ok(Report {
        task,
        receipt: None,
        computer: String::new(),
        outcome: match turn.status {
            TurnStatus::Succeeded => words::done(),
            TurnStatus::Failed => words::failed(),
            _ => words::not_finished(),
        },
        by_turn: true,
        recorded: turn.record_trajectory,
        source: turn.record_trajectory.then_some(Source::Service),
        steps,
        frames: Vec::new(),
        answer,
        cost: String::new(),
        checks,
        made_at: None,
    })
}

/// Where a report went, as the page says it (the file's name, not its path).
#[derive(Debug, Clone, PartialEq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SavedReport {
    pub file_name: String,
    /// The PDF printed beside it, where this system can print one (`pdf.rs`).
    pub pdf_file_name: Option<String>,
}

impl SavedReport {
    pub fn at(path: &Path, pdf: Option<&Path>) -> Self {
        let name = |p: &Path| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        Self {
            file_name: name(path),
            pdf_file_name: pdf.map(name),
        }
    }
}

/// Writes the report's HTML to `path`, whole or not at all.
pub fn save(report: &Report, path: &Path) -> AppResult<()> {
    export::write(path, page::html(report).as_bytes())
        .map_err(|e| AppError::ReportNotSaved(e.to_string()))
}

/// A picture as a `data:` URI; only the image types a browser shows in `<img>` pass, anything
/// else is named a JPEG (what the service sends).
fn data_uri(content_type: &str, bytes: &[u8]) -> String {
    let kind = match content_type.split(';').next().unwrap_or("").trim() {
        t @ ("image/png" | "image/jpeg" | "image/webp" | "image/gif") => t,
        _ => "image/jpeg",
    };
    format!("data:{kind};base64,{}", STANDARD.encode(bytes))
}

/// A structured output as indented JSON, a plain answer as it is.
fn answer_of(output: &Option<serde_json::Value>, raw: Option<&str>) -> Option<String> {
    match output {
        Some(serde_json::Value::String(text)) if !text.trim().is_empty() => Some(text.clone()),
        Some(serde_json::Value::Null) | None => {
            raw.filter(|r| !r.trim().is_empty()).map(str::to_owned)
        }
        Some(serde_json::Value::String(_)) => None,
        Some(value) => serde_json::to_string_pretty(value).ok(),
    }
}

fn last_task_words(conversation: &Conversation) -> String {
    conversation
        .items
        .iter()
        .rev()
        .find_map(|item| match item {
            ThreadItem::User {
                text,
                joined: false,
                ..
            } => Some(text.clone()),
            _ => None,
        })
        .unwrap_or_else(|| {
            if conversation.title.is_empty() {
                crate::words::catalog::text("common.untitledConversation")
            } else {
                conversation.title.clone()
            }
        })
}

fn last_answer(conversation: &Conversation) -> Option<String> {
    conversation.items.iter().rev().find_map(|item| match item {
        ThreadItem::Answer { text } => Some(text.clone()),
        _ => None,
    })
}

/// The report with the service's address taken out of every text in it: the agent may have
/// written it (a URL it was shown), and the report must not give it away.
fn without_address(mut report: Report, base_url: &str) -> Report {
    let base = base_url.trim_end_matches('/');
    let host = url::Url::parse(base)
        .ok()
        .and_then(|u| Some(format!("{}:{}", u.host_str()?, u.port_or_known_default()?)));
    let the_service = words::the_service();
    let scrub = |text: &mut String| {
        if !base.is_empty() {
            *text = text.replace(base, &the_service);
        }
        if let Some(host) = &host {
            *text = text.replace(host.as_str(), &the_service);
        }
    };
    scrub(&mut report.task);
    if let Some(answer) = &mut report.answer {
        scrub(answer);
    }
    if let Some(receipt) = &mut report.receipt {
        receipt.touched.iter_mut().for_each(&scrub);
    }
    for frame in &mut report.frames {
        frame
            .title
            .iter_mut()
            .chain(frame.narration.iter_mut())
            .for_each(&scrub);
    }
    for step in &mut report.steps {
        scrub(&mut step.title);
        scrub(&mut step.rationale);
        scrub(&mut step.code);
        if let Some(error) = &mut step.error {
            scrub(error);
        }
    }
    for check in &mut report.checks {
        scrub(&mut check.name);
        if let Some(evidence) = &mut check.evidence {
            scrub(evidence);
        }
    }
    report
}

/// The report `request` asks for, of a task of the active connection, written to `path`.
pub async fn save_for(
    connection: &crate::connection::Connection,
    conversations: &Conversations,
    shelf: &Shelf,
    request: &ShareRequest,
    path: &Path,
) -> AppResult<()> {
    let client = connection.active().await?.client;
    let machine_id = conversations
        .store()
        .get(&request.conversation_id)?
        .machine_id;
    // The computer's name as the sidebar shows it; its id says nothing to a reader.
    let computer = client.machines().list().await.ok().and_then(|list| {
        list.machines
            .iter()
            .find(|m| m.machine_id == machine_id)
            .map(|m| crate::machines::row(m, None).name)
    });
    let report = gather(&client, conversations, shelf, request, computer).await?;
    save(&report, path)
}
