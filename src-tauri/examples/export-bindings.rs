//! Writes `ui/src/lib/bindings.ts` from the Rust commands and types:
//! `cargo run -p porthole --example export-bindings`.
//!
//! An example, not a second `[[bin]]`: Tauri's bundler puts every binary of the crate in the
//! packages, and a person's install has no use for this one.

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(porthole_app::BINDINGS_PATH);
    match porthole_app::export_bindings(&path) {
        Ok(()) => println!("wrote {}", path.display()),
        Err(err) => {
            eprintln!("could not write the bindings: {err}");
            std::process::exit(1);
        }
    }
}
