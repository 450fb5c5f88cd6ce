//! Starting a task without losing its message or sending it twice.
//!
//! A message starts work, so it is never resent blindly. A send that gets no answer (a 5xx, a
//! connection that broke after it opened, a timeout, an answer that cannot be read) leaves it
//! unknown whether the service took the message. The machine's current conversation tells:
//! the follower reads it (`GET /v1/agents/context`) before the first send, and again after a
//! send without an answer. The service got the message when, among the lines added since the
//! first read, a person's line has the same words; then the task is the current session's and
//! is followed there, with no second send. Otherwise the follower says "Sending again…" (a
//! [`TaskUpdate::Status`] whose `about` is [`StatusKind::Resending`]) and sends again, up to
//! [`SENDS`] sends in all, with backoff. If the service still has not taken it, or refuses it
//! when sent again, the follow ends with [`Error::NotSent`] (code `message_not_sent`): the app
//! keeps the text and offers to send it again.
//!
//! The same words sent earlier (a person asking for the same task again) are not mistaken for
//! this send: only lines added after the first read count. The conversation grows only at its
//! end, and the read returns its last [`CONTEXT_LINES`] lines, so the oldest may fall out: the
//! added lines are those after the longest tail of the first read that starts the second. A
//! window full of the very same exchange repeated cannot be told apart from no change; there a
//! taken message may be sent again.
//!
//! The second read waits a backoff first, as the service may record what it took a moment
//! later. A send that timed out here but that the service handles only after that read would
//! still be sent twice: messages take no idempotency key, so nothing closer is possible.
//!
//! [`TaskUpdate::Status`]: crate::TaskUpdate::Status

use std::time::Duration;

use crate::client::{Client, ClientConfig};
use crate::error::{Error, Result};
use crate::events::StatusKind;
use crate::messages::{MessageOutcome, MessageRequest, MessageStream};
use crate::sessions::{ContextMessage, ContextRole};
use crate::task_update::TaskUpdate;

use super::reconnect::Outage;
use super::Transport;

/// Sends of one message, the first included.
pub(crate) const SENDS: u32 = 4;

/// Lines of the conversation read around a send.
pub(crate) const CONTEXT_LINES: u32 = 50;

/// What the person sees while a message is sent again.
pub(crate) fn resending() -> TaskUpdate {
    TaskUpdate::Status {
        text: "Sending again…".into(),
        about: Some(StatusKind::Resending),
    }
}

/// What a send brought back.
pub(crate) enum Sent {
    Stream(Box<MessageStream>),
    Started(crate::messages::MessageStarted),
    Reply(String),
}

/// Sends `request` once.
pub(crate) async fn send(
    client: &Client,
    request: &MessageRequest,
    transport: Transport,
) -> Result<Sent> {
    Ok(match transport {
        Transport::Stream => {
            let stream = client.messages().stream(request).await?;
            match stream.reply() {
                Some(text) => Sent::Reply(text.to_owned()),
                None => Sent::Stream(Box::new(stream)),
            }
        }
        Transport::Poll => match client.messages().send(request).await? {
            MessageOutcome::Reply { text } => Sent::Reply(text),
            MessageOutcome::Started(started) => Sent::Started(started),
        },
    })
}

/// Whether the service may have taken a message whose send failed with `err`. A connection
/// that never opened, a refusal (4xx, 429) and bad input took nothing.
pub(crate) fn unsure(err: &Error) -> bool {
    match err {
        Error::Network(e) => !e.is_connect(),
        Error::StreamCut | Error::BadResponse { .. } => true,
        Error::Api(api) => api.status >= 500,
        _ => false,
    }
}

/// The lines of `after` added since `before` was read (see the module doc).
pub(crate) fn added<'a>(
    before: &[ContextMessage],
    after: &'a [ContextMessage],
) -> &'a [ContextMessage] {
    (0..=before.len())
        .map(|dropped| &before[dropped..])
        .find(|tail| after.starts_with(tail))
        .map_or(after, |tail| &after[tail.len()..])
}

/// One message on its way: what was said before it, and how its sends went.
pub(crate) struct Delivery {
    pub request: MessageRequest,
    pub transport: Transport,
    pub machine_id: String,
    /// What the conversation held before the first send; `None` when it could not be read,
    /// which never stops a send (the makers' client sends without reading it at all).
    before: Option<Vec<ContextMessage>>,
    sends: u32,
    last: Option<Error>,
    backoff: Outage,
}

