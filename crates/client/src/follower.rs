//! [`TaskFollower`]: follows one task to its end as a `Stream` of [`TaskUpdate`]s.
//!
//! It reads the event stream of a `wait: true` message, or the events poll, and switches from
//! the first to the second when the stream breaks (cut, network error, malformed frame). The
//! poll is the service's record of the turn, so after a switch it is read from the start of
//! the turn (or from the saved cursor) and what the stream already delivered is skipped:
//! assistant messages, narration and approvals by id, the other replayable events (progress,
//! tool calls, tool errors) by lining up their fingerprints (see `follower_updates`). Each
//! assistant message is yielded exactly once, whole.
//!
//! A send without an answer (5xx, broken connection, timeout) loses no message and sends none
//! twice (see `follower_delivery`): the conversation says whether the service took it, and
//! the message is sent again ("Sending again…") only when it did not.
//!
//! A lost connection never ends the follow (see `follower_reconnect`): the follower says it
//! is reconnecting once and keeps trying, with capped backoff, until the service answers; only
//! the service's own answer (an error event, a failed turn, a refusal such as 401 or 404)
//! ends a task badly. One thing does end it without an answer: a task whose session cannot be
//! learned (its stream cut before naming it, or its send unanswered though taken) when neither
//! a turn id nor the caller (`start_in`) names it. Then the follow ends with
//! [`Error::UpdatesLost`]: a dropped stream is not a completion, and the agent may still be
//! working.
//!
//! The service says what a task has cost only on the poll: while the stream is read, the
//! poll is looked at now and then for the task's figures alone (see `follower_cost`), so a
//! streamed task yields [`TaskUpdate::Usage`] as it runs, like a polled one.
//!
//! [`FollowerState`] holds all of that and is `Serialize`: an app that saves it after each
//! update and restarts resumes with [`TaskFollower::resume`] without repeats.
//! Dropping the follower closes its connection.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use futures_util::stream::BoxStream;
use futures_util::{Stream, StreamExt};
use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::error::{Error, Result};
use crate::events::{AgentEvent, EventsPage, SessionStatus, TaskUsage};
use crate::follower_updates::{apply_event, Delivered, Replay, TextBuffers};
use crate::messages::{MessageRequest, MessageStream};
pub use crate::task_update::{TaskFailure, TaskUpdate};
use crate::turns::{Turn, TurnStatus};

#[path = "follower_reconnect.rs"]
mod reconnect;
use reconnect::{is_passing, Outage};

#[path = "follower_delivery.rs"]
mod delivery;
use delivery::{Delivery, Sent};

#[path = "follower_poll.rs"]
mod poll;

#[path = "follower_cost.rs"]
mod cost;

/// What the app persists to resume following after a restart.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct FollowerState {
    /// `None` only while a stream has not said which session it is.
    pub session_id: Option<String>,
    /// The poll cursor; `None` until the first poll (then the poll starts at the turn's start).
    pub cursor: Option<String>,
    pub turn_id: Option<String>,
    /// The conversation's name, from `data-session`.
    #[serde(default)]
    pub title: Option<String>,
    /// The computer the task runs on, when known: where the conversation's history is read
    /// at the task's end.
    #[serde(default)]
    pub machine_id: Option<String>,
    /// What was already yielded, so a replay from the turn's start repeats nothing.
    #[serde(default)]
    pub delivered: Delivered,
    /// The follow reached the end of the task.
    #[serde(default)]
    pub finished: bool,
}

/// Follows one task; see the module doc.
pub struct TaskFollower {
    updates: BoxStream<'static, Result<TaskUpdate>>,
    state: Arc<Mutex<FollowerState>>,
}

/// How to follow a new task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// `wait: true`: the event stream, falling back to the poll.
    Stream,
    /// `wait: false` and the events poll.
    Poll,
}

impl TaskFollower {
    /// Sends `request` and follows the task it starts, knowing no session it may run in: see
    /// [`start_in`](Self::start_in).
    pub async fn start(
        client: &Client,
        request: &MessageRequest,
        transport: Transport,
    ) -> Result<Self> {
        Self::start_in(client, request, transport, None).await
    }

