//! Runs that end while the person is away, summed up in one digest: one notification instead
//! of one per run, and a card in the window when they come back ("3 scheduled runs while you
//! were away: 2 done, 1 needs you"), each run a line that opens its conversation.
//!
//! Away, as a person would put it: Porthole's window is hidden (closed to the tray) or not in
//! front. A run belongs to the digest when the person has been away since it started (a run
//! they watched start and then left is told as it ends, as before), or when it was missed or
//! not sent while they were away. Coming back is the window shown or in front again. The shell
//! only says when the window comes and goes ([`Schedules::set_present`]); which runs, how many
//! and the words are decided here.
//!
//! The digest's notification goes out once nothing of the schedules is under way (no run
//! going, none waiting for its computer): runs that end together are told together. A run that
//! waits for the person's answer counts as needing them, rather than keeping the rest untold.
//! Kept with the app's data too (`digest.json`): a restart before the person comes back
//! keeps what happened for the card; what a restart interrupted is shown on the card and told
//! by no second notification.

use std::path::Path;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::timing::to_ms;
use super::*;
use crate::conversations::TaskStatus;
use crate::error::Problem;
use crate::store::{Document, Persisted};
use crate::words::schedules as words;

/// What happened to one run while the person was away.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub(super) enum AwayWhat {
    Ended {
        conversation_id: String,
        status: TaskStatus,
    },
    /// Its task waits for the person's answer.
    Waiting {
        conversation_id: String,
    },
    Missed(MissedWhy),
    /// Skipped or refused, for this reason.
    NotRun(Problem),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct AwayRun {
    pub schedule_id: String,
    pub title: String,
    pub machine_id: String,
    pub computer: String,
    pub due_at: f64,
    pub what: AwayWhat,
}

impl AwayRun {
    pub fn of(schedule: &Schedule, due_at: f64, what: AwayWhat) -> Self {
        Self {
            schedule_id: schedule.id.clone(),
            title: schedule.title.clone(),
            machine_id: schedule.machine_id.clone(),
            computer: schedule.machine_name.clone(),
            due_at,
            what,
        }
    }

    /// The conversation the run's line opens, if it started one.
    fn conversation_id(&self) -> Option<&str> {
        match &self.what {
            AwayWhat::Ended {
                conversation_id, ..
            }
            | AwayWhat::Waiting { conversation_id } => Some(conversation_id),
            AwayWhat::Missed(_) | AwayWhat::NotRun(_) => None,
        }
    }

    fn done(&self) -> bool {
        matches!(
            self.what,
            AwayWhat::Ended {
                status: TaskStatus::Succeeded,
                ..
            }
        )
    }
}

/// Where the person is, and the runs kept for them.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Away {
    /// Since when (Unix ms) the window has been hidden or not in front; `None` while it is.
    /// Not saved: a new start learns it from its window.
    #[serde(skip)]
    since: Option<f64>,
    /// Runs of this time away, in the order they ended.
    runs: Vec<AwayRun>,
    /// How many of `runs` the last notification told.
    told: usize,
    /// The runs of the last time away, shown on the card until dismissed.
    card: Vec<AwayRun>,
}

/// The runs kept for the person, in memory and in `digest.json`.
#[derive(Default)]
pub(super) struct AwayState {
    away: Mutex<Away>,
    /// None in tests that do not restart, or when the file could not be opened.
    saved: Option<Persisted<Away>>,
}

