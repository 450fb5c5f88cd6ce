//! A report is the person's to share (security review N8): saved with the system's ordinary
//! permissions and no copy beside it, and its PDF never replaces a file they did not choose.

use super::export::{pdf_beside, write};

#[cfg(unix)]
fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_saved_report_replaces_the_chosen_file_with_ordinary_permissions_and_nothing_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let chosen = dir.path().join("report.html");
    std::fs::write(&chosen, "the person's older report").unwrap();

    write(&chosen, b"<html>new</html>").unwrap();
    assert_eq!(
        std::fs::read_to_string(&chosen).unwrap(),
        "<html>new</html>"
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        vec!["report.html"],
        "no .prev or temporary file is left"
    );

    // Ordinary: what any program's plain create gives under this umask, not the app's 0600.
    #[cfg(unix)]
    {
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"x").unwrap();
        assert_eq!(mode(&chosen), mode(&plain));
    }
}

#[test]
fn the_pdf_beside_a_report_takes_a_free_name_never_one_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("Trip.html");
    assert_eq!(pdf_beside(&html), Some(dir.path().join("Trip.pdf")));

    std::fs::write(dir.path().join("Trip.pdf"), "the person's own PDF").unwrap();
    std::fs::write(dir.path().join("Trip (2).pdf"), "another").unwrap();
    assert_eq!(pdf_beside(&html), Some(dir.path().join("Trip (3).pdf")));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Trip.pdf")).unwrap(),
        "the person's own PDF"
    );
    for n in 3..=100 {
        std::fs::write(dir.path().join(format!("Trip ({n}).pdf")), "").unwrap();
    }
    assert_eq!(
        pdf_beside(&html),
        None,
        "rather no PDF than a file replaced"
    );
}
