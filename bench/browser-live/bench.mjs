// Painted frames per second of guacamole-common-js in Chromium, connected straight to the
// simulator's live stream; or, with --viewer echo, the stream's own ceiling (echo.mjs).
// Usage: node bench.mjs [--size 1280x800] [--secs 60] [--viewer chromium|echo] [--headed]
//        [--sim ../../target/release/porthole-sim] [--chromium /usr/bin/chromium]
//        [--screenshot page.png]   (the page once measured: evidence that it drew the desktop)
// Prints one human line per figure and a final `BROWSER LIVE BENCH {json}` line.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { echoViewer } from './echo.mjs';
import { chromiumUsage, load1, sample } from './proc.mjs';
import { servePage } from './serve.mjs';
import { liveUrl, startSim } from './sim.mjs';

const { values: opt } = parseArgs({
  options: {
    size: { type: 'string', default: '1280x800' },
    secs: { type: 'string', default: '60' },
    viewer: { type: 'string', default: 'chromium' },
    headed: { type: 'boolean', default: false },
    sim: { type: 'string', default: fileURLToPath(new URL('../../target/release/porthole-sim', import.meta.url)) },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    screenshot: { type: 'string' },
  },
});
const [width, height] = opt.size.split('x').map(Number);
const secs = Number(opt.secs);
if (!(width > 0 && height > 0 && secs > 0)) throw new Error('expected --size WxH and --secs N');
if (!['chromium', 'echo'].includes(opt.viewer)) throw new Error('expected --viewer chromium or echo');
// The stream's pace; above 60 (up to the simulator's 120) the viewer, not the stream, is the
// limit. Shared with the app's bench (tests/e2e/live.rs) so both watch the same stream.
const FPS = Number(process.env.PORTHOLE_LIVE_BENCH_FPS || 60);
if (!(FPS >= 1 && FPS <= 120)) throw new Error('PORTHOLE_LIVE_BENCH_FPS must be 1 to 120');
const WARM_UP_MS = 3000; // as the app's bench: let the first full frame and resize settle
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The flags found to work for a headless WebKit here; Playwright adds its own automation defaults.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Polls `read` until `ok(value)`, or fails after `ms`. */
async function until(read, ok, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what} (last seen: ${JSON.stringify(v)})`);
    await sleep(200);
  }
}

/** Samples `read()` ({ painted, received }) once a second for `secs` seconds. */
async function measure(read) {
  const windows = [];
  const samples = [];
  const first = await read();
  const t0 = performance.now();
  let last = { ...first, t: t0 };
  for (let i = 0; i < secs; i++) {
    await sleep(1000);
    const now = { ...(await read()), t: performance.now() };
    samples.push(now);
    windows.push(((now.painted - last.painted) * 1000) / (now.t - last.t));
    last = now;
  }
  const elapsed = (last.t - t0) / 1000;
  const sorted = [...windows].sort((a, b) => a - b);
  const drawP50s = samples.map((s) => s.drawP50).filter((v) => v != null).sort((a, b) => a - b);
  const drawP99s = samples.map((s) => s.drawP99).filter((v) => v != null).sort((a, b) => a - b);
  return {
    drawP50: drawP50s[Math.floor(drawP50s.length / 2)],
    drawP99: drawP99s[Math.floor(drawP99s.length / 2)],
    seconds: elapsed,
    paintedMean: (last.painted - first.painted) / elapsed,
    paintedMedian: sorted[Math.floor(sorted.length / 2)],
    receivedPerSec: (last.received - first.received) / elapsed,
    framesPainted: last.painted - first.painted,
    framesReceived: last.received - first.received,
    last,
  };
}

const cpuShare = (before, after, seconds) => Math.round(((after - before) / seconds) * 100);

async function runEcho(url) {
  const viewer = echoViewer(url);
  try {
    const read = async () => {
      const s = viewer.stats();
      if (s.error) throw new Error(`the stream ended: ${s.error}`);
      return { painted: s.frames, received: s.frames, bytes: s.bytes };
    };
    await until(read, (s) => s.received >= 2, 30_000, 'no frames from the stream');
    await sleep(WARM_UP_MS);
    const bytes0 = (await read()).bytes;
    const m = await measure(read);
    return { ...m, mbPerSec: (m.last.bytes - bytes0) / m.seconds / 1e6 };
  } finally {
    viewer.close();
  }
}

/** The Chromium browser process started with `profile` (its descendants are the rest). */
function browserPid(profile) {
  for (const d of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let args;
    try {
      args = readFileSync(`/proc/${d}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (args.includes(`--user-data-dir=${profile}`) && !args.includes('--type=')) return Number(d);
  }
  return null;
}

