//! What approving a card would do, read in one place for the page and the OS notification:
//! whether it destroys something (and what), and whether it works somewhere else than the
//! place the person's task named.
//!
//! The service's card has no "destructive" field (its fields are a title, a description, an
//! approval type, a command and a folder), so destruction is read from the command itself.
//! Only a short list of well-known deleting commands is read (rm, rmdir, unlink, shred,
//! find -delete, del/erase/rd, Remove-Item, and disk wipes); anything else is not guessed at.
//! Hand-written because no maintained library turns a shell command into its targets, and this
//! reading must stay small enough to check by eye. The page turns the reading into words; a
//! notification offers no Approve for a card that [`CardReading::needs_the_window`].

use serde::{Deserialize, Serialize};

mod named;
mod shell;
mod targets;

use named::{in_place, named};
pub use shell::shell_words;
use targets::{deletions, Kind, Target};

/// What approving a card does, as far as Porthole can tell.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct CardReading {
    /// Approving destroys something that cannot be brought back.
    pub destructive: bool,
    /// What the command deletes, in its order; empty when only the card's title says delete.
    pub deletes: Vec<Deletion>,
    /// The places the person's task named, when something deleted is in none of them.
    pub mismatch: Option<Vec<NamedPlace>>,
}

/// One thing a command deletes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Deletion {
    pub kind: DeletionKind,
    /// The file or folder's name, a pattern ("*.tmp"), or the disk as written.
    pub name: String,
    /// Where it is.
    pub place: Place,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum DeletionKind {
    File,
    /// A folder and everything in it.
    Folder,
    /// The files matching a pattern.
    Matching,
    /// The files `find … -delete` finds in a folder (`place`).
    Found,
    /// A whole disk.
    Disk,
}

/// A place on disk as a person would say it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Place {
    /// The person's home folder itself.
    Home,
    /// The top of the disk.
    Top,
    /// The last (at most two) folders of the path inside the home folder, outermost first.
    Within { folders: Vec<String> },
}

/// A place the task named: a well-known folder, or one named "the X folder" / "folder X".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct NamedPlace {
    /// Set for a well-known folder, which the page names in its own language.
    pub known: Option<KnownPlace>,
    /// The name as the task wrote it, lower case.
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum KnownPlace {
    Desktop,
    Documents,
    Downloads,
    Pictures,
    Photos,
    Music,
    Videos,
    Movies,
}

/// Folders people name by their everyday name, with every name they go by on disk and in a
/// task: English and German (a task may name one in either language, a folder on disk may be
/// called either). These are names to recognise, not words shown: the page names the place
/// from `locales/*/approval.json` (`knownPlace.*`), and a test checks both agree.
pub const KNOWN_PLACES: [(KnownPlace, &[&str]); 8] = [
    (KnownPlace::Desktop, &["desktop", "schreibtisch"]),
    (KnownPlace::Documents, &["documents", "dokumente"]),
    (KnownPlace::Downloads, &["downloads"]),
    (KnownPlace::Pictures, &["pictures", "bilder"]),
    (KnownPlace::Photos, &["photos", "fotos"]),
    (KnownPlace::Music, &["music", "musik"]),
    (KnownPlace::Videos, &["videos"]),
    (KnownPlace::Movies, &["movies", "filme"]),
];

impl CardReading {
    /// Reads a card's command, folder and title, against the words of the task it is part of
    /// (empty when unknown: then no mismatch is read).
    pub fn read(title: &str, command: Option<&str>, cwd: Option<&str>, task: &str) -> Self {
        let targets: Vec<Target> = command
            .map(shell_words)
            .unwrap_or_default()
            .iter()
            .flat_map(|words| deletions(words, cwd).unwrap_or_default())
            .collect();
        if !targets.is_empty() {
            let places = named(task);
            let files: Vec<&Target> = targets.iter().filter(|t| t.kind != Kind::Disk).collect();
            let astray = !places.is_empty()
                && files
                    .iter()
                    .any(|t| !places.iter().any(|p| in_place(&t.path, &p.words)));
            return Self {
                destructive: true,
                deletes: targets.iter().map(Target::deletion).collect(),
                mismatch: astray.then(|| places.into_iter().map(|p| p.shown).collect()),
            };
        }
        Self {
            destructive: title_says_delete(title),
            deletes: Vec::new(),
            mismatch: None,
        }
    }

    /// A notification must not answer this card: it destroys something or works elsewhere than
    /// the task said, and only the card in the window says so.
    pub fn needs_the_window(&self) -> bool {
        self.destructive || self.mismatch.is_some()
    }
}

/// "Delete the selected items": a card whose own title says it destroys something.
fn title_says_delete(title: &str) -> bool {
    let lower = title.trim_start().to_lowercase();
    [
        "delete",
        "remove",
        "erase",
        "wipe",
        "destroy",
        "empty the trash",
    ]
    .iter()
    .any(|verb| {
        lower.strip_prefix(verb).is_some_and(|rest| {
            !rest
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

#[cfg(test)]
mod tests;
