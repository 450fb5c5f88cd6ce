//! Uploaded files waiting to go out with a conversation's next message. The composer stages
//! them just before sending; the send path takes them, so each message carries exactly the
//! chips the person saw.

use std::collections::HashMap;

use porthole_client::messages::MessageRequest;
use porthole_client::uploads::Upload;
use tauri::{AppHandle, Manager};

#[derive(Default)]
pub struct StagedAttachments {
    by_conversation: std::sync::Mutex<HashMap<String, Vec<Upload>>>,
}

impl StagedAttachments {
    pub fn stage(&self, conversation_id: &str, uploads: Vec<Upload>) {
        let mut map = self
            .by_conversation
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if uploads.is_empty() {
            map.remove(conversation_id);
        } else {
            map.insert(conversation_id.to_owned(), uploads);
        }
    }

    fn take(&self, conversation_id: &str) -> Vec<Upload> {
        let mut map = self
            .by_conversation
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        map.remove(conversation_id).unwrap_or_default()
    }
}

/// Called by the send path: puts the staged files on the message.
pub fn attach(app: &AppHandle, conversation_id: &str, request: &mut MessageRequest) {
    if let Some(staged) = app.try_state::<StagedAttachments>() {
        request.attachments = staged.take(conversation_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upload(name: &str) -> Upload {
        Upload {
            path: format!("uploads/{name}"),
            name: name.into(),
            mime: "text/plain".into(),
            size: 1,
            file_id: Some(format!("f_{name}")),
        }
    }

    #[test]
    fn staged_files_go_out_once_with_their_conversation() {
        let staged = StagedAttachments::default();
        staged.stage("a", vec![upload("x.txt")]);
        staged.stage("b", vec![upload("y.txt")]);
        assert_eq!(staged.take("a"), vec![upload("x.txt")]);
        assert!(staged.take("a").is_empty());
        staged.stage("b", vec![]);
        assert!(staged.take("b").is_empty());
    }
}
