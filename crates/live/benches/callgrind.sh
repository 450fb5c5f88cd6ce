#!/usr/bin/env bash
# CPU instructions per byte of the live codec's parse, per stream and cut, counted by valgrind's
# callgrind (deterministic, unlike wall-clock time on a shared machine). For each case it runs
# one parse and two parses and reports the difference, so loading the stream is left out.
#
#   bash crates/live/benches/callgrind.sh [stream...]      (from the workspace root)
#
# Under valgrind the CPU has no AVX-512, so library code picks its AVX2 (or SSE2) paths.
set -euo pipefail
cd "$(dirname "$0")/../../.."
# CODEC_CALLGRIND_BIN measures another build (e.g. a copy kept from before a change).
bin=${CODEC_CALLGRIND_BIN:-}
if [ -z "$bin" ]; then
  cargo bench -p porthole-live --bench codec_callgrind --no-run 2>/dev/null
  bin=$(ls -t target/release/deps/codec_callgrind-* | grep -v '\.d$' | head -1)
fi
streams=("$@")
if [ ${#streams[@]} -eq 0 ]; then
  streams=(sim-1280x800 sim-1920x1080 synthetic-1280x800 synthetic-1920x1080 synthetic-small-ops)
fi
collected() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for stream in "${streams[@]}"; do
  bytes=$("$bin" "$stream" ws_messages 0 | sed -n 's/.* bytes=\([0-9]*\).*/\1/p')
  for way in ws_messages chunks_8k chunks_64k; do
    one=$(collected "$stream" "$way" 1)
    two=$(collected "$stream" "$way" 2)
    awk -v s="$stream" -v w="$way" -v b="$bytes" -v one="$one" -v two="$two" \
      'BEGIN { d = two - one; printf "%-20s %-12s %12d bytes %14d instructions %7.3f per byte\n", s, w, b, d, d / b }'
  done
done
