// The page's end of a live view's frame socket (src-tauri/src/live/socket.rs): a WebSocket to
// the app's own process on 127.0.0.1, dialled once with the view's one-time URL. Frames come
// down as binary messages (decoded in frame.ts); each drawn frame goes back up as its seq,
// 4 bytes little endian, which is what lets the bridge send the next one.
//
// Why not a Tauri Channel: on Linux a Channel hands over every large message by evaluating a
// script that fetches it, 3-4x slower than this socket, and the web process's memory grew
// with every frame that way (BENCHMARKS.md, "Live view in the app").

export type FrameSocket = {
  ack: (seq: number) => void;
  close: () => void;
};

/** Resolves once connected; rejects if the socket cannot be opened. */
export function connectFrames(url: string, onFrame: (message: unknown) => void): Promise<FrameSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';
    socket.onmessage = (event) => onFrame(event.data);
    socket.onerror = () => reject(new Error('the live screen could not connect'));
    socket.onopen = () => {
      socket.onerror = null;
      resolve({
        ack: (seq) => {
          if (socket.readyState !== WebSocket.OPEN) return;
          const ack = new DataView(new ArrayBuffer(4));
          ack.setUint32(0, seq, true);
          socket.send(ack.buffer);
        },
        close: () => socket.close(),
      });
    };
  });
}
