#!/usr/bin/env bash
# Runs the end-to-end tests in parallel shards (PORTHOLE_E2E_SHARDS, 3 by default). Each shard
# is a private session of its own (scripts/e2e-shard.sh): X display, D-Bus session (so the
# app's single-instance lock, a bus name, is per shard), Secret Service keyring, kernel
# keyring, XDG folders and copy of the app; ports are drawn free by each launch. The tests
# are split so the shards take about equal time, from the durations the last runs recorded
# (tests/e2e/durations.tsv). Every test runs once, in its own process; its output goes to
# target/e2e/logs/<test>.log and is printed when it fails. Screenshots land in target/e2e/.
#
#   scripts/e2e.sh                 every test
#   scripts/e2e.sh keys:: kill     only the tests whose name contains one of these
#   PORTHOLE_E2E_SHARDS=1 ...      one shard: the tests one after another, as before
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}
# Three on two cores: one test keeps about two thirds of a core busy (34 s of CPU in 51 s of
# test time, BENCHMARKS.md "End-to-end phase"), the rest is waiting on the window and the
# Demo's clock, so two shards left about a third of the machine idle.
shards=${PORTHOLE_E2E_SHARDS:-3}
case "$shards" in '' | *[!0-9]* | 0)
  echo "PORTHOLE_E2E_SHARDS must be a number of shards, 1 or more: $shards" >&2
  exit 2
  ;;
esac

# The test program, built with the whole workspace's features so it reuses what the Rust
# tests built (`-p porthole-e2e` alone resolves porthole-client without specta and builds it
# again).
bin=$(cargo test --workspace --locked --no-run --test e2e --message-format=json |
  python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "e2e" and m.get("executable"):
        print(m["executable"])')
[ -x "$bin" ] || {
  echo "the end-to-end test program was not built" >&2
  exit 1
}

# Benchmarks live beside the tests (they drive the same window) but are not tests: they run
# only when asked for with PORTHOLE_LIVE_BENCH.
skip=()
[ -n "${PORTHOLE_LIVE_BENCH:-}" ] || skip=(--skip bench_)

# The install tests install a .deb with apt-get, as root: the one named by PORTHOLE_DEB
# (scripts/test.sh builds a debug one and names it), else the release .deb ./run package made.
# Without a package, or without root, they are skipped, and said so.
if [ -z "${PORTHOLE_DEB:-}" ]; then
  for deb in "$target"/release/bundle/deb/*.deb; do
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

run=$(mktemp -d)
trap 'rm -rf "$run"' EXIT
# A copy, as of the app below: a build meanwhile writes the test program at the same path.
cp "$bin" "$run/e2e"
bin=$run/e2e
mkdir -p target/e2e/logs
"$bin" --ignored --list --format terse "${skip[@]}" "$@" | sed -n 's/: test$//p' >"$run/tests"
total=$(wc -l <"$run/tests")
if [ "$total" = 0 ]; then
  echo "no end-to-end test matches: $*" >&2
  exit 1
fi
[ "$shards" -le "$total" ] || shards=$total
python3 scripts/e2e-split.py "$shards" tests/e2e/durations.tsv "$run/tests" "$run/shard"

# A private copy of the app for each shard: a build running meanwhile must not swap the binary
# under a test, and a shard ends every process of its own copy between tests, which must not
# be another shard's app.
app=${PORTHOLE_APP:-$target/debug/porthole}
echo "==> $total end-to-end tests in $shards shards (logs in target/e2e/logs/)" >&2
start=$(date +%s)
pids=()
for ((i = 1; i <= shards; i++)); do
  scripts/e2e-shard.sh "$i" "$bin" "$app" "$run/shard.$i" "$run/results.$i" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
elapsed=$(($(date +%s) - start))

# What each test took, for the next split: a test of another run keeps its last time.
cat "$run"/results.* 2>/dev/null | awk -F'\t' '{print $3 "\t" $2}' >"$run/measured"
python3 scripts/e2e-split.py --merge tests/e2e/durations.tsv "$run/measured" >target/e2e/durations.tsv

passed=$(cat "$run"/results.* 2>/dev/null | awk -F'\t' '$1 == "ok"' | wc -l)
failed=$(cat "$run"/results.* 2>/dev/null | awk -F'\t' '$1 != "ok"' | cut -f3)
nfailed=$(printf '%s' "$failed" | grep -c . || true)
for name in $failed; do
  printf '\n\033[1m==> FAILED %s: its output (target/e2e/logs/%s.log)\033[0m\n' "$name" "$name" >&2
  cat "target/e2e/logs/$name.log" >&2
done
missing=$((total - passed - nfailed))
printf '\n==> end-to-end: %d passed, %d failed' "$passed" "$nfailed" >&2
[ "$missing" = 0 ] || printf ', %d not run (a shard ended early)' "$missing" >&2
printf ' of %d, %d shards, %d min %02d s\n' "$total" "$shards" $((elapsed / 60)) $((elapsed % 60)) >&2
[ "$status" = 0 ] && [ "$nfailed" = 0 ] && [ "$missing" = 0 ]
