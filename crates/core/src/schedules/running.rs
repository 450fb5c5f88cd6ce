//! Running what is due: one look at the clock (`tick`), sending a due run as an ordinary
//! task or holding it while its computer's task before it runs, and noting how runs ended.
//! Split from `mod.rs`, which keeps the list and its edits.

use super::*;
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
                Ok(true) if late => self.shared.notify.tell(
                    &schedule,
                    &words::missed_title(),
                    &words::missed(&schedule.title),
                ),
                Ok(true) => self.launch(&schedule, at).await,
                Ok(false) => {}
                Err(err) => {
                    tracing::warn!(error = %err, "a due schedule could not be saved; not run")
                }
            }
        }
        self.note_ends();
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
                self.miss_held(&schedule, due);
                continue;
            }
            if self.computer_busy(&schedule).await {
                continue;
            }
            // Out of the hold before it is sent: whatever happens next, never twice.
            let taken = self.write(|book| {
                book.get_mut(&schedule.id)
                    .is_some_and(|s| s.held.take().is_some())
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

    /// A held run too late to start by itself becomes the schedule's missed run.
    fn miss_held(&self, schedule: &Schedule, due: f64) {
        let missed = self.write(|book| {
            let Some(s) = book.get_mut(&schedule.id) else {
                return false;
            };
            s.held = None;
            s.missed = Some(due);
            s.missed_why = MissedWhy::Busy;
            true
        });
        match missed {
            Ok(true) => self.shared.notify.tell(
                schedule,
                &words::missed_title(),
                &words::missed_busy(&schedule.title, &schedule.machine_name, GRACE.num_minutes()),
            ),
            Ok(false) => {}
            Err(err) => tracing::warn!(error = %err, "a missed held run could not be saved"),
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
        match &outcome {
            Outcome::Skipped { reason } => {
                let shown = UiError::from(reason);
                self.shared
                    .notify
                    .tell(schedule, &shown.title, &shown.detail);
            }
            Outcome::NotSent { reason } => {
                let shown = UiError::from(reason);
                self.shared
                    .notify
                    .tell(schedule, &words::not_sent_title(), &shown.detail);
            }
            _ => {}
        }
        self.record(&schedule.id, due_at, outcome);
    }

    /// What the run did; `None` when it is held for the computer (the schedule's one held
    /// run, due at `due_at`, in place of any older one).
    async fn send(&self, schedule: &Schedule, due_at: DateTime<Utc>) -> AppResult<Option<Outcome>> {
        let active = self.shared.connection.active().await?;
        if active.scope != schedule.scope {
            return Ok(Some(Outcome::Skipped {
                reason: Problem::new(UiCode::ScheduleOtherService),
            }));
        }
        if self.computer_busy(schedule).await {
            self.write(|book| {
                if let Some(s) = book.get_mut(&schedule.id) {
                    s.held = Some(to_ms(due_at));
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
    /// person hears of it.
    fn note_ends(&self) {
        let started: Vec<(Schedule, String, bool)> = self.read(|book| {
            book.schedules
                .iter()
                .filter_map(|s| match &s.last {
                    Some(LastRun {
                        outcome:
                            Outcome::Started {
                                conversation_id,
                                held,
                            },
                        ..
                    }) => Some((s.clone(), conversation_id.clone(), *held)),
                    _ => None,
                })
                .collect()
        });
        let store = self.shared.conversations.store();
        for (schedule, conversation_id, held) in started {
            let Ok(conversation) = store.get(&conversation_id) else {
                continue;
            };
            let still_held = conversation
                .waiting
                .iter()
                .any(|w| w.request.text == schedule.text);
            if held && still_held {
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
                continue;
            }
            if conversation.status.is_active() {
                continue;
            }
            let status = conversation.status;
            self.set_outcome(
                &schedule.id,
                Outcome::Ended {
                    conversation_id,
                    status,
                },
            );
            self.shared.notify.tell(
                &schedule,
                &words::ended_title(&schedule.title),
                &words::ended(status, &schedule.machine_name),
            );
        }
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