impl AwayState {
    /// The runs kept before a restart go onto the card (the person has not seen them); they
    /// were told already or are told by the card, never by a second notification.
    pub(super) fn open_in(dir: &Path) -> Self {
        let saved = match Persisted::<Away>::open(Document::new(dir.join("digest.json"), "digest"))
        {
            Ok(saved) => saved,
            Err(err) => {
                tracing::warn!(error = %err, "the schedules' digest could not be read");
                return Self::default();
            }
        };
        let away = saved.read(|kept| {
            let mut card = kept.card.clone();
            for run in &kept.runs {
                let same = |r: &AwayRun| r.schedule_id == run.schedule_id && r.due_at == run.due_at;
                match card.iter().position(same) {
                    Some(i) => card[i] = run.clone(),
                    None => card.push(run.clone()),
                }
            }
            Away {
                card,
                ..Away::default()
            }
        });
        Self {
            away: Mutex::new(away),
            saved: Some(saved),
        }
    }
}

/// Changes what is kept and saves it; a disk that refuses only costs the card at a restart.
fn change<R>(state: &AwayState, f: impl FnOnce(&mut Away) -> R) -> R {
    let mut away = state.away.lock().unwrap_or_else(|e| e.into_inner());
    let out = f(&mut away);
    if let Some(saved) = &state.saved {
        // Written only when it changed: the window coming and going changes nothing kept.
        let written = saved.write_if(|kept| {
            if kept.runs == away.runs && kept.told == away.told && kept.card == away.card {
                return false;
            }
            kept.runs.clone_from(&away.runs);
            kept.told = away.told;
            kept.card.clone_from(&away.card);
            true
        });
        if let Err(err) = written {
            tracing::warn!(error = %err, "the schedules' digest could not be saved");
        }
    }
    out
}

/// The digest as the window's card shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Digest {
    /// "3 scheduled runs while you were away: 2 done, 1 needs you"
    pub headline: String,
    pub lines: Vec<DigestLine>,
}

/// One run of the digest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct DigestLine {
    pub schedule_id: String,
    pub title: String,
    /// How it went, in words: "Done", "Missed: Studio archive could not be woken".
    pub words: String,
    pub done: bool,
    pub machine_id: String,
    /// The conversation the line opens; none for a run that never started (the line opens
    /// the schedules, where Run now is).
    pub conversation_id: Option<String>,
}

/// The headline: how many runs, how many done, how many need the person.
pub(super) fn headline(runs: &[AwayRun]) -> String {
    let done = runs.iter().filter(|r| r.done()).count();
    let needs = runs.len() - done;
    let mut parts = Vec::new();
    if done > 0 {
        parts.push(words::digest_done(done));
    }
    if needs > 0 {
        parts.push(words::digest_needs_you(needs));
    }
    words::digest_headline(runs.len(), &parts.join(", "))
}

fn line(run: &AwayRun) -> DigestLine {
    let (words, conversation_id) = match &run.what {
        AwayWhat::Ended {
            conversation_id,
            status,
        } => (words::digest_ended(*status), Some(conversation_id.clone())),
        AwayWhat::Waiting { conversation_id } => {
            (words::digest_waiting(), Some(conversation_id.clone()))
        }
        AwayWhat::Missed(why) => (words::digest_missed(*why, &run.computer), None),
        AwayWhat::NotRun(reason) => (words::digest_not_run(&UiError::from(reason).detail), None),
    };
    DigestLine {
        schedule_id: run.schedule_id.clone(),
        title: run.title.clone(),
        words,
        done: run.done(),
        machine_id: run.machine_id.clone(),
        conversation_id,
    }
}

pub(super) fn digest(runs: &[AwayRun]) -> Option<Digest> {
    (!runs.is_empty()).then(|| Digest {
        headline: headline(runs),
        lines: runs.iter().map(line).collect(),
    })
}

fn lock(state: &AwayState) -> std::sync::MutexGuard<'_, Away> {
    state.away.lock().unwrap_or_else(|e| e.into_inner())
}

impl Schedules {
    /// The window came (`true`: shown and in front) or went (hidden, or another window in
    /// front). Coming back moves the runs kept while away onto the card.
    pub fn set_present(&self, present: bool) {
        let now = to_ms(self.now());
        let changed = change(&self.shared.away, |away| match (present, away.since) {
            (false, None) => {
                away.since = Some(now);
                false
            }
            (true, Some(_)) => {
                away.since = None;
                away.told = 0;
                let runs = std::mem::take(&mut away.runs);
                let fresh = !runs.is_empty();
                if fresh {
                    away.card = runs;
                }
                fresh
            }
            _ => false,
        });
        if changed {
            self.shared.notify.schedules_changed();
        }
    }

