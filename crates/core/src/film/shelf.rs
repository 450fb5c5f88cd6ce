//! The films on disk, `films/<conversation>/<film>/` (a film is named by the Unix ms its task
//! started): listing and reading them for the player, deleting them with their conversation,
//! and the total bound across every film, oldest first.

use serde::{Deserialize, Serialize};
use std::io;
use std::path::{Path, PathBuf};

use super::plain_name;

pub(super) const INDEX: &str = "index.jsonl";

pub(super) fn index_path(dir: &Path) -> PathBuf {
    dir.join(INDEX)
}

/// One kept picture: a line of a film's index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct IndexLine {
    /// Since the film began.
    pub at_ms: u64,
    /// Its JPEG in the film's folder.
    pub file: String,
    pub bytes: u64,
    /// The step this frame was kept for, counted from 1, when a step was announced.
    pub step: Option<u32>,
    /// The latest step's title then.
    pub title: Option<String>,
    /// What the agent said last then.
    pub narration: Option<String>,
}

/// A frame as the player shows it (its picture is asked for by its place in the film, never
/// by a file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct FilmFrame {
    /// Since the film began.
    #[specta(type = f64)]
    pub at_ms: u64,
    /// The step this frame was kept for, counted from 1.
    pub step: Option<u32>,
    /// The latest step's title then.
    pub title: Option<String>,
    /// What the agent said last then.
    pub narration: Option<String>,
}

impl From<IndexLine> for FilmFrame {
    fn from(line: IndexLine) -> Self {
        Self {
            at_ms: line.at_ms,
            step: line.step,
            title: line.title,
            narration: line.narration,
        }
    }
}

/// A film of a conversation, as listed.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct FilmSummary {
    pub id: String,
    /// When its task started, Unix ms.
    pub started_ms: f64,
    pub frames: u32,
}

/// A film's frames, for the player.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Film {
    pub id: String,
    pub frames: Vec<FilmFrame>,
}

/// The films' folder.
#[derive(Debug, Clone)]
pub struct Shelf {
    root: PathBuf,
}

impl Shelf {
    /// The films of the data folder `data_dir`.
    pub fn in_data_dir(data_dir: &Path) -> Self {
        Self {
            root: data_dir.join("films"),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn film_dir(&self, conversation_id: &str, film_id: &str) -> io::Result<PathBuf> {
        if !plain_name(conversation_id) || !plain_name(film_id) {
            return Err(io::ErrorKind::NotFound.into());
        }
        Ok(self.root.join(conversation_id).join(film_id))
    }

    /// The films of a conversation with at least one frame, oldest first.
    pub fn films_of(&self, conversation_id: &str) -> Vec<FilmSummary> {
        if !plain_name(conversation_id) {
            return Vec::new();
        }
        let mut films: Vec<FilmSummary> = film_dirs(&self.root.join(conversation_id))
            .into_iter()
            .filter_map(|(started, dir)| {
                let frames = read_index(&dir).ok()?.len() as u32;
                (frames > 0).then(|| FilmSummary {
                    id: started.to_string(),
                    started_ms: started as f64,
                    frames,
                })
            })
            .collect();
        films.sort_by(|a, b| a.started_ms.total_cmp(&b.started_ms));
        films
    }

    /// A film's frames, in order.
    pub fn film(&self, conversation_id: &str, film_id: &str) -> io::Result<Film> {
        let dir = self.film_dir(conversation_id, film_id)?;
        Ok(Film {
            id: film_id.to_owned(),
            frames: read_index(&dir)?.into_iter().map(FilmFrame::from).collect(),
        })
    }

    /// The JPEG of a film's frame `index` (its place in [`Film::frames`]).
    pub fn frame(&self, conversation_id: &str, film_id: &str, index: u32) -> io::Result<Vec<u8>> {
        let dir = self.film_dir(conversation_id, film_id)?;
        let frames = read_index(&dir)?;
        let frame = frames
            .get(index as usize)
            .filter(|f| is_frame_file(&f.file))
            .ok_or(io::ErrorKind::NotFound)?;
        std::fs::read(dir.join(&frame.file))
    }

    /// A film's frames with where each picture is, in order: for reading every picture of a
    /// film once (sharing it), rather than the index again for each.
    pub(super) fn frame_files(
        &self,
        conversation_id: &str,
        film_id: &str,
    ) -> io::Result<Vec<(FilmFrame, PathBuf)>> {
        let dir = self.film_dir(conversation_id, film_id)?;
        Ok(read_index(&dir)?
            .into_iter()
            .map(|line| {
                let path = dir.join(&line.file);
                (FilmFrame::from(line), path)
            })
            .collect())
    }

    /// Every film of a conversation goes with it.
    pub fn delete_conversation(&self, conversation_id: &str) -> io::Result<()> {
        if !plain_name(conversation_id) {
            return Ok(());
        }
        match std::fs::remove_dir_all(self.root.join(conversation_id)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Deletes the oldest films until every film together takes at most `total` bytes; the
    /// films being recorded (`recording`) stay. Returns the bytes left.
    pub fn keep_within(&self, total: u64, recording: &[PathBuf]) -> io::Result<u64> {
        let mut films: Vec<(u64, PathBuf, u64)> = Vec::new();
        for (_, conversation) in dirs(&self.root) {
            for (started, dir) in film_dirs(&conversation) {
                let bytes = folder_bytes(&dir);
                films.push((started, dir, bytes));
            }
        }
        films.sort_by_key(|(started, _, _)| *started);
        let mut sum: u64 = films.iter().map(|(_, _, b)| b).sum();
        for (_, dir, bytes) in &films {
            if sum <= total {
                break;
            }
            if recording.iter().any(|r| r == dir) {
                continue;
            }
            std::fs::remove_dir_all(dir)?;
            sum = sum.saturating_sub(*bytes);
            if let Some(conversation) = dir.parent() {
                // Gone with its last film; left when another is there.
                let _ = std::fs::remove_dir(conversation);
            }
        }
        Ok(sum)
    }
}

fn is_frame_file(name: &str) -> bool {
    name.strip_suffix(".jpg")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The lines of a film's index that still have their picture.
fn read_index(dir: &Path) -> io::Result<Vec<IndexLine>> {
    let text = std::fs::read_to_string(index_path(dir))?;
    Ok(text
        .lines()
        .filter_map(|line| serde_json::from_str::<IndexLine>(line).ok())
        .filter(|f| is_frame_file(&f.file) && dir.join(&f.file).is_file())
        .collect())
}

/// Sub-folders with a plain name.
fn dirs(parent: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            plain_name(&name).then(|| (name, e.path()))
        })
        .collect()
}

/// A conversation's film folders, by their start.
fn film_dirs(conversation: &Path) -> Vec<(u64, PathBuf)> {
    dirs(conversation)
        .into_iter()
        .filter_map(|(name, dir)| Some((name.parse().ok()?, dir)))
        .collect()
}

fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}
