import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Guacamole } from './guacamole';
import { BridgeTunnel, dataUrl, releaseImagesOnceDrawn } from './tunnel';

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
  // jsdom loads no images, so the Display's own draw would wait for an onload that never comes.
  const draw = vi.fn();
  display.draw = draw;
  const drawn: number[] = [];
  tunnel.onDrawn = (seq) => drawn.push(seq);
  return { tunnel, display, draw, drawn };
}

describe('dataUrl', () => {
  const bytes = Uint8Array.from({ length: 70000 }, (_, i) => (i * 7) % 256);

  it('carries the bytes unchanged, with or without the native base64 encoder', () => {
    const fallback = dataUrl('image/png', bytes);
    expect(fallback.startsWith('data:image/png;base64,')).toBe(true);
    const decoded = Uint8Array.from(atob(fallback.split(',')[1]), (c) => c.charCodeAt(0));
    expect(decoded).toEqual(bytes);
    const native = Object.assign(bytes.slice(), { toBase64: () => 'bmF0aXZl' });
    expect(dataUrl('image/jpeg', native)).toBe('data:image/jpeg;base64,bmF0aXZl');
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
    const { tunnel, display, draw, drawn } = setUp();
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
    expect(draw).toHaveBeenCalledTimes(1);
    const [layer, x, y, url] = draw.mock.calls[0];
    expect(layer).toBe(display.getDefaultLayer());
    expect([x, y]).toEqual([10, 20]);
    expect(url).toBe(dataUrl('image/jpeg', bytes));
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

describe('releaseImagesOnceDrawn', () => {
  it("drops an image element's picture once the layer has drawn it, and draws it first", () => {
    const drawnWith: Array<string | null> = [];
    const layer = {
      drawImage: (_x: number, _y: number, image: HTMLImageElement) => drawnWith.push(image.getAttribute('src')),
    } as unknown as Parameters<typeof releaseImagesOnceDrawn>[0];
    releaseImagesOnceDrawn(layer);
    releaseImagesOnceDrawn(layer); // a second call must not wrap twice
    const image = document.createElement('img');
    image.src = 'data:image/png;base64,AAAA';
    image.onload = () => {};
    layer.drawImage(1, 2, image);
    expect(drawnWith).toEqual(['data:image/png;base64,AAAA']);
    expect(image.hasAttribute('src')).toBe(false);
    expect(image.onload).toBeNull();
  });
});
