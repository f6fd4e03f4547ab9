// A minimal static file server for the built dist/ (and its demo pages), so the browser tests
// see exactly what a static host serves. With a prefix, the files are served only under that
// sub-path (as on a course site: /courses/a3/permlab/…) and everything else is a 404, so a URL
// that forgets the sub-path fails.
//   node serve.mjs <dir> <port> [prefix]
// or, from a test: `const server = await serve(dir, 0, '/sub/'); server.address().port`.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The content type of each file extension served (also the first-row benchmark's server's). */
export const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Serves `dir` on 127.0.0.1:`port` (0: any free port) under `prefix`; resolves once listening. */
export function serve(dir, port, prefix = '/') {
  const root = resolve(dir);
  const base = `/${prefix.replace(/^\/+|\/+$/g, '')}/`.replace('//', '/');
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      if (!url.pathname.startsWith(base)) throw new Error('outside the prefix');
      let path = normalize(join(root, decodeURIComponent(url.pathname.slice(base.length - 1))));
      if (path !== root && !path.startsWith(root + sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(path).catch(() => null))?.isDirectory()) path = join(path, 'index.html');
      const body = await readFile(path);
      res.writeHead(200, {
        'content-type': types[extname(path)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((done) => server.listen(port, '127.0.0.1', () => done(server)));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir = 'dist', port = 8181, prefix = '/'] = process.argv.slice(2);
  const server = await serve(dir, Number(port), prefix);
  console.log(`serving ${resolve(dir)} on http://127.0.0.1:${server.address().port}${prefix}`);
}
