#!/usr/bin/env bash
# Every check CI runs, in the order that fails fastest: formatting, UI checks, lints, the Rust
# tests (simulator conformance, client and live against the simulator over loopback), then
# the end-to-end tests: the built app in a real window under Xvfb, driven over WebDriver.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh --e2e
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*" >&2; }

step "Rust formatting"
cargo fmt --all --check

step "Interface: type check, lint, component tests, build"
(
  cd ui
  npm run check
  npm run lint
  npm test
  npm run build
)

step "Rust lints"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "Rust tests"
if command -v cargo-nextest >/dev/null; then
  cargo nextest run --workspace --locked --no-fail-fast
else
  cargo test --workspace --locked --no-fail-fast
fi

step "End-to-end tests (the app in a real window under Xvfb)"
cargo build -p porthole --locked

# The package command, as ./run package runs it but for the debug build: the same bundler and
# package layout with the debug program just built, to keep CI's time (a release build adds
# about an hour on two loaded cores; docs/release.md has the figures). The install test
# installs this .deb.
step "Package: the debug build's .deb (Tauri's bundler)"
scripts/package.sh --debug
PORTHOLE_DEB=$(ls "${CARGO_TARGET_DIR:-$PWD/target}"/debug/bundle/deb/*.deb)
export PORTHOLE_DEB
scripts/e2e.sh
