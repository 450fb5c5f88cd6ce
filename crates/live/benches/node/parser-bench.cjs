// guacamole-common-js 1.5's own Guacamole.Parser on the stream files the Rust bench writes
// (target/live-bench/*.guac), fed as the same WebSocket messages (whole instructions, at most
// 8 KB, boundaries from the .lengths file beside each stream) and in the same 8 KB and 64 KB
// chunks. The `*_decoded` ways time the same chunks from bytes: each chunk's UTF-8 decoding
// (TextDecoder, streaming, so a cut character is carried) plus the parse, which is what
// porthole-live's `Parser::feed` does; the plain ways hand the parser ready-made strings.
//
//   cd crates/live/benches/node && npm install && node parser-bench.cjs [files...]
//   WAYS=chunks_8k,chunks_64k node parser-bench.cjs      (only those ways)
'use strict';
const fs = require('fs');
const path = require('path');
const Guacamole = require('guacamole-common-js');

const dir = path.join(__dirname, '../../../../target/live-bench');
const files = process.argv.length > 2
  ? process.argv.slice(2)
  : fs.readdirSync(dir).filter((f) => f.endsWith('.guac')).sort().map((f) => path.join(dir, f));

// Each chunk is its own flat string, as each WebSocket message is in a browser; slices of one
// big string would let V8 share memory between them and flatter the parser.
function chunksOf(bytes, chunk) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk).toString('utf8'));
  return chunks;
}

function messagesOf(bytes, lengthsFile) {
  const messages = [];
  let at = 0;
  for (const line of fs.readFileSync(lengthsFile, 'utf8').split('\n')) {
    const n = Number(line);
    messages.push(bytes.subarray(at, at + n).toString('utf8'));
    at += n;
  }
  return messages;
}

function byteChunksOf(bytes, chunk) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
  return chunks;
}

function run(chunks) {
  const parser = new Guacamole.Parser();
  let frames = 0;
  parser.oninstruction = (opcode) => { if (opcode === 'sync') frames++; };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const start = process.hrtime.bigint();
  if (typeof chunks[0] === 'string') {
    for (const c of chunks) parser.receive(c);
  } else {
    for (const c of chunks) parser.receive(decoder.decode(c, { stream: true }));
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { frames, seconds };
}

const only = process.env.WAYS ? process.env.WAYS.split(',') : null;

for (const file of files) {
  const raw = fs.readFileSync(file);
  const bytes = raw.length;
  const lengths = file.replace(/\.guac$/, '.lengths');
  const ways = [['ws_messages', () => messagesOf(raw, lengths)]];
  for (const chunk of [8192, 65536]) ways.push([`chunks_${chunk / 1024}k`, () => chunksOf(raw, chunk)]);
  for (const chunk of [8192, 65536]) ways.push([`chunks_${chunk / 1024}k_decoded`, () => byteChunksOf(raw, chunk)]);
  for (const [way, cut] of ways) {
    if (only && !only.includes(way)) continue;
    if (way === 'ws_messages' && !fs.existsSync(lengths)) continue;
    const chunks = cut();
    run(chunks); // warm-up
    const runs = [1, 2, 3, 4, 5].map(() => run(chunks));
    const times = runs.map((r) => r.seconds).sort((a, b) => a - b);
    const median = times[2];
    console.log(JSON.stringify({
      stream: path.basename(file, '.guac'),
      way,
      bytes,
      frames: runs[0].frames,
      median_seconds: +median.toFixed(4),
      mb_per_s: +(bytes / median / 1e6).toFixed(1),
      best_mb_per_s: +(bytes / times[0] / 1e6).toFixed(1),
    }));
  }
}