    /// Sends `request` and follows the task it starts.
    ///
    /// An `Err` here means the message was not sent: nothing reached the service (the
    /// conversation read before the send failed, the connection never opened, bad input) or
    /// the service refused it (its code says why). A send without an answer is not an `Err`:
    /// the follower finds out whether the service took the message and, if not, sends it again,
    /// first yielding `Status { text: "Sending again…", about: Some(StatusKind::Resending) }`;
    /// if it still was not taken, the follow ends with an error whose code is
    /// `MessageNotSent`. See `follower_delivery` for the rule, which tells a message sent
    /// twice on purpose (the same words as an earlier task) from one sent twice by mistake.
    /// (A request without a `machine_id` has no conversation to check: a send without an
    /// answer is returned as the `Err` it was, as before.)
    ///
    /// `last_session` is the session this app last learned for the machine's current
    /// conversation: the answer of `sessions().new`, or an earlier task's
    /// [`TaskUpdate::Started`]. The service keeps one current session per machine on the `api`
    /// channel and every message lands in it, so a new task runs there, unless another client
    /// of the account started a new conversation on that machine since (then the follow reads
    /// that older session, and nothing here can tell). It is used only when the task cannot
    /// name its session itself: its stream broke before `data-session` and no turn id is
    /// known, or a send got no answer but the conversation shows the service took it. Without
    /// it the follow ends there with [`Error::UpdatesLost`] (code `UpdatesLost`), holding the
    /// cut: the agent may still be working, and the conversation's history
    /// (`sessions().context`) shows what it did when it is read again. The service's list of
    /// sessions is never read: its answer's shape is not published.
    ///
    /// Not for a message sent while a task runs (steering): it joins that task, and its own
    /// stream would replay the task's events a second time. Send it with
    /// `client.messages().send` and keep reading the running task's follower.
    pub async fn start_in(
        client: &Client,
        request: &MessageRequest,
        transport: Transport,
        last_session: Option<&str>,
    ) -> Result<Self> {
        request.check()?;
        let state = FollowerState {
            machine_id: request.machine_id.clone(),
            ..FollowerState::default()
        };
        let mut engine = Engine::new(client.clone(), state);
        engine.last_session = last_session.map(str::to_owned);
        let delivery = Delivery::prepare(client, request, transport).await?;
        match delivery::send(client, request, transport).await {
            Ok(sent) => engine.on_sent(sent),
            Err(err) => match delivery {
                Some(mut delivery) if delivery::unsure(&err) => {
                    engine.pause = Some(delivery.unanswered(err, client.config()));
                    engine.mode = Mode::Confirm(Box::new(delivery));
                }
                _ => return Err(err),
            },
        }
        Ok(engine.into_follower())
    }

    /// Resumes following from a saved state (after an app restart), through the poll.
    pub fn resume(client: &Client, state: FollowerState) -> Self {
        let finished = state.finished || state.session_id.is_none();
        // Without a cursor the poll starts at the turn's start: line it up with what a
        // stream delivered before the app stopped.
        let replay = if state.cursor.is_none() {
            Replay::from_start(&state.delivered)
        } else {
            Replay::default()
        };
        let mut engine = Engine::new(client.clone(), state);
        engine.replay = replay;
        engine.mode = if finished { Mode::Done } else { Mode::Poll };
        engine.into_follower()
    }

    /// Follows the current task of an existing session from its start.
    pub fn follow_session(client: &Client, session_id: &str) -> Self {
        Self::resume(
            client,
            FollowerState {
                session_id: Some(session_id.to_owned()),
                ..FollowerState::default()
            },
        )
    }

