//! The names files are known by on the person's computer. The service stores an upload under
//! a name of its own (unsafe characters replaced, a timestamp added), so the name the person
//! knows is remembered here at upload, by file id, and is the one the thread shows with the
//! message the file went out with.

use std::collections::HashMap;
use std::sync::Mutex;

use porthole_client::uploads::Upload;

/// File id to the name of the file on the person's computer. Never pruned: the service takes
/// at most 30 uploads an hour, so it stays small for the life of the app.
#[derive(Default)]
pub struct FileNames {
    own: Mutex<HashMap<String, String>>,
}

impl FileNames {
    /// Called once a file is uploaded: `own_name` is its name on the person's computer.
    pub fn remember(&self, upload: &Upload, own_name: &str) {
        if let Some(id) = &upload.file_id {
            self.own
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(id.clone(), own_name.to_owned());
        }
    }

    /// The names of `uploads` as the person knows them (the service's name when the upload
    /// was not seen here).
    pub fn of(&self, uploads: &[Upload]) -> Vec<String> {
        let own = self.own.lock().unwrap_or_else(|e| e.into_inner());
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
            download_url: None,
            width: None,
            height: None,
            extra: Default::default(),
        }
    }

    #[test]
    fn the_thread_names_files_as_the_person_knows_them() {
        let names = FileNames::default();
        let renamed = upload("my_notes-1795.md");
        names.remember(&renamed, "my notes.md");
        assert_eq!(
            names.of(&[renamed, upload("seen-elsewhere.csv")]),
            ["my notes.md", "seen-elsewhere.csv"]
        );
    }
}