impl Delivery {
    /// Reads the conversation before the first send. `None` without a machine: there is no
    /// conversation to read, and a send without an answer ends the start as it failed.
    pub(crate) async fn prepare(
        client: &Client,
        request: &MessageRequest,
        transport: Transport,
    ) -> Result<Option<Self>> {
        let Some(machine_id) = request.machine_id.clone() else {
            return Ok(None);
        };
        let before = match client.sessions().context(&machine_id, CONTEXT_LINES).await {
            Ok(context) => Some(context.messages),
            Err(err) => {
                tracing::info!(error = %err, "the conversation could not be read before a send; sending anyway");
                None
            }
        };
        Ok(Some(Self {
            request: request.clone(),
            transport,
            machine_id,
            before,
            sends: 0,
            last: None,
            backoff: Outage::default(),
        }))
    }

    /// Notes a send that got no answer; how long to wait before reading the conversation
    /// (the service may need a moment to record what it took).
    pub(crate) fn unanswered(&mut self, err: Error, config: &ClientConfig) -> Duration {
        self.sends += 1;
        let wait = self.backoff.failed(&err, config);
        self.last = Some(err);
        wait
    }

    /// Whether the conversation read after a failed send holds this message.
    pub(crate) fn arrived(&self, after: &[ContextMessage]) -> bool {
        let words = self.request.message.trim();
        let said =
            |line: &ContextMessage| line.role == ContextRole::User && line.content.trim() == words;
        match &self.before {
            Some(before) => added(before, after).iter().any(said),
            // Without the conversation as it was, what is new cannot be told apart from what
            // was said before: the message counts as taken when it is the last thing the person
            // said, so a send is never repeated on a guess (a task twice costs twice).
            None => after
                .iter()
                .rev()
                .find(|line| line.role == ContextRole::User)
                .is_some_and(said),
        }
    }

    /// Whether another send is allowed.
    pub(crate) fn may_send_again(&self) -> bool {
        self.sends < SENDS
    }

    /// The end of a message that was not taken; `refused` is the answer to the last send when
    /// the service refused it outright.
    pub(crate) fn not_sent(mut self, refused: Option<Error>) -> Error {
        let sends = self.sends + u32::from(refused.is_some());
        let last = refused
            .or_else(|| self.last.take())
            .unwrap_or(Error::StreamCut);
        Error::NotSent {
            sends,
            last: Box::new(last),
        }
    }

    /// The failure of the last send, to report if the task cannot be found after all.
    pub(crate) fn take_last(&mut self) -> Option<Error> {
        self.last.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(text: &str) -> ContextMessage {
        ContextMessage {
            role: ContextRole::User,
            content: text.into(),
        }
    }

    fn agent(text: &str) -> ContextMessage {
        ContextMessage {
            role: ContextRole::Assistant,
            content: text.into(),
        }
    }

    #[test]
    fn only_lines_added_after_the_first_read_count() {
        let before = vec![
            user("Weather in Oslo"),
            agent("Sunny"),
            user("Weather in Oslo"),
        ];
        // Nothing new: the earlier asks of the same words are not this send.
        assert!(added(&before, &before).is_empty());
        // The running task's answer and this message came in.
        let after = [before.clone(), vec![agent("Rain"), user("Weather in Oslo")]].concat();
        assert_eq!(
            added(&before, &after),
            &[agent("Rain"), user("Weather in Oslo")]
        );
        // The window slid: the two oldest lines fell out.
        let slid = [&before[2..], &[agent("Rain"), user("Weather in Oslo")]].concat();
        assert_eq!(
            added(&before, &slid),
            &[agent("Rain"), user("Weather in Oslo")]
        );
        // Another conversation altogether (rotated elsewhere): all of it is new.
        let rotated = vec![user("Weather in Lima")];
        assert_eq!(added(&before, &rotated), rotated.as_slice());
        assert_eq!(added(&[], &rotated), rotated.as_slice());
    }

    #[test]
    fn a_send_is_unsure_only_when_the_service_may_have_taken_it() {
        use crate::error::{ApiError, InputError, Operation};
        let answer = |status| {
            Error::from(ApiError::from_response(
                Operation::Message,
                status,
                None,
                String::new(),
            ))
        };
        assert!(unsure(&answer(500)));
        assert!(unsure(&answer(503)));
        assert!(unsure(&Error::StreamCut));
        assert!(!unsure(&answer(429)));
        assert!(!unsure(&answer(402)));
        assert!(!unsure(&answer(400)));
        assert!(!unsure(&Error::Input(InputError::EmptyFile)));
    }
}
