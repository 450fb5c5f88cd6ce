#!/usr/bin/env bash
# Inside one shard's session (scripts/e2e-shard.sh): runs the listed end-to-end tests one after
# another, each in its own process with its output in target/e2e/logs/<test>.log, and says
# each result as it comes on fd 3 (the run's output; stderr is the shard's session log). Every test runs even when one fails.
#
#   scripts/e2e-run.sh <shard> <test program> <list of tests> <results file>
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
shard=$1 bin=$2 list=$3 results=$4
logs=$PWD/target/e2e/logs
# A test that hangs ends after this long, so the run ends and says which.
limit=${PORTHOLE_E2E_TEST_TIMEOUT:-900}

while IFS= read -r name; do
  [ -n "$name" ] || continue
  log="$logs/$name.log"
  start=$(date +%s%N)
  # In tests/, where `cargo test` runs them. SIGTERM first: tauri-driver stops
  # WebKitWebDriver only on it.
  (cd tests && timeout -k 20 "$limit" "$bin" --ignored --exact --nocapture --test-threads=1 "$name") \
    >"$log" 2>&1 </dev/null
  code=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  secs=$((ms / 1000)).$((ms % 1000 / 100))
  # libtest exits 0 when its filter matched nothing: a test counts only when it said "ok".
  if [ $code = 0 ] && grep -q '^test result: ok. 1 passed' "$log"; then
    result=ok
  else
    result=FAILED
    [ $code != 124 ] || echo "(ended after ${limit} s: PORTHOLE_E2E_TEST_TIMEOUT)" >>"$log"
  fi
  printf '%s\t%s\t%s\n' "$result" "$secs" "$name" >>"$results"
  printf '[shard %s] %-6s %6s s  %s\n' "$shard" "$result" "$secs" "$name" >&3
done <"$list"
