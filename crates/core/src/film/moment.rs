//! Where a running task stands, read from its conversation: how many steps it has announced,
//! the latest step's title and the agent's latest narration (the film's captions).

use crate::conversations::model::{Conversation, ThreadItem};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Moment {
    /// Steps announced so far (one per tool call, as the window counts them).
    pub steps: u32,
    /// The latest step's title, once the stream named it.
    pub step_title: Option<String>,
    /// What the agent said last.
    pub narration: Option<String>,
}

impl Moment {
    /// The task now running (or last run) in `conversation`: the lines since the message that
    /// started it.
    pub fn of(conversation: &Conversation) -> Self {
        let start = conversation
            .items
            .iter()
            .rposition(|i| matches!(i, ThreadItem::User { joined: false, .. }))
            .map_or(0, |at| at + 1);
        let mut moment = Self::default();
        for item in &conversation.items[start..] {
            match item {
                ThreadItem::Tool { title, .. } => {
                    moment.steps += 1;
                    moment.step_title = title.clone().filter(|t| !t.trim().is_empty());
                }
                ThreadItem::Narration { text } if !text.trim().is_empty() => {
                    moment.narration = Some(text.clone());
                }
                _ => {}
            }
        }
        moment
    }
}
