//! When the next run is, in the page's words: the tray's "Next: <title> at 16:30" takes its
//! "at 16:30" / "tomorrow at 08:00" / "on Tue, Mar 31 at 08:00" from the page, which words
//! dates with `Intl` (`ui/src/lib/features/schedules/tray-words.svelte.ts`). The page asks
//! when the next run is ([`tray_next_at`]) and says it whenever the schedules change, when its
//! language changes and when its day ends; it runs as long as Porthole does, the window
//! hidden in the tray too.
//!
//! Words said on another day (yesterday's "tomorrow") or in another language are not used;
//! until the page has spoken (the first moments of a start) the line names the task without
//! its time.

use std::sync::Mutex;

use chrono::{DateTime, NaiveTime, TimeDelta, Utc};

use super::timing::from_ms;
use super::{Clock, Schedules};
use crate::words::from_page::plain;
use crate::words::language::{self, Language};

/// The most instants the page may word at once, and the longest words for one: a list of
/// schedules is short, and a time and date are a few words.
const MOST_TIMES: usize = 100;
const LONGEST_WORDS: usize = 60;

/// One instant (Unix ms, as [`tray_next_at`] gives it) and the page's words.
#[derive(Debug, Clone, serde::Deserialize, specta::Type)]
pub struct TrayTime {
    pub at: f64,
    pub words: String,
}

/// What the page said last, managed beside [`Schedules`].
#[derive(Default)]
pub struct TrayWords(Mutex<Option<Said>>);

#[derive(Debug, Clone, PartialEq)]
struct Said {
    language: Language,
    /// The end of the person's day the words were made on ("today", "tomorrow" are right
    /// until then), on the schedules' clock.
    until: DateTime<Utc>,
    times: Vec<(f64, String)>,
}

impl TrayWords {
    /// Keeps what the page said at `now` (Unix ms); true when it differs from before. Words
    /// that are empty or of an instant that is no number are left out; too long ones cut.
    pub fn keep(
        &self,
        schedules: &Schedules,
        language: Language,
        now: f64,
        times: Vec<TrayTime>,
    ) -> bool {
        let said = end_of_day(schedules.clock(), now).map(|until| Said {
            language,
            until,
            times: times
                .into_iter()
                .filter(|t| t.at.is_finite())
                .filter_map(|t| Some((t.at, plain(&t.words, LONGEST_WORDS)?)))
                .take(MOST_TIMES)
                .collect(),
        });
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let changed = *kept != said;
        *kept = said;
        changed
    }

    /// The page's words for `at`, when it said them today and in the app's language.
    pub fn of(&self, schedules: &Schedules, at: f64) -> Option<String> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let said = kept.as_ref()?;
        if said.language != language::current() || schedules.clock().now() >= said.until {
            return None;
        }
        said.times
            .iter()
            .find(|(t, _)| (t - at).abs() < 1.0)
            .map(|(_, words)| words.clone())
    }
}

/// When the day of the page's `now` (Unix ms) ends, on `clock`: the page's midnight moved by
/// how far the clock is from the page's (nothing on a person's computer; a test moves the
/// schedules' clock alone). None for a `now` that is no number.
fn end_of_day(clock: &dyn Clock, now: f64) -> Option<DateTime<Utc>> {
    if !now.is_finite() {
        return None;
    }
    let page_now = from_ms(now);
    let midnight = clock
        .to_local(page_now)
        .date()
        .succ_opt()?
        .and_time(NaiveTime::MIN);
    // A midnight a clock change skips (none in use today) ends the day an hour later.
    let end = clock
        .instants_at(midnight)
        .earliest()
        .or_else(|| clock.instants_at(midnight + TimeDelta::hours(1)).earliest())?;
    end.checked_add_signed(clock.now() - page_now)
}
