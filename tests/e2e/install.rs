//! The .deb a person downloads: its contents (desktop entry, icons, app id), then installed
//! with apt-get (so its dependencies resolve), started from the PATH in a real window, shown
//! reaching the Demo's machine list, and removed again.
//!
//! It needs a package named by `PORTHOLE_DEB` (scripts/test.sh builds the debug build's .deb
//! with `scripts/package.sh --debug` and names it; scripts/e2e.sh alone finds the release .deb
//! `./run package` made, or skips this test when there is none) and root, as installing
//! software does; CI runs as root.

use std::path::{Path, PathBuf};
use std::process::Command;

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually};

// An offered update installed over this package, and Porthole restarted as it.
mod update;

const INSTALLED: &str = "/usr/bin/porthole";

#[tokio::test]
#[ignore = "needs a built .deb, root and a display: run by scripts/test.sh, or scripts/e2e.sh after ./run package"]
async fn the_deb_installs_starts_from_the_path_and_shows_the_demo() {
    let deb = package();
    let contents = Contents::of(&deb);
    contents.check();

    let installed = Installed::install(&deb);
    let program = on_path("porthole").expect("porthole on the PATH after installing");
    assert_eq!(
        program,
        Path::new(INSTALLED),
        "the installed program is started"
    );
    let binary = std::fs::read(&program).expect("read the installed program");
    let id = identifier();
    assert!(
        contains(&binary, id.as_bytes()),
        "the installed program carries the app id {id}"
    );

    let app = App::launch_with(AppOptions {
        program: Some(program),
        ..AppOptions::default()
    })
    .await
    .expect("the installed app opens");
    let wait = Eventually::new(&app.driver);
    wait.element("demo-badge")
        .await
        .expect("the installed app starts on the Demo");
    let rows = wait
        .at_least("machine-row", 3)
        .await
        .expect("the Demo's machines appear");
    let mut names = Vec::new();
    for row in &rows {
        if let Ok(name) = row.find(by_testid("machine-name")).await {
            names.push(text_of(&name).await);
        }
    }
    app.screenshot("installed-deb").await.expect("screenshot");
    assert!(
        names.iter().any(|n| n == "Research box"),
        "the Demo's computers in the sidebar: {names:?}"
    );
    app.quit().await;

    installed.remove();
    assert!(
        !Path::new(INSTALLED).exists(),
        "apt-get remove took {INSTALLED} away"
    );
}

fn package() -> PathBuf {
    let deb = std::env::var_os("PORTHOLE_DEB")
        .map(PathBuf::from)
        .expect("PORTHOLE_DEB names the .deb to test (scripts/e2e.sh sets it)");
    assert!(deb.is_file(), "no package at {}", deb.display());
    deb.canonicalize().expect("the package's path")
}

/// tauri.conf.json's identifier, the app id every package must carry.
fn identifier() -> String {
    let config: serde_json::Value =
        serde_json::from_str(include_str!("../../src-tauri/tauri.conf.json")).expect("config");
    config["identifier"]
        .as_str()
        .expect("an identifier")
        .to_owned()
}

/// What the .deb holds, read with dpkg-deb (never by installing it).
struct Contents {
    deb: PathBuf,
    files: Vec<String>,
    unpacked: tempfile::TempDir,
}

impl Contents {
    fn of(deb: &Path) -> Contents {
        let listing = run("dpkg-deb", &["--contents".as_ref(), deb.as_os_str()]);
        // Lines end in the path ("usr/bin/porthole", or "./usr/…" from other dpkg-debs).
        let files = listing
            .lines()
            .filter_map(|l| l.split_whitespace().nth(5))
            .map(|p| format!("/{}", p.trim_start_matches("./").trim_start_matches('/')))
            .collect();
        let unpacked = tempfile::tempdir().expect("temp dir");
        run(
            "dpkg-deb",
            &[
                "--extract".as_ref(),
                deb.as_os_str(),
                unpacked.path().as_os_str(),
            ],
        );
        Contents {
            deb: deb.to_path_buf(),
            files,
            unpacked,
        }
    }

