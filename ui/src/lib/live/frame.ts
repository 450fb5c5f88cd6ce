// Reads one live frame as the Rust bridge writes it (src-tauri/src/live/frame_bytes.rs has the
// layout and why it is hand-written). Pictures with alpha stay views into the message: no copy,
// no base64. Opaque ones come as RGB, a quarter fewer bytes for WebKit to carry (pixels.rs
// says why), and get their alpha back here in one pass.

export const FRAME_VERSION = 3;

export type ImageOp = {
  kind: 'image';
  layer: number;
  x: number;
  y: number;
  mask: number;
  mimetype: string;
  data: Uint8Array;
};

/** An image the bridge decoded: its pixels as RGBA rows, ready for `ImageData`. */
export type PixelsOp = {
  kind: 'pixels';
  layer: number;
  x: number;
  y: number;
  mask: number;
  width: number;
  height: number;
  /** Every alpha is full: putting the pixels equals drawing them over what is there. */
  opaque: boolean;
  data: Uint8ClampedArray<ArrayBuffer>;
};

export type InstructionOp = { kind: 'instruction'; opcode: string; args: string[] };

export type DrawOp = ImageOp | PixelsOp | InstructionOp;

export type LiveFrame = {
  seq: number;
  connection: number;
  /** Unix ms when the WebSocket message completing the frame arrived in Rust. */
  arrivedAtMs: number;
  /** Unix ms when the bridge handed it to the IPC channel. */
  sentAtMs: number;
  ops: DrawOp[];
};

export class FrameFormatError extends Error {}

const utf8 = new TextDecoder();

export function decodeFrame(message: unknown): LiveFrame {
  if (!(message instanceof ArrayBuffer)) throw new FrameFormatError('not binary');
  const view = new DataView(message);
  const bytes = new Uint8Array(message);
  let at = 0;
  const need = (n: number) => {
    if (at + n > bytes.length) throw new FrameFormatError('truncated');
  };
  const u8 = () => (need(1), view.getUint8(at++));
  const u16 = () => (need(2), (at += 2), view.getUint16(at - 2, true));
  const u32 = () => (need(4), (at += 4), view.getUint32(at - 4, true));
  const i32 = () => (need(4), (at += 4), view.getInt32(at - 4, true));
  const f64 = () => (need(8), (at += 8), view.getFloat64(at - 8, true));
  const slice = (n: number) => (need(n), (at += n), bytes.subarray(at - n, at));
  const str = (n: number) => utf8.decode(slice(n));

  const version = u8();
  if (version !== FRAME_VERSION) throw new FrameFormatError(`version ${version}`);
  u8();
  const seq = u32();
  const connection = u32();
  const arrivedAtMs = f64();
  const sentAtMs = f64();
  const count = u32();
  const ops: DrawOp[] = [];
  for (let i = 0; i < count; i++) {
    const kind = u8();
    if (kind === 1) {
      const layer = i32();
      const x = i32();
      const y = i32();
      const mask = u32();
      const mimetype = str(u16());
      const data = slice(u32());
      ops.push({ kind: 'image', layer, x, y, mask, mimetype, data });
    } else if (kind === 2) {
      const opcode = str(u16());
      const argc = u16();
      const args: string[] = [];
      for (let a = 0; a < argc; a++) args.push(str(u32()));
      ops.push({ kind: 'instruction', opcode, args });
    } else if (kind === 3) {
      const layer = i32();
      const x = i32();
      const y = i32();
      const mask = u32();
      const width = u32();
      const height = u32();
      const opaque = u8() === 1;
      const length = width * height * (opaque ? 3 : 4);
      need(length);
      const data = opaque ? rgbToRgba(bytes, at, width * height) : new Uint8ClampedArray(message, at, length);
      at += length;
      ops.push({ kind: 'pixels', layer, x, y, mask, width, height, opaque, data });
    } else {
      throw new FrameFormatError(`op kind ${kind}`);
    }
  }
  return { seq, connection, arrivedAtMs, sentAtMs, ops };
}

function rgbToRgba(bytes: Uint8Array, at: number, count: number): Uint8ClampedArray<ArrayBuffer> {
  const rgba = new Uint8ClampedArray(count * 4);
  for (let i = 0, from = at, to = 0; i < count; i++, from += 3, to += 4) {
    rgba[to] = bytes[from];
    rgba[to + 1] = bytes[from + 1];
    rgba[to + 2] = bytes[from + 2];
    rgba[to + 3] = 255;
  }
  return rgba;
}
