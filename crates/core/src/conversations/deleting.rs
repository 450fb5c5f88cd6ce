//! Deleting a conversation: its thread here (the journal, its search lines), its films, and
//! the words of its tasks in the usage kept. What it cost stays counted in the month's
//! spending: the money was spent. The service keeps its own record of the session: the API
//! has no way to delete one (service-api.md, and the makers' client has none either).
//!
//! A task still running there is never deleted under the person: Stop comes first
//! ([`AppError::TaskRunningHere`]).

use crate::conversations::{Conversation, Conversations};
use crate::error::{AppError, AppResult};
use crate::film::Shelf;
use crate::store::document::store_error;

impl Conversations {
    /// Deletes conversation `id` and returns the conversation to show in its place, its
    /// computer's current one. The current conversation is what the service's current session
    /// holds, and a catch-up would bring its lines straight back: so deleting it starts a new
    /// session first (as "New conversation" does), and the new, empty one becomes current.
    pub async fn delete(&self, id: &str, shelf: &Shelf) -> AppResult<Conversation> {
        self.store().loaded().await;
        let conversation = self.store().get(id)?;
        if conversation.status.is_active() || conversation.stopping || self.is_following(id) {
            return Err(AppError::TaskRunningHere);
        }
        let machine_id = conversation.machine_id.clone();
        if self.is_current(id) {
            if conversation.items.is_empty() {
                // Nothing in it: it is the empty conversation a new message starts.
                return Ok(conversation);
            }
            let active = self.connection().active().await?;
            if active.scope != conversation.scope {
                return Err(AppError::NotConnected);
            }
            self.start_new(&machine_id).await?;
        }
        // Checked again under the book's lock: a task may have been sent meanwhile.
        let removed = self.store().write(|book| {
            match book.get(id) {
                Some(c) if c.status.is_active() || c.stopping => return Err(()),
                None => return Ok(false),
                Some(_) => {}
            }
            book.conversations.retain(|c| c.id != id);
            Ok(true)
        })?;
        match removed {
            Err(()) => return Err(AppError::TaskRunningHere),
            Ok(false) => return Err(AppError::UnknownConversation),
            Ok(true) => {}
        }
        self.usage().forget_words(id)?;
        shelf.delete_conversation(id).map_err(store_error)?;
        let scope = conversation.scope;
        let next = self
            .store()
            .read(|b| b.current(&scope, &machine_id).cloned());
        match next {
            Some(next) => Ok(next),
            None => self.current(&machine_id).await,
        }
    }
}
