//! Writing a report where the person chose (security review N8). Unlike the app's own files
//! (`store::atomic`), an export is theirs to share: it gets the system's ordinary permissions
//! (the create mode less the umask, not 0600), keeps no `.prev` copy beside it, and a PDF
//! printed beside it never replaces a file the person did not choose.
//!
//! Hand-written rather than `tempfile`'s `persist`: its temporary files are 0600 by design,
//! and the permission a person expects of a file they saved is the plain create mode.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes`, whole or not at all: written to a temporary name in the same
/// folder, on the disk, then renamed over the chosen file.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = crate::store::atomic::sibling(path, &format!("tmp-{}", rand::random::<u32>()));
    let written = (|| {
        // create_new: never through a file or link someone else left under that name.
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written?;
    crate::store::atomic::sync_dir(dir)
}

/// Where the PDF of the report at `html` goes: the same name ending in `.pdf`, or, when a
/// file has that name already, the first free "name (2).pdf", "name (3).pdf"…; `None` when
/// none of the first hundred is free.
pub fn pdf_beside(html: &Path) -> Option<PathBuf> {
    let plain = html.with_extension("pdf");
    if !plain.exists() {
        return Some(plain);
    }
    let stem = html.file_stem().unwrap_or_default().to_string_lossy();
    (2..=100)
        .map(|n| html.with_file_name(format!("{stem} ({n}).pdf")))
        .find(|candidate| !candidate.exists())
}
