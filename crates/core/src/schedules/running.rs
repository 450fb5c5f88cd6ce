//! Running what is due: one look at the clock (`tick`), sending a due run as an ordinary
//! task or holding it while its computer's task before it runs, and noting how runs ended.
//! Split from `mod.rs`, which keeps the list and its edits.

use super::digest::{AwayRun, AwayWhat};
use super::waking::Readiness;
use super::*;
use crate::conversations::TaskStatus;
use crate::error::{Problem, UiCode};
use crate::words::schedules as words;

impl Schedules {
    /// Looks at the clock once: starts or misses held runs, runs what is due, marks as missed
    /// what was due while the app was not running, and notes the end of runs under way. The
    /// runner calls this after every nap; tests call it after moving their clock.
    pub async fn tick(&self) {
        let _one = self.shared.looking.lock().await;
        let Ok(active) = self.shared.connection.active().await else {
            // Not connected yet: nothing is settled, so the look after connecting decides.
            return;
        };
        let now = self.now();
        // Computers of runs due soon are woken first, so the runs find them awake.
        self.wake_ahead(&active.scope, now).await;
        // Held runs first: a due time that passes now takes the place of an older held run
        // only once that one has started or been missed.
        self.look_at_held(&active.scope, now).await;
        let due: Vec<(Schedule, DateTime<Utc>)> = self.read(|book| {
            if book.all_paused {
                return Vec::new();
            }
            book.schedules
                .iter()
                .filter(|s| s.scope == active.scope && !s.paused)
                .filter_map(|s| s.due(now, self.clock()).map(|at| (s.clone(), at)))
                .collect()
        });
        for (schedule, at) in due {
            // Settled before anything is sent: whatever happens next, never twice.
            let late = now - at > GRACE;
            let settled = self.write(|book| {
                let Some(s) = book.get_mut(&schedule.id) else {
                    return false;
                };
                s.settled_until = to_ms(at);
                if late {
                    s.missed = Some(to_ms(at));
                    s.missed_why = MissedWhy::Closed;
                }
                true
            });
            match settled {
                Ok(true) if late => self.tell_run(
                    &schedule,
                    &words::missed_title(),
                    &words::missed(&schedule.title),
                    AwayRun::of(&schedule, to_ms(at), AwayWhat::Missed(MissedWhy::Closed)),
                ),
                Ok(true) => self.launch(&schedule, at).await,
                Ok(false) => {}
                Err(err) => {
                    tracing::warn!(error = %err, "a due schedule could not be saved; not run")
                }
            }
        }
        let under_way = self.note_ends();
        self.tell_digest_when_settled(under_way);
    }

    /// Runs held for their computer (at most one a schedule): one whose computer is free
    /// starts, checked as a due run is; one that could no longer start within [`GRACE`] of
    /// its due time is missed, with "Run now", as a task the person expected at 8:00 could do
    /// harm at 15:00; the rest wait for a later look.
    async fn look_at_held(&self, scope: &str, now: DateTime<Utc>) {
        let held: Vec<(Schedule, f64)> = self.read(|book| {
            if book.all_paused {
                return Vec::new();
            }
            book.schedules
                .iter()
                .filter(|s| s.scope == scope && !s.paused)
                .filter_map(|s| s.held.map(|due| (s.clone(), due)))
                .collect()
        });
        for (schedule, due) in held {
            // In plain milliseconds: a damaged file's numbers cannot panic here.
            if to_ms(now) - due > GRACE.num_milliseconds() as f64 {
                let why = if schedule.held_for_wake {
                    MissedWhy::NotAwake
                } else {
                    MissedWhy::Busy
                };
                self.miss(&schedule, due, why);
                continue;
            }
            if self.computer_busy(&schedule).await {
                continue;
            }
            if schedule.held_for_wake {
                match self.computer_readiness(&schedule).await {
                    Readiness::Ready => {}
                    Readiness::CannotWake => {
                        self.miss(&schedule, due, MissedWhy::CannotWake);
                        continue;
                    }
                    Readiness::Starting | Readiness::Asleep => continue,
                }
            }
            // Out of the hold before it is sent: whatever happens next, never twice.
            let taken = self.write(|book| {
                book.get_mut(&schedule.id).is_some_and(|s| {
                    s.held_for_wake = false;
                    s.held.take().is_some()
                })
            });
            match taken {
                Ok(true) => self.launch(&schedule, from_ms(due)).await,
                Ok(false) => {}
                Err(err) => {
                    tracing::warn!(error = %err, "a held run could not be saved; not run")
                }
            }
        }
    }

