// A Guacamole tunnel fed by the Rust bridge instead of a socket: frames arrive already parsed,
// so guacamole-common-js's own parser (slow: live-protocol.md, "Measured here") never runs, and
// each image reaches the Display whole, in one piece, instead of as base64 `blob` chunks.
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
  private pendingImage: { mimetype: string; data: Uint8Array } | null = null;

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
   * Display a stream to decode, and this takes its place with the image the tunnel just fed.
   *
   * Why an image element and a `data:` URL rather than Display.drawBlob (a Blob per image, then
   * createImageBitmap): in WebKitGTK 2.50 that path grew the network process (which holds
   * Blobs) by ~0.4 MB/s for as long as the stream ran, Blobs collected or not; with `data:` URLs
   * the network process stays flat and the frame rate is the same or higher. Each element's
   * picture is released once drawn (releaseImagesOnceDrawn), which with the small cache model
   * (src-tauri/src/live/renderer.rs) cuts the web process's growth to about a third; it is
   * still not bounded (BENCHMARKS.md). There is no ImageDecoder in WebKitGTK to decode bytes
   * without either. The base64 step is native (`Uint8Array.toBase64`) where it exists; the
   * fallback is for engines without it.
   */
  attach(display: GuacamoleTypes.Display) {
    // drawStream exists at runtime (Client's `img` handler calls it) but not in the types.
    (display as DisplayWithStreams).drawStream = (layer, x, y) => {
      const image = this.pendingImage;
      this.pendingImage = null;
      if (!image) return;
      releaseImagesOnceDrawn(layer);
      // Queued in draw order; a broken image is skipped, never holding the frames behind it.
      display.draw(layer, x, y, dataUrl(image.mimetype, image.data));
    };
  }

  /** Replays one frame into the client; its `sync` carries the frame's seq. */
  replay(frame: LiveFrame) {
    const deliver = this.oninstruction;
    if (!deliver) return;
    for (const op of frame.ops) {
      if (op.kind === 'image') {
        this.pendingImage = { mimetype: op.mimetype, data: op.data };
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

const releasing = new WeakSet<object>();

/**
 * Display.draw decodes each image in a new image element and leaves it to the garbage
 * collector, which does not see the decoded pixels behind it: under a steady stream the web
 * process grew by ~0.7 MB/s (BENCHMARKS.md, "Live view in the app"). Drawing copies the pixels
 * into the layer's canvas, so the element's picture is dropped right after (removing its
 * `src` releases the decoded image at once, whenever the element itself is collected).
 */
export function releaseImagesOnceDrawn(layer: GuacamoleTypes.Layer) {
  if (releasing.has(layer)) return;
  releasing.add(layer);
  const draw = layer.drawImage.bind(layer);
  layer.drawImage = (x: number, y: number, image: CanvasImageSource) => {
    draw(x, y, image as HTMLImageElement);
    if (image instanceof HTMLImageElement) {
      image.onload = image.onerror = null;
      image.removeAttribute('src');
    }
  };
}

type WithBase64 = Uint8Array & { toBase64?: () => string };

export function dataUrl(mimetype: string, bytes: Uint8Array): string {
  const native = (bytes as WithBase64).toBase64;
  if (native) return `data:${mimetype};base64,${native.call(bytes)}`;
  let binary = '';
  const chunk = 0x8000; // below engines' argument-count limits for fromCharCode
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return `data:${mimetype};base64,${btoa(binary)}`;
}
