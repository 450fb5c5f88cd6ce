// One live view in the page: opens it through the Rust bridge (frames over a loopback socket:
// api.ts, socket.ts), draws its frames with guacamole-common-js's Display (via BridgeTunnel),
// acknowledges each frame once drawn (which is what sends its `sync` upstream and lets the next
// frame come), and measures what the HUD shows.
import type { LiveStats, LiveStatus, UiCode } from '../api';
import { Code, toUiError } from '../ui-error';
import { decodeFrame, type LiveFrame } from './frame';
import { createClient, type DisposableClient } from './client';
import type { GuacamoleTypes } from './guacamole';
import { BridgeTunnel } from './tunnel';

export type LiveBridge = {
  open: (machineId: string, onFrame: (message: unknown) => void) => Promise<number>;
  close: (viewId: number) => Promise<unknown>;
  ack: (viewId: number, seq: number) => Promise<unknown>;
  pause: (viewId: number) => Promise<unknown>;
  resume: (viewId: number) => Promise<unknown>;
  onStatus: (cb: (viewId: number, status: LiveStatus) => void) => Promise<() => void>;
  stats?: (viewId: number) => Promise<LiveStats | null>;
};

export type Phase =
  | { state: 'connecting'; attempt: number }
  | { state: 'live' }
  | { state: 'reconnecting'; words: string; retryInMs: number }
  | { state: 'asleep'; words: string }
  | { state: 'ended'; code: UiCode; words: string };

export type Metrics = {
  paintedFps: number;
  framesPainted: number;
  /** Frame arriving in Rust to its bytes in the page (ms). */
  bridgeP50: number | null;
  bridgeP99: number | null;
  /** Their mean: with a clock floored to the millisecond (`nowUnixMs`), adding 0.5 ms to it
   * estimates the true mean to well under that, where a percentile stays a whole ms uncertain. */
  bridgeMean: number | null;
  /** Of that, the part in Rust: arriving to handed to the socket (decoding its pictures). */
  rustP99: number | null;
  /** Frame arriving in Rust to drawn in the page (ms). */
  drawnP50: number | null;
};

const KEPT = 512;

// WebKit floors both `performance.timeOrigin` and `performance.now()` to whole milliseconds, so
// their sum read up to 2 ms early, part of it a constant for the page's life; `Date.now()` is
// floored once, so a latency reads at most 1 ms under the truth and about 0.5 ms on average.
function nowUnixMs() {
  return Date.now();
}

function mean(values: number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

export function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.round((sorted.length - 1) * q)];
}

export class LiveSession {
  viewId: number | null = null;
  private tunnel: BridgeTunnel | null = null;
  private client: DisposableClient | null = null;
  private connection = -1;
  private pending: LiveFrame[] = [];
  private drawScheduled = false;
  private stopped = false;
  private unlisten: (() => void) | null = null;
  private early: Array<[number, LiveStatus]> = [];
  private unacked: number[] = [];
  private bridgeMs: number[] = [];
  private rustMs: number[] = [];
  private drawnMs: number[] = [];
  private arrivedAt = new Map<number, number>();
  private paintTimes: number[] = [];
  private framesPainted = 0;
  /** A frame of the current connection has been drawn (its display shows the screen). */
  private paintedThisConnection = false;

  /** The current connection's screen. */
  get display(): GuacamoleTypes.Display | null {
    return this.client?.display ?? null;
  }

  constructor(
    private bridge: LiveBridge,
    private host: HTMLElement,
    private onPhase: (phase: Phase) => void,
    private onDisplay: (display: GuacamoleTypes.Display) => void,
    /** The current connection's first frame is drawn: until then its display is blank. */
    private onPainted: () => void = () => {},
  ) {}

  async start(machineId: string) {
    this.onPhase({ state: 'connecting', attempt: 1 });
    try {
      this.unlisten = await this.bridge.onStatus((id, status) => {
        if (this.viewId === null) this.early.push([id, status]);
        else if (id === this.viewId) this.status(status);
      });
      const viewId = await this.bridge.open(machineId, (m) => this.frame(m));
      if (this.stopped) {
        void this.bridge.close(viewId).catch(() => {});
        return;
      }
      this.viewId = viewId;
      for (const seq of this.unacked.splice(0)) this.ack(seq);
      for (const [id, status] of this.early.splice(0)) if (id === viewId) this.status(status);
    } catch (err) {
      const failure = toUiError(err);
      this.onPhase({ state: 'ended', code: failure.code, words: failure.detail });
    }
  }

