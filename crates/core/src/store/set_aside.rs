//! A file the app cannot read is never overwritten: it is moved aside under a dated name
//! (`conversations.unreadable-2026-11-24T12-00-00.json`), and what happened is kept as a
//! [`SetAside`] the app tells the person about.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::atomic;

/// What the app started with instead of an unreadable file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// The copy saved before the last change.
    LastGoodCopy,
    /// Everything up to the first change that could not be read.
    ReadablePart,
    /// Nothing could be read.
    Nothing,
}

/// One unreadable file, and where it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    pub moved_to: PathBuf,
    pub kept: Kept,
}

/// Moves `path` to a dated name beside it and returns that name.
pub fn move_aside(path: &Path) -> io::Result<PathBuf> {
    let stamp = stamp(time::OffsetDateTime::now_utc());
    let mut target = atomic::sibling(path, &format!("unreadable-{stamp}"));
    // Two unreadable files in the same second (the file and its last good copy) keep both.
    let mut n = 2;
    while target.exists() {
        target = atomic::sibling(path, &format!("unreadable-{stamp}-{n}"));
        n += 1;
    }
    fs::rename(path, &target)?;
    atomic::sync_dir(path.parent().unwrap_or(Path::new(".")))?;
    Ok(target)
}

/// A file-name-safe UTC time: colons are not allowed in Windows file names.
fn stamp(t: time::OffsetDateTime) -> String {
    format!(
        "{:04}-{:02}-{:02}T{:02}-{:02}-{:02}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dated_name_sorts_by_time_and_keeps_the_extension() {
        let t = time::OffsetDateTime::from_unix_timestamp(1_795_521_600).unwrap();
        assert_eq!(stamp(t), "2026-11-24T12-00-00");
        assert_eq!(
            atomic::sibling(Path::new("/d/conversations.json"), "unreadable-x"),
            Path::new("/d/conversations.unreadable-x.json")
        );
    }

    #[test]
    fn a_second_unreadable_file_in_the_same_second_keeps_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.json");
        fs::write(&path, "first").unwrap();
        let first = move_aside(&path).unwrap();
        fs::write(&path, "second").unwrap();
        let second = move_aside(&path).unwrap();
        assert_ne!(first, second);
        assert_eq!(fs::read_to_string(first).unwrap(), "first");
        assert_eq!(fs::read_to_string(second).unwrap(), "second");
    }
}
