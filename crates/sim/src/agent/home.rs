//! The folders the Demo's agent finds in the computer's home folder, and which one it picks
//! when a task asks it to delete something. Like a real agent it goes by the words of the
//! task: a folder whose name shares a word with the task wins, and with no such word it takes
//! the oldest folder it found. So "Delete the drafts" asks to delete `Documents/drafts`, while
//! "Delete the old files in Downloads" asks to delete `Documents/old-reports`: a target in
//! another place than the one the task named, which the app must make plain on the card.

/// The home folder the agent's commands start in (the card's `cwd`).
pub const HOME: &str = "/home/agent";

/// A folder on the Demo computer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Folder {
    /// Where it is, under the home folder (`Documents`).
    pub place: &'static str,
    /// Its own name (`drafts`).
    pub name: &'static str,
    pub files: u32,
}

/// What the agent finds, oldest last: with nothing in the task to go by, it deletes that one.
const FOLDERS: [Folder; 4] = [
    Folder {
        place: "Documents",
        name: "drafts",
        files: 6,
    },
    Folder {
        place: "Desktop",
        name: "screenshots",
        files: 23,
    },
    Folder {
        place: "Downloads",
        name: "installers",
        files: 3,
    },
    Folder {
        place: "Documents",
        name: "old-reports",
        files: 14,
    },
];

impl Folder {
    /// The command that deletes it, as a shell in the home folder runs it.
    pub fn delete_command(&self) -> String {
        format!("rm -r ~/{}/{}", self.place, self.name)
    }

    /// What the deletion does, in words.
    pub fn delete_words(&self) -> String {
        format!(
            "Permanently delete the folder {} in {} and the {} files in it. This can't be undone.",
            self.name, self.place, self.files
        )
    }
}

fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_end_matches('s').to_owned())
        .collect()
}

/// The folder a deleting task gets: the one sharing the most words with the task's own
/// words, else the oldest.
pub fn folder_to_delete(task: &str) -> Folder {
    let asked = words(task);
    let score = |f: &Folder| words(f.name).iter().filter(|w| asked.contains(w)).count();
    let oldest = FOLDERS[FOLDERS.len() - 1];
    FOLDERS
        .iter()
        .copied()
        .filter(|f| score(f) > 0)
        .max_by_key(|f| {
            (
                score(f),
                std::cmp::Reverse(FOLDERS.iter().position(|g| g == f)),
            )
        })
        .unwrap_or(oldest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_task_s_words_pick_the_folder_and_nothing_to_go_by_picks_the_oldest() {
        assert_eq!(folder_to_delete("Delete the drafts").name, "drafts");
        assert_eq!(
            folder_to_delete("Delete the old drafts folder").name,
            "drafts"
        );
        assert_eq!(
            folder_to_delete("Remove the screenshots from my desktop").place,
            "Desktop"
        );
        let wandered = folder_to_delete("Delete the old files in Downloads");
        assert_eq!(
            (wandered.place, wandered.name),
            ("Documents", "old-reports"),
            "the word 'old' leads it elsewhere than the Downloads the task named"
        );
        assert_eq!(folder_to_delete("Delete everything").name, "old-reports");
        assert_eq!(
            folder_to_delete("Delete the drafts").delete_command(),
            "rm -r ~/Documents/drafts"
        );
    }
}
