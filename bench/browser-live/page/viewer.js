// A view-only guacamole-common-js viewer connected straight to the simulator's live websocket:
// Guacamole.WebSocketTunnel + Guacamole.Client + its Display, no input handlers attached (so it
// sends only the client's own sync replies, keep-alive nops and the tunnel's pings).
//
// What it counts, for bench.mjs to sample:
// - `painted`: the client's `sync` replies. Guacamole.Client sends one from Display.flush's
//   callback, i.e. once every draw before that `sync` is done — the same event the app counts
//   as a painted frame (ui/src/lib/live/tunnel.ts turns that reply into its acknowledgement).
// - `received`: `sync` instructions received, i.e. frames the server sent.
// - `drawMs`: per frame, its `sync` arriving → the client's reply (the frame drawn): how long
//   the viewer holds a frame, which (with 2 frames in flight) is what could slow the stream.
import Guacamole from '/guacamole-common.js';

const KEPT = 512;
const bench = { received: 0, painted: 0, width: 0, height: 0, state: 'idle', error: null, drawMs: [] };
window.bench = bench;
const syncArrived = new Map();

function percentile(values, q) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.round((sorted.length - 1) * q)];
}

/**
 * What bench.mjs samples each second. `focused` matters: Display paces its flushes with
 * requestAnimationFrame only while the document has focus, and flushes at once otherwise.
 */
window.benchSample = () => {
  const { drawMs, ...counts } = bench;
  return { ...counts, focused: document.hasFocus(), drawP50: percentile(drawMs, 0.5), drawP99: percentile(drawMs, 0.99) };
};

const STATES = ['idle', 'connecting', 'waiting', 'connected', 'disconnecting', 'disconnected'];

/** Connects to `url` (the live websocketUrl with the knobs appended). */
window.startViewer = (url) => {
  // The service's rule: the query string is the connect data, the rest is the tunnel URL.
  const q = url.indexOf('?');
  const tunnel = new Guacamole.WebSocketTunnel(url.slice(0, q));
  const send = tunnel.sendMessage;
  tunnel.sendMessage = function (...elements) {
    if (elements[0] === 'sync') {
      bench.painted++;
      const arrived = syncArrived.get(String(elements[1]));
      syncArrived.delete(String(elements[1]));
      if (arrived !== undefined) bench.drawMs.push(performance.now() - arrived);
      if (bench.drawMs.length > KEPT) bench.drawMs.shift();
    }
    return send.apply(this, elements);
  };
  const client = new Guacamole.Client(tunnel);
  const display = client.getDisplay();
  display.showCursor(true); // as the app does: the remote pointer is drawn from the stream
  document.getElementById('screen').appendChild(display.getElement());
  display.onresize = (w, h) => {
    bench.width = w;
    bench.height = h;
  };
  // Wrapped after Client set it: a frame whose draws are done replies inside the `sync`
  // handler itself, before Client.onsync would run, so the arrival is stamped here first.
  const handle = tunnel.oninstruction;
  tunnel.oninstruction = (opcode, args) => {
    if (opcode === 'sync') {
      bench.received++;
      syncArrived.set(args[0], performance.now());
    }
    handle(opcode, args);
  };
  client.onstatechange = (s) => {
    bench.state = STATES[s] ?? String(s);
  };
  client.onerror = (status) => {
    bench.error = `${status.code} ${status.message ?? ''}`.trim();
  };
  window.addEventListener('pagehide', () => client.disconnect());
  client.connect(url.slice(q + 1));
};
