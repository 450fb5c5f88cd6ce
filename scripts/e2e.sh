#!/usr/bin/env bash
# Runs the end-to-end tests in a private X display and D-Bus session, with every XDG folder in
# a temporary directory, so WebKit's helper daemons neither outlive the run nor write into the
# user's home. Screenshots land in target/e2e/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{cache,data,config,runtime} target/e2e
chmod 700 "$tmp/runtime"
export XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
export XDG_RUNTIME_DIR="$tmp/runtime" NO_AT_BRIDGE=1
# A private copy of the app: a build running meanwhile (another terminal, an editor) must not
# swap the binary under a test.
cp "${PORTHOLE_APP:-${CARGO_TARGET_DIR:-$PWD/target}/debug/porthole}" "$tmp/porthole"
export PORTHOLE_APP="$tmp/porthole"

# Inside the D-Bus session: unlock a throwaway Secret Service keyring and open a kernel
# session keyring, the two places the app's keychain (keyring's persistent backend) uses.
inner='eval "$(printf porthole-e2e | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
exec keyctl session - cargo test -p porthole-e2e --locked -- --ignored --test-threads=1 "$@"'

# Benchmarks live beside the tests (they drive the same window) but are not tests: they run
# only when asked for with PORTHOLE_LIVE_BENCH.
skip=()
[ -n "${PORTHOLE_LIVE_BENCH:-}" ] || skip=(--skip bench_)

# The install tests install a .deb with apt-get, as root: the one named by PORTHOLE_DEB
# (scripts/test.sh builds a debug one and names it), else the release .deb ./run package made.
# Without a package, or without root, they are skipped, and said so.
if [ -z "${PORTHOLE_DEB:-}" ]; then
  for deb in "${CARGO_TARGET_DIR:-$PWD/target}"/release/bundle/deb/*.deb; do
    [ -f "$deb" ] && export PORTHOLE_DEB=$deb
  done
fi
if [ -z "${PORTHOLE_DEB:-}" ]; then
  echo "==> No .deb under target/release/bundle/deb/ (./run package makes one): the install test is skipped" >&2
  skip+=(--skip install::)
elif [ "$(id -u)" != 0 ]; then
  echo "==> The install test installs $PORTHOLE_DEB with apt-get, which needs root: skipped (CI runs as root)" >&2
  skip+=(--skip install::)
else
  # The tests run in tests/, so a path relative to here would point nowhere.
  PORTHOLE_DEB=$(realpath "$PORTHOLE_DEB")
  export PORTHOLE_DEB
  # Installing an offered update (install::update::) points the installed app at the test's
  # own feed and key, which only a debug build reads from its environment: a release package
  # (./run package) trusts its own key alone.
  if ! dpkg-deb --fsys-tarfile "$PORTHOLE_DEB" | tar -xO --wildcards '*usr/bin/porthole' |
    grep -a PORTHOLE_UPDATE_FEED >/dev/null; then
    echo "==> $PORTHOLE_DEB is a release build, which reads no test feed: the update install test is skipped (scripts/package.sh --debug makes a debug .deb)" >&2
    skip+=(--skip install::update::)
  fi
fi

xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- bash -c "$inner" e2e "${skip[@]}" "$@"
