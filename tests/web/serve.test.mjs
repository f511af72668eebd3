// scripts/serve.mjs (what `npm start` serves): text and .wasm go out brotli- or
// gzip-compressed when the request accepts it, byte-identical after decoding, plain otherwise.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serve, pickEncoding } from '../../scripts/serve.mjs';

let dir; let server;
const js = Buffer.from('export const x = 1;\n'.repeat(2000));
const png = Buffer.alloc(3000, 7);
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'serve-'));
  writeFileSync(join(dir, 'a.js'), js);
  writeFileSync(join(dir, 'b.png'), png);
  server = await serve(dir);
});
after(async () => { await server?.close(); rmSync(dir, { recursive: true, force: true }); });

function get(path, headers = {}, method = 'GET') {
  return new Promise((ok, fail) => {
    request(new URL(path, server.url), { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ res, body: Buffer.concat(chunks) }));
    }).on('error', fail).end();
  });
}

test('pickEncoding follows Accept-Encoding, q=0 refuses', () => {
  assert.equal(pickEncoding('gzip, deflate, br, zstd'), 'br');
  assert.equal(pickEncoding('gzip'), 'gzip');
  assert.equal(pickEncoding('br;q=0, gzip;q=0.5'), 'gzip');
  assert.equal(pickEncoding('identity'), null);
  assert.equal(pickEncoding(undefined), null);
  assert.equal(pickEncoding('*'), 'br');
});

test('brotli and gzip bodies decode to the file; no Accept-Encoding, no encoding', async () => {
  const br = await get('/a.js', { 'accept-encoding': 'gzip, br' });
  assert.equal(br.res.headers['content-encoding'], 'br');
  assert.equal(br.res.headers.vary, 'Accept-Encoding');
  assert.ok(br.body.length < js.length / 10, `${br.body.length} bytes`);
  assert.deepEqual(brotliDecompressSync(br.body), js);
  const gz = await get('/a.js', { 'accept-encoding': 'gzip' });
  assert.equal(gz.res.headers['content-encoding'], 'gzip');
  assert.deepEqual(gunzipSync(gz.body), js);
  const plain = await get('/a.js');
  assert.equal(plain.res.headers['content-encoding'], undefined);
  assert.deepEqual(plain.body, js);
  const head = await get('/a.js', { 'accept-encoding': 'br' }, 'HEAD');
  assert.equal(head.res.headers['content-encoding'], 'br');
  assert.equal(head.body.length, 0);
});

test('a PNG goes out as it is; a missing file is 404', async () => {
  const img = await get('/b.png', { 'accept-encoding': 'br' });
  assert.equal(img.res.headers['content-encoding'], undefined);
  assert.deepEqual(img.body, png);
  assert.equal((await get('/nope.js', { 'accept-encoding': 'br' })).res.statusCode, 404);
});
