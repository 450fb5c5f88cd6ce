//! What a streamed task has cost so far. The service says what a task has cost (`usage`, with
//! `costUsd`) only on the events poll, never on the message's stream, so while a task is read
//! from its stream the poll is asked now and then, without waiting, for the task's figures
//! alone: the person sees "$0.12 so far" however the task is followed. Its events are not
//! read (the stream delivers them), and its cursor is its own, so a later switch to the poll
//! still starts at the turn's start.
//!
//! The look is a courtesy: it never holds up the stream (the stream is read while it waits),
//! a failed one is only logged, and it leaves the poll's hourly budget to the follows that need
//! it (at most one look per `hour / LOOKS_AN_HOUR`, none once a quarter of the budget is left).

use tokio::time::Instant;

use super::*;
use crate::budget::Limit;

/// Looks an hour at most for one task: a fifth of the events poll's budget.
const LOOKS_AN_HOUR: u32 = 240;

impl Engine {
    /// Reads the next frame of the stream; looks at the task's cost when one is due meanwhile.
    pub(super) async fn read_stream(&mut self) {
        let due = self.cost_look_due();
        let Mode::Stream(stream) = &mut self.mode else {
            return;
        };
        // `None`: the time for a look came first (the frame waits in the stream).
        let read = match due {
            Some(at) => tokio::select! {
                frame = stream.next() => Some(frame),
                () = tokio::time::sleep_until(at) => None,
            },
            None => Some(stream.next().await),
        };
        match read {
            None => self.look_at_cost().await,
            Some(Some(Ok(event))) => self.on_stream_event(event),
            // Garbage before the stream named its session or turn cannot have been a part of
            // the turn worth replaying: read on.
            Some(Some(Err(Error::BadResponse { reason, .. })))
                if self.state.session_id.is_none() && self.state.turn_id.is_none() =>
            {
                tracing::debug!(%reason, "skipping a malformed frame before the start");
            }
            Some(Some(Err(err))) => self.stream_broke(Some(err)),
            Some(None) => self.stream_broke(None),
        }
    }

    /// When the next look is due; `None` before the stream named its session.
    fn cost_look_due(&mut self) -> Option<Instant> {
        self.state.session_id.as_ref()?;
        let every = self.client.config().hour / LOOKS_AN_HOUR;
        Some(
            *self
                .next_cost_look
                .get_or_insert_with(|| Instant::now() + every),
        )
    }

    /// One look at the poll for the task's figures; a change is yielded as `Usage`.
    async fn look_at_cost(&mut self) {
        let every = self.client.config().hour / LOOKS_AN_HOUR;
        self.next_cost_look = Some(Instant::now() + every);
        let Some(session_id) = self.state.session_id.clone() else {
            return;
        };
        let budgets = &self.client.inner.budgets;
        if budgets.remaining(Limit::EventPolls) < Limit::EventPolls.per_hour() / 4 {
            tracing::debug!("few progress checks left this hour: the cost waits");
            return;
        }
        let page = match self
            .client
            .events()
            .poll(&session_id, self.cost_cursor.as_deref(), 0)
            .await
        {
            Ok(page) => page,
            Err(err) => {
                tracing::debug!(error = %err, "could not read a streamed task's cost");
                return;
            }
        };
        self.cost_cursor = Some(page.cursor);
        self.note_usage(page.usage, page.session_usage);
    }
}