    /// The state to save now; reflects every update yielded so far.
    pub fn state(&self) -> FollowerState {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Stream for TaskFollower {
    type Item = Result<TaskUpdate>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Self::Item>> {
        self.updates.poll_next_unpin(cx)
    }
}

enum Mode {
    /// A send got no answer: the conversation says whether the service took the message.
    Confirm(Box<Delivery>),
    /// The service did not take it: send it again.
    Resend(Box<Delivery>),
    Stream(Box<MessageStream>),
    /// The stream broke before naming its session: find it, then poll.
    Locate,
    Poll,
    /// The poll said the task ended; the turn result is read next.
    Finishing(Box<PollEnd>),
    Done,
}

/// What the last poll said about the end of the task.
struct PollEnd {
    idle: bool,
    text: String,
    usage: Option<TaskUsage>,
}

/// Longest wait for a finished task's turn to leave `finalizing`.
const FINAL_TURN_WAIT: Duration = Duration::from_secs(60);

/// Lines of history read at a task's end.
const HISTORY_LINES: u32 = 20;

/// Looks at a turn that does not name its session yet before giving up on finding it.
const TURN_LOOKS: u32 = 6;

struct Engine {
    client: Client,
    shared: Arc<Mutex<FollowerState>>,
    state: FollowerState,
    mode: Mode,
    queue: VecDeque<TaskUpdate>,
    buffers: TextBuffers,
    /// Where a poll read from the turn's start stands against what was yielded before.
    replay: Replay,
    failure: Option<TaskFailure>,
    last_usage: Option<(Option<TaskUsage>, Option<TaskUsage>)>,
    outage: Outage,
    /// Waited before the next request, once the queued updates are handed out.
    pause: Option<Duration>,
    /// Why the stream broke: reported if its session cannot be found.
    cut: Option<Error>,
    /// The machine's current session as the caller last knew it (`start_in`).
    last_session: Option<String>,
    turn_looks: u32,
    /// The error that ends the follow, handed out after the queued updates.
    fatal: Option<Error>,
    /// While the stream is read: when to look at the task's cost next, and where the last
    /// look stopped (`follower_cost`).
    next_cost_look: Option<tokio::time::Instant>,
    cost_cursor: Option<String>,
}

impl Engine {
    fn new(client: Client, state: FollowerState) -> Self {
        Self {
            client,
            shared: Arc::new(Mutex::new(state.clone())),
            state,
            mode: Mode::Done,
            queue: VecDeque::new(),
            buffers: TextBuffers::default(),
            replay: Replay::default(),
            failure: None,
            last_usage: None,
            outage: Outage::default(),
            pause: None,
            cut: None,
            last_session: None,
            turn_looks: 0,
            fatal: None,
            next_cost_look: None,
            cost_cursor: None,
        }
    }

    fn into_follower(self) -> TaskFollower {
        let state = self.shared.clone();
        let updates = futures_util::stream::unfold(self, |mut engine| async move {
            engine.next().await.map(|item| (item, engine))
        })
        .boxed();
        TaskFollower { updates, state }
    }

    /// Follows what a send started.
    fn on_sent(&mut self, sent: Sent) {
        match sent {
            Sent::Reply(text) => self.finish_with_reply(text),
            Sent::Stream(stream) => self.mode = Mode::Stream(stream),
            Sent::Started(started) => {
                self.session_known(started.session_id, started.turn_id, started.queued);
                self.mode = Mode::Poll;
            }
        }
    }

    /// After a send without an answer: follows the task if the service took the message,
    /// otherwise sends it again or, when no send is left, ends with `NotSent`. A failed read
    /// leaves the mode as it is, to be tried again like any lost connection.
    async fn confirm(&mut self) -> Result<()> {
        let Mode::Confirm(delivery) = &self.mode else {
            return Ok(());
        };
        let machine_id = delivery.machine_id.clone();
        let context = self
            .client
            .sessions()
            .context(&machine_id, delivery::CONTEXT_LINES)
            .await?;
        self.outage.ended();
        let Mode::Confirm(mut delivery) = std::mem::replace(&mut self.mode, Mode::Done) else {
            return Ok(());
        };
        if delivery.arrived(&context.messages) {
            // Taken: the task runs in the machine's current session, found as after a cut stream.
            self.cut = delivery.take_last();
            self.mode = Mode::Locate;
        } else if delivery.may_send_again() {
            self.queue.push_back(delivery::resending());
            self.mode = Mode::Resend(delivery);
        } else {
            self.end_with(delivery.not_sent(None));
        }
        Ok(())
    }

    /// Sends the message again; a send without an answer is confirmed again, a refusal ends
    /// the follow with `NotSent`.
    async fn resend(&mut self) {
        let Mode::Resend(mut delivery) = std::mem::replace(&mut self.mode, Mode::Done) else {
            return;
        };
        match delivery::send(&self.client, &delivery.request, delivery.transport).await {
            Ok(sent) => self.on_sent(sent),
            Err(err) if delivery::unsure(&err) => {
                self.pause = Some(delivery.unanswered(err, self.client.config()));
                self.mode = Mode::Confirm(delivery);
            }
            Err(err) => self.end_with(delivery.not_sent(Some(err))),
        }
    }

    fn finish_with_reply(&mut self, text: String) {
        self.queue.push_back(TaskUpdate::Replied { text });
        self.state.finished = true;
        self.mode = Mode::Done;
    }

    fn session_known(&mut self, session_id: String, turn_id: Option<String>, queued: bool) {
        if turn_id.is_some() {
            self.state.turn_id = turn_id;
        }
        self.state.session_id = Some(session_id.clone());
        self.queue.push_back(TaskUpdate::Started {
            session_id,
            turn_id: self.state.turn_id.clone(),
            queued,
            title: self.state.title.clone(),
        });
    }

    /// Publishes the state the app may save; called before each update is handed out.
    fn publish(&self) {
        *self.shared.lock().unwrap_or_else(|e| e.into_inner()) = self.state.clone();
    }

    async fn next(&mut self) -> Option<Result<TaskUpdate>> {
        loop {
            if let Some(update) = self.queue.pop_front() {
                self.publish();
                return Some(Ok(update));
            }
            if let Some(fatal) = self.fatal.take() {
                self.publish();
                return Some(Err(fatal));
            }
            if let Some(wait) = self.pause.take() {
                tokio::time::sleep(wait).await;
            }
            let step = match &mut self.mode {
                Mode::Done => {
                    self.publish();
                    return None;
                }
                Mode::Finishing(_) => self.finishing().await,
                Mode::Confirm(_) => self.confirm().await,
                Mode::Resend(_) => {
                    self.resend().await;
                    Ok(())
                }
                Mode::Stream(_) => {
                    self.read_stream().await;
                    Ok(())
                }
                Mode::Locate => self.locate_session().await,
                Mode::Poll => self.poll_once().await,
            };
            if let Err(err) = step {
                self.retry_or_end(err);
            }
        }
    }

    /// After a failed request: waits and tries again when the failure is the network's (or
    /// the service's passing trouble), ends the follow otherwise.
    fn retry_or_end(&mut self, err: Error) {
        if !is_passing(&err) {
            return self.end_with(err);
        }
        tracing::debug!(error = %err, "no answer from the service, trying again");
        self.announce(&err);
        self.pause = Some(self.outage.failed(&err, self.client.config()));
    }

    fn announce(&mut self, err: &Error) {
        if self.outage.announce() {
            self.queue.push_back(TaskUpdate::Reconnecting {
                reason: err.to_string(),
            });
        }
    }

    fn end_with(&mut self, err: Error) {
        self.mode = Mode::Done;
        self.fatal = Some(err);
    }

    /// The task's session could not be found: its updates are lost, and the cut says how.
    fn give_up(&mut self) {
        let cut = self.cut.take().unwrap_or(Error::StreamCut);
        self.end_with(Error::UpdatesLost { cut: Box::new(cut) });
    }

    fn on_stream_event(&mut self, event: AgentEvent) {
        match event {
            AgentEvent::Start { turn_id, .. } => {
                if turn_id.is_some() {
                    self.state.turn_id = turn_id;
                }
            }
            AgentEvent::DataSession { data } => {
                if data.title.is_some() {
                    self.state.title = data.title.clone();
                }
                if data.turn_id.is_some() {
                    self.state.turn_id = data.turn_id.clone();
                }
                if let (None, Some(session)) = (&self.state.session_id, data.session()) {
                    let turn = self.state.turn_id.clone();
                    self.session_known(session.to_owned(), turn, false);
                }
            }
            AgentEvent::DataStatus { data } => self.queue.push_back(TaskUpdate::Status {
                text: data.text,
                about: data.kind,
            }),
            other => self.apply(other),
        }
    }

    fn apply(&mut self, event: AgentEvent) {
        let failure = apply_event(
            event,
            &mut self.state.delivered,
            &mut self.buffers,
            &mut self.replay,
            &mut self.queue,
        );
        if failure.is_some() {
            self.failure = failure;
        }
    }
}
