//! A message that starts a task is never lost to a failed send: one the service did not take
//! stays in the thread, marked "not sent", and Retry sends the same request again without
//! recording it twice. The client already checks the conversation and sends again while it
//! can ("Sending again…"); what it could not deliver ends here.

use porthole_client::messages::MessageRequest;
use porthole_client::{ErrorCode, TaskFollower, Transport};

use super::{Conversations, SendRequest};
use crate::error::{now_ms, AppError, AppResult, Problem, UiCode};
use crate::machines::needs_start;

impl Conversations {
    /// Starts the task of `req`, already shown in conversation `id`. A message the service did
    /// not take is kept with Retry: the thread says so, so this is not an error to the caller.
    pub(super) async fn start_task(
        &self,
        id: &str,
        request: &MessageRequest,
        req: SendRequest,
    ) -> AppResult<()> {
        let active = self.connection().active().await?;
        let client = &active.client;
        // Only the events poll reports what a task has cost so far: a capped task reads every
        // page of it, so the cap is held at once (`spending_cap.rs`); a streamed one hears its
        // cost now and then, enough for "$0.12 so far".
        let transport = match req.cap_usd {
            Some(_) => Transport::Poll,
            None => Transport::Stream,
        };
        self.change(id, |c| {
            c.cap_usd = req.cap_usd;
            c.cap_notice_shown = false;
            c.record_sending(req)
        })?;
        if let Ok(list) = client.machines().list().await {
            let starts = list
                .machines
                .iter()
                .any(|m| Some(&m.machine_id) == request.machine_id.as_ref() && needs_start(m));
            if starts {
                if let Some(machine_id) = &request.machine_id {
                    self.notify().machine_starting(machine_id);
                }
            }
        }
        // The service keeps one current session per computer and every message lands in it, so
        // the one this conversation last learned (a new conversation's answer, or an earlier
        // task's start) is where this task runs: the follower's way to it when the stream
        // breaks before naming it. Unless another copy of Porthole (or another client of the
        // account) started a new conversation on the computer since: then it is an older
        // session, and nothing the service publishes tells.
        let session = self.store().get(id)?.session_id;
        match TaskFollower::start_in(client, request, transport, session.as_deref()).await {
            Ok(follower) => self.follow(id, follower),
            // An `Err` from start always means the message was not sent.
            Err(err) => {
                let error = Problem::from(&AppError::Client(err));
                self.change(id, |c| c.record_not_sent(error, now_ms()))?;
            }
        }
        Ok(())
    }

    /// Sends again the message of conversation `id` that was not sent.
    pub async fn retry(&self, id: &str) -> AppResult<()> {
        if !self.is_current(id) {
            return Err(AppError::FinishedConversation);
        }
        let machine_id = self.store().get(id)?.machine_id;
        let mut taken = None;
        self.change(id, |c| taken = c.take_retry(now_ms()))?;
        let Some(req) = taken else {
            // Already sent again (a second click), or sent since: nothing to do.
            return Ok(());
        };
        let request = match message_request(&req, &machine_id) {
            Ok(request) => request,
            Err(err) => {
                self.change(id, |c| c.record_not_sent(Problem::from(&err), now_ms()))?;
                return Err(err);
            }
        };
        self.start_task(id, &request, req).await
    }

    /// The follower ended with an error: a message that never reached the service is kept
    /// with Retry, anything else is the task's failure. Returns whether it was not sent.
    pub(super) fn follow_failed(&self, id: &str, code: &ErrorCode) -> bool {
        *code == ErrorCode::MessageNotSent && self.store().get(id).is_ok_and(|c| c.unsent.is_some())
    }

    /// After a restart: a task whose service session was never learned was still being
    /// delivered when the app stopped. Whether the service took it is not known, so the message
    /// is shown as such with Retry rather than followed forever or called failed.
    pub(super) fn end_undelivered(&self, scope: &str) {
        let ids: Vec<String> = self.store().read(|b| {
            b.conversations
                .iter()
                .filter(|c| c.scope == scope && c.status.is_active() && c.unsent.is_some())
                .filter(|c| c.follower.as_ref().is_none_or(|f| f.session_id.is_none()))
                .map(|c| c.id.clone())
                .collect()
        });
        for id in ids {
            if let Err(err) = self.change(&id, |c| {
                c.record_not_sent(Problem::new(UiCode::MessageNotKnownSent), now_ms())
            }) {
                tracing::warn!(error = %err, "could not mark a message as not known to be sent");
            }
        }
    }
}

/// The request that starts a task, as the person sent it.
pub(super) fn message_request(req: &SendRequest, machine_id: &str) -> AppResult<MessageRequest> {
    let mut request = MessageRequest::new(&req.text, machine_id);
    request.attachments = req.attachments.clone();
    req.options.clone().apply(&mut request)?;
    request.model = req.model.clone().filter(|m| !m.trim().is_empty());
    Ok(request)
}
