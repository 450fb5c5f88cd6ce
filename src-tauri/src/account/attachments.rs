//! Uploaded files waiting to go out with a conversation's next message. The composer stages
//! them just before sending; the send path takes them, so each message carries exactly the
//! chips the person saw.
//!
//! The service stores a file under a name of its own (unsafe characters replaced, a timestamp
//! added), so the name the person knows it by is remembered here at upload, by file id, and is
//! the one the thread shows with the message.

use std::collections::HashMap;

use porthole_client::messages::MessageRequest;
use porthole_client::uploads::Upload;
use tauri::{AppHandle, Manager};

#[derive(Default)]
pub struct StagedAttachments {
    by_conversation: std::sync::Mutex<HashMap<String, Vec<Upload>>>,
    /// File id to the name of the file on the person's computer. Never pruned: the service
    /// takes at most 30 uploads an hour, so it stays small for the life of the app.
    own_names: std::sync::Mutex<HashMap<String, String>>,
}

impl StagedAttachments {
    /// Called once a file is uploaded: `own_name` is its name on the person's computer.
    pub fn remember_own_name(&self, upload: &Upload, own_name: &str) {
        if let Some(id) = &upload.file_id {
            self.own_names
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(id.clone(), own_name.to_owned());
        }
    }

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

    /// The names of the files staged for the next message as the person knows them (the
    /// service's name when the upload was not seen here), leaving them staged.
    fn names(&self, conversation_id: &str) -> Vec<String> {
        let staged = self
            .by_conversation
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let own = self.own_names.lock().unwrap_or_else(|e| e.into_inner());
        staged
            .get(conversation_id)
            .map(|uploads| {
                uploads
                    .iter()
                    .map(|u| {
                        u.file_id
                            .as_ref()
                            .and_then(|id| own.get(id))
                            .unwrap_or(&u.name)
                            .clone()
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn take(&self, conversation_id: &str) -> Vec<Upload> {
        let mut map = self
            .by_conversation
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        map.remove(conversation_id).unwrap_or_default()
    }
}

/// Called by the send path before it records the message, so the thread names the files.
pub fn staged_names(app: &AppHandle, conversation_id: &str) -> Vec<String> {
    app.try_state::<StagedAttachments>()
        .map(|staged| staged.names(conversation_id))
        .unwrap_or_default()
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
    fn the_thread_names_files_as_the_person_knows_them() {
        let staged = StagedAttachments::default();
        let renamed = upload("my_notes-1795.md");
        staged.remember_own_name(&renamed, "my notes.md");
        staged.stage("a", vec![renamed, upload("seen-elsewhere.csv")]);
        assert_eq!(staged.names("a"), ["my notes.md", "seen-elsewhere.csv"]);
        assert_eq!(staged.take("a").len(), 2, "naming leaves the files staged");
    }

    #[test]
    fn staged_files_go_out_once_with_their_conversation() {
        let staged = StagedAttachments::default();
        staged.stage("a", vec![upload("x.txt")]);
        staged.stage("b", vec![upload("y.txt")]);
        assert_eq!(staged.names("a"), ["x.txt"]);
        assert_eq!(staged.take("a"), vec![upload("x.txt")]);
        assert!(staged.take("a").is_empty());
        staged.stage("b", vec![]);
        assert!(staged.take("b").is_empty());
    }
}