  stop() {
    this.stopped = true;
    this.unlisten?.();
    this.unlisten = null;
    if (this.viewId !== null) void this.bridge.close(this.viewId).catch(() => {});
    this.pending = [];
    this.client?.dispose();
  }

  pause() {
    if (this.viewId !== null) void this.bridge.pause(this.viewId).catch(() => {});
  }

  resume() {
    if (this.viewId !== null) void this.bridge.resume(this.viewId).catch(() => {});
  }

  metrics(): Metrics {
    const now = performance.now();
    this.paintTimes = this.paintTimes.filter((t) => now - t <= 1000);
    return {
      paintedFps: this.paintTimes.length,
      framesPainted: this.framesPainted,
      bridgeP50: percentile(this.bridgeMs, 0.5),
      bridgeP99: percentile(this.bridgeMs, 0.99),
      bridgeMean: mean(this.bridgeMs),
      rustP99: percentile(this.rustMs, 0.99),
      drawnP50: percentile(this.drawnMs, 0.5),
    };
  }

  private status(status: LiveStatus) {
    switch (status.state) {
      case 'connecting':
        this.onPhase({ state: 'connecting', attempt: status.attempt });
        break;
      case 'connected':
        this.onPhase({ state: 'live' });
        break;
      case 'reconnecting':
        this.onPhase({ state: 'reconnecting', words: status.words, retryInMs: status.retryInMs ?? 0 });
        break;
      case 'ended':
        if (status.code === Code.live_asleep) this.onPhase({ state: 'asleep', words: status.words });
        else this.onPhase({ state: 'ended', code: status.code, words: status.words });
        break;
    }
  }

  private frame(message: unknown) {
    const received = nowUnixMs();
    let frame: LiveFrame;
    try {
      frame = decodeFrame(message);
    } catch {
      return; // Unreadable: not acknowledged, so the viewer's stall detection takes over.
    }
    if (this.stopped) {
      this.ack(frame.seq);
      return;
    }
    keep(this.bridgeMs, received - frame.arrivedAtMs);
    keep(this.rustMs, frame.sentAtMs - frame.arrivedAtMs);
    // Frames and statuses travel separately: a frame of a newer connection starts afresh even
    // before its `connected` status arrives; frames of an older one are acknowledged unseen.
    if (frame.connection < this.connection) {
      this.ack(frame.seq);
      return;
    }
    if (frame.connection > this.connection) this.reset(frame.connection);
    this.arrivedAt.set(frame.seq, frame.arrivedAtMs);
    this.pending.push(frame);
    if (!this.drawScheduled) {
      this.drawScheduled = true;
      requestAnimationFrame(() => this.draw());
    }
  }

  /** Everything that arrived since the last animation frame, drawn in order in this one. */
  private draw() {
    this.drawScheduled = false;
    const frames = this.pending.splice(0);
    for (const frame of frames) this.tunnel?.replay(frame);
  }

  private drawn(seq: number) {
    const arrived = this.arrivedAt.get(seq);
    this.arrivedAt.delete(seq);
    if (arrived !== undefined) keep(this.drawnMs, nowUnixMs() - arrived);
    this.framesPainted++;
    if (!this.paintedThisConnection) {
      this.paintedThisConnection = true;
      this.onPainted();
    }
    this.paintTimes.push(performance.now());
    if (this.paintTimes.length > 240) this.paintTimes.shift();
    this.ack(seq);
  }

  /**
   * A frame may come before `open` has answered with the view's id; its acknowledgement waits
   * for the id (a lost one would hold the stream: the bridge sends nothing more until it).
   */
  private ack(seq: number) {
    if (this.viewId === null) this.unacked.push(seq);
    else void this.bridge.ack(this.viewId, seq).catch(() => {});
  }

  private reset(connection: number) {
    // Frames of the old connection still queued are acknowledged so the viewer is not held.
    for (const old of this.pending.splice(0)) this.ack(old.seq);
    this.connection = connection;
    this.paintedThisConnection = false;
    this.client?.dispose();
    const tunnel = new BridgeTunnel();
    tunnel.onDrawn = (seq) => this.drawn(seq);
    this.client = createClient(tunnel);
    const display = this.client.display;
    tunnel.attach(display);
    display.showCursor(true);
    this.tunnel = tunnel;
    this.host.replaceChildren(display.getElement());
    display.getDefaultLayer().getCanvas().dataset.testid = 'live-canvas';
    this.onDisplay(display);
  }
}

function keep(values: number[], value: number) {
  values.push(value);
  if (values.length > KEPT) values.shift();
}
