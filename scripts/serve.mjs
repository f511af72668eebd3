#!/usr/bin/env node
// scripts/serve.mjs — a tiny static file server for the package's browser tests and the demo.
//
//   node scripts/serve.mjs <dir> [--port N]      (port 0 or omitted: a free random port)
//
// Serves <dir> on 127.0.0.1 with the right MIME types (application/wasm, so streaming
// compilation works) and a strict Content-Security-Policy: no inline script or style, no
// eval — WebAssembly compilation ('wasm-unsafe-eval') is the only exception. Text and
// .wasm go out brotli- or gzip-compressed when the browser accepts it (compressed once per
// file version, kept in memory). Prints the URL as its first stdout line. Also importable:
// `const { url, close } = await serve(dir)`.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat, readFile } from 'node:fs/promises';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

// Types worth compressing (images other than SVG and fonts are compressed already).
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.wasm', '.svg', '.txt', '.md']);

/** The encoding to send for an Accept-Encoding header: 'br', 'gzip' or null (q=0 refuses). */
export function pickEncoding(header) {
  const accepted = new Map();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  for (const enc of ['br', 'gzip']) if ((accepted.get(enc) ?? accepted.get('*') ?? 0) > 0) return enc;
  return null;
}

// file + encoding → { mtime, body }: each version of a file is compressed once.
const compressed = new Map();
async function compressedBody(file, mtimeMs, encoding) {
  const key = `${encoding}:${file}`;
  const hit = compressed.get(key);
  if (hit && hit.mtime === mtimeMs) return hit.body;
  const raw = await readFile(file);
  const body = encoding === 'br'
    ? brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } })
    : gzipSync(raw, { level: 9 });
  compressed.set(key, { mtime: mtimeMs, body });
  return body;
}

// The file for a URL path inside root, or null (outside root, missing, unreadable).
async function resolveFile(root, urlPath) {
  let path;
  try {
    path = resolve(join(root, decodeURIComponent(urlPath)));
  } catch {
    return null; // malformed %-escape
  }
  if (path !== root && !path.startsWith(root + sep)) return null;
  try {
    const s = await stat(path);
    if (s.isDirectory()) return resolveFile(root, join(urlPath, 'index.html'));
    return s.isFile() ? path : null;
  } catch {
    return null;
  }
}

/** Starts serving `dir`; resolves to { url, port, close() }. `csp`: another policy. */
export async function serve(dir, { port = 0, host = '127.0.0.1', csp = CSP } = {}) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    const urlPath = new URL(req.url, 'http://x').pathname;
    const file = req.method === 'GET' || req.method === 'HEAD' ? await resolveFile(root, urlPath) : null;
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    const ext = extname(file).toLowerCase();
    const type = MIME[ext] ?? 'application/octet-stream';
    const encoding = COMPRESSIBLE.has(ext) ? pickEncoding(req.headers['accept-encoding']) : null;
    if (COMPRESSIBLE.has(ext)) res.setHeader('Vary', 'Accept-Encoding');
    if (encoding) {
      let body;
      try {
        body = await compressedBody(file, (await stat(file)).mtimeMs, encoding);
      } catch {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
        return; // removed since it was found
      }
      res.writeHead(200, { 'Content-Type': type, 'Content-Encoding': encoding, 'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    res.writeHead(200, { 'Content-Type': type });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise((ok, fail) => server.once('error', fail).listen(port, host, ok));
  const actual = server.address().port;
  return {
    url: `http://${host}:${actual}/`,
    port: actual,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let dir;
  let port = 0;
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--port') port = Number(args[++i]);
    else if (dir === undefined) dir = args[i];
    else dir = null; // more than one folder
  }
  if (!dir || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('usage: node scripts/serve.mjs <dir> [--port N]');
    process.exit(2);
  }
  const { url } = await serve(dir, { port });
  console.log(url);
}