    /// A run that cannot start by itself becomes the schedule's missed run, with "Run now"
    /// and why: held too long behind the task before it, or its computer asleep for good or
    /// not awake in time.
    fn miss(&self, schedule: &Schedule, due: f64, why: MissedWhy) {
        let why = super::waking::missed_why(&schedule.machine_id, why);
        let missed = self.write(|book| {
            let Some(s) = book.get_mut(&schedule.id) else {
                return false;
            };
            s.held = None;
            s.held_for_wake = false;
            s.missed = Some(due);
            s.missed_why = why;
            true
        });
        let (title, computer) = (&schedule.title, &schedule.machine_name);
        let body = match why {
            MissedWhy::Closed => words::missed(title),
            MissedWhy::Busy => words::missed_busy(title, computer, GRACE.num_minutes()),
            MissedWhy::CannotWake => words::missed_cannot_wake(title, computer),
            MissedWhy::NotAwake => words::missed_not_awake(title, computer, GRACE.num_minutes()),
            MissedWhy::FreeComputer => {
                words::missed_free_computer(title, computer, GRACE.num_minutes())
            }
        };
        match missed {
            Ok(true) => self.tell_run(
                schedule,
                &words::missed_title(),
                &body,
                AwayRun::of(schedule, due, AwayWhat::Missed(why)),
            ),
            Ok(false) => {}
            Err(err) => tracing::warn!(error = %err, "a missed run could not be saved"),
        }
    }

    /// Whether the schedule's computer is still on a task (or has messages waiting to go
    /// first), so a run now would have to wait.
    async fn computer_busy(&self, schedule: &Schedule) -> bool {
        let conversations = &self.shared.conversations;
        match conversations.current(&schedule.machine_id).await {
            Ok(c) => conversations.task_under_way(&c) || !c.waiting.is_empty(),
            // Sent, it would meet the same problem and say so.
            Err(_) => false,
        }
    }

    /// Sends one run of `schedule` for due time `due_at`, unless the limits say no; holds it
    /// while the computer's task before it runs.
    pub(super) async fn launch(&self, schedule: &Schedule, due_at: DateTime<Utc>) {
        let outcome = match self.send(schedule, due_at).await {
            Ok(Some(outcome)) => outcome,
            Ok(None) => return,
            Err(err) => Outcome::NotSent {
                reason: Problem::from(&err),
            },
        };
        let due = to_ms(due_at);
        match &outcome {
            Outcome::Skipped { reason } => {
                let shown = UiError::from(reason);
                let run = AwayRun::of(schedule, due, AwayWhat::NotRun(*reason));
                self.tell_run(schedule, &shown.title, &shown.detail, run);
            }
            Outcome::NotSent { reason } => {
                let shown = UiError::from(reason);
                let run = AwayRun::of(schedule, due, AwayWhat::NotRun(*reason));
                self.tell_run(schedule, &words::not_sent_title(), &shown.detail, run);
            }
            _ => {}
        }
        self.record(&schedule.id, due_at, outcome);
    }

    /// What the run did; `None` when it is held for the computer (the schedule's one held
    /// run, due at `due_at`, in place of any older one), or missed as its computer cannot
    /// wake.
    async fn send(&self, schedule: &Schedule, due_at: DateTime<Utc>) -> AppResult<Option<Outcome>> {
        let active = self.shared.connection.active().await?;
        if active.scope != schedule.scope {
            return Ok(Some(Outcome::Skipped {
                reason: Problem::new(UiCode::ScheduleOtherService),
            }));
        }
        let busy = self.computer_busy(schedule).await;
        // Sent only to a computer that is awake (or that the task itself starts): one still
        // waking is waited for, within the grace period, as a busy one is.
        let ready = if busy {
            Readiness::Ready
        } else {
            self.computer_readiness(schedule).await
        };
        if ready == Readiness::CannotWake {
            self.miss(schedule, to_ms(due_at), MissedWhy::CannotWake);
            return Ok(None);
        }
        if busy || ready != Readiness::Ready {
            self.write(|book| {
                if let Some(s) = book.get_mut(&schedule.id) {
                    s.held = Some(to_ms(due_at));
                    s.held_for_wake = !busy;
                }
            })?;
            return Ok(None);
        }
        // The client's own hourly budget is the service's limit; a run it cannot pay for is
        // skipped rather than left to wait or fail. Checked as it starts, so a held run is
        // checked when it leaves the hold.
        if active.client.budget_remaining(Limit::Messages) == 0 {
            return Ok(Some(Outcome::Skipped {
                reason: Problem::new(UiCode::ScheduleHourlyLimit),
            }));
        }
        let conversations = &self.shared.conversations;
        let conversation = conversations.current(&schedule.machine_id).await?;
        // A task that began since the look above: the conversation holds the run briefly.
        let held = conversations.task_under_way(&conversation);
        conversations
            .run_next(SendRequest {
                conversation_id: conversation.id.clone(),
                text: schedule.text.clone(),
                // Sent with the run, so it is followed over the poll that reports cost and
                // stopped at the cap like any capped task (`spending_cap.rs`).
                cap_usd: schedule.cap_usd,
                ..SendRequest::default()
            })
            .await?;
        Ok(Some(Outcome::Started {
            conversation_id: conversation.id,
            held,
        }))
    }

