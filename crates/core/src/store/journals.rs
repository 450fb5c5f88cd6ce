//! A folder of [`journal`]s, one per record (one per conversation): a save appends the
//! record's changes to its own file, so a change to one record never rewrites the others.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::atomic;
use super::changes;
use super::document::store_error;
use super::journal::{self, Read, Replayed};
use super::set_aside::{move_aside, Kept, SetAside};
use crate::error::AppResult;

const EXT: &str = "jsonl";

pub struct Journals {
    dir: PathBuf,
    kept: HashMap<String, Saved>,
}

/// What a record's file holds, so the next save writes only the difference.
struct Saved {
    path: PathBuf,
    value: Value,
    snapshot_len: u64,
    len: u64,
    /// The end of the file cannot be trusted (a failed append): the next save rewrites it.
    rewrite: bool,
}

/// What opening the folder found.
pub struct Opened {
    pub journals: Journals,
    /// Every record that could be read, by id, in no particular order.
    pub records: Vec<(String, Value)>,
    pub set_aside: Vec<SetAside>,
}

impl Journals {
    pub fn open(dir: &Path) -> AppResult<Opened> {
        atomic::create_private_dir(dir).map_err(store_error)?;
        let mut journals = Journals {
            dir: dir.to_owned(),
            kept: HashMap::new(),
        };
        let mut set_aside = Vec::new();
        for name in names(dir)? {
            let path = dir.join(format!("{name}.{EXT}"));
            let previous = atomic::previous(&path);
            // A crash between a rewrite's two renames: the last good copy is the newest.
            if !path.exists() {
                fs::rename(&previous, &path).map_err(store_error)?;
            }
            let (replayed, unreadable) = match journal::read(&path).map_err(store_error)? {
                Read::Whole(r) => (Some(r), None),
                Read::Damaged(r) => (Some(r), Some(Kept::ReadablePart)),
                Read::Unreadable => match read_if_there(&previous)? {
                    Some(Read::Whole(r) | Read::Damaged(r)) => (Some(r), Some(Kept::LastGoodCopy)),
                    Some(Read::Unreadable) => {
                        let moved_to = move_aside(&previous).map_err(store_error)?;
                        set_aside.push(SetAside {
                            moved_to,
                            kept: Kept::Nothing,
                        });
                        (None, Some(Kept::Nothing))
                    }
                    None => (None, Some(Kept::Nothing)),
                },
            };
            if let Some(kept) = unreadable {
                let moved_to = move_aside(&path).map_err(store_error)?;
                set_aside.push(SetAside { moved_to, kept });
            }
            if let Some(r) = replayed {
                let rewrite = r.torn || unreadable.is_some();
                journals.keep(path, r, rewrite)?;
            }
        }
        let records = journals
            .kept
            .iter()
            .map(|(id, saved)| (id.clone(), saved.value.clone()))
            .collect();
        Ok(Opened {
            journals,
            records,
            set_aside,
        })
    }

    fn keep(&mut self, path: PathBuf, r: Replayed, rewrite: bool) -> AppResult<()> {
        let id = r.id.clone();
        let mut saved = Saved {
            path,
            value: r.value,
            snapshot_len: r.snapshot_len,
            len: r.len,
            rewrite,
        };
        // Now, not at the next save: a later append must not land after a cut line.
        if saved.rewrite {
            compact(&id, &mut saved)?;
        }
        self.kept.insert(id, saved);
        Ok(())
    }

    /// Saves `value` as record `id`: its changes appended, or the whole record when it is
    /// new or its journal has grown long.
    pub fn save(&mut self, id: &str, value: Value) -> AppResult<()> {
        let Some(saved) = self.kept.get_mut(id) else {
            let path = self.dir.join(format!("{}.{EXT}", file_stem(id)));
            let mut saved = Saved {
                path,
                value,
                snapshot_len: 0,
                len: 0,
                rewrite: true,
            };
            compact(id, &mut saved)?;
            self.kept.insert(id.to_owned(), saved);
            return Ok(());
        };
        let changes = changes::between(&saved.value, &value);
        if changes.is_empty() && !saved.rewrite {
            return Ok(());
        }
        let line = journal::line(&changes).map_err(store_error)?;
        let len = saved.len + line.len() as u64;
        saved.value = value;
        if saved.rewrite || journal::needs_compaction(saved.snapshot_len, len) {
            return compact(id, saved);
        }
        if let Err(e) = atomic::append(&saved.path, &line) {
            saved.rewrite = true;
            return Err(store_error(e));
        }
        saved.len = len;
        Ok(())
    }

