// The Rust bridge's frame layout written from TypeScript, for tests only (the bridge itself is
// src-tauri/src/live/frame_bytes.rs; its own tests pin the same offsets).
import { FRAME_VERSION, type LiveFrame } from './frame';

export function encodeFrameForTest(frame: LiveFrame): ArrayBuffer {
  const parts: number[] = [];
  const enc = new TextEncoder();
  const push = (n: number, bytes: number, write: (v: DataView) => void) => {
    const b = new DataView(new ArrayBuffer(bytes));
    write(b);
    for (let i = 0; i < bytes; i++) parts.push(b.getUint8(i));
    return n;
  };
  const u8 = (v: number) => push(v, 1, (d) => d.setUint8(0, v));
  const u16 = (v: number) => push(v, 2, (d) => d.setUint16(0, v, true));
  const u32 = (v: number) => push(v, 4, (d) => d.setUint32(0, v, true));
  const i32 = (v: number) => push(v, 4, (d) => d.setInt32(0, v, true));
  const f64 = (v: number) => push(v, 8, (d) => d.setFloat64(0, v, true));
  const raw = (b: Uint8Array) => b.forEach((x) => parts.push(x));
  u8(FRAME_VERSION);
  u8(0);
  u32(frame.seq);
  u32(frame.connection);
  f64(frame.arrivedAtMs);
  f64(frame.sentAtMs);
  u32(frame.ops.length);
  for (const op of frame.ops) {
    if (op.kind === 'image') {
      u8(1);
      i32(op.layer);
      i32(op.x);
      i32(op.y);
      u32(op.mask);
      const m = enc.encode(op.mimetype);
      u16(m.length);
      raw(m);
      u32(op.data.length);
      raw(op.data);
    } else if (op.kind === 'pixels') {
      u8(3);
      i32(op.layer);
      i32(op.x);
      i32(op.y);
      u32(op.mask);
      u32(op.width);
      u32(op.height);
      u8(op.opaque ? 1 : 0);
      const rgba = new Uint8Array(op.data.buffer, op.data.byteOffset, op.data.byteLength);
      // Opaque pixels go as RGB, as the bridge sends them.
      raw(op.opaque ? rgba.filter((_, i) => i % 4 !== 3) : rgba);
    } else {
      u8(2);
      const o = enc.encode(op.opcode);
      u16(o.length);
      raw(o);
      u16(op.args.length);
      for (const a of op.args) {
        const e = enc.encode(a);
        u32(e.length);
        raw(e);
      }
    }
  }
  return new Uint8Array(parts).buffer;
}
