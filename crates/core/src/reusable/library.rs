//! The local library of reusable tasks: what learn made, kept on this computer
//! (`library.json`, a versioned document), with the failed runs a repair ("Fix it") will need.
//!
//! Invariants: ids are unique; a task keeps at most [`MAX_FAILED_RUNS`] failed runs (the
//! service takes at most 20 evaluations), newest last.

use std::path::Path;

use porthole_client::learn::{Evaluation, LearnResult, Parameter};
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult};
use crate::store::{Document, Persisted, SetAside};

/// The service reads at most this many evaluations in one repair.
pub const MAX_FAILED_RUNS: usize = 20;

/// A reusable task in the library.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ReusableTask {
    pub id: String,
    /// Which service it was learned on (`demo` or the account's address).
    pub scope: String,
    /// Empty when the service gave it no title: the page words it then ("Reusable task", in the
    /// person's language). Files of earlier versions saved those English words instead, read
    /// back as empty.
    #[serde(deserialize_with = "untitled_if_default")]
    #[specta(type = String)]
    pub title: String,
    pub template: String,
    pub parameters: Vec<Parameter>,
    pub code: String,
    /// Validation problems the service found, as sentences.
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    pub learn_id: String,
    pub source_turns: Vec<String>,
    pub created_at: f64,
    /// What the last repair changed and why.
    pub changes: Option<String>,
    /// Runs that went wrong since the last repair, for "Fix it".
    pub failed_runs: Vec<Evaluation>,
}

/// The words earlier versions saved as an untitled reusable task's title.
const OLD_UNTITLED: &str = "Reusable task";

fn untitled_if_default<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let title = String::deserialize(d)?;
    Ok(if title == OLD_UNTITLED {
        String::new()
    } else {
        title
    })
}

impl ReusableTask {
    pub fn from_learned(id: String, scope: &str, learned: &LearnResult, now: f64) -> Self {
        Self {
            id,
            scope: scope.to_owned(),
            title: if learned.title.trim().is_empty() {
                String::new()
            } else {
                learned.title.clone()
            },
            template: learned.template.clone(),
            parameters: learned.parameters.clone(),
            code: learned.code.clone(),
            errors: learned.validation.errors.iter().map(sentence).collect(),
            warnings: learned.validation.warnings.iter().map(sentence).collect(),
            learn_id: learned.learn_id.clone(),
            source_turns: learned.source_turns.clone(),
            created_at: now,
            changes: learned.changes.as_ref().map(sentence),
            failed_runs: Vec::new(),
        }
    }

    /// Takes a repair's code and findings; the failed runs it was given are settled.
    pub fn repaired(&mut self, learned: &LearnResult) {
        let fresh = Self::from_learned(self.id.clone(), &self.scope, learned, self.created_at);
        *self = Self {
            title: self.title.clone(),
            ..fresh
        };
    }

    pub fn record_failure(&mut self, run: Evaluation) {
        self.failed_runs.push(run);
        let extra = self.failed_runs.len().saturating_sub(MAX_FAILED_RUNS);
        self.failed_runs.drain(..extra);
    }
}

/// A validation entry or a change note as one line: strings as they are, objects by their
/// `message` (or `reason`), anything else as JSON.
fn sentence(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        // A repair's change: what changed, then why.
        serde_json::Value::Object(o) if o.get("change").is_some_and(|c| c.is_string()) => {
            let what = o.get("change").and_then(|v| v.as_str()).unwrap_or_default();
            match o.get("reason").and_then(|v| v.as_str()) {
                Some(why) if !why.trim().is_empty() => format!("{what} Why: {why}"),
                _ => what.to_owned(),
            }
        }
        serde_json::Value::Object(o) => ["message", "reason", "summary", "text"]
            .iter()
            .find_map(|k| o.get(*k).and_then(|v| v.as_str()).map(str::to_owned))
            .unwrap_or_else(|| value.to_string()),
        serde_json::Value::Array(items) => {
            items.iter().map(sentence).collect::<Vec<_>>().join("\n")
        }
        other => other.to_string(),
    }
}

/// The library as data.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LibraryBook {
    pub tasks: Vec<ReusableTask>,
}

impl LibraryBook {
    /// Adds a task, or replaces the one with its id.
    pub fn put(&mut self, task: ReusableTask) {
        match self.tasks.iter_mut().find(|t| t.id == task.id) {
            Some(existing) => *existing = task,
            None => self.tasks.push(task),
        }
    }

    pub fn get(&self, id: &str) -> Option<&ReusableTask> {
        self.tasks.iter().find(|t| t.id == id)
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut ReusableTask> {
        self.tasks.iter_mut().find(|t| t.id == id)
    }

    pub fn remove(&mut self, id: &str) -> bool {
        let before = self.tasks.len();
        self.tasks.retain(|t| t.id != id);
        self.tasks.len() != before
    }

    /// The tasks of one service, newest first.
    pub fn list(&self, scope: &str) -> Vec<ReusableTask> {
        let mut out: Vec<_> = self
            .tasks
            .iter()
            .filter(|t| t.scope == scope)
            .cloned()
            .collect();
        out.sort_by(|a, b| b.created_at.total_cmp(&a.created_at));
        out
    }
}

/// The library on disk.
/// Cloned to reach it from a blocking thread (a failed run is saved there: `learn.rs`).
#[derive(Clone)]
pub struct Library {
    kept: std::sync::Arc<Persisted<LibraryBook>>,
}

impl Library {
    pub fn open_in(dir: &Path) -> AppResult<Self> {
        Ok(Self {
            kept: std::sync::Arc::new(Persisted::open(Document::new(
                dir.join("library.json"),
                "library",
            ))?),
        })
    }

