"""Per live frame, from `perf script -F comm,pid,tid,time,event,trace` on stdin (trace.sh).

Times are from the bridge's `sendto` of a frame (> 50 KB, the app process) to: WebKit's network
process having read all of it from the socket, its IPC thread (`ReceiveQueue`) sending it on,
and the web process's IPC thread receiving it. Also counts frames the network process received
in more than one burst (a read that found the socket empty in the middle of a frame), which is
what TCP pacing did to the 1920x1080 p99 before the frame socket turned it off.
"""
import bisect
import re
import sys
from collections import Counter

LINE = re.compile(r"\s*(.+?)\s+(\d+)/(\d+)\s+([\d.]+):\s+syscalls:(\S+):\s*(.*)")
FRAME_MIN = 50_000


def returned(args):
    value = int(re.search(r"0x([0-9a-f]+)\s*$", args).group(1), 16)
    return value - (1 << 64) if value > 1 << 63 else value


events = []
for line in sys.stdin:
    m = LINE.match(line)
    if m:
        comm, pid, tid, t, name, args = m.groups()
        events.append((float(t) * 1000, comm, int(pid), int(tid), name, args))

network = next(e[2] for e in events if e[1].startswith("WebKitNetwork"))
web = next(e[2] for e in events if e[1].startswith("WebKitWebProces"))

writes, started = [], {}
for t, comm, pid, tid, name, args in events:
    if pid in (network, web):
        continue
    if name == "sys_enter_sendto":
        started[tid] = t
    elif name == "sys_exit_sendto" and tid in started:
        size, began = returned(args), started.pop(tid)
        if size > FRAME_MIN:
            writes.append((began, size))

fd_of, reads = {}, []
for t, comm, pid, tid, name, args in events:
    if pid != network:
        continue
    if name == "sys_enter_recvfrom":
        fd_of[tid] = re.search(r"fd: (0x[0-9a-f]+)", args).group(1)
    elif name == "sys_exit_recvfrom":
        reads.append((t, returned(args), fd_of.get(tid)))
socket_fd = Counter(fd for _, n, fd in reads if n > 0).most_common(1)[0][0]
reads = [(t, n) for t, n, fd in reads if fd == socket_fd]

# Per read with data: when, and the bytes read so far. Where each burst of reads (reads with
# data until one finds the socket empty) ends, in the same count: a frame is split when one of
# these falls inside it.
times, sums, burst_ends = [], [], []
total, in_burst = 0, False
for t, n in reads:
    if n > 0:
        total += n
        times.append(t)
        sums.append(total)
        in_burst = True
    elif in_burst:
        burst_ends.append(total)
        in_burst = False
handed = sorted(t for t, c, p, _, n, _ in events if p == network and c == "ReceiveQueue" and n == "sys_enter_sendmsg")
received = sorted(t for t, c, p, _, n, _ in events if p == web and c == "ReceiveQueue" and n == "sys_exit_recvmsg")

rows, split = [], 0
for began, size in writes:
    i = bisect.bisect_left(times, began)
    if i >= len(times):
        break
    start = sums[i - 1] if i else 0
    j = bisect.bisect_left(sums, start + size)
    if j >= len(times):
        break
    # A frame's message carries a few header bytes more than its payload: ignore the last 16.
    b = bisect.bisect_right(burst_ends, start)
    if b < len(burst_ends) and burst_ends[b] < start + size - 16:
        split += 1
    k = bisect.bisect_left(handed, times[j])
    if k >= len(handed):
        break
    m = bisect.bisect_left(received, handed[k])
    if m >= len(received):
        break
    rows.append((times[j] - began, handed[k] - began, received[m] - began))


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


if not rows:
    sys.exit("no frame writes recorded (is the live bench running, and perf allowed to trace?)")
print(f"{len(rows)} frames; ms after the bridge began writing a frame (p50 / p99 / max):")
for k, what in enumerate(("network process has read it", "its IPC thread sent it on", "web process has it")):
    v = [r[k] for r in rows]
    print(f"  {what}: {pct(v, .5):.2f} / {pct(v, .99):.2f} / {max(v):.2f}")
print(f"frames the network process received in more than one part: {split} of {len(rows)}")
