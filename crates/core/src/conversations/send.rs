//! Sending: the task flows a person starts (stopping is `stopping.rs`).

use porthole_client::messages::{MessageOutcome, MessageRequest};
use porthole_client::uploads::Upload;
use porthole_client::TaskFollower;
use serde::{Deserialize, Serialize};

use super::{Conversations, SendOptions};
use crate::error::{now_ms, AppError, AppResult};

/// One message as the person sent it: everything that goes out with it, in one request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SendRequest {
    pub conversation_id: String,
    pub text: String,
    /// A model id; `None` (or blank) for the service's default.
    pub model: Option<String>,
    /// Files already uploaded, to go out with this message.
    pub attachments: Vec<Upload>,
    /// Only for a message that starts a task: one that joins a running task steers it.
    pub options: SendOptions,
    /// The most the task this message starts may cost, in dollars (`spending_cap.rs`); a
    /// message that joins a running task leaves that task's cap as it is.
    #[serde(default)]
    pub cap_usd: Option<f64>,
}

impl Conversations {
    /// Sends a message: it starts a task, or joins the one running in the conversation.
    pub async fn send(&self, req: SendRequest) -> AppResult<()> {
        // What Retry sends again if the service does not take it.
        let kept = req.clone();
        let SendRequest {
            conversation_id: id,
            text,
            model,
            attachments,
            options,
            cap_usd,
        } = req;
        let active = self.connection().active().await?;
        let client = &active.client;
        let conversation = self.store().get(&id)?;
        // A message always lands in the computer's current session: one typed in a finished
        // conversation would appear in the current one, so it is refused here instead.
        if !self.is_current(&id) {
            return Err(AppError::FinishedConversation);
        }
        // Sent while a stopped task is still ending, it waits as "Run next" would.
        if self.stop_settling(&conversation) {
            super::spending_cap::checked(kept.cap_usd)?;
            return self.hold(kept);
        }
        let model = model.filter(|m| !m.trim().is_empty());
        let files = self.file_names().of(&attachments);
        // The agent reads the person's local time with the words (`local_time.rs`); the thread
        // and Retry keep the words alone.
        let mut request = MessageRequest::new(
            super::local_time::with_local_time(&text),
            &conversation.machine_id,
        );
        request.attachments = attachments;

        if conversation.status.is_active() && self.is_following(&id) {
            // Joins the running task; the follower already running shows what follows, so this
            // message's own stream (a replay of the task) is never read.
            match client.messages().send(&request).await? {
                MessageOutcome::Started(started) => {
                    self.change(&id, |c| {
                        c.record_user_message_with_files(&text, &files, started.queued, now_ms())
                    })?;
                    if !started.queued {
                        let follower = TaskFollower::follow_session(client, &started.session_id);
                        self.follow(&id, follower);
                    }
                }
                MessageOutcome::Reply { text: reply } => {
                    self.change(&id, |c| {
                        c.record_user_message_with_files(&text, &files, true, now_ms());
                        c.record_reply(&reply, now_ms());
                    })?;
                }
            }
            return Ok(());
        }

        // Checked before anything is recorded: a schema that does not parse, or a cap that is
        // not a sum of money, sends nothing.
        options.apply(&mut request)?;
        super::spending_cap::checked(cap_usd)?;
        request.model = model.clone();
        self.change(&id, |c| {
            c.record_user_message_with_files(&text, &files, false, now_ms());
            if model.is_some() {
                c.model = model.clone();
            }
        })?;
        self.start_task(&id, &request, kept).await
    }
}
