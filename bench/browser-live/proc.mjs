// CPU time and memory of processes from /proc (Linux), grouped the way Chromium splits its
// work: the browser process, its renderer, its GPU process (software compositing here, with
// --disable-gpu) and the rest (zygotes, network and storage services). Memory is PSS
// (proportional set size): Chromium's processes share many pages, and summed RSS would count
// them once per process.
import { readFileSync, readdirSync } from 'node:fs';

const TICKS = 100; // USER_HZ, 100 on Linux

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // the process ended between listing and reading
  }
}

/** { pid, ppid, cpu (s), pss (bytes) } of one process, or null when it is gone. */
export function sample(pid) {
  const stat = read(`/proc/${pid}/stat`);
  const rollup = read(`/proc/${pid}/smaps_rollup`);
  if (!stat || !rollup) return null;
  // Fields after the ")" that closes the command name: ppid is the 2nd, utime/stime the 12th/13th.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    ppid: Number(rest[1]),
    cpu: (Number(rest[11]) + Number(rest[12])) / TICKS,
    pss: Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024,
  };
}

/** Chromium's role for a process: 'renderer', 'gpu', 'browser' or 'other'. */
function role(pid) {
  // Chromium rewrites its children's argv as one space-separated title, so search the text.
  const type = /--type=([\w-]+)/.exec(read(`/proc/${pid}/cmdline`) ?? '')?.[1];
  if (!type) return 'browser';
  if (type === 'renderer') return 'renderer';
  if (type === 'gpu-process') return 'gpu';
  return 'other';
}

/** The process `rootPid` and all its descendants, summed by Chromium role. */
export function chromiumUsage(rootPid) {
  const all = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).map(sample).filter(Boolean);
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  const byRole = {};
  for (const p of all.filter((p) => tree.has(p.pid))) {
    const r = (byRole[role(p.pid)] ??= { cpu: 0, pss: 0, count: 0 });
    r.cpu += p.cpu;
    r.pss += p.pss;
    r.count++;
  }
  return byRole;
}

/** The 1-minute load average. */
export function load1() {
  return Number((read('/proc/loadavg') ?? 'NaN').split(' ')[0]);
}
