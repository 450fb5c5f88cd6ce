#!/usr/bin/env bash
# Where a live frame's time goes between the bridge and the page, to the microsecond: runs the
# in-app live bench (BENCHMARKS.md, "Live view in the app") and, from its 25th second, records
# 8 s of the syscalls that carry a frame (the bridge's write, WebKit's network process reading
# it and handing it to its IPC thread, the web process receiving it), then prints per-frame
# figures with frames.py.
#
#   bench/live-syscalls/trace.sh [WxH] [SECONDS]     (defaults 1920x1080, 45)
#
# Needs perf (linux-perf) with syscall tracepoints, as root; uses the release app if built
# (PORTHOLE_APP overrides). Not part of the test command: it reads the kernel's tracing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

size=${1:-1920x1080}
secs=${2:-45}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
app=${PORTHOLE_APP:-$PWD/target/release/porthole}
command -v perf >/dev/null || { echo "perf is not installed (apt-get install linux-perf)" >&2; exit 1; }

PORTHOLE_APP=$app PORTHOLE_LIVE_BENCH=$size PORTHOLE_LIVE_BENCH_SECS=$secs \
  scripts/e2e.sh live::bench --nocapture >"$out/bench.log" 2>&1 &
bench=$!
sleep 25
perf record -q -o "$out/perf.data" -a \
  -e syscalls:sys_enter_sendto,syscalls:sys_exit_sendto \
  -e syscalls:sys_enter_recvfrom,syscalls:sys_exit_recvfrom \
  -e syscalls:sys_enter_sendmsg,syscalls:sys_exit_recvmsg \
  -- sleep 8
wait "$bench"
grep "LIVE BENCH $size:" "$out/bench.log" || { tail -20 "$out/bench.log"; exit 1; }
perf script -F comm,pid,tid,time,event,trace -i "$out/perf.data" 2>/dev/null \
  | python3 bench/live-syscalls/frames.py
