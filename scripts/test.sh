#!/usr/bin/env bash
# Every check CI runs, in the order that fails fastest: formatting, UI checks, lints, the Rust
# tests (simulator conformance, client and live against the simulator over loopback), then
# the end-to-end tests: the built app in a real window under Xvfb, driven over WebDriver.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh --e2e
export PATH="$HOME/.cargo/bin:$PATH"

# Each phase's time, printed at the end (and the total), so a phase that grows is seen.
phases=()
phase_name=
phase_start=
run_start=$(date +%s)
end_phase() {
  [ -z "$phase_name" ] || phases+=("$(printf '%4d s  %s' $(($(date +%s) - phase_start)) "$phase_name")")
}
step() {
  end_phase
  phase_name=$*
  phase_start=$(date +%s)
  printf '\n\033[1m==> %s\033[0m\n' "$*" >&2
}
summary() {
  end_phase
  phase_name=
  printf '\n==> Time of each phase\n' >&2
  printf '%s\n' "${phases[@]}" >&2
  printf '%4d s  total\n' $(($(date +%s) - run_start)) >&2
}
trap summary EXIT

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

# The interface's checks beside these lints were tried (a fresh clone, 2026-11-29): the lints
# keep both cores busy almost to their end, and together the two phases took 30 s longer.
step "Rust lints"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "Rust tests"
# The examples (the bindings exporter, the benchmarks' programs) are not tests: the lints
# above compiled them, and building them here would link the whole app once more for nothing.
if command -v cargo-nextest >/dev/null; then
  cargo nextest run --workspace --lib --bins --tests --locked --no-fail-fast
else
  cargo test --workspace --lib --bins --tests --locked --no-fail-fast
fi

step "The app, for the end-to-end tests"
# With the workspace's features, as the Rust tests above built every crate: `-p porthole`
# alone resolves serde_json without the preserve_order the test harness's WebDriver client
# turns on, and would build serde_json and all that stands on it (Tauri, the app) again.
# scripts/package.sh --debug builds with the same command, so it finds nothing to do.
cargo build --workspace --bins --tests --locked

# The package command, as ./run package runs it but for the debug build: the same bundler and
# package layout with the debug program just built, to keep CI's time (a release build adds
# about an hour on two loaded cores; docs/release.md has the figures). The install test
# installs this .deb.
step "Package: the debug build's .deb (Tauri's bundler)"
scripts/package.sh --debug
PORTHOLE_DEB=$(ls "${CARGO_TARGET_DIR:-$PWD/target}"/debug/bundle/deb/*.deb)
export PORTHOLE_DEB

step "End-to-end tests (the app in a real window under Xvfb, ${PORTHOLE_E2E_SHARDS:-3} shards)"
scripts/e2e.sh