    /// The card of the runs that ended while the person was away, until dismissed.
    pub fn digest(&self) -> Option<Digest> {
        self.forget_deleted();
        digest(&lock(&self.shared.away).card)
    }

    /// Runs whose conversation the person deleted leave the digest, in `digest.json` too:
    /// their line would open nothing, and a deleted conversation leaves no trace. Looked for
    /// as the card is read, so no way of deleting can miss it.
    fn forget_deleted(&self) {
        let kept: Vec<String> = {
            let away = lock(&self.shared.away);
            away.runs
                .iter()
                .chain(&away.card)
                .filter_map(|r| r.conversation_id().map(str::to_owned))
                .collect()
        };
        if kept.is_empty() {
            return;
        }
        let store = self.shared.conversations.store();
        // One read of the book for them all, without copying a conversation to see it is there.
        let gone: Vec<String> = store.read(|book| {
            kept.into_iter()
                .filter(|id| book.get(id).is_none())
                .collect()
        });
        if gone.is_empty() {
            return;
        }
        let is_gone = |r: &AwayRun| {
            r.conversation_id()
                .is_some_and(|id| gone.iter().any(|g| g == id))
        };
        change(&self.shared.away, |away| {
            // The runs already told stay told: the count drops by those of them that go.
            let told_gone = away
                .runs
                .iter()
                .take(away.told)
                .filter(|r| is_gone(r))
                .count();
            away.told -= told_gone;
            away.runs.retain(|r| !is_gone(r));
            away.card.retain(|r| !is_gone(r));
        });
    }

    pub fn dismiss_digest(&self) {
        let had = change(&self.shared.away, |away| {
            !std::mem::take(&mut away.card).is_empty()
        });
        if had {
            self.shared.notify.schedules_changed();
        }
    }

    /// Whether the person is away, and has been since `since` (Unix ms) when given.
    pub(super) fn away_since(&self, since: Option<f64>) -> bool {
        match lock(&self.shared.away).since {
            Some(left) => since.is_none_or(|at| left < at),
            None => false,
        }
    }

    /// Keeps `run` for the digest (in place of what the same run said before).
    pub(super) fn keep_for_digest(&self, run: AwayRun) {
        change(&self.shared.away, |away| {
            let same = |r: &AwayRun| r.schedule_id == run.schedule_id && r.due_at == run.due_at;
            match away.runs.iter().position(same) {
                Some(i) => away.runs[i] = run,
                None => away.runs.push(run),
            }
        });
    }

    /// Tells the person of a run: in the digest while away, else in a notification of its
    /// own.
    pub(super) fn tell_run(&self, schedule: &Schedule, title: &str, body: &str, run: AwayRun) {
        if self.away_since(None) {
            self.keep_for_digest(run);
        } else {
            self.shared.notify.tell(schedule, title, body);
        }
    }

    /// Sends the digest's one notification when runs were kept that it has not told and none
    /// is under way.
    pub(super) fn tell_digest_when_settled(&self, under_way: bool) {
        if under_way {
            return;
        }
        let told = change(&self.shared.away, |away| {
            if away.since.is_none() || away.runs.len() <= away.told {
                return None;
            }
            away.told = away.runs.len();
            Some(away.runs.clone())
        });
        let Some(told) = told else {
            return;
        };
        let body: Vec<String> = told
            .iter()
            .map(|r| {
                let l = line(r);
                words::digest_line(&l.title, &l.words)
            })
            .collect();
        self.shared
            .notify
            .tell_digest(&headline(&told), &body.join("\n"));
    }
}