async function runChromium(url) {
  const page = await servePage();
  const profile = mkdtempSync(join(tmpdir(), 'porthole-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: opt.chromium,
    headless: !opt.headed,
    args: FLAGS,
    viewport: { width, height }, // the Display at 1:1: every pixel of the stream is shown
  });
  try {
    const tab = context.pages()[0] ?? (await context.newPage());
    tab.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    tab.on('console', (m) => m.type() === 'error' && console.error(`page console: ${m.text()}`));
    await tab.goto(page.url);
    await tab.evaluate((u) => window.startViewer(u), url);
    const read = async () => {
      const b = await tab.evaluate(() => window.benchSample());
      if (b.error) throw new Error(`the viewer stopped: ${b.error}`);
      return b;
    };
    await until(read, (b) => b.painted >= 2 && b.width === width && b.height === height, 30_000, 'the page did not paint the stream');
    await sleep(WARM_UP_MS);
    const pid = browserPid(profile);
    const before = pid ? chromiumUsage(pid) : {};
    const m = await measure(read);
    const after = pid ? chromiumUsage(pid) : {};
    if (opt.screenshot) await tab.screenshot({ path: opt.screenshot });
    const usage = {};
    for (const role of Object.keys(after)) {
      const b = before[role] ?? after[role];
      usage[role] = {
        cpuPercent: cpuShare(b.cpu, after[role].cpu, m.seconds),
        pssMbStart: +(b.pss / 1e6).toFixed(1),
        pssMbEnd: +(after[role].pss / 1e6).toFixed(1),
      };
    }
    return { ...m, chromium: usage, focused: m.last.focused, version: context.browser()?.version() ?? null };
  } finally {
    await context.close();
    page.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const sim = await startSim(opt.sim);
try {
  const url = `${await liveUrl(sim)}&fps=${FPS}&animate=1&width=${width}&height=${height}`;
  const loadStart = load1();
  const simBefore = sample(sim.child.pid);
  const m = opt.viewer === 'echo' ? await runEcho(url) : await runChromium(url);
  const simAfter = sample(sim.child.pid);
  const mode = opt.viewer === 'echo' ? 'echo (no drawing)' : `chromium ${opt.headed ? 'headed (Xvfb)' : 'headless'}`;
  const result = {
    size: opt.size,
    viewer: mode,
    seconds: +m.seconds.toFixed(1),
    paintedFpsMean: +m.paintedMean.toFixed(1),
    paintedFpsMedian: +m.paintedMedian.toFixed(1),
    framesReceivedPerSec: +m.receivedPerSec.toFixed(1),
    framesPainted: m.framesPainted,
    framesReceived: m.framesReceived,
    ...(m.drawP50 !== undefined && { drawMsP50: +m.drawP50.toFixed(1), drawMsP99: +m.drawP99.toFixed(1) }),
    ...(m.mbPerSec !== undefined && { streamMBPerSec: +m.mbPerSec.toFixed(2) }),
    ...(m.chromium && { chromium: m.chromium, pageFocused: m.focused, chromiumVersion: m.version }),
    simulatorCpuPercent: simBefore && simAfter ? cpuShare(simBefore.cpu, simAfter.cpu, m.seconds) : null,
    streamFps: FPS,
    load1: { start: loadStart, end: load1() },
    at: new Date().toISOString(),
  };
  const what = opt.viewer === 'echo' ? 'echoed' : 'painted';
  console.log(
    `${opt.size} at fps=${FPS} ${mode}, ${result.seconds} s: ${what} ${result.paintedFpsMean} fps mean ` +
      `(median of 1 s windows ${result.paintedFpsMedian}); the simulator sent ${result.framesReceivedPerSec} frames/s ` +
      `(${result.framesReceived} frames); simulator CPU ${result.simulatorCpuPercent}% of a core; ` +
      `load ${result.load1.start} -> ${result.load1.end}`,
  );
  if (result.drawMsP50 !== undefined) {
    console.log(`  a frame's sync arriving -> drawn: p50 ${result.drawMsP50} ms, p99 ${result.drawMsP99} ms (last 512 frames, median of 1 s samples); page focused: ${result.pageFocused}`);
  }
  for (const [role, u] of Object.entries(result.chromium ?? {})) {
    console.log(`  chromium ${role}: CPU ${u.cpuPercent}% of a core, memory (PSS) ${u.pssMbStart} -> ${u.pssMbEnd} MB`);
  }
  console.log(`BROWSER LIVE BENCH ${JSON.stringify(result)}`);
} finally {
  sim.stop();
}
