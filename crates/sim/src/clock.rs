//! Simulated time: every documented delay and every hourly limit window is multiplied by the
//! configured time scale, so a test at `0.01` sees a "two-minute" start take 1.2 s and an
//! "hour" of limits last 36 s. Timestamps in responses stay real Unix time so clients can
//! compare them with their own clock; only durations shrink.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Scales documented durations.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    scale: f64,
}

impl Clock {
    pub fn new(scale: f64) -> Self {
        let scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        Self { scale }
    }

    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The real duration a documented duration takes here.
    pub fn scaled(&self, documented: Duration) -> Duration {
        documented.mul_f64(self.scale)
    }

    /// Sleeps for a documented duration, scaled.
    pub async fn sleep(&self, documented: Duration) {
        tokio::time::sleep(self.scaled(documented)).await;
    }

    /// The real length of a documented hour (the window of every hourly limit).
    pub fn hour(&self) -> Duration {
        self.scaled(Duration::from_secs(3600))
    }

    /// Real Unix time in milliseconds.
    pub fn now_ms() -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or_default()
    }

    /// The index of the current UTC day (days since the Unix epoch).
    pub fn utc_day() -> i64 {
        Self::now_ms().div_euclid(86_400_000)
    }

    /// The next UTC midnight as an ISO 8601 string: when free daily allowances reset.
    pub fn next_utc_midnight_iso() -> String {
        iso8601((Self::utc_day() + 1) * 86_400_000)
    }
}

/// Formats Unix milliseconds as ISO 8601 UTC with milliseconds (`2026-01-02T03:04:05.678Z`).
pub fn iso8601(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
}

/// Howard Hinnant's days-to-civil conversion (proleptic Gregorian calendar).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn scales_durations() {
        let c = Clock::new(0.01);
        assert_eq!(c.hour(), Duration::from_secs(36));
        assert_eq!(Clock::new(-1.0).scale(), 1.0);
    }
}