    pub fn read<T>(&self, f: impl FnOnce(&LibraryBook) -> T) -> T {
        self.kept.read(f)
    }

    /// Changes the library and saves it.
    pub fn write<T>(&self, f: impl FnOnce(&mut LibraryBook) -> T) -> AppResult<T> {
        self.kept.write(f)
    }

    pub fn get(&self, id: &str) -> AppResult<ReusableTask> {
        self.read(|b| b.get(id).cloned())
            .ok_or(AppError::UnknownReusableTask)
    }

    /// The file that could not be read at start, if any.
    pub fn set_aside(&self) -> Option<&SetAside> {
        self.kept.set_aside()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn learned(title: &str) -> LearnResult {
        serde_json::from_value(json!({
            "learnId": "learn_1", "mode": "convert", "status": "succeeded", "title": title,
            "template": "Weather in {{city}}", "parameters": [{"name": "city", "defaultValue": "Paris"}],
            "code": "async function main(params = {city: 'Paris'}) {}",
            "validation": {"errors": [], "warnings": [{"message": "uses a fixed wait"}, "plain words"]},
            "sourceTurns": ["turn_1"]
        }))
        .unwrap()
    }

    #[test]
    fn a_learned_task_keeps_what_the_page_shows() {
        let task = ReusableTask::from_learned("r1".into(), "demo", &learned("Weather"), 5.0);
        assert_eq!(task.title, "Weather");
        assert_eq!(task.parameters[0].default_value, json!("Paris"));
        assert_eq!(task.warnings, vec!["uses a fixed wait", "plain words"]);
        assert!(task.errors.is_empty());
        let untitled = ReusableTask::from_learned("r2".into(), "demo", &learned(" "), 5.0);
        assert_eq!(
            untitled.title, "",
            "worded by the page, in the person's language"
        );
    }

    #[test]
    fn an_untitled_task_saved_in_english_words_reads_back_untitled() {
        let mut saved = serde_json::to_value(ReusableTask::from_learned(
            "r1".into(),
            "demo",
            &learned("Weather"),
            5.0,
        ))
        .unwrap();
        saved["title"] = json!("Reusable task");
        let read: ReusableTask = serde_json::from_value(saved.clone()).unwrap();
        assert_eq!(read.title, "");
        // A title of the person's own keeps its words, even ones that merely contain those.
        saved["title"] = json!("Reusable task for invoices");
        let read: ReusableTask = serde_json::from_value(saved).unwrap();
        assert_eq!(read.title, "Reusable task for invoices");
    }

    #[test]
    fn the_book_lists_by_service_newest_first_and_replaces_by_id() {
        let mut book = LibraryBook::default();
        let mut a = ReusableTask::from_learned("a".into(), "demo", &learned("A"), 1.0);
        book.put(a.clone());
        book.put(ReusableTask::from_learned(
            "b".into(),
            "demo",
            &learned("B"),
            2.0,
        ));
        book.put(ReusableTask::from_learned(
            "c".into(),
            "https://x",
            &learned("C"),
            3.0,
        ));
        let titles: Vec<_> = book.list("demo").into_iter().map(|t| t.title).collect();
        assert_eq!(titles, vec!["B", "A"]);
        a.title = "A again".into();
        book.put(a);
        assert_eq!(book.tasks.len(), 3);
        assert_eq!(book.get("a").unwrap().title, "A again");
        assert!(book.remove("a"));
        assert!(!book.remove("a"));
    }

    #[test]
    fn failed_runs_keep_the_newest_twenty() {
        let mut task = ReusableTask::from_learned("a".into(), "demo", &learned("A"), 1.0);
        for i in 0..25 {
            task.record_failure(Evaluation {
                note: Some(format!("run {i}")),
                ..Default::default()
            });
        }
        assert_eq!(task.failed_runs.len(), MAX_FAILED_RUNS);
        assert_eq!(task.failed_runs[0].note.as_deref(), Some("run 5"));
    }

    #[test]
    fn a_repair_replaces_code_and_settles_failed_runs_but_keeps_the_name() {
        let mut task = ReusableTask::from_learned("a".into(), "demo", &learned("Weather"), 1.0);
        task.title = "My weather".into();
        task.record_failure(Evaluation::default());
        let mut healed = learned("Other");
        healed.code = "new code".into();
        healed.changes = Some(json!([
            {"change": "Wait for the screen to settle before reading it.", "reason": "Runs failed: evaluation 1."},
            {"change": "Recorded the feedback at the top of the code."}
        ]));
        task.repaired(&healed);
        assert_eq!(task.code, "new code");
        assert_eq!(task.title, "My weather");
        assert_eq!(
            task.changes.as_deref(),
            Some("Wait for the screen to settle before reading it. Why: Runs failed: evaluation 1.\nRecorded the feedback at the top of the code."),
            "each change says what changed and why, one a line"
        );
        assert!(task.failed_runs.is_empty());
        assert_eq!(task.created_at, 1.0);
    }
}
