// Serves the viewer page and guacamole-common-js's ES build on a free loopback port.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';

const here = (p) => new URL(p, import.meta.url);
const FILES = {
  '/': [here('./page/index.html'), 'text/html'],
  '/viewer.js': [here('./page/viewer.js'), 'text/javascript'],
  '/guacamole-common.js': [here('./node_modules/guacamole-common-js/dist/esm/guacamole-common.js'), 'text/javascript'],
};

export async function servePage() {
  const server = createServer(async (req, res) => {
    const file = FILES[new URL(req.url, 'http://x').pathname];
    if (!file) {
      res.writeHead(req.url === '/favicon.ico' ? 204 : 404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': file[1], 'Cache-Control': 'no-store' });
    res.end(await readFile(file[0]));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}
