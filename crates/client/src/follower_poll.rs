//! The follower's poll side: leaving a broken stream for the events poll, finding the session
//! a stream did not name (from its turn, or the session the caller knew), reading pages of
//! events, and the task's end (its turn's final state and the conversation's history). Apart
//! from `follower.rs`, which sends and reads the stream.

use super::*;

impl Engine {
    /// Leaves the stream for the poll; the poll restarts at the turn's start.
    pub(super) fn stream_broke(&mut self, cause: Option<Error>) {
        if let Some(err) = &cause {
            tracing::debug!(error = %err, "task stream broke, continuing from the poll");
            self.announce(err);
        }
        self.replay = Replay::from_start(&self.state.delivered);
        self.mode = if self.state.session_id.is_some() {
            Mode::Poll
        } else {
            Mode::Locate
        };
        self.cut = cause;
    }

    /// The stream broke before naming its session: the turn knows it, or else it is the
    /// machine's current one, if the caller knew it.
    pub(super) async fn locate_session(&mut self) -> Result<()> {
        let Some(turn_id) = self.state.turn_id.clone() else {
            self.session_from_machine();
            return Ok(());
        };
        let session_id = self.client.turns().get(&turn_id).await?.session_id;
        self.outage.ended();
        match session_id {
            Some(session_id) => {
                self.session_known(session_id, Some(turn_id), false);
                self.mode = Mode::Poll;
            }
            None => {
                self.turn_looks += 1;
                if self.turn_looks >= TURN_LOOKS {
                    self.give_up();
                } else {
                    self.pause = Some(self.client.config().turn_poll_interval);
                }
            }
        }
        Ok(())
    }

    /// Without a turn id, the session is the machine's current one on the `api` channel, where
    /// every message lands: the one the caller last learned, if any. (Another client of the
    /// account may have started a new conversation on the machine since; nothing published
    /// tells, so the hint is trusted.) Without one, the follow ends with the cut.
    fn session_from_machine(&mut self) {
        match self.last_session.take() {
            Some(session_id) => {
                self.session_known(session_id, None, false);
                self.mode = Mode::Poll;
            }
            None => self.give_up(),
        }
    }

    pub(super) async fn poll_once(&mut self) -> Result<()> {
        let Some(session_id) = self.state.session_id.clone() else {
            self.give_up();
            return Ok(());
        };
        let wait = self.client.config().events_wait_secs;
        let page = self
            .client
            .events()
            .poll(&session_id, self.state.cursor.as_deref(), wait)
            .await?;
        self.outage.ended();
        self.on_page(page);
        Ok(())
    }

    fn on_page(&mut self, page: EventsPage) {
        for event in page.events {
            self.apply(event);
        }
        self.state.cursor = Some(page.cursor);
        if page.turn_id.is_some() {
            self.state.turn_id = page.turn_id;
        }
        // A card without an id has nothing to answer.
        if let Some(approval) = page.approval.filter(|a| !a.approval_id.is_empty()) {
            if self.state.delivered.note_approval(&approval.approval_id) {
                self.queue.push_back(TaskUpdate::NeedsApproval { approval });
            }
        }
        self.note_usage(page.usage.clone(), page.session_usage);
        if page.status.is_final() {
            self.mode = Mode::Finishing(Box::new(PollEnd {
                idle: page.status == SessionStatus::Idle,
                text: page.text,
                usage: page.usage,
            }));
        }
    }

    /// Yields the task's figures when the service has some and they changed.
    pub(super) fn note_usage(
        &mut self,
        usage: Option<TaskUsage>,
        session_usage: Option<TaskUsage>,
    ) {
        let usage = (usage, session_usage);
        if (usage.0.is_some() || usage.1.is_some()) && self.last_usage.as_ref() != Some(&usage) {
            self.last_usage = Some(usage.clone());
            self.queue.push_back(TaskUpdate::Usage {
                usage: usage.0,
                session_usage: usage.1,
            });
        }
    }

    /// At the task's end, reads the conversation's recent history: nothing is pushed between
    /// tasks, so this is how what happened elsewhere (a message from another client, an
    /// answer) is heard. Best effort: a failed read is only logged.
    async fn catch_up(&mut self) {
        let Some(machine_id) = self.state.machine_id.clone() else {
            return;
        };
        match self
            .client
            .sessions()
            .context(&machine_id, HISTORY_LINES)
            .await
        {
            Ok(context) => self.queue.push_back(TaskUpdate::History {
                messages: context.messages,
            }),
            Err(err) => tracing::debug!(error = %err, "history unavailable"),
        }
    }

    /// Reads the turn result (again after a lost connection: the mode stays `Finishing`) and
    /// yields the end of the task.
    pub(super) async fn finishing(&mut self) -> Result<()> {
        let turn = match self.state.turn_id.clone() {
            Some(turn_id) => match self.client.turns().wait(&turn_id, FINAL_TURN_WAIT).await {
                Ok(turn) => Some(turn),
                Err(err) if is_passing(&err) => return Err(err),
                Err(err) => {
                    tracing::debug!(error = %err, "turn result unavailable");
                    None
                }
            },
            None => None,
        };
        self.outage.ended();
        if let Mode::Finishing(end) = std::mem::replace(&mut self.mode, Mode::Done) {
            self.finish(*end, turn).await;
        }
        Ok(())
    }

    /// Yields the end of the task; `turn` is its final state, when it could be read.
    async fn finish(&mut self, end: PollEnd, turn: Option<Turn>) {
        let succeeded = match &turn {
            Some(turn) => turn.status == TurnStatus::Succeeded,
            None => end.idle && self.failure.is_none(),
        };
        let failure = (!succeeded).then(|| {
            self.failure.clone().unwrap_or(TaskFailure {
                text: turn
                    .as_ref()
                    .and_then(|t| t.raw_answer.clone())
                    .unwrap_or_else(|| "The task did not finish.".into()),
                code: turn.as_ref().and_then(|t| t.error_code.clone()),
                resets_at: None,
                reason: None,
            })
        });
        // The turn says why it ended; the stream's `error` frame does not.
        let failure = failure.map(|f| TaskFailure {
            reason: f
                .reason
                .or_else(|| turn.as_ref().and_then(|t| t.reason_code.clone())),
            ..f
        });
        self.catch_up().await;
        self.queue.push_back(TaskUpdate::Finished {
            succeeded,
            text: end.text,
            failure,
            turn_id: self.state.turn_id.clone(),
            usage: end.usage,
        });
        self.state.finished = true;
        self.mode = Mode::Done;
    }
}
