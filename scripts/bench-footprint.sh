#!/usr/bin/env bash
# The release app's footprint beside a Tauri hello world's (bench/hello: same tauri, same
# [profile.release]), built and measured in one run on this machine: binary size, launch to
# the first screen, idle memory, CPU and requests while following a task. Figures and how to
# read them: BENCHMARKS.md, "Footprint against a Tauri hello world".
#
#   scripts/bench-footprint.sh            # build both, then measure everything
#   FOOTPRINT_SKIP_BUILD=1 scripts/bench-footprint.sh launch memory following
#
# FOOTPRINT_RUNS (launches of each, 10) and FOOTPRINT_SECS (idle and following windows, 60)
# are passed on. The hello world builds in its own target folder (target/hello-bench).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
target="${CARGO_TARGET_DIR:-$PWD/target}"
hello_target="$target/hello-bench"

# The comparison is only fair with the same release profile on both sides.
# Every [profile.release] and [profile.release.package.*] line, comments and blanks left out.
profile() { awk '/^\[/ { on = ($0 ~ /^\[profile\.release[].]/) } on && !/^#/ && NF' "$1"; }
if ! diff <(profile Cargo.toml) <(profile bench/hello/Cargo.toml) >/dev/null; then
  echo "bench/hello/Cargo.toml's release profile differs from the workspace's:" >&2
  diff <(profile Cargo.toml) <(profile bench/hello/Cargo.toml) >&2 || true
  exit 1
fi
app_tauri=$(grep -A1 '^name = "tauri"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
hello_tauri=$(grep -A1 '^name = "tauri"$' bench/hello/Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
if [ "$app_tauri" != "$hello_tauri" ]; then
  echo "tauri $app_tauri in the app, $hello_tauri in bench/hello: copy Cargo.lock over bench/hello/Cargo.lock and build it once" >&2
  exit 1
fi

if [ -z "${FOOTPRINT_SKIP_BUILD:-}" ]; then
  (cd ui && npm run build >/dev/null)
  start=$(date +%s)
  # bench-switches: the measured run points the Demo at its own simulator (crates/core/src/test_switch/mod.rs).
  cargo build -p porthole --release --locked --features bench-switches
  echo "app release build: $(( $(date +%s) - start )) s (incremental: only a fresh target/ gives the full build time)"
  start=$(date +%s)
  CARGO_TARGET_DIR="$hello_target" cargo build --release --locked --manifest-path bench/hello/Cargo.toml
  echo "hello world release build: $(( $(date +%s) - start )) s"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Private copies, so a build running meanwhile cannot swap a binary under the bench.
cp "$target/release/porthole" "$tmp/porthole"
cp "$hello_target/release/hello" "$tmp/hello"

mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB (%d bytes)", b / 1048576, b }'; }
echo "tauri $app_tauri, $(rustc --version)"
echo "RESULT binary size app: $(mib "$(stat -c %s "$tmp/porthole")")"
echo "RESULT binary size hello world: $(mib "$(stat -c %s "$tmp/hello")")"

mkdir -p "$tmp"/{cache,data,config,runtime}
chmod 700 "$tmp/runtime"
export XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
export XDG_RUNTIME_DIR="$tmp/runtime" NO_AT_BRIDGE=1
export PORTHOLE_APP="$tmp/porthole" FOOTPRINT_HELLO="$tmp/hello"
# Inside the D-Bus session: a throwaway unlocked keyring, as scripts/e2e.sh gives the tests.
inner='eval "$(printf porthole-bench | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
exec keyctl session - cargo run -q -p porthole-e2e --example footprint -- "$@"'
xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- bash -c "$inner" footprint "$@"
