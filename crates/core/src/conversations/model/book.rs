//! The book of every conversation: which is current for a computer, the lists the sidebar
//! shows, the unfinished ones to resume at start. Apart from `model.rs`, which records what
//! happens in one conversation.

use porthole_client::FollowerState;
use serde::{Deserialize, Serialize};

use super::*;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConversationBook {
    pub conversations: Vec<Conversation>,
}

impl ConversationBook {
    pub fn create(&mut self, id: String, scope: &str, machine_id: &str, now: f64) -> &Conversation {
        self.conversations.push(Conversation {
            id,
            scope: scope.to_owned(),
            machine_id: machine_id.to_owned(),
            title: String::new(),
            created_at: now,
            updated_at: now,
            session_id: None,
            model: None,
            status: TaskStatus::Idle,
            items: Vec::new(),
            pending_approval: None,
            usage: None,
            failure: None,
            follower: None,
            waiting: Vec::new(),
            unsent: None,
            reconnecting: false,
            cap_usd: None,
            cap_notice_shown: false,
            stopping: false,
            cap_question: None,
            cap_asked: false,
            stuck: Default::default(),
            updates_lost: false,
            task_started_at: None,
            task_ended_at: None,
            past_tasks: Vec::new(),
            check: None,
        });
        self.conversations.last().expect("just pushed")
    }

    pub fn get(&self, id: &str) -> Option<&Conversation> {
        self.conversations.iter().find(|c| c.id == id)
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut Conversation> {
        self.conversations.iter_mut().find(|c| c.id == id)
    }

    /// The current conversation of `machine_id` under `scope`: the one made last (the
    /// service's current session began with it).
    pub fn current(&self, scope: &str, machine_id: &str) -> Option<&Conversation> {
        self.conversations
            .iter()
            .filter(|c| c.scope == scope && c.machine_id == machine_id)
            .max_by(|a, b| a.created_at.total_cmp(&b.created_at))
    }

    /// Whether conversation `id` is its computer's current one.
    pub fn is_current(&self, id: &str) -> bool {
        self.get(id)
            .and_then(|c| self.current(&c.scope, &c.machine_id))
            .is_some_and(|current| current.id == id)
    }

    /// The current conversation first, then the finished ones, newest first.
    pub fn list(&self, scope: &str, machine_id: &str) -> Vec<ConversationSummary> {
        let current = self.current(scope, machine_id).map(|c| c.id.clone());
        let mut rows: Vec<_> = self
            .conversations
            .iter()
            .filter(|c| c.scope == scope && c.machine_id == machine_id)
            .map(|c| ConversationSummary {
                id: c.id.clone(),
                machine_id: c.machine_id.clone(),
                title: c.title.clone(),
                updated_at: c.updated_at,
                status: c.status,
                current: current.as_deref() == Some(c.id.as_str()),
            })
            .collect();
        rows.sort_by(|a, b| {
            b.current
                .cmp(&a.current)
                .then(b.updated_at.total_cmp(&a.updated_at))
        });
        rows
    }

    /// Conversations of `scope` whose task was still running when last saved.
    pub fn unfinished(&self, scope: &str) -> Vec<(String, FollowerState)> {
        self.conversations
            .iter()
            .filter(|c| c.scope == scope && c.status.is_active())
            .filter_map(|c| {
                let state = c.follower.clone()?;
                (!state.finished).then(|| (c.id.clone(), state))
            })
            .collect()
    }
}
