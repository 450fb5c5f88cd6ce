#!/usr/bin/env bash
# One shard of the end-to-end tests (scripts/e2e.sh starts them): its own X display, D-Bus
# session, unlocked throwaway Secret Service keyring, kernel session keyring, XDG folders in a
# temporary directory (so WebKit's helper daemons neither outlive the run nor write into the
# user's home) and copy of the app. Runs the listed tests one after another, each in its own
# process, and writes one line per test to the results file: ok|FAILED, seconds, name.
#
#   scripts/e2e-shard.sh <shard> <test program> <app> <list of tests> <results file>
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
shard=$1 bin=$2 app=$3 list=$4 results=$5
: >"$results"

tmp=$(mktemp -d)
xvfb=
cleanup() {
  [ -z "$xvfb" ] || kill "$xvfb" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp"/{cache,data,config,runtime}
chmod 700 "$tmp/runtime"
export XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
export XDG_RUNTIME_DIR="$tmp/runtime" NO_AT_BRIDGE=1
cp "$app" "$tmp/porthole"
export PORTHOLE_APP="$tmp/porthole"

# Xvfb picks a free display number itself and writes it to fd 3: two shards (or another run
# on the machine) starting at once cannot take the same one, as `xvfb-run -a` can.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$tmp/display" 2>"$tmp/xvfb.log" &
xvfb=$!
for _ in $(seq 100); do
  [ -s "$tmp/display" ] && break
  kill -0 "$xvfb" 2>/dev/null || break
  sleep 0.1
done
if [ ! -s "$tmp/display" ]; then
  echo "[shard $shard] Xvfb did not start: $(cat "$tmp/xvfb.log")" >&2
  exit 1
fi
export DISPLAY=":$(head -n1 "$tmp/display")"

# Inside the D-Bus session: unlock the keyring and open the kernel session keyring, the two
# places the app's keychain (keyring's persistent backend) uses, then run the tests. The
# session's own chatter (dbus-daemon, the keyring) goes to a log; the results to fd 3.
inner='eval "$(printf porthole-e2e | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
exec keyctl session - scripts/e2e-run.sh "$@"'
dbus-run-session -- bash -c "$inner" shard "$shard" "$bin" "$list" "$results" \
  3>&2 >"target/e2e/logs/shard-$shard.log" 2>&1
