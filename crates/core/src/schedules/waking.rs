//! Waking a run's computer ahead of its due time, so the task starts on time, and what a due
//! run finds when it looks at its computer.
//!
//! The lead comes from the service's own figures: the free computer's first start of the day
//! takes about two minutes (the contract's "other state facts"), and opening a computer that
//! must start may take up to three minutes (its control lease). A computer this app has
//! watched wake before is given what it took then, plus a margin, when that is longer.
//!
//! The wake is the service's wake call, never a throwaway message (that would be folded into
//! the next real task). So the free plan's computer is never woken ahead: the service lists it
//! with `canWake: false` (unclaimed, it has no status at all), its wake call does not apply,
//! and only a message starts it, the first of the day taking about two minutes (service-api.md,
//! "Free account computer"; real-service.md, wake). Its run's own message starts it at the due
//! time, and the task begins about two minutes late. When such a run cannot start, its missed
//! reason says that this computer cannot be woken ahead ([`MissedWhy::FreeComputer`]) rather
//! than that a wake was asked for.

use chrono::{DateTime, Duration, Utc};
use porthole_client::machines::{Machine, MachineStatus};

use super::timing::to_ms;
use super::*;
use crate::machines::waking::ask_to_wake;

/// The free computer's first start of the day takes about two minutes.
const FIRST_START: Duration = Duration::minutes(2);
/// Added to what a start takes, so a run finds its computer ready rather than nearly so.
const MARGIN: Duration = Duration::minutes(1);
/// However long a computer once took, it is not woken more than this ahead: it would be kept
/// awake (and billed) for nothing.
const LONGEST_LEAD: Duration = Duration::minutes(15);

/// How long before a run its computer is woken: what a start takes by the service's figures,
/// or what this computer took the last time this app woke it (ms), whichever is longer, plus
/// a margin.
pub fn lead(took_ms: Option<f64>) -> Duration {
    let took = took_ms
        .filter(|ms| ms.is_finite() && *ms > 0.0)
        .map(|ms| Duration::milliseconds(ms.min(LONGEST_LEAD.num_milliseconds() as f64) as i64))
        .unwrap_or_default();
    (FIRST_START.max(took) + MARGIN).min(LONGEST_LEAD)
}

/// What a run finds its computer doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Readiness {
    /// Awake, or a computer a task itself starts (the free computer, an own desktop), or one
    /// the list does not know: the task is sent, and meets whatever there is to meet.
    Ready,
    /// Waking: the run waits for it.
    Starting,
    /// Asleep, and the service can wake it.
    Asleep,
    /// Asleep, and the service says it cannot wake it (`canWake: false`): never promised.
    CannotWake,
}

/// The free plan's computer (`free-<userId>`): the service wakes it only with a message.
pub fn is_free_computer(machine_id: &str) -> bool {
    machine_id.starts_with("free-")
}

/// Why a run on `machine_id` is missed: for the free computer, a wake that was not (or could
/// not be) asked for says so, since the service gives no way to wake it ahead.
pub fn missed_why(machine_id: &str, why: MissedWhy) -> MissedWhy {
    match why {
        MissedWhy::NotAwake | MissedWhy::CannotWake if is_free_computer(machine_id) => {
            MissedWhy::FreeComputer
        }
        other => other,
    }
}

pub fn readiness(machine: Option<&Machine>) -> Readiness {
    let Some(m) = machine else {
        return Readiness::Ready;
    };
    match &m.status {
        Some(MachineStatus::WakingUp) => Readiness::Starting,
        Some(MachineStatus::Hibernated | MachineStatus::Hibernating) if m.can_wake => {
            Readiness::Asleep
        }
        Some(MachineStatus::Hibernated | MachineStatus::Hibernating) => Readiness::CannotWake,
        _ => Readiness::Ready,
    }
}

impl Schedules {
    /// The computers of the account as the service lists them now; `None` when the list
    /// could not be read (a run then goes out as it always did).
    pub(super) async fn computers(&self) -> Option<Vec<Machine>> {
        let active = self.shared.connection.active().await.ok()?;
        match active.client.machines().list().await {
            Ok(list) => Some(list.machines),
            Err(err) => {
                tracing::info!(error = %err, "schedules could not read the computers");
                None
            }
        }
    }

    /// Wakes the computers of runs due within their lead, once per due time, and notes how
    /// long a computer asked to wake took to be awake.
    pub(super) async fn wake_ahead(&self, scope: &str, now: DateTime<Utc>) {
        let soon: Vec<(Schedule, f64)> = self.read(|book| {
            if book.all_paused {
                return Vec::new();
            }
            book.schedules
                .iter()
                .filter(|s| s.scope == scope && !s.paused)
                .filter_map(|s| {
                    let next = s.next_at(now, self.clock())?;
                    let lead = lead(book.wake_took.get(&s.machine_id).copied());
                    let within = next - to_ms(now) <= lead.num_milliseconds() as f64;
                    (within && s.woken_for != Some(next)).then(|| (s.clone(), next))
                })
                .collect()
        });
        let asked = self.read(|book| !book.wake_asked.is_empty());
        if soon.is_empty() && !asked {
            return;
        }
        let Some(computers) = self.computers().await else {
            return;
        };
        self.note_woken(&computers, now);
        let Ok(active) = self.shared.connection.active().await else {
            return;
        };
        for (schedule, next) in soon {
            let machine = computers
                .iter()
                .find(|m| m.machine_id == schedule.machine_id);
            if is_free_computer(&schedule.machine_id) {
                tracing::info!(
                    "the free computer cannot be woken ahead: its run's message starts it"
                );
            } else if readiness(machine) == Readiness::Asleep {
                match ask_to_wake(&active.client, &schedule.machine_id).await {
                    Ok(_) => {
                        let _ = self.write(|book| {
                            book.wake_asked
                                .entry(schedule.machine_id.clone())
                                .or_insert(to_ms(now));
                        });
                    }
                    // Refused: the run says so when it is due and finds it asleep.
                    Err(err) => tracing::info!(error = %err, "a computer was not woken ahead"),
                }
            }
            let _ = self.write(|book| {
                if let Some(s) = book.get_mut(&schedule.id) {
                    s.woken_for = Some(next);
                }
            });
        }
    }

