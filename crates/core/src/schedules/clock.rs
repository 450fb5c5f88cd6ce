//! The time the schedules run by, and the person's time zone, behind one trait so tests set
//! both: a test moves its clock and asks the schedules to look ([`super::Schedules::tick`]),
//! never waiting for real time to pass.

use std::path::PathBuf;
use std::time::Duration;

use chrono::{DateTime, Local, LocalResult, NaiveDateTime, TimeZone, Utc};

/// Now, and the local time zone.
pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> DateTime<Utc>;
    /// The wall time the person's clock shows at `at`.
    fn to_local(&self, at: DateTime<Utc>) -> NaiveDateTime;
    /// The instants at which the person's clock shows `local`.
    fn instants_at(&self, local: NaiveDateTime) -> LocalResult<DateTime<Utc>>;
    /// The longest the runner sleeps before reading the clock again. A computer that slept
    /// (or a clock that was set) is noticed within this, as the wall clock is read afresh.
    fn nap(&self) -> Duration {
        Duration::from_secs(20)
    }
}

/// The computer's clock and time zone.
pub struct SystemClock {
    /// Debug builds only: a file holding seconds to add to the wall clock, read at every
    /// look, so an end-to-end test can move the app's time while it runs
    /// (`PORTHOLE_TEST_CLOCK_FILE`). A release build never reads it.
    shift_file: Option<PathBuf>,
}

impl SystemClock {
    pub fn from_env() -> Self {
        let shift_file = crate::test_switch::var_os("PORTHOLE_TEST_CLOCK_FILE").map(PathBuf::from);
        Self { shift_file }
    }

    fn shift(&self) -> chrono::Duration {
        let Some(file) = &self.shift_file else {
            return chrono::Duration::zero();
        };
        let seconds = std::fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse::<i64>().ok())
            .unwrap_or(0);
        chrono::Duration::seconds(seconds)
    }
}

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + self.shift()
    }

    fn to_local(&self, at: DateTime<Utc>) -> NaiveDateTime {
        at.with_timezone(&Local).naive_local()
    }

    fn instants_at(&self, local: NaiveDateTime) -> LocalResult<DateTime<Utc>> {
        Local
            .from_local_datetime(&local)
            .map(|at| at.with_timezone(&Utc))
    }

    fn nap(&self) -> Duration {
        // A test that moves the clock sees the app notice within a second.
        if self.shift_file.is_some() {
            Duration::from_secs(1)
        } else {
            Duration::from_secs(20)
        }
    }
}
