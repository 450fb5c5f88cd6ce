//! Answering the agent's cards: yes/no, a choice, and the page where a link-only card is
//! answered. Each answer names the card the person saw, so a late click never answers a newer
//! card.

use porthole_client::approvals::Answer;

use super::{Conversations, TaskStatus};
use crate::error::{now_ms, AppError, AppResult};

impl Conversations {
    /// Answers card `approval_id` of conversation `id`, if it is still the card waiting there:
    /// a click on a card that was already replaced answers nothing. A pick the service refuses
    /// keeps the card waiting; a card answered elsewhere or expired is cleared.
    pub async fn answer(&self, id: &str, approval_id: &str, answer: Answer) -> AppResult<()> {
        let active = self.connection().active().await?;
        let conversation = self.store().get(id)?;
        // A card is answered only on the service that asked it (security review N7): after a
        // switch, its id means nothing to the service now active, or another card there.
        if conversation.scope != active.scope {
            return Err(AppError::NoPendingApproval);
        }
        let approval = conversation
            .pending_approval
            .filter(|a| a.approval_id == approval_id)
            .ok_or(AppError::NoPendingApproval)?;
        let result = active
            .client
            .approvals()
            .answer(&approval.approval_id, &answer)
            .await;
        match result {
            Ok(_) => {
                self.change(id, |c| c.approval_answered(&answer, now_ms()))?;
                Ok(())
            }
            Err(err) => {
                use porthole_client::ErrorCode as C;
                if matches!(err.code(), C::ApprovalResolved | C::ApprovalNotFound) {
                    self.change(id, |c| {
                        // Only this card: a newer one may have arrived meanwhile.
                        if c.pending_approval
                            .as_ref()
                            .is_some_and(|a| a.approval_id == approval_id)
                        {
                            c.pending_approval = None;
                            if c.status == TaskStatus::NeedsApproval {
                                c.status = TaskStatus::Running;
                            }
                        }
                    })?;
                }
                Err(AppError::Client(err))
            }
        }
    }

    /// The page of card `approval_id`, where a link-only card is answered: checked to be a web
    /// page, or on the service's own address.
    pub async fn approval_page(&self, id: &str, approval_id: &str) -> AppResult<String> {
        let active = self.connection().active().await?;
        let conversation = self.store().get(id)?;
        if conversation.scope != active.scope {
            return Err(AppError::NoPendingApproval);
        }
        let url = conversation
            .pending_approval
            .filter(|a| a.approval_id == approval_id)
            .and_then(|a| a.approval_url)
            .ok_or(AppError::NoPendingApproval)?;
        let parsed = url::Url::parse(&url).map_err(|_| AppError::NoPendingApproval)?;
        let base =
            url::Url::parse(active.client.base_url()).map_err(|_| AppError::NoPendingApproval)?;
        // A web page over https, or the service's own address (the Demo is plain http).
        let same_host = parsed.host_str().is_some() && parsed.host_str() == base.host_str();
        if !(parsed.scheme() == "https" || (parsed.scheme() == "http" && same_host)) {
            tracing::warn!("approval link is not a web page; not opened");
            return Err(AppError::NoPendingApproval);
        }
        Ok(url)
    }
}
