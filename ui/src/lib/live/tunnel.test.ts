import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Guacamole } from './guacamole';
import { BridgeTunnel, DecodedPicture, dataUrl, putDecodedPictures, releaseImagesOnceDrawn } from './tunnel';
import type { PixelsOp } from './frame';
import { stubCanvasContexts } from './canvas-test-stub';

beforeAll(() => {
  stubCanvasContexts();
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

// jsdom has no ImageData; this one checks its arguments the way the real one does.
class FakeImageData {
  constructor(readonly data: Uint8ClampedArray, readonly width: number, readonly height: number) {
    if (data.length !== width * height * 4) throw new RangeError('ImageData size');
  }
}

/** A 2D context that records the puts and draws that reached it and accepts any other call. */
function recordingContext() {
  const calls: Array<{ call: string; args: unknown[] }> = [];
  const target: Record<string | symbol, unknown> = {
    globalCompositeOperation: 'source-over',
    putImageData: (...args: unknown[]) => calls.push({ call: 'put', args }),
    drawImage: (...args: unknown[]) => calls.push({ call: 'draw', args }),
  };
  const context = new Proxy(target, {
    get: (t, key) => (key in t ? t[key] : key === 'canvas' ? undefined : () => ({})),
  }) as { globalCompositeOperation: string };
  return { context, calls };
}

function picture(over: Partial<PixelsOp> = {}): PixelsOp {
  return {
    kind: 'pixels', layer: 0, x: 0, y: 0, mask: 14, width: 2, height: 1, opaque: true,
    data: new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 255]), ...over,
  };
}

describe('putDecodedPictures', () => {
  beforeAll(() => {
    vi.stubGlobal('ImageData', FakeImageData);
  });

  function layerWith(context: object) {
    return { getCanvas: () => ({ getContext: () => context }) } as unknown as Parameters<typeof putDecodedPictures>[0];
  }

  it('puts opaque pixels drawn over, and pixels that replace, straight into the canvas', () => {
    const { context, calls } = recordingContext();
    const layer = layerWith(context);
    putDecodedPictures(layer);
    putDecodedPictures(layer); // a second call must not wrap twice
    const ctx = context as unknown as CanvasRenderingContext2D;
    ctx.drawImage(new DecodedPicture(picture()) as unknown as HTMLImageElement, 7, 8);
    context.globalCompositeOperation = 'copy';
    const seeThrough = picture({ opaque: false });
    ctx.drawImage(new DecodedPicture(seeThrough) as unknown as HTMLImageElement, 1, 2);
    expect(calls.map((c) => c.call)).toEqual(['put', 'put']);
    const [pixels, x, y] = calls[0].args as [FakeImageData, number, number];
    expect([pixels.width, pixels.height, x, y]).toEqual([2, 1, 7, 8]);
    expect(Array.from(pixels.data)).toEqual([1, 2, 3, 255, 4, 5, 6, 255]);
    expect(calls[1].args.slice(1)).toEqual([1, 2]);
  });

  it('composites see-through pixels drawn over as an image would be, and passes other draws through', () => {
    const { context, calls } = recordingContext();
    putDecodedPictures(layerWith(context));
    const ctx = context as unknown as CanvasRenderingContext2D;
    ctx.drawImage(new DecodedPicture(picture({ opaque: false })) as unknown as HTMLImageElement, 3, 4);
    context.globalCompositeOperation = 'xor';
    ctx.drawImage(new DecodedPicture(picture()) as unknown as HTMLImageElement, 5, 6);
    const other = document.createElement('canvas');
    ctx.drawImage(other, 0, 0, 10, 10, 1, 1, 10, 10);
    expect(calls.map((c) => c.call)).toEqual(['draw', 'draw', 'draw']);
    const [scratch, x, y] = calls[0].args as [HTMLCanvasElement, number, number];
    expect([scratch.width, scratch.height, x, y]).toEqual([2, 1, 3, 4]);
    expect(calls[1].args.slice(1)).toEqual([5, 6]);
    expect(calls[2].args).toEqual([other, 0, 0, 10, 10, 1, 1, 10, 10]);
  });

  it('puts nothing for an empty picture', () => {
    const { context, calls } = recordingContext();
    putDecodedPictures(layerWith(context));
    const empty = picture({ width: 0, height: 0, data: new Uint8ClampedArray(0) });
    (context as unknown as CanvasRenderingContext2D).drawImage(new DecodedPicture(empty) as unknown as HTMLImageElement, 0, 0);
    expect(calls).toEqual([]);
  });
});

describe('BridgeTunnel with decoded pictures', () => {
  it('puts each picture on the layer the frame names, in order, then acknowledges the frame', async () => {
    vi.stubGlobal('ImageData', FakeImageData);
    const contexts = new Map<HTMLCanvasElement, ReturnType<typeof recordingContext>>();
    const spy = vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
      if (!contexts.has(this)) contexts.set(this, recordingContext());
      return contexts.get(this)!.context as never;
    });
    try {
      const tunnel = new BridgeTunnel();
      const client = new Guacamole.Client(tunnel);
      const display = client.getDisplay();
      tunnel.attach(display);
      const drawn: number[] = [];
      tunnel.onDrawn = (seq) => drawn.push(seq);
      tunnel.replay({
        seq: 9, connection: 1, arrivedAtMs: 0, sentAtMs: 0,
        ops: [
          { kind: 'instruction', opcode: 'size', args: ['0', '64', '32'] },
          picture({ x: 10, y: 20 }),
          picture({ x: 30, y: 5 }),
        ],
      });
      await vi.waitFor(() => expect(drawn).toEqual([9]));
      const screen = contexts.get(display.getDefaultLayer().getCanvas())!;
      const puts = screen.calls.filter((c) => c.call === 'put').map((c) => c.args.slice(1));
      expect(puts).toEqual([[10, 20], [30, 5]]);
    } finally {
      spy.mockRestore();
      stubCanvasContexts();
    }
  });
});
