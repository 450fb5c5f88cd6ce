import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Guacamole } from './guacamole';
import { BridgeTunnel, closeBitmapsOnceDrawn } from './tunnel';

beforeAll(() => {
  // jsdom has no 2D canvas; the Display only needs calls that succeed (pixels are the e2e
  // test's business: tests/e2e/live.rs reads them from the real window).
  const ctx = new Proxy({}, { get: (_t, key) => (key === 'canvas' ? undefined : () => ({})) });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => ctx as never);
});

function setUp() {
  const tunnel = new BridgeTunnel();
  const client = new Guacamole.Client(tunnel);
  const display = client.getDisplay();
  tunnel.attach(display);
  const drawBlob = vi.fn();
  display.drawBlob = drawBlob;
  const drawn: number[] = [];
  tunnel.onDrawn = (seq) => drawn.push(seq);
  return { tunnel, display, drawBlob, drawn };
}

describe('closeBitmapsOnceDrawn', () => {
  it('closes a decoded bitmap once it is drawn, and still draws it', () => {
    class FakeBitmap {
      closed = false;
      close() {
        this.closed = true;
      }
    }
    vi.stubGlobal('ImageBitmap', FakeBitmap);
    const drawn: unknown[] = [];
    const layer = { drawImage: (_x: number, _y: number, image: unknown) => drawn.push(image) };
    closeBitmapsOnceDrawn(layer as never);
    closeBitmapsOnceDrawn(layer as never); // wrapping twice would be harmless, but is skipped
    const bitmap = new FakeBitmap();
    layer.drawImage(1, 2, bitmap);
    expect(drawn).toEqual([bitmap]);
    expect(bitmap.closed).toBe(true);
    vi.unstubAllGlobals();
  });
});

describe('BridgeTunnel', () => {
  it('keeps its own connect / disconnect / sendMessage (not the base stubs)', () => {
    const tunnel = new BridgeTunnel();
    const seen: number[] = [];
    tunnel.onDrawn = (seq) => seen.push(seq);
    tunnel.sendMessage('sync', 41);
    tunnel.sendMessage('nop');
    expect(seen).toEqual([41]);
    tunnel.connect('');
    expect(tunnel.state).toBe(Guacamole.Tunnel.State.OPEN);
  });

  it('draws images from their bytes on the layer the frame names, then acknowledges the frame', async () => {
    const { tunnel, display, drawBlob, drawn } = setUp();
    const bytes = new Uint8Array([1, 2, 3]);
    tunnel.replay({
      seq: 5,
      connection: 1,
      arrivedAtMs: 0,
      sentAtMs: 0,
      ops: [
        { kind: 'instruction', opcode: 'size', args: ['0', '64', '32'] },
        { kind: 'image', layer: 0, x: 10, y: 20, mask: 14, mimetype: 'image/jpeg', data: bytes },
      ],
    });
    await vi.waitFor(() => expect(drawn).toEqual([5]));
    expect(display.getWidth()).toBe(64);
    expect(drawBlob).toHaveBeenCalledTimes(1);
    const [layer, x, y, blob] = drawBlob.mock.calls[0];
    expect(layer).toBe(display.getDefaultLayer());
    expect([x, y]).toEqual([10, 20]);
    expect(blob).toBeInstanceOf(Blob);
    expect((blob as Blob).type).toBe('image/jpeg');
    expect(new Uint8Array(await (blob as Blob).arrayBuffer())).toEqual(bytes);
  });

  it('acknowledges every frame in order, and never passes the upstream sync through', async () => {
    const { tunnel, drawn } = setUp();
    for (const seq of [1, 2, 3]) {
      tunnel.replay({
        seq, connection: 1, arrivedAtMs: 0, sentAtMs: 0,
        ops: [{ kind: 'instruction', opcode: 'sync', args: ['999'] }],
      });
    }
    await vi.waitFor(() => expect(drawn).toEqual([1, 2, 3]));
  });
});
