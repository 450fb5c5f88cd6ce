//! When a schedule is due: the kinds of repeat and the next due time after a given instant,
//! in the person's local time zone (through the [`Clock`], so tests choose the zone).
//!
//! A time of day is a local time: "daily at 08:00" stays at 08:00 across a change of summer
//! time. A local time the clock skips (02:30 on the spring-forward night) runs at the first
//! minute after the gap; one that happens twice (the autumn night) runs the first time only.
//! "Every N hours" counts real hours from its start, so it does not move with summer time.

use chrono::{DateTime, Datelike, Duration, LocalResult, NaiveDate, NaiveTime, Utc};
use serde::{Deserialize, Serialize};

use super::clock::Clock;

/// A local time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TimeOfDay {
    pub hour: u8,
    pub minute: u8,
}

impl TimeOfDay {
    fn naive(self) -> Option<NaiveTime> {
        NaiveTime::from_hms_opt(self.hour.into(), self.minute.into(), 0)
    }
}

/// How often a schedule runs. Times are Unix milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Repeat {
    /// Once, at `at`.
    Once { at: f64 },
    /// Every day at `time`.
    Daily { time: TimeOfDay },
    /// On the chosen `days` (0 = Monday … 6 = Sunday) at `time`.
    Weekdays { days: Vec<u8>, time: TimeOfDay },
    /// Every `hours` hours, the first at `from`.
    EveryHours { hours: u32, from: f64 },
}

/// Why a schedule cannot be kept as asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfit {
    /// An hour over 23 or a minute over 59.
    BadTime,
    NoDays,
    /// Every 0 hours, or more than a week.
    BadInterval,
    /// No task to send.
    NoTask,
    /// "Once at" a time already past.
    InThePast,
    /// A time more than [`FAR`] from now, or no time at all (a page's bad number).
    TooFar,
}

/// How far from now a schedule's own instants ("once at", "every N hours from") may be: no
/// person means a run a century away, and the arithmetic on them stays far from chrono's
/// limits, which would otherwise panic (security review N13).
pub const FAR: Duration = Duration::days(100 * 366);

impl Repeat {
    /// Whether the repeat can be kept as it is, made at `now`.
    pub fn check(&self, now: DateTime<Utc>) -> Result<(), Unfit> {
        let near = |ms: f64| {
            let at = DateTime::from_timestamp_millis(ms as i64).filter(|_| ms.is_finite());
            match at {
                Some(at) if (at - now).abs() <= FAR => Ok(()),
                _ => Err(Unfit::TooFar),
            }
        };
        match self {
            Repeat::Once { at } => near(*at),
            Repeat::Daily { time } => time.naive().map(|_| ()).ok_or(Unfit::BadTime),
            Repeat::Weekdays { days, time } => {
                time.naive().ok_or(Unfit::BadTime)?;
                if days.is_empty() || days.iter().any(|d| *d > 6) {
                    return Err(Unfit::NoDays);
                }
                Ok(())
            }
            Repeat::EveryHours { hours, from } => {
                if *hours == 0 || *hours > 24 * 7 {
                    return Err(Unfit::BadInterval);
                }
                near(*from)
            }
        }
    }

    /// The first due time strictly after `after`; `None` when it never runs again.
    pub fn next_after(&self, after: DateTime<Utc>, clock: &dyn Clock) -> Option<DateTime<Utc>> {
        match self {
            Repeat::Once { at } => Some(from_ms(*at)).filter(|at| *at > after),
            Repeat::Daily { time } => next_local(after, *time, clock, |_| true),
            Repeat::Weekdays { days, time } => next_local(after, *time, clock, |day| {
                days.contains(&(day.weekday().num_days_from_monday() as u8))
            }),
            Repeat::EveryHours { hours, from } => {
                let from = from_ms(*from);
                if from > after {
                    return Some(from);
                }
                // In milliseconds with checked steps: a schedule file edited by hand (or
                // damaged) can hold any numbers, and the runner must never panic on them.
                let step = i64::from(*hours).checked_mul(3_600_000)?;
                if step == 0 {
                    return None;
                }
                let from = from.timestamp_millis();
                let done = after.timestamp_millis().checked_sub(from)? / step;
                let next = done
                    .checked_add(1)
                    .and_then(|n| n.checked_mul(step))
                    .and_then(|d| from.checked_add(d))?;
                DateTime::from_timestamp_millis(next)
            }
        }
    }
}

/// The first local `time` on a day that `on` accepts, strictly after `after`.
fn next_local(
    after: DateTime<Utc>,
    time: TimeOfDay,
    clock: &dyn Clock,
    on: impl Fn(NaiveDate) -> bool,
) -> Option<DateTime<Utc>> {
    let time = time.naive()?;
    let mut day = clock.to_local(after).date();
    // A week and a day covers every choice of weekdays.
    for _ in 0..9 {
        if on(day) {
            if let Some(at) = local_instant(day, time, clock).filter(|at| *at > after) {
                return Some(at);
            }
        }
        day = day.succ_opt()?;
    }
    None
}

/// The instant of local `time` on `day`: the earlier of a repeated hour, and for a skipped
/// one the same wall time one hour later (the first minute the clock shows after the gap).
fn local_instant(day: NaiveDate, time: NaiveTime, clock: &dyn Clock) -> Option<DateTime<Utc>> {
    let local = day.and_time(time);
    match clock.instants_at(local) {
        LocalResult::Single(at) => Some(at),
        LocalResult::Ambiguous(first, _) => Some(first),
        LocalResult::None => match clock.instants_at(local + Duration::hours(1)) {
            LocalResult::Single(at) | LocalResult::Ambiguous(at, _) => Some(at),
            LocalResult::None => None,
        },
    }
}

pub fn from_ms(ms: f64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms as i64).unwrap_or_default()
}

pub fn to_ms(at: DateTime<Utc>) -> f64 {
    at.timestamp_millis() as f64
}
