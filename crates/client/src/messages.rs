//! `POST /v1/agents/message`: send a task, either returning at once (`wait: false`) or as an
//! event stream (`wait: true`). Both start work, so neither is ever resent blindly; to follow
//! a task to its end use [`crate::TaskFollower`], which also sends a message again when, and
//! only when, the service did not take it.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_util::Stream;
use serde::{Deserialize, Serialize};

use crate::budget::Limit;
use crate::client::Client;
use crate::error::{Error, InputError, Operation, Result};
use crate::events::AgentEvent;
use crate::executor::Call;
use crate::sse::{SseEvent, SseParser};
use crate::uploads::Upload;

/// `options` of a message.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct MessageOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record_trajectory: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(type = Option<std::collections::HashMap<String, specta_typescript::Unknown>>))]
    pub inputs: Option<serde_json::Map<String, serde_json::Value>>,
}

/// One check of `success_criteria`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct CriterionCheck {
    pub id: String,
    pub check: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_evidence: Option<bool>,
}

/// A sentence or a list of checks (messages' `success_criteria`, judge's `criteria`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(untagged)]
pub enum Criteria {
    Sentence(String),
    Checks(Vec<CriterionCheck>),
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct MessageRequest {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Upload>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<MessageOptions>,
    #[serde(
        default,
        rename = "output_schema",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
    pub output_schema: Option<serde_json::Value>,
    #[serde(
        default,
        rename = "success_criteria",
        skip_serializing_if = "Option::is_none"
    )]
    pub success_criteria: Option<Criteria>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "specta", specta(type = Option<std::collections::HashMap<String, specta_typescript::Unknown>>))]
    pub inputs: Option<serde_json::Map<String, serde_json::Value>>,
}

impl MessageRequest {
    pub fn new(message: impl Into<String>, machine_id: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            machine_id: Some(machine_id.into()),
            ..Self::default()
        }
    }

    pub(crate) fn check(&self) -> Result<()> {
        if self.message.trim().is_empty() {
            return Err(InputError::Invalid {
                field: "message",
                reason: "is empty".into(),
            }
            .into());
        }
        if let Some(missing) = self.attachments.iter().find(|a| a.file_id.is_none()) {
            return Err(InputError::Invalid {
                field: "attachments",
                reason: format!("{} has no fileId", missing.name),
            }
            .into());
        }
        Ok(())
    }

    fn body(&self, wait: bool) -> serde_json::Value {
        let mut body = serde_json::to_value(self).unwrap_or_default();
        if let Some(object) = body.as_object_mut() {
            object.insert("wait".into(), wait.into());
        }
        body
    }
}

/// A task started (`202`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct MessageStarted {
    pub session_id: String,
    #[serde(default)]
    pub machine_id: Option<String>,
    /// The message joined a running task.
    #[serde(default)]
    pub queued: bool,
    #[serde(default)]
    pub turn_id: Option<String>,
}

/// The answer to `wait: false`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(untagged)]
pub enum MessageOutcome {
    Started(MessageStarted),
    /// Handled without starting a task (`200 { error: <reply> }`): a plain reply.
    Reply {
        #[serde(rename = "error")]
        text: String,
    },
}

pub struct Messages<'c> {
    client: &'c Client,
}

impl Client {
    pub fn messages(&self) -> Messages<'_> {
        Messages { client: self }
    }
}

impl Messages<'_> {
    /// Sends with `wait: false`; follow the session with the events poll.
    pub async fn send(&self, request: &MessageRequest) -> Result<MessageOutcome> {
        request.check()?;
        let call = Call::post(Operation::Message, "/v1/agents/message")
            .json(&request.body(false))?
            .limit(Limit::Messages);
        self.client.call(call).await
    }

    /// Sends with `wait: true` and returns the event stream. Dropping it closes the
    /// connection.
    pub async fn stream(&self, request: &MessageRequest) -> Result<MessageStream> {
        request.check()?;
        let call = Call::post(Operation::Message, "/v1/agents/message")
            .json(&request.body(true))?
            .limit(Limit::Messages)
            .streaming();
        let response = self.client.send(call).await?;
        let is_sse = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if !is_sse {
            let bytes = response.bytes().await.map_err(Error::Network)?;
            return match serde_json::from_slice::<MessageOutcome>(&bytes) {
                Ok(MessageOutcome::Reply { text }) => Ok(MessageStream::replied(text)),
                _ => Err(Error::bad_response("expected an event stream", &bytes)),
            };
        }
        Ok(MessageStream::new(Box::pin(response.bytes_stream())))
    }
}

type ByteStream = Pin<Box<dyn Stream<Item = reqwest::Result<Bytes>> + Send>>;

/// The frames of one `wait: true` message, ending at `[DONE]`.
///
/// A connection that ends before `[DONE]` yields [`Error::StreamCut`]; a frame that is not
/// JSON yields [`Error::BadResponse`] and the stream goes on.
pub struct MessageStream {
    body: Option<ByteStream>,
    parser: SseParser,
    parsed: Vec<SseEvent>,
    pending: VecDeque<SseEvent>,
    reply: Option<String>,
    done: bool,
}

impl MessageStream {
    fn new(body: ByteStream) -> Self {
        Self {
            body: Some(body),
            parser: SseParser::new(),
            parsed: Vec::new(),
            pending: VecDeque::new(),
            reply: None,
            done: false,
        }
    }

    fn replied(text: String) -> Self {
        Self {
            body: None,
            parser: SseParser::new(),
            parsed: Vec::new(),
            pending: VecDeque::new(),
            reply: Some(text),
            done: true,
        }
    }

    /// Set when the service answered with a plain reply instead of starting a task.
    pub fn reply(&self) -> Option<&str> {
        self.reply.as_deref()
    }
}

impl Stream for MessageStream {
    type Item = Result<AgentEvent>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(frame) = this.pending.pop_front() {
                if frame.is_done() {
                    this.done = true;
                    this.pending.clear();
                    this.body = None;
                    return Poll::Ready(None);
                }
                let decoded = serde_json::from_str::<AgentEvent>(&frame.data)
                    .map_err(|e| Error::bad_response(e, frame.data.as_bytes()));
                return Poll::Ready(Some(decoded));
            }
            if this.done {
                return Poll::Ready(None);
            }
            let Some(body) = this.body.as_mut() else {
                return Poll::Ready(None);
            };
            match body.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => {
                    this.parser.feed(&chunk, &mut this.parsed);
                    this.pending.extend(this.parsed.drain(..));
                }
                Poll::Ready(Some(Err(err))) => {
                    this.done = true;
                    this.body = None;
                    return Poll::Ready(Some(Err(Error::Network(err))));
                }
                Poll::Ready(None) => {
                    this.done = true;
                    this.body = None;
                    return Poll::Ready(Some(Err(Error::StreamCut)));
                }
            }
        }
    }
}
