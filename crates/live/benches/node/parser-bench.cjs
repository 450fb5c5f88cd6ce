// guacamole-common-js 1.5's own Guacamole.Parser on the stream files the Rust bench writes
// (target/live-bench/*.guac), fed in the same 8 KB and 64 KB chunks.
//
//   cd crates/live/benches/node && npm install && node parser-bench.cjs [files...]
'use strict';
const fs = require('fs');
const path = require('path');
const Guacamole = require('guacamole-common-js');

const dir = path.join(__dirname, '../../../../target/live-bench');
const files = process.argv.length > 2
  ? process.argv.slice(2)
  : fs.readdirSync(dir).filter((f) => f.endsWith('.guac')).sort().map((f) => path.join(dir, f));

function run(text, chunk) {
  const parser = new Guacamole.Parser();
  let frames = 0;
  parser.oninstruction = (opcode) => { if (opcode === 'sync') frames++; };
  const start = process.hrtime.bigint();
  for (let i = 0; i < text.length; i += chunk) parser.receive(text.substring(i, i + chunk));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { frames, seconds };
}

for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  const bytes = Buffer.byteLength(text, 'utf8');
  for (const chunk of [8192, 65536]) {
    run(text, chunk); // warm-up
    const runs = [1, 2, 3].map(() => run(text, chunk));
    const best = Math.min(...runs.map((r) => r.seconds));
    console.log(JSON.stringify({
      stream: path.basename(file, '.guac'),
      chunk,
      bytes,
      frames: runs[0].frames,
      best_seconds: +best.toFixed(4),
      mb_per_s: +(bytes / best / 1e6).toFixed(1),
    }));
  }
}
