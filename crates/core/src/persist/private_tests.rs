//! The data folder holds every conversation: it is the person's alone, also one an earlier
//! version made with the system's default mode (security review N9).

use super::*;

#[cfg(unix)]
#[test]
fn the_data_folder_is_made_and_kept_the_persons_alone() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let root = tempfile::tempdir().unwrap();

    let fresh = root.path().join("new").join("porthole");
    make_private(&fresh).unwrap();
    assert_eq!(mode(&fresh), 0o700, "a new folder");

    let old = root.path().join("old");
    std::fs::create_dir(&old).unwrap();
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(old.join("settings.json"), "{}").unwrap();
    make_private(&old).unwrap();
    assert_eq!(mode(&old), 0o700, "an earlier version's folder is narrowed");
    assert!(
        old.join("settings.json").exists(),
        "and nothing in it is lost"
    );
}
