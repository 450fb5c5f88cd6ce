//! What of a conversation is searchable: the person's tasks and the files sent with them, the
//! agent's answers, narration, progress and step titles, replies and notices, and lines said
//! from elsewhere. Only thread text goes in: a conversation holds no secret (keys and tokens
//! live in the keychain and the Rust core), and delivery news (`Status`), approval card titles
//! and errors are left out as they say nothing a person would look for.

use super::plain::plain_text;
use crate::conversations::{Conversation, ThreadItem};
use crate::words;

/// One searchable line: its place in the thread, what kind of line it is, and its words.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub item: usize,
    pub kind: &'static str,
    pub text: String,
}

/// The searchable lines of `conversation`, in thread order.
pub fn lines_of(conversation: &Conversation) -> Vec<Line> {
    conversation
        .items
        .iter()
        .enumerate()
        .filter_map(|(item, entry)| {
            let (kind, text) = words_of(entry)?;
            let text = text.trim();
            (!text.is_empty()).then(|| Line {
                item,
                kind,
                text: text.to_owned(),
            })
        })
        .collect()
}

fn words_of(item: &ThreadItem) -> Option<(&'static str, String)> {
    Some(match item {
        ThreadItem::User {
            text, attachments, ..
        } => {
            // File names are found with the message they went with.
            let mut words = text.clone();
            for name in attachments {
                words.push('\n');
                words.push_str(name);
            }
            ("task", words)
        }
        // The agent's words are Markdown: indexed as the words the card shows.
        ThreadItem::Answer { text } => ("answer", plain_text(text)),
        ThreadItem::Reply { text } => ("answer", plain_text(text)),
        ThreadItem::Narration { text } => ("narration", plain_text(text)),
        ThreadItem::Progress { text } => ("progress", text.clone()),
        ThreadItem::Tool { title, .. } => ("progress", title.clone()?),
        ThreadItem::ToolFailed { text } => ("progress", text.clone()),
        ThreadItem::Notice { notice } => ("notice", words::notices::text(notice)),
        ThreadItem::Elsewhere { text, .. } => ("elsewhere", plain_text(text)),
        ThreadItem::Status { .. }
        | ThreadItem::Approval { .. }
        | ThreadItem::Failure { .. }
        | ThreadItem::NotSent { .. } => return None,
    })
}
