//! Writing a file so that a crash leaves the old content or the new, never a mix: the bytes
//! go to a temporary file in the same folder and reach the disk before they take the file's
//! name, and the content they replace stays beside it as the last good copy.
//!
//! Hand-written rather than with `tempfile`'s `persist`: keeping the previous copy is a second
//! rename the crates do not make, and a fixed temporary name means a crash leaves at most one
//! stale temporary file per store, which the next write replaces.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// `name.ext` → `name.<tag>.ext` in the same folder (`name.<tag>` without an extension).
pub fn sibling(path: &Path, tag: &str) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}.{tag}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{tag}"),
    };
    path.with_file_name(name)
}

/// Where the last good copy of `path` is kept.
pub fn previous(path: &Path) -> PathBuf {
    sibling(path, "prev")
}

fn temporary(path: &Path) -> PathBuf {
    sibling(path, "tmp")
}

/// Replaces `path` with `bytes`; what it held before becomes [`previous`].
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    create_private_dir(dir)?;
    let tmp = temporary(path);
    let mut file = create_private_file(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    if path.exists() {
        fs::rename(path, previous(path))?;
    }
    fs::rename(&tmp, path)?;
    sync_dir(dir)
}

/// Appends one line (the caller's bytes end with `\n`) and waits until it is on the disk.
pub fn append(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().append(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_data()
}

/// Makes renames and removals in `dir` survive a power cut, not only a crash of the app.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    // Windows cannot open a folder as a file; its renames are journalled by NTFS.
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// The person's history is theirs alone: folders 0700 and files 0600 where that means
/// something, so other accounts on a shared computer cannot read it.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Narrows an existing file to 0600 (Unix); a missing one is fine.
pub fn make_file_private(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        match fs::set_permissions(path, fs::Permissions::from_mode(0o600)) {
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

pub fn create_private_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}
