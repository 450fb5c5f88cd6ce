// A Guacamole client that can be let go of whole.
//
// guacamole-common-js 1.5.0 (the newest release) has no way to dispose of a Display: its
// constructor adds a `blur` listener to the window and never removes it, and that listener's
// closure holds the Display with every layer's canvas. Each connection makes a new Display
// (a live-view link lasts 15 minutes, 45 s in the benchmark's sped-up Demo; every machine
// opened makes one too), so each old screen stayed in the page for good: ~4 MB per 1280×800
// view; the benchmark's web process grew by ~0.18 MB/s (BENCHMARKS.md, "Live view in the
// app"). The window listeners the client adds are noted while it is made and taken off when
// it is let go.
import { Guacamole, type GuacamoleTypes } from './guacamole';

type Listener = Parameters<Window['addEventListener']>;

export interface DisposableClient {
  client: GuacamoleTypes.Client;
  display: GuacamoleTypes.Display;
  /**
   * Stops the client and detaches it from the window, so nothing keeps its screen alive once
   * its element leaves the page (the last picture stays shown until then).
   */
  dispose(): void;
}

export function createClient(tunnel: GuacamoleTypes.Tunnel): DisposableClient {
  const added: Listener[] = [];
  // Put back exactly as it was: usually inherited, so no own property is left behind.
  const own = Object.getOwnPropertyDescriptor(window, 'addEventListener');
  const add = window.addEventListener;
  Object.defineProperty(window, 'addEventListener', {
    configurable: true,
    writable: true,
    value: function (this: Window, ...args: Listener) {
      added.push(args);
      return add.apply(this, args);
    },
  });
  let client: GuacamoleTypes.Client;
  try {
    client = new Guacamole.Client(tunnel);
  } finally {
    if (own) Object.defineProperty(window, 'addEventListener', own);
    else delete (window as Partial<Window>).addEventListener;
  }
  const display = client.getDisplay();
  let disposed = false;
  return {
    client,
    display,
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const [type, listener, options] of added.splice(0)) {
        window.removeEventListener(type, listener, options);
      }
      // Cancels the client's keep-alive timer; the bridge tunnel sends nothing upstream.
      client.disconnect();
      display.onresize = null;
    },
  };
}