    fn field(&self, name: &str) -> String {
        run(
            "dpkg-deb",
            &["--field".as_ref(), self.deb.as_os_str(), name.as_ref()],
        )
        .trim()
        .to_owned()
    }

    fn check(&self) {
        assert_eq!(self.field("Package"), "porthole");
        let depends = self.field("Depends");
        assert!(
            depends.contains("libwebkit2gtk-4.1-0") && depends.contains("libgtk-3-0"),
            "the package names the libraries it runs on: {depends}"
        );
        // Porthole's program and nothing else on the PATH: the bundler takes every binary of
        // the crate, so a developer's tool made a [[bin]] would reach every person's install.
        let programs: Vec<&String> = self
            .files
            .iter()
            .filter(|f| f.starts_with("/usr/bin/") && !f.ends_with('/'))
            .collect();
        assert_eq!(
            programs,
            [INSTALLED],
            "the package installs one program, {INSTALLED}"
        );

        // The desktop entry: what menus and launchers show and start.
        let entries: Vec<&String> = self
            .files
            .iter()
            .filter(|f| f.starts_with("/usr/share/applications/") && f.ends_with(".desktop"))
            .collect();
        assert_eq!(entries.len(), 1, "one desktop entry: {entries:?}");
        let entry = std::fs::read_to_string(self.unpacked.path().join(&entries[0][1..]))
            .expect("read the desktop entry");
        let key = |k: &str| {
            entry
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{k}=")))
                .unwrap_or_else(|| panic!("the desktop entry has {k}=: {entry}"))
                .to_owned()
        };
        assert_eq!(key("Type"), "Application");
        assert_eq!(key("Name"), "Porthole");
        assert_eq!(key("Exec"), "porthole");
        assert_eq!(key("Icon"), "porthole");
        assert_eq!(key("Terminal"), "false");
        assert!(
            key("Categories").split(';').any(|c| c == "Office"),
            "listed with the productivity apps (bundle.category Productivity is Office): {}",
            key("Categories")
        );
        assert!(!key("Comment").is_empty(), "a one-line description");

        // The icon the entry names, in the sizes desktops ask for, and the program's own.
        for size in ["32x32", "128x128", "256x256@2", "512x512"] {
            let icon = format!("/usr/share/icons/hicolor/{size}/apps/porthole.png");
            assert!(
                self.files.contains(&icon),
                "{icon} in the package: {:?}",
                self.files
            );
            let png = std::fs::read(self.unpacked.path().join(&icon[1..])).expect("read icon");
            assert!(png.starts_with(b"\x89PNG"), "{icon} is a PNG");
        }
    }
}

/// The package installed on this machine; removed when dropped, so a failing test does not
/// leave it behind.
struct Installed {
    removed: bool,
}

impl Installed {
    fn install(deb: &Path) -> Installed {
        assert!(
            run("id", &["-u".as_ref()]).trim() == "0",
            "installing a package needs root (CI runs as root)"
        );
        let mut apt = Command::new("apt-get");
        apt.env("DEBIAN_FRONTEND", "noninteractive")
            .args(["install", "-y", "--no-install-recommends"])
            .arg(deb);
        let out = apt.output().expect("apt-get runs");
        assert!(
            out.status.success(),
            "apt-get install {} failed: {}{}",
            deb.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        Installed { removed: false }
    }

    fn remove(mut self) {
        self.removed = true;
        let out = apt_remove();
        assert!(
            out.status.success(),
            "apt-get remove porthole failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        if !self.removed {
            let _ = apt_remove();
        }
    }
}

fn apt_remove() -> std::process::Output {
    Command::new("apt-get")
        .env("DEBIAN_FRONTEND", "noninteractive")
        .args(["remove", "-y", "porthole"])
        .output()
        .expect("apt-get runs")
}

/// Where the shell would find `name`, as a person's launcher does.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn run(program: &str, args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} could not run: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