    fn record(&self, id: &str, due_at: DateTime<Utc>, outcome: Outcome) {
        let at = to_ms(self.now());
        let saved = self.write(|book| {
            if let Some(s) = book.get_mut(id) {
                s.last = Some(LastRun {
                    due_at: to_ms(due_at),
                    at,
                    outcome,
                });
            }
        });
        if let Err(err) = saved {
            tracing::warn!(error = %err, "a schedule's last run could not be saved");
        }
    }

    /// Runs under way whose task ended since the last look: the schedule says how, and the
    /// person hears of it (in the digest when away since it started). Whether a run is still
    /// under way: going, held, or waiting in its conversation's line; one waiting for the
    /// person's answer is not, as it waits for them.
    fn note_ends(&self) -> bool {
        let (started, held): (Vec<(Schedule, LastRun, String, bool)>, bool) = self.read(|book| {
            let started = book
                .schedules
                .iter()
                .filter_map(|s| match &s.last {
                    Some(
                        last @ LastRun {
                            outcome:
                                Outcome::Started {
                                    conversation_id,
                                    held,
                                },
                            ..
                        },
                    ) => Some((s.clone(), last.clone(), conversation_id.clone(), *held)),
                    _ => None,
                })
                .collect();
            (started, book.schedules.iter().any(|s| s.held.is_some()))
        });
        let mut under_way = held;
        let store = self.shared.conversations.store();
        for (schedule, last, conversation_id, held) in started {
            let Ok(conversation) = store.get(&conversation_id) else {
                continue;
            };
            let still_held = conversation
                .waiting
                .iter()
                .any(|w| w.request.text == schedule.text);
            if held && still_held {
                under_way = true;
                continue;
            }
            if held {
                // It left the line, so it started: from now on its conversation's end is its own.
                self.set_outcome(
                    &schedule.id,
                    Outcome::Started {
                        conversation_id,
                        held: false,
                    },
                );
                under_way = true;
                continue;
            }
            let away = self.away_since(Some(last.at));
            if conversation.status == TaskStatus::NeedsApproval {
                if away {
                    let what = AwayWhat::Waiting {
                        conversation_id: conversation_id.clone(),
                    };
                    self.keep_for_digest(AwayRun::of(&schedule, last.due_at, what));
                }
                continue;
            }
            if conversation.status.is_active() {
                under_way = true;
                continue;
            }
            let status = conversation.status;
            self.set_outcome(
                &schedule.id,
                Outcome::Ended {
                    conversation_id: conversation_id.clone(),
                    status,
                },
            );
            if away {
                let what = AwayWhat::Ended {
                    conversation_id,
                    status,
                };
                self.keep_for_digest(AwayRun::of(&schedule, last.due_at, what));
            } else {
                self.shared.notify.tell(
                    &schedule,
                    &words::ended_title(&schedule.title),
                    &words::ended(status, &schedule.machine_name),
                );
            }
        }
        under_way
    }

    fn set_outcome(&self, id: &str, outcome: Outcome) {
        let saved = self.write(|book| {
            if let Some(last) = book.get_mut(id).and_then(|s| s.last.as_mut()) {
                last.outcome = outcome;
            }
        });
        if let Err(err) = saved {
            tracing::warn!(error = %err, "a schedule's last run could not be saved");
        }
    }
}
