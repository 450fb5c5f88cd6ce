//! Money before a task: what the person's own earlier tasks cost, so the model picker can say
//! "Your tasks with this model cost $0.02–$0.09" and the schedule dialog "About $0.05 a run,
//! $0.35 a day". Read from the kept per-task figures (`usage.rs`); nothing is asked of the
//! service, which reports only the current task.
//!
//! Only tasks that ended and that the service billed count: a running task's figure still
//! grows, and a task without a model call reported no cost at all (not a cost of nothing).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::usage::TaskUsageRow;
use super::Conversations;
use crate::schedules::timing::Repeat;

/// What earlier tasks cost: the typical lowest and highest, from `tasks` tasks.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CostRange {
    pub low_usd: f64,
    pub high_usd: f64,
    pub tasks: u32,
}

/// One model's range, by the id the picker passes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ModelCost {
    pub model: String,
    pub range: CostRange,
}

/// What a schedule's run and day may cost, from earlier runs of the same words.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct RunEstimate {
    /// Earlier tasks with the same words; 0: nothing to estimate from.
    pub runs: u32,
    /// Their average cost; `None` without earlier runs.
    pub per_run_usd: Option<f64>,
    /// A day's cost at the schedule's rhythm; `None` without earlier runs, for a run once, or
    /// a rhythm slower than daily.
    pub per_day_usd: Option<f64>,
}

/// From this many tasks on, the range leaves out the costliest and cheapest tenth, so one odd
/// task does not make the typical range meaningless.
const TRIM_FROM: usize = 5;

/// The typical range of `costs`; `None` when there are none.
pub fn range(costs: &[f64]) -> Option<CostRange> {
    let mut sorted: Vec<f64> = costs.iter().copied().filter(|c| c.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let (low, high) = if n >= TRIM_FROM {
        // Nearest-rank 10th and 90th percentiles.
        let at = |p: f64| sorted[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
        (at(0.1), at(0.9))
    } else {
        (sorted[0], sorted[n - 1])
    };
    Some(CostRange {
        low_usd: low,
        high_usd: high,
        tasks: n as u32,
    })
}

/// A kept task's cost when it counts as an earlier task's: ended, and billed.
fn ended_cost(row: &TaskUsageRow) -> Option<f64> {
    let billed = row.usage.total.model_calls > 0 || row.usage.total.cost_usd > 0.0;
    (!row.running && billed).then_some(row.usage.total.cost_usd)
}

/// Rows of service `scope` (rows kept before the scope was recorded count everywhere).
fn in_scope<'a>(
    rows: &'a [TaskUsageRow],
    scope: &'a str,
) -> impl Iterator<Item = &'a TaskUsageRow> + 'a {
    rows.iter()
        .filter(move |r| r.scope.as_deref().is_none_or(|s| s == scope))
}

/// The model a kept task ran with: the one the person chose, else the service's default
/// (`default_model`) when the task was sent without one. A row kept before the choice was
/// recorded counts for a model only when that one model did all its work.
fn model_of(row: &TaskUsageRow, default_model: &str) -> Option<String> {
    if let Some(model) = &row.model {
        return Some(model.clone());
    }
    if row.scope.is_some() {
        return Some(default_model.to_owned());
    }
    let mut models = row.usage.by_model.keys();
    match (models.next(), models.next()) {
        (Some(only), None) => Some(only.clone()),
        _ => None,
    }
}

/// Each model's typical range over the ended tasks of `scope`; models without one are absent.
pub fn model_ranges(rows: &[TaskUsageRow], scope: &str, default_model: &str) -> Vec<ModelCost> {
    let mut by_model: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for row in in_scope(rows, scope) {
        if let (Some(model), Some(cost)) = (model_of(row, default_model), ended_cost(row)) {
            by_model.entry(model).or_default().push(cost);
        }
    }
    by_model
        .into_iter()
        .filter_map(|(model, costs)| {
            Some(ModelCost {
                model,
                range: range(&costs)?,
            })
        })
        .collect()
}

/// Words compared as a person reads them: case, surrounding and repeated spaces aside.
fn same_words(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    norm(a) == norm(b)
}

/// How many runs `repeat` makes in a day it runs; `None` for once, or runs days apart.
pub fn runs_a_day(repeat: &Repeat) -> Option<f64> {
    match repeat {
        Repeat::Once { .. } => None,
        Repeat::Daily { .. } | Repeat::Weekdays { .. } => Some(1.0),
        Repeat::EveryHours { hours, .. } if (1..=24).contains(hours) => {
            Some(24.0 / f64::from(*hours))
        }
        Repeat::EveryHours { .. } => None,
    }
}

/// The estimate for a schedule of `text` at `repeat` (none while the form holds no rhythm yet).
pub fn run_estimate(
    rows: &[TaskUsageRow],
    scope: &str,
    text: &str,
    repeat: Option<&Repeat>,
) -> RunEstimate {
    let costs: Vec<f64> = if text.trim().is_empty() {
        Vec::new()
    } else {
        in_scope(rows, scope)
            .filter(|r| same_words(&r.task, text))
            .filter_map(ended_cost)
            .collect()
    };
    let per_run = (!costs.is_empty()).then(|| costs.iter().sum::<f64>() / costs.len() as f64);
    RunEstimate {
        runs: costs.len() as u32,
        per_run_usd: per_run,
        per_day_usd: per_run.zip(repeat.and_then(runs_a_day)).map(|(r, n)| r * n),
    }
}

impl Conversations {
    /// Every kept task, the running ones marked, and the active service's scope.
    fn kept_tasks(&self) -> (Vec<TaskUsageRow>, String) {
        let scope = self.connection().scope().unwrap_or_default();
        let running: BTreeSet<(String, String)> = self.store().read(|book| {
            book.unfinished(&scope)
                .into_iter()
                .filter_map(|(id, state)| Some((id, state.turn_id?)))
                .collect()
        });
        let rows = self
            .usage()
            .all(|id, turn| running.contains(&(id.to_owned(), turn.to_owned())));
        (rows, scope)
    }

    /// Each model's typical cost over the person's own ended tasks.
    pub fn model_costs(&self, default_model: &str) -> Vec<ModelCost> {
        let (rows, scope) = self.kept_tasks();
        model_ranges(&rows, &scope, default_model)
    }

    /// What a schedule of `text` at `repeat` may cost, from earlier tasks with the same words.
    pub fn schedule_estimate(&self, text: &str, repeat: Option<&Repeat>) -> RunEstimate {
        let (rows, scope) = self.kept_tasks();
        run_estimate(&rows, &scope, text, repeat)
    }
}

#[cfg(test)]
mod tests;