    /// Moves record `id`'s file aside when its caller cannot use what it holds, so no later
    /// save overwrites it.
    pub fn set_aside(&mut self, id: &str) -> AppResult<Option<SetAside>> {
        let Some(saved) = self.kept.remove(id) else {
            return Ok(None);
        };
        let moved_to = move_aside(&saved.path).map_err(store_error)?;
        Ok(Some(SetAside {
            moved_to,
            kept: Kept::Nothing,
        }))
    }

    /// Forgets record `id` and deletes its files.
    pub fn remove(&mut self, id: &str) -> AppResult<()> {
        let Some(saved) = self.kept.remove(id) else {
            return Ok(());
        };
        for path in [atomic::previous(&saved.path), saved.path] {
            match fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(store_error(e)),
                _ => {}
            }
        }
        atomic::sync_dir(&self.dir).map_err(store_error)
    }
}

/// Rewrites the record's journal as one snapshot of its value. `saved.value` is already
/// the new value, so a failed rewrite is tried again at the next save.
fn compact(id: &str, saved: &mut Saved) -> AppResult<()> {
    saved.rewrite = true;
    let bytes = journal::snapshot(id, &saved.value).map_err(store_error)?;
    atomic::write(&saved.path, &bytes).map_err(store_error)?;
    saved.snapshot_len = bytes.len() as u64;
    saved.len = bytes.len() as u64;
    saved.rewrite = false;
    Ok(())
}

fn read_if_there(path: &Path) -> AppResult<Option<Read>> {
    if !path.exists() {
        return Ok(None);
    }
    journal::read(path).map(Some).map_err(store_error)
}

/// The records' file names without extension: `<name>.jsonl`, or only `<name>.prev.jsonl`
/// after a crash mid-rewrite. Other names (`.tmp`, `.unreadable-…`) are not records.
fn names(dir: &Path) -> AppResult<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    for entry in fs::read_dir(dir).map_err(store_error)? {
        let name = entry.map_err(store_error)?.file_name();
        let Some(stem) = name
            .to_str()
            .and_then(|n| n.strip_suffix(&format!(".{EXT}")))
        else {
            continue;
        };
        let stem = stem.strip_suffix(".prev").unwrap_or(stem);
        if !stem.contains('.') {
            names.insert(stem.to_owned());
        }
    }
    Ok(names)
}

/// A file name for any id: the id itself when it is short and made of safe characters,
/// otherwise `~` (which safe ids never hold, so the two cannot meet) and the id in hex, cut
/// to a length every file system takes, with a hash of the whole id.
fn file_stem(id: &str) -> String {
    let safe = !id.is_empty()
        && id.len() <= 100
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if safe {
        return id.to_owned();
    }
    let hex: String = id.bytes().take(50).map(|b| format!("{b:02x}")).collect();
    // FNV-1a: stable across releases, which std's hasher does not promise.
    let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    format!("~{hex}-{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::file_stem;

    #[test]
    fn every_id_gets_a_plain_file_name_of_its_own() {
        assert_eq!(file_stem("conv-1700000000000-42"), "conv-1700000000000-42");
        let odd = [
            "../x",
            "a.b",
            "",
            "a/b",
            &"x".repeat(300),
            &format!("{}y", "x".repeat(299)),
        ];
        let stems: std::collections::BTreeSet<_> = odd.iter().map(|id| file_stem(id)).collect();
        assert_eq!(stems.len(), odd.len());
        for stem in stems {
            assert!(stem.len() < 200 && stem.starts_with('~'), "{stem}");
            assert!(stem
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"~-".contains(&b)));
        }
    }
}
