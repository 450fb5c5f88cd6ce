//! An offered update installed for real, with the keyboard alone: the .deb installed as
//! `install::` does, a newer package of it announced by a signed feed on loopback, Install and
//! restart reached with Tab and pressed with Enter, and Porthole back as the new package: dpkg
//! names the newer version, the old process ended, a new one runs the newly installed
//! /usr/bin/porthole and has opened its window.
//!
//! The newer package is the same .deb re-packed with a higher Version in its control file, so
//! the program inside is the same build (it still calls itself by its built version). What
//! tells old from new is the version dpkg has installed and the file the new process runs:
//! dpkg puts a new file in place of the old one, so the old process keeps running a deleted
//! file and the new one the installed file.
//!
//! What stands in for the real thing: the system's password prompt. A Porthole installed from
//! a .deb installs its update with `pkexec dpkg -i <package>` (tauri-plugin-updater), and
//! pkexec asks polkit, which shows the person a password prompt. This machine and CI have no
//! polkit and no prompt, and the test runs as root, so a stand-in `pkexec` first on the app's
//! PATH checks that it was asked for exactly `dpkg -i <a file>` and runs that. Everything else
//! is the app's own: the feed, the signature check, the download, dpkg, the restart.
//!
//! The WebDriver session ends with the old process and cannot follow the new one, so after
//! Enter the test watches the machine instead: /proc, dpkg-query and the X display (xdotool).
//! Needs what `install::` needs, and a debug package: only a debug build reads the test's
//! feed and key from its environment (a release build trusts its own key alone).

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use minisign::KeyPair;
use porthole_e2e::{App, Eventually};
use thirtyfour::Key;

use super::{contains, package, run, Installed, INSTALLED};
use crate::keyboard_walk::{press, tab_to_id};
use crate::updates::{Feed, Package};

#[tokio::test]
#[ignore = "needs a built debug .deb, root and a display: run by scripts/test.sh"]
async fn an_offered_update_is_installed_with_the_keyboard_and_porthole_restarts_as_it() {
    let deb = package();
    let installed = Installed::install(&deb);
    let program = std::fs::read(INSTALLED).expect("read the installed program");
    assert!(
        contains(&program, b"PORTHOLE_UPDATE_FEED"),
        "{} is not a debug build: only a debug build reads the test's feed and key \
         (scripts/package.sh --debug makes one)",
        deb.display()
    );
    let version = newer_than(&dpkg_query("${Version}"));
    let newer = Newer::repack(&deb, &version);
    let old_file = inode(Path::new(INSTALLED));
    let trusted = KeyPair::generate_unencrypted_keypair().expect("a key pair");
    let feed = Feed::serve_package(&trusted, newer.package()).await;
    let pkexec = StandInPkexec::new();

    let mut options = feed.options(&trusted);
    options.program = Some(INSTALLED.into());
    options.env.push(("PATH".into(), pkexec.path()));
    let mut app = App::launch_with(options)
        .await
        .expect("the installed app opens");
    let wait = Eventually::new(&app.driver).within(Duration::from_secs(120));
    wait.at_least("machine-row", 3)
        .await
        .expect("the Demo's computers");
    let offer = wait
        .text("update-offer", |t| t.contains("Install and restart"))
        .await
        .expect("the newer package is fetched, verified and offered");
    assert!(
        offer.contains(&format!("Porthole {version} is available")),
        "the offer names the newer version: {offer:?}"
    );
    assert_eq!(feed.downloads(), 1, "the package was fetched once");
    let old = app.pids();
    assert_eq!(
        old.len(),
        1,
        "one Porthole process before the update: {old:?}"
    );
    let old = old[0];
    let _old = Ends(old);

    let install = tab_to_id(&app, false, "update-install").await;
    assert!(
        install.keyboard,
        "Install and restart is reached by the keyboard"
    );
    app.screenshot("install-update-offer")
        .await
        .expect("screenshot");
    press(&app, Key::Enter).await;
    // From here the session is gone with the old process: no more WebDriver commands.

    let new = until("Porthole restarted as the new package", || {
        let new = app.pids().into_iter().find(|&p| p != old)?;
        let now = dpkg_query("${Version} ${db:Status-Abbrev}");
        (!alive(old) && now.trim() == format!("{version} ii")).then_some(new)
    });
    let _new = Ends(new);
    assert_eq!(
        pkexec.asked(),
        "dpkg -i\n",
        "pkexec was asked once, for dpkg -i"
    );
    let running = inode(&PathBuf::from(format!("/proc/{new}/exe")));
    assert_eq!(
        running,
        inode(Path::new(INSTALLED)),
        "the new process runs the installed file"
    );
    assert_ne!(running, old_file, "the installed file is the new package's");
    let window = until("the restarted Porthole's window, its page drawn", || {
        drawn_window(new, "install-update-restarted")
    });
    eprintln!("restarted as {version}: process {new}, window {window}");

    app.session_lost();
    drop(app);
    installed.remove();
    assert!(
        !Path::new(INSTALLED).exists(),
        "apt-get remove took it away"
    );
}

/// The same .deb with a higher Version in its control file, in a temporary folder.
struct Newer {
    _dir: tempfile::TempDir,
    deb: PathBuf,
    version: String,
}