    /// Computers asked to wake that are awake now: what the wake took is kept for their next
    /// lead. One not awake long after is forgotten (it says nothing of a wake's time, and
    /// the list is not read for it at every look).
    fn note_woken(&self, computers: &[Machine], now: DateTime<Utc>) {
        let now = to_ms(now);
        let forget_after = (LONGEST_LEAD + GRACE).num_milliseconds() as f64;
        let seen: Vec<(String, Option<f64>)> = self.read(|book| {
            book.wake_asked
                .iter()
                .filter_map(|(id, at)| {
                    let m = computers.iter().find(|m| &m.machine_id == id);
                    let awake = m.is_none_or(|m| m.status == Some(MachineStatus::Active));
                    let took = now - at;
                    if awake {
                        Some((id.clone(), Some(took).filter(|t| t.is_finite() && *t > 0.0)))
                    } else if took.is_nan() || took >= forget_after {
                        Some((id.clone(), None))
                    } else {
                        None
                    }
                })
                .collect()
        });
        if seen.is_empty() {
            return;
        }
        let _ = self.write(|book| {
            for (id, took) in seen {
                book.wake_asked.remove(&id);
                if let Some(took) = took {
                    book.wake_took.insert(id, took);
                }
            }
        });
    }

    /// What a run due now finds its computer doing; a sleeping computer the service can wake
    /// is asked to (the run then waits for it, as for a wake ahead).
    pub(super) async fn computer_readiness(&self, schedule: &Schedule) -> Readiness {
        let Some(computers) = self.computers().await else {
            return Readiness::Ready;
        };
        let machine = computers
            .iter()
            .find(|m| m.machine_id == schedule.machine_id);
        let ready = readiness(machine);
        if ready != Readiness::Asleep {
            return ready;
        }
        let Ok(active) = self.shared.connection.active().await else {
            return ready;
        };
        match ask_to_wake(&active.client, &schedule.machine_id).await {
            Ok(true) => {
                let now = to_ms(self.now());
                let _ = self.write(|book| {
                    book.wake_asked
                        .entry(schedule.machine_id.clone())
                        .or_insert(now);
                });
                Readiness::Starting
            }
            Ok(false) => Readiness::Ready,
            Err(AppError::CannotWake) => Readiness::CannotWake,
            Err(_) => Readiness::Asleep,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lead_is_the_services_start_time_or_what_this_computer_took_plus_a_margin() {
        assert_eq!(lead(None), Duration::minutes(3));
        assert_eq!(lead(Some(30_000.0)), Duration::minutes(3), "a quick wake");
        assert_eq!(lead(Some(240_000.0)), Duration::minutes(5), "a slow one");
        assert_eq!(lead(Some(f64::NAN)), Duration::minutes(3));
        assert_eq!(lead(Some(1e15)), Duration::minutes(15), "never more");
    }

    #[test]
    fn a_missed_run_on_the_free_computer_says_it_cannot_be_woken_ahead() {
        let free = "free-u_ada";
        assert_eq!(
            missed_why(free, MissedWhy::NotAwake),
            MissedWhy::FreeComputer
        );
        assert_eq!(
            missed_why(free, MissedWhy::CannotWake),
            MissedWhy::FreeComputer
        );
        assert_eq!(missed_why(free, MissedWhy::Busy), MissedWhy::Busy);
        assert_eq!(missed_why(free, MissedWhy::Closed), MissedWhy::Closed);
        assert_eq!(
            missed_why("m_laptop", MissedWhy::NotAwake),
            MissedWhy::NotAwake,
            "another computer was asked to wake"
        );
        // The unclaimed free computer's row as the service lists it: no status, canWake
        // false. A wake does not apply; the run is sent, and its message starts it.
        let row: Machine = serde_json::from_value(serde_json::json!({
            "machineId": free, "name": "Free cloud computer", "updatedAt": 0,
            "canWake": false, "kind": "cloud", "online": false
        }))
        .unwrap();
        assert_eq!(readiness(Some(&row)), Readiness::Ready);
        let words = crate::words::schedules::missed_free_computer(
            "Check the weather",
            "Free cloud computer",
            10,
        );
        assert!(words.contains("cannot be woken ahead"), "{words}");
        assert!(!words.contains("asked to wake"), "{words}");
        let de = crate::words::catalog::text_in(
            crate::words::language::Language::De,
            "scheduleNotes.missedFreeComputer",
            &[],
        );
        assert!(de.contains("nicht im Voraus"), "{de}");
    }
}
