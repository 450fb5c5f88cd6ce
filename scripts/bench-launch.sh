#!/usr/bin/env bash
# Launch-to-machine-list time and idle memory of the built app, in the same private display
# and D-Bus session as the end-to-end tests. Usage: scripts/bench-launch.sh [runs]
# Build first: (cd ui && npm run build) && cargo build -p porthole --release --features bench-switches
# (a release build reads the tests' switches only with that feature: crates/core/src/test_switch/mod.rs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{cache,data,config,runtime}
chmod 700 "$tmp/runtime"
export XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
export XDG_RUNTIME_DIR="$tmp/runtime" NO_AT_BRIDGE=1
export PORTHOLE_APP="${PORTHOLE_APP:-${CARGO_TARGET_DIR:-$PWD/target}/release/porthole}"
xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- \
  cargo run -q -p porthole-e2e --example launch_bench -- "${1:-5}"
