import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LiveSession, type LiveBridge } from './session';
import { encodeFrameForTest } from './frame-test-encoder';
import { stubCanvasContexts } from './canvas-test-stub';
import { recordWindowListeners, stopRecordingWindowListeners } from './window-test-listeners';

beforeAll(() => {
  stubCanvasContexts();
});

const frame = (seq: number, connection = 1) =>
  encodeFrameForTest({
    seq,
    connection,
    arrivedAtMs: 0,
    sentAtMs: 0,
    ops: [{ kind: 'instruction', opcode: 'size', args: ['0', '64', '32'] }],
  });

function bridge(open: LiveBridge['open']): LiveBridge {
  return {
    open: vi.fn(open),
    close: vi.fn(async () => null),
    ack: vi.fn(async () => null),
    pause: vi.fn(async () => null),
    resume: vi.fn(async () => null),
    onStatus: vi.fn(async () => () => {}),
  };
}

afterEach(() => stopRecordingWindowListeners());

describe('LiveSession', () => {
  it('acknowledges a frame that came before open() answered, once the view id is known', async () => {
    // The socket may deliver a frame before the page has the view's id: a lost acknowledgement
    // would hold the stream for good.
    const b = bridge(async (_machine, onFrame) => {
      onFrame(frame(1));
      await new Promise((r) => setTimeout(r, 50));
      return 7;
    });
    const session = new LiveSession(b, document.createElement('div'), () => {}, () => {});
    await session.start('m1');
    onFrameLater(b, frame(2));
    await vi.waitFor(() => expect(b.ack).toHaveBeenCalledTimes(2));
    expect(vi.mocked(b.ack).mock.calls).toEqual([
      [7, 1],
      [7, 2],
    ]);
    expect(session.metrics().framesPainted).toBe(2);
  });

  it('acknowledges frames of an older connection unseen, and draws the newer one', async () => {
    let deliver: (m: unknown) => void = () => {};
    const b = bridge(async (_machine, onFrame) => {
      deliver = onFrame;
      return 3;
    });
    const session = new LiveSession(b, document.createElement('div'), () => {}, () => {});
    await session.start('m1');
    deliver(frame(1, 2));
    await vi.waitFor(() => expect(b.ack).toHaveBeenCalledWith(3, 1));
    deliver(frame(2, 1));
    await vi.waitFor(() => expect(b.ack).toHaveBeenCalledWith(3, 2));
    expect(session.metrics().framesPainted).toBe(1);
  });

  it('lets the old screen go on a new connection, and the last one when stopped', async () => {
    // A live-view link lasts 15 minutes: every connection draws on a new Display, and each old
    // one stayed in memory while the window held a listener of it.
    const listeners = recordWindowListeners();
    let deliver: (m: unknown) => void = () => {};
    const b = bridge(async (_machine, onFrame) => {
      deliver = onFrame;
      return 3;
    });
    const host = document.createElement('div');
    const session = new LiveSession(b, host, () => {}, () => {});
    await session.start('m1');
    deliver(frame(1, 1));
    await vi.waitFor(() => expect(b.ack).toHaveBeenCalledWith(3, 1));
    const first = host.firstElementChild;
    expect(listeners()).toEqual(['blur']);
    deliver(frame(2, 2));
    await vi.waitFor(() => expect(b.ack).toHaveBeenCalledWith(3, 2));
    expect(host.firstElementChild).not.toBe(first);
    expect(listeners()).toEqual(['blur']);
    session.stop();
    expect(listeners()).toEqual([]);
  });
});

function onFrameLater(b: LiveBridge, message: ArrayBuffer) {
  const onFrame = vi.mocked(b.open).mock.calls[0][1];
  onFrame(message);
}
