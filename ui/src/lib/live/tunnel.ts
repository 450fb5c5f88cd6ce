// A Guacamole tunnel fed by the Rust bridge instead of a socket: frames arrive already parsed,
// so guacamole-common-js's own parser (slow: live-protocol.md, "Measured here") never runs, and
// images are handed to the Display as Blobs of their file bytes instead of base64 `blob`s.
import { Guacamole, type GuacamoleTypes } from './guacamole';
import type { LiveFrame } from './frame';

type DisplayWithStreams = GuacamoleTypes.Display & {
  drawStream: (layer: GuacamoleTypes.Layer, x: number, y: number) => void;
};

/** The one stream index used to route bridge images through Client's `img` handler. */
const IMAGE_STREAM = '0';

export class BridgeTunnel extends Guacamole.Tunnel {
  /** Called with a frame's seq once the Display has drawn it (Client's `sync` reply). */
  onDrawn: (seq: number) => void = () => {};
  private pendingImage: Blob | null = null;

  constructor() {
    super();
    // Set on the instance: the base constructor assigns these as own properties, which would
    // shadow class methods (live-protocol.md, "Drawing it").
    this.connect = () => {
      this.setState(Guacamole.Tunnel.State.OPEN);
    };
    this.disconnect = () => {
      this.setState(Guacamole.Tunnel.State.CLOSED);
    };
    // View-only: the only thing that goes back is the drawn-frame acknowledgement. The
    // client's own `nop`s and anything else stay here (the Rust viewer keeps the link alive).
    this.sendMessage = (...elements: unknown[]) => {
      if (elements[0] === 'sync') this.onDrawn(Number(elements[1]));
    };
  }

  private setState(state: GuacamoleTypes.Tunnel.State) {
    if (this.state === state) return;
    this.state = state;
    this.onstatechange?.(state);
  }

  /**
   * Makes the Display draw bridge images from their bytes: Client's `img` handler hands the
   * Display a stream to decode, and this takes its place with the image the tunnel just fed
   * (Display.drawBlob: createImageBitmap + drawImage, queued in draw order).
   */
  attach(display: GuacamoleTypes.Display) {
    // drawStream exists at runtime (Client's `img` handler calls it) but not in the types.
    (display as DisplayWithStreams).drawStream = (layer, x, y) => {
      const image = this.pendingImage;
      this.pendingImage = null;
      if (!image) return;
      closeBitmapsOnceDrawn(layer);
      display.drawBlob(layer, x, y, image);
    };
  }

  /** Replays one frame into the client; its `sync` carries the frame's seq. */
  replay(frame: LiveFrame) {
    const deliver = this.oninstruction;
    if (!deliver) return;
    for (const op of frame.ops) {
      if (op.kind === 'image') {
        this.pendingImage = new Blob([op.data as Uint8Array<ArrayBuffer>], { type: op.mimetype });
        deliver('img', [IMAGE_STREAM, String(op.mask), String(op.layer), op.mimetype, String(op.x), String(op.y)]);
        deliver('end', [IMAGE_STREAM]);
        this.pendingImage = null;
      } else if (op.opcode !== 'sync') {
        deliver(op.opcode, op.args);
      }
    }
    deliver('sync', [String(frame.seq)]);
  }
}

const closing = new WeakSet<object>();

/**
 * Display.drawBlob decodes with createImageBitmap and never closes the bitmap, leaving its
 * pixels to the garbage collector: under a steady stream the web process grew by hundreds of MB
 * in ten minutes (BENCHMARKS.md). Drawing copies the pixels into the layer's canvas, so the
 * bitmap can be closed right after.
 */
export function closeBitmapsOnceDrawn(layer: GuacamoleTypes.Layer) {
  if (closing.has(layer)) return;
  closing.add(layer);
  const draw = layer.drawImage.bind(layer);
  layer.drawImage = (x: number, y: number, image: CanvasImageSource) => {
    draw(x, y, image as HTMLImageElement); // typed narrowly; any CanvasImageSource draws
    if (typeof ImageBitmap !== 'undefined' && image instanceof ImageBitmap) image.close();
  };
}
