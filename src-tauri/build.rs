fn main() {
    tauri_build::build();
    release_link_args();
}

/// Smaller release binary on x86_64 Linux (BENCHMARKS.md, "Binary size"), where rustc links
/// with its own LLD; debug builds and other targets link as before.
/// - Identical code folding: the generic code instantiated many times over often compiles to
///   the same bytes, kept once.
/// - Packed relative relocations (DT_RELR): the position-independent binary's 63,000 pointer
///   fix-ups take 14 KB instead of 24 bytes each (1.5 MB). Needs glibc 2.36 or newer to start
///   (Debian 12, Ubuntu 22.10, Fedora 37), which the packages declare (tauri.conf.json). So
///   only where the system building it has that glibc: built from source on Ubuntu 22.04
///   (2.35), the app must still start there, 1.5 MB larger.
fn release_link_args() {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let x86_64_linux_gnu = var("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu";
    if var("PROFILE") == "release" && x86_64_linux_gnu {
        println!("cargo:rustc-link-arg-bins=-Wl,--icf=all");
        if builds_for_itself() && glibc_at_least(2, 36) {
            println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
        }
    }
}

/// A native build: the glibc found on this system is the one the binary will meet first.
fn builds_for_itself() -> bool {
    std::env::var("HOST").ok() == std::env::var("TARGET").ok()
}

/// This system's glibc (`getconf GNU_LIBC_VERSION`: "glibc 2.36") is `major.minor` or newer.
/// Unknown counts as older: the larger binary starts everywhere.
fn glibc_at_least(major: u32, minor: u32) -> bool {
    let Ok(out) = std::process::Command::new("getconf")
        .arg("GNU_LIBC_VERSION")
        .output()
    else {
        return false;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(version) = text.trim().strip_prefix("glibc ") else {
        return false;
    };
    let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(have_major), Some(have_minor)) => (have_major, have_minor) >= (major, minor),
        _ => false,
    }
}
