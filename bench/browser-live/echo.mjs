// The stream's own ceiling: a viewer that draws nothing and echoes each `sync` the moment it
// arrives, so the only limit left is how fast the simulator encodes and sends frames. Run it
// beside the browser figures to tell whether the stream or the viewer bounds them.
import WebSocket from 'ws';

/** Yields [opcode, ...args] of every instruction in one text message (whole instructions only). */
export function* instructions(message) {
  let at = 0;
  let elements = [];
  while (at < message.length) {
    const dot = message.indexOf('.', at);
    if (dot < 0) return;
    // Lengths count code points; the stream is ASCII (base64 images, numbers, uuid), so chars.
    const length = Number(message.slice(at, dot));
    const end = dot + 1 + length;
    elements.push(message.slice(dot + 1, end));
    if (message[end] === ';') {
      yield elements;
      elements = [];
    }
    at = end + 1;
  }
}

/** Connects to `url`, echoes syncs; `stats()` reads frames and bytes received so far. */
export function echoViewer(url) {
  const q = url.indexOf('?');
  const socket = new WebSocket(`${url.slice(0, q)}?${url.slice(q + 1)}`, 'guacamole');
  const counts = { frames: 0, bytes: 0, error: null };
  socket.on('message', (data) => {
    const text = data.toString();
    counts.bytes += data.length;
    for (const [opcode, ...args] of instructions(text)) {
      if (opcode === 'sync') {
        counts.frames++;
        socket.send(`4.sync,${args[0].length}.${args[0]};`);
      } else if (opcode === 'error') {
        counts.error = `${args[1]} ${args[0]}`;
      }
    }
  });
  socket.on('error', (e) => (counts.error = e.message));
  // The server drops a viewer silent for 15 s; syncs keep it heard, this covers a pause.
  const nop = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send('3.nop;'), 5000);
  return {
    stats: () => ({ ...counts }),
    close: () => {
      clearInterval(nop);
      socket.close();
    },
  };
}
