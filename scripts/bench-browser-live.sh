#!/usr/bin/env bash
# The browser side of BENCHMARKS.md, "Live view: the app against Chromium": guacamole-common-js
# in Chromium connected straight to the simulator's live stream, painted frames per second.
#
#   scripts/bench-browser-live.sh [WxH] [SECONDS] [all|echo|headless|headed]
#
# Defaults: 1280x800, 60 s, all (echo = the stream's own ceiling with a viewer that draws
# nothing, then Chromium headless, then Chromium headed in an Xvfb window). Installs what it
# needs when missing: the chromium package (with sudo when not root), Xvfb for headed runs, the
# benchmark's npm packages as locked, and the release build of the simulator.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

size=${1:-1280x800}
secs=${2:-60}
mode=${3:-all}

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

apt_missing=()
[ -x /usr/bin/chromium ] || apt_missing+=(chromium)
if [ "$mode" = all ] || [ "$mode" = headed ]; then
  command -v xvfb-run >/dev/null || apt_missing+=(xvfb xauth)
fi
if [ ${#apt_missing[@]} -gt 0 ]; then
  say "Installing system packages: ${apt_missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${apt_missing[@]}" >/dev/null
fi
command -v node >/dev/null || { echo "Node.js 20 or newer is needed (scripts/setup.sh installs it)" >&2; exit 1; }

bench=bench/browser-live
if [ ! -d $bench/node_modules ] || [ $bench/package-lock.json -nt $bench/node_modules/.package-lock.json ]; then
  say "Installing the benchmark's npm packages"
  (cd $bench && npm ci --no-audit --no-fund --loglevel=error)
fi

# The stream comes from the optimized simulator, so its encoding is not what limits the viewer.
# PORTHOLE_SIM=path uses a simulator binary as it is (e.g. a debug build, as the app embeds).
sim=${PORTHOLE_SIM:-}
if [ -z "$sim" ]; then
  sim="${CARGO_TARGET_DIR:-$PWD/target}/release/porthole-sim"
  say "Building the simulator (release)"
  if ! cargo build --release -p porthole-sim --quiet; then
    # The working tree is shared: another engineer's half-made change may not build just now.
    [ -x "$sim" ] || exit 1
    say "The simulator did not build; using the last build ($(date -r "$sim" -u '+%F %T UTC'))"
  fi
fi

# Chromium writes caches and settings under XDG folders: keep them out of the home folder.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME=$scratch/cache XDG_CONFIG_HOME=$scratch/config XDG_DATA_HOME=$scratch/data

run() { node $bench/bench.mjs --size "$size" --secs "$secs" --sim "$sim" "$@"; }

case "$mode" in
  all|echo|headless|headed) ;;
  *) echo "mode must be all, echo, headless or headed" >&2; exit 2 ;;
esac
if [ "$mode" = all ] || [ "$mode" = echo ]; then run --viewer echo; fi
if [ "$mode" = all ] || [ "$mode" = headless ]; then run; fi
if [ "$mode" = all ] || [ "$mode" = headed ]; then
  # A screen larger than 1920x1080 so the whole page and the browser's own bars fit on it.
  xvfb-run -a -s "-screen 0 2560x1440x24" bash -c "$(declare -f run); size=$size secs=$secs sim=$sim bench=$bench; run --headed"
fi