impl Newer {
    fn repack(deb: &Path, version: &str) -> Newer {
        let dir = tempfile::tempdir().expect("temp dir");
        let tree = dir.path().join("tree");
        run(
            "dpkg-deb",
            &["-R".as_ref(), deb.as_os_str(), tree.as_os_str()],
        );
        let control = tree.join("DEBIAN/control");
        let fields = std::fs::read_to_string(&control).expect("read control");
        let old = fields
            .lines()
            .find(|l| l.starts_with("Version:"))
            .expect("a Version");
        let fields = fields.replace(old, &format!("Version: {version}"));
        std::fs::write(&control, fields).expect("write control");
        let out = dir.path().join(format!("porthole_{version}_amd64.deb"));
        // gzip at its fastest: the package is ~100 MB unpacked and only crosses loopback.
        run(
            "dpkg-deb",
            &[
                "-Zgzip".as_ref(),
                "-z1".as_ref(),
                "-b".as_ref(),
                tree.as_os_str(),
                out.as_os_str(),
            ],
        );
        Newer {
            _dir: dir,
            deb: out,
            version: version.to_owned(),
        }
    }

    /// Announced under the key the plugin looks up first for a .deb install
    /// (`{os}-{arch}-deb`), and nothing else, so an offer proves it read that key.
    fn package(&self) -> Package {
        Package {
            version: self.version.clone(),
            file: self.deb.file_name().unwrap().to_string_lossy().into_owned(),
            bytes: Bytes::from(std::fs::read(&self.deb).expect("read the newer package")),
            platforms: vec!["linux-x86_64-deb"],
        }
    }
}

/// The stand-in for polkit's pkexec (see the module docs): runs `dpkg -i <file>` and nothing
/// else, and notes what it was asked.
struct StandInPkexec(tempfile::TempDir);

impl StandInPkexec {
    const SCRIPT: &'static str = r#"#!/bin/sh
# The update test's stand-in for pkexec: there is no polkit here and the test runs as root.
if [ $# -ne 3 ] || [ "$1" != dpkg ] || [ "$2" != -i ] || [ ! -f "$3" ]; then
  echo "pkexec stand-in: refused $*" >&2
  exit 127
fi
echo "$1 $2" >> "$(dirname "$0")/asked"
exec "$@"
"#;

    fn new() -> StandInPkexec {
        let dir = tempfile::tempdir().expect("temp dir");
        let script = dir.path().join("pkexec");
        std::fs::write(&script, Self::SCRIPT).expect("write pkexec");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        StandInPkexec(dir)
    }

    /// The PATH the app is started with: this folder first.
    fn path(&self) -> String {
        let rest = std::env::var("PATH").unwrap_or_default();
        format!("{}:{rest}", self.0.path().display())
    }

    fn asked(&self) -> String {
        std::fs::read_to_string(self.0.path().join("asked")).unwrap_or_default()
    }
}

/// A process of the app, with its WebKit helpers, ended when the test ends, passed or not.
struct Ends(u32);

impl Drop for Ends {
    fn drop(&mut self) {
        let mut pids = children(self.0);
        pids.insert(0, self.0);
        for signal in ["-TERM", "-KILL"] {
            for pid in pids.iter().filter(|&&p| alive(p)) {
                let _ = Command::new("kill")
                    .args([signal, &pid.to_string()])
                    .status();
            }
            let deadline = Instant::now() + Duration::from_secs(5);
            while pids.iter().any(|&p| alive(p)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

/// Polls `found` until it gives something, for up to two minutes (dpkg unpacks ~100 MB).
fn until<T>(what: &str, mut found: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(it) = found() {
            return it;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{what}: not after 120 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The process's Porthole window, once it is on the screen (mapped and viewable) with a page
/// drawn in it: a captured window of a few colours is an empty webview, Porthole's first
/// screen has hundreds (text, icons, the live view). The capture is kept as `name`.png.
fn drawn_window(pid: u32, name: &str) -> Option<String> {
    let xdotool = |args: &[&str]| {
        let out = Command::new("xdotool")
            .args(args)
            .output()
            .expect("xdotool runs");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let ids = xdotool(&["search", "--onlyvisible", "--pid", &pid.to_string()]);
    let window = ids
        .lines()
        .find(|id| xdotool(&["getwindowname", id]).starts_with("Porthole"))?
        .to_owned();
    let path = porthole_e2e::screenshot_dir().join(format!("{name}.png"));
    let captured = Command::new("import")
        .args(["-window", &window])
        .arg(&path)
        .status()
        .is_ok_and(|s| s.success());
    let colours = Command::new("identify")
        .args(["-format", "%k"])
        .arg(&path)
        .output()
        .expect("identify runs");
    let colours: u32 = String::from_utf8_lossy(&colours.stdout)
        .parse()
        .unwrap_or(0);
    (captured && colours > 100).then_some(window)
}

/// A process's state letter and parent, from /proc/<pid>/stat (after the name in brackets).
fn stat(pid: &str) -> Option<(String, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut fields = stat.rsplit(')').next()?.split_whitespace();
    Some((fields.next()?.to_owned(), fields.next()?.parse().ok()?))
}

/// A running process (a zombie has ended: only its parent has not looked yet).
fn alive(pid: u32) -> bool {
    stat(&pid.to_string()).is_some_and(|(state, _)| state != "Z")
}

fn children(pid: u32) -> Vec<u32> {
    let entries = std::fs::read_dir("/proc").expect("/proc");
    let names = entries.flatten().map(|e| e.file_name());
    names
        .filter_map(|n| n.to_str()?.parse::<u32>().ok())
        .filter(|child| stat(&child.to_string()).is_some_and(|(_, parent)| parent == pid))
        .collect()
}

fn dpkg_query(format: &str) -> String {
    let out = Command::new("dpkg-query")
        .args(["-W", &format!("-f={format}"), "porthole"])
        .output()
        .expect("dpkg-query runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The next minor version: 0.1.0 gives 0.2.0.
fn newer_than(version: &str) -> String {
    let mut parts = version.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    format!("{major}.{}.0", minor + 1)
}

fn inode(path: &Path) -> u64 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .ino()
}
