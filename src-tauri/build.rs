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
///   (Debian 12, Ubuntu 22.10, Fedora 37), which the packages declare (tauri.conf.json).
fn release_link_args() {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let x86_64_linux_gnu = var("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu";
    if var("PROFILE") == "release" && x86_64_linux_gnu {
        println!("cargo:rustc-link-arg-bins=-Wl,--icf=all");
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
