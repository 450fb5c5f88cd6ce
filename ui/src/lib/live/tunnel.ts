// A Guacamole tunnel fed by the Rust bridge instead of a socket: frames arrive already parsed,
// so guacamole-common-js's own parser (slow: live-protocol.md, "Measured here") never runs, and
// each image reaches the Display whole, in one piece, instead of as base64 `blob` chunks.
import { Guacamole, type GuacamoleTypes } from './guacamole';
import type { ImageOp, LiveFrame, PixelsOp } from './frame';

type DisplayWithStreams = GuacamoleTypes.Display & {
  drawStream: (layer: GuacamoleTypes.Layer, x: number, y: number) => void;
};

/** The one stream index used to route bridge images through Client's `img` handler. */
const IMAGE_STREAM = '0';

export class BridgeTunnel extends Guacamole.Tunnel {
  /** Called with a frame's seq once the Display has drawn it (Client's `sync` reply). */
  onDrawn: (seq: number) => void = () => {};
  private pendingImage: ImageOp | PixelsOp | null = null;

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
   * Makes the Display draw bridge images: Client's `img` handler hands the Display a stream to
   * decode, and this takes its place with the picture the tunnel just fed, keeping the Display's
   * order, channel masks and layer sizing.
   *
   * Pictures come decoded to pixels (src-tauri/src/live/pixels.rs says why: WebKitGTK's web
   * process grew without bound while it decoded the stream's images) and are put into the
   * layer's canvas by putDecodedPictures. A picture the bridge could not decode comes as its
   * file and is drawn from a `data:` URL, its element's picture released once drawn
   * (releaseImagesOnceDrawn); there is no ImageDecoder in WebKitGTK to decode bytes otherwise,
   * and a Blob per image grew the network process.
   */
  attach(display: GuacamoleTypes.Display) {
    // drawStream exists at runtime (Client's `img` handler calls it) but not in the types.
    (display as DisplayWithStreams).drawStream = (layer, x, y) => {
      const image = this.pendingImage;
      this.pendingImage = null;
      if (!image) return;
      if (image.kind === 'pixels') {
        putDecodedPictures(layer);
        // Queued like any draw, so it lands after what came before it in the stream.
        display.drawImage(layer, x, y, new DecodedPicture(image) as unknown as HTMLImageElement);
        return;
      }
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
      if (op.kind === 'image' || op.kind === 'pixels') {
        this.pendingImage = op;
        // Client only hands the type on to drawStream, which is ours (attach).
        const mimetype = op.kind === 'image' ? op.mimetype : 'image/x-rgba';
        deliver('img', [IMAGE_STREAM, String(op.mask), String(op.layer), mimetype, String(op.x), String(op.y)]);
        deliver('end', [IMAGE_STREAM]);
        this.pendingImage = null;
      } else if (op.opcode !== 'sync') {
        deliver(op.opcode, op.args);
      }
    }
    deliver('sync', [String(frame.seq)]);
  }
}

/** A decoded picture on its way through the Display's queue; the layer's canvas puts it. */
export class DecodedPicture {
  readonly width: number;
  readonly height: number;
  constructor(readonly pixels: PixelsOp) {
    // Read by the Layer to grow self-sizing buffers, as for an image element.
    this.width = pixels.width;
    this.height = pixels.height;
  }
}

const putting = new WeakSet<object>();

/**
 * Teaches the layer's canvas to put a DecodedPicture. The Layer's own drawImage still runs
 * (it grows self-sizing buffers and marks the layer as drawn on, which a later resize relies
 * on to keep what is there); only the final step changes, from drawing a decoded image to
 * putting its pixels. Putting equals drawing when the mask replaces (`copy`) or when opaque
 * pixels go over; anything else is composited from a scratch canvas as an image would be.
 */
export function putDecodedPictures(layer: GuacamoleTypes.Layer) {
  const context = layer.getCanvas().getContext('2d');
  if (!context || putting.has(context)) return;
  putting.add(context);
  const draw = context.drawImage.bind(context) as (...args: unknown[]) => void;
  context.drawImage = ((...args: unknown[]) => {
    const [picture, x, y] = args;
    if (!(picture instanceof DecodedPicture)) return draw(...args);
    const { width, height, opaque, data } = picture.pixels;
    if (width === 0 || height === 0) return;
    const pixels = new ImageData(data, width, height);
    const mode = context.globalCompositeOperation;
    if (mode === 'copy' || (opaque && mode === 'source-over')) {
      context.putImageData(pixels, x as number, y as number);
      return;
    }
    const scratch = document.createElement('canvas');
    scratch.width = width;
    scratch.height = height;
    scratch.getContext('2d')?.putImageData(pixels, 0, 0);
    draw(scratch, x, y);
  }) as typeof context.drawImage;
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
