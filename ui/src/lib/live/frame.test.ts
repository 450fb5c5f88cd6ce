import { describe, expect, it } from 'vitest';
import { decodeFrame, FrameFormatError } from './frame';
import { encodeFrameForTest } from './frame-test-encoder';

describe('decodeFrame', () => {
  it('reads the header and the ops in draw order, images as their bytes', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const buffer = encodeFrameForTest({
      seq: 7,
      connection: 2,
      arrivedAtMs: 1000.5,
      sentAtMs: 1001.25,
      ops: [
        { kind: 'instruction', opcode: 'size', args: ['0', '1280', '800'] },
        { kind: 'image', layer: -1, x: 3, y: 4, mask: 14, mimetype: 'image/png', data: png },
        { kind: 'instruction', opcode: 'cfill', args: ['14', '0', 'é', ''] },
      ],
    });
    const frame = decodeFrame(buffer);
    expect(frame.seq).toBe(7);
    expect(frame.connection).toBe(2);
    expect(frame.arrivedAtMs).toBe(1000.5);
    expect(frame.sentAtMs).toBe(1001.25);
    expect(frame.ops.map((op) => op.kind)).toEqual(['instruction', 'image', 'instruction']);
    expect(frame.ops[0]).toEqual({ kind: 'instruction', opcode: 'size', args: ['0', '1280', '800'] });
    const image = frame.ops[1];
    if (image.kind !== 'image') throw new Error('expected an image');
    expect([image.layer, image.x, image.y, image.mask, image.mimetype]).toEqual([-1, 3, 4, 14, 'image/png']);
    expect(Array.from(image.data)).toEqual(Array.from(png));
    // Multi-byte text and empty elements survive.
    expect(frame.ops[2]).toEqual({ kind: 'instruction', opcode: 'cfill', args: ['14', '0', 'é', ''] });
  });

  it('reads decoded pictures as RGBA views into the message', () => {
    const rgba = new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 128]);
    const buffer = encodeFrameForTest({
      seq: 3, connection: 1, arrivedAtMs: 0, sentAtMs: 0,
      ops: [
        { kind: 'pixels', layer: -1, x: 5, y: 6, mask: 12, width: 2, height: 1, opaque: false, data: rgba },
        { kind: 'instruction', opcode: 'mouse', args: ['1', '2'] },
      ],
    });
    const frame = decodeFrame(buffer);
    const pixels = frame.ops[0];
    if (pixels.kind !== 'pixels') throw new Error('expected pixels');
    expect([pixels.layer, pixels.x, pixels.y, pixels.mask, pixels.width, pixels.height, pixels.opaque])
      .toEqual([-1, 5, 6, 12, 2, 1, false]);
    expect(Array.from(pixels.data)).toEqual(Array.from(rgba));
    expect(pixels.data.buffer).toBe(buffer); // a view, not a copy
    expect(frame.ops[1]).toEqual({ kind: 'instruction', opcode: 'mouse', args: ['1', '2'] });
    // Fewer pixel bytes than width × height × 4 is a broken frame, not a smaller picture.
    expect(() => decodeFrame(buffer.slice(0, buffer.byteLength - 20))).toThrow(FrameFormatError);
  });

  it('reads opaque pictures, sent as RGB, back as RGBA with full alpha', () => {
    const rgba = new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255]);
    const header = 2 + 4 + 4 + 8 + 8 + 4;
    const op = 1 + 4 * 4 + 4 + 4 + 1;
    const buffer = encodeFrameForTest({
      seq: 4, connection: 1, arrivedAtMs: 0, sentAtMs: 0,
      ops: [{ kind: 'pixels', layer: 0, x: 0, y: 0, mask: 14, width: 3, height: 1, opaque: true, data: rgba }],
    });
    expect(buffer.byteLength).toBe(header + op + 3 * 3); // 3 bytes a pixel on the wire
    const pixels = decodeFrame(buffer).ops[0];
    if (pixels.kind !== 'pixels') throw new Error('expected pixels');
    expect([pixels.width, pixels.height, pixels.opaque]).toEqual([3, 1, true]);
    expect(Array.from(pixels.data)).toEqual(Array.from(rgba));
    expect(() => decodeFrame(buffer.slice(0, buffer.byteLength - 1))).toThrow(FrameFormatError);
  });

  it('refuses what is not a frame instead of drawing garbage', () => {
    expect(() => decodeFrame('text')).toThrow(FrameFormatError);
    const good = encodeFrameForTest({ seq: 1, connection: 1, arrivedAtMs: 0, sentAtMs: 0, ops: [
      { kind: 'instruction', opcode: 'mouse', args: ['1', '2'] },
    ] });
    expect(() => decodeFrame(good.slice(0, good.byteLength - 1))).toThrow(FrameFormatError);
    const wrongVersion = good.slice(0);
    new Uint8Array(wrongVersion)[0] = 9;
    expect(() => decodeFrame(wrongVersion)).toThrow(FrameFormatError);
  });
});
