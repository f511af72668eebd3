// The loader: SIMD detection, explicit flavour choice, custom wasm sources, locateWasm, bad
// options, and every wrong binary a host can hand it (the other flavour, an empty or foreign
// module, truncated or non-wasm bytes, an HTML page from a server, a data: URL, a missing
// file): each a rejected promise whose message says what arrived and what to do, never a
// pending promise or an unhandled rejection, and the next createPosenc() works.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { createPosenc, simdSupported } from '../../wasm/index.js';
import { assertThrows, repoRoot } from './support.mjs';

const unhandled = [];
process.on('unhandledRejection', (e) => unhandled.push(e));
test.after(() => assert.deepEqual(unhandled, [], 'no rejection went unhandled'));

const FLAVOURS = ['simd', 'scalar'];
const file = (flavour) => `${repoRoot}wasm/dist/posenc-${flavour}.wasm`;
const bytesOf = {};
test.before(async () => {
  for (const f of FLAVOURS) bytesOf[f] = await readFile(file(f));
});
const other = (flavour) => (flavour === 'simd' ? 'scalar' : 'simd');
const wasmModule = (...sections) => new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...sections.flat()]);
// A custom section `posenc.flavour` = simd, as scripts/tag-wasm.mjs writes it.
const TAG_SIMD = [0, 19, 14, ...Buffer.from('posenc.flavour'), ...Buffer.from('simd')];

// Rejects (never hangs: the race has a deadline) with a message matching every pattern.
async function assertRejects(promise, ...patterns) {
  let timer;
  const deadline = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('still pending after 20 s')), 20000); });
  try {
    await assert.rejects(Promise.race([promise, deadline]), (e) => {
      assert.ok(e instanceof Error, String(e));
      assert.doesNotMatch(e.message, /still pending/);
      for (const p of patterns) assert.match(e.message, p);
      return true;
    });
  } finally {
    clearTimeout(timer);
  }
}

async function assertWorks(promise, simd) {
  const pe = await promise;
  assert.equal(pe.simd, simd);
  assert.ok(Math.abs(pe.sinusoidal({ dim: 8, positions: [1] })[0] - 0.841471) < 1e-6);
}

test('Node 20 supports SIMD128, so the default load is the SIMD binary', async () => {
  assert.equal(simdSupported(), true);
  const pe = await createPosenc();
  assert.equal(pe.simd, true);
});

test('simd: false loads the scalar binary, simd: true the SIMD one', async () => {
  assert.equal((await createPosenc({ simd: false })).simd, false);
  assert.equal((await createPosenc({ simd: true })).simd, true);
});

test('without SIMD128 support the loader falls back to the scalar binary', async () => {
  const validate = WebAssembly.validate;
  WebAssembly.validate = () => false; // an engine that rejects every v128 instruction
  try {
    assert.equal(simdSupported(), false);
    const pe = await createPosenc();
    assert.equal(pe.simd, false);
    assert.equal(pe.inverseFrequencies({ dim: 4 }).invFreq[1], 0.01);
  } finally {
    WebAssembly.validate = validate;
  }
});

test('an engine without bulk memory (memory.copy) still gets the SIMD binary, which does not use it', async () => {
  const validate = WebAssembly.validate;
  // Rejects any module holding the memory.copy / memory.fill opcodes (0xfc 0x0a / 0x0b).
  const bulk = (b) => {
    for (let i = 0; i + 1 < b.length; i++) if (b[i] === 0xfc && (b[i + 1] === 0x0a || b[i + 1] === 0x0b)) return true;
    return false;
  };
  WebAssembly.validate = (bytes) => !bulk(new Uint8Array(bytes)) && validate(bytes);
  try {
    assert.equal(simdSupported(), true);
    const pe = await createPosenc();
    assert.equal(pe.simd, true);
    assert.equal(pe.inverseFrequencies({ dim: 4 }).invFreq[1], 0.01);
  } finally {
    WebAssembly.validate = validate;
  }
});

test('the .wasm can be handed over as bytes or as a compiled WebAssembly.Module', async () => {
  const bytes = await readFile(`${repoRoot}wasm/dist/posenc-scalar.wasm`);
  const fromBytes = await createPosenc({ simd: false, wasm: bytes });
  assert.equal(fromBytes.wavelengths({ dim: 2 })[0], 2 * Math.PI);
  const compiled = await WebAssembly.compile(bytes);
  const fromModule = await createPosenc({ simd: false, wasm: compiled });
  assert.equal(fromModule.wavelengths({ dim: 2 })[0], 2 * Math.PI);
});

test('createPosenc checks its options', async () => {
  await assert.rejects(createPosenc({ simd: 'yes' }), TypeError);
  await assert.rejects(createPosenc({ smid: true }), (e) => e instanceof TypeError && /unknown option 'smid'/.test(e.message));
  await assert.rejects(createPosenc(42), TypeError);
  await assert.rejects(createPosenc({ wasm: 42 }), (e) => e instanceof TypeError && /\bwasm\b/.test(e.message));
});

test('two instances are independent modules', async () => {
  const a = await createPosenc();
  const b = await createPosenc();
  const t = a.tensor(1000);
  assert.ok(a.memoryStats().heapInUse > b.memoryStats().heapInUse);
  // A tensor of one instance passed to another is copied, not taken as a local address.
  a.fillUniform(t, { seed: 4 });
  const before = Float32Array.from(t.array);
  const rope = b.rope({ headDim: 8 });
  rope.apply(t, { tokens: 125, start: 3 });
  assert.deepEqual(t.array, rope.apply(before, { tokens: 125, start: 3 }));
  t.dispose();
  assertThrows(() => t.array, TypeError, /disposed/);
});

test('detached typed arrays are refused with a TypeError naming the argument', async () => {
  const pe = await createPosenc();
  const detach = (a) => structuredClone(a.buffer, { transfer: [a.buffer] }) && a;
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: detach(new Int32Array(3)) }), TypeError, /\bpositions\b/, /detached/);
  assertThrows(() => pe.rope({ headDim: 8 }).apply(detach(new Float32Array(8)), { tokens: 1 }), TypeError, /\bx\b/, /detached/);
  // An old view of a tensor after memory growth is detached too.
  const t = pe.tensor(8);
  const old = t.array;
  const big = pe.tensor(pe.memoryStats().memoryBytes / 4);
  assertThrows(() => pe.fillUniform(old, { seed: 1 }), TypeError, /\bout\b/, /detached/);
  pe.fillUniform(t.array, { seed: 1 });
  big.dispose();
  t.dispose();
  // An empty array is not detached.
  assert.equal(pe.sinusoidal({ dim: 8, positions: new Int32Array(0) }).length, 0);
});

test('a .wasm given without simd is loaded with the glue of its own flavour', async () => {
  for (const f of FLAVOURS) {
    await assertWorks(createPosenc({ wasm: bytesOf[f] }), f === 'simd');
    await assertWorks(createPosenc({ wasm: await WebAssembly.compile(bytesOf[f]) }), f === 'simd');
  }
});

for (const flavour of FLAVOURS) {
  const simd = flavour === 'simd';

  test(`${flavour}: the other flavour's binary is refused by name`, async () => {
    await assertRejects(createPosenc({ simd, wasm: bytesOf[other(flavour)] }),
      new RegExp(`should be posenc's ${flavour} binary \\(posenc-${flavour}\\.wasm\\)`),
      new RegExp(`is posenc's ${other(flavour)} binary`));
    await assertRejects(createPosenc({ simd, locateWasm: () => pathToFileURL(file(other(flavour))) }),
      new RegExp(`locateWasm\\('${flavour}'\\)`), new RegExp(`posenc-${other(flavour)}\\.wasm`));
  });

  test(`${flavour}: an empty module, a foreign module, a module of another build`, async () => {
    await assertRejects(createPosenc({ simd, wasm: wasmModule() }), /not posenc's \(0 exports, no 'posenc\.flavour' section\)/, /posenc\/inline/);
    const foreign = wasmModule([1, 4, 1, 0x60, 0, 0], [3, 2, 1, 0], [7, 5, 1, 1, 0x66, 0, 0], [10, 4, 1, 2, 0, 11]);
    await assertRejects(createPosenc({ simd, wasm: foreign }), /not posenc's \(1 exports/);
    // Tagged as posenc's but importing what this JS does not provide: a stale or mixed build.
    const stale = wasmModule([1, 4, 1, 0x60, 0, 0], [2, 8, 1, 1, 0x61, 2, 0x7a, 0x7a, 0, 0], TAG_SIMD);
    if (simd) await assertRejects(createPosenc({ simd, wasm: stale }), /imports a\.zz/, /different builds/);
  });

  test(`${flavour}: truncated, empty, text and HTML bytes say what they are`, async () => {
    const half = bytesOf[flavour].subarray(0, bytesOf[flavour].length >> 1);
    await assertRejects(createPosenc({ simd, wasm: half }), /does not compile/, /truncated/, new RegExp(`${half.length} bytes`));
    await assertRejects(createPosenc({ simd, wasm: new Uint8Array(0) }), /not WebAssembly: it is an empty file/);
    await assertRejects(createPosenc({ simd, wasm: new TextEncoder().encode('<!doctype html><html><body>app</body></html>') }),
      /it is an HTML page \(starts with "<!doctype html>/);
    await assertRejects(createPosenc({ simd, wasm: new TextEncoder().encode('{"error": "not found"}') }), /JSON or text/);
    await assertRejects(createPosenc({ simd, wasm: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]) }), /9 bytes starting with 01 02 03 04/);
  });

  test(`${flavour}: data: URLs — the real binary loads, an empty module is refused`, async () => {
    const dataUrl = (b) => `data:application/wasm;base64,${Buffer.from(b).toString('base64')}`;
    await assertWorks(createPosenc({ simd, wasm: dataUrl(bytesOf[flavour]) }), simd);
    await assertRejects(createPosenc({ simd, wasm: dataUrl(wasmModule()) }), /not posenc's/);
  });

  test(`${flavour}: locateWasm self-hosts both binaries (URL, path, bytes, promise)`, async () => {
    const asked = [];
    const locateWasm = (f) => { asked.push(f); return pathToFileURL(file(f)); };
    await assertWorks(createPosenc({ simd, locateWasm }), simd);
    assert.deepEqual(asked, [flavour]);
    await assertWorks(createPosenc({ simd, locateWasm: (f) => file(f) }), simd);
    await assertWorks(createPosenc({ simd, locateWasm: async (f) => readFile(file(f)) }), simd);
  });

  test(`${flavour}: a missing file and a bad locateWasm reject with the reason`, async () => {
    await assertRejects(createPosenc({ simd, wasm: pathToFileURL(`${repoRoot}wasm/dist/nothing.wasm`) }), /nothing\.wasm \(ENOENT\)/, /posenc\/inline/);
    await assertRejects(createPosenc({ simd, locateWasm: () => 42 }), /locateWasm\('(simd|scalar)'\) must return a URL/);
    await assertRejects(createPosenc({ simd, locateWasm: () => { throw new RangeError('no CDN'); } }), /no CDN/);
    await assertRejects(createPosenc({ simd, locateWasm: () => 'http://[bad' }), /not a valid URL/);
  });
}

test('wasm and locateWasm together, or a non-function locateWasm, are TypeErrors', async () => {
  await assert.rejects(createPosenc({ wasm: bytesOf.simd, locateWasm: () => '' }), (e) => e instanceof TypeError && /either wasm .* or locateWasm/.test(e.message));
  await assert.rejects(createPosenc({ locateWasm: 'x.wasm' }), (e) => e instanceof TypeError && /locateWasm must be a function/.test(e.message));
  // Inherited keys are not options.
  const inherited = Object.create({ simd: 'yes', wasm: 42 });
  await assertWorks(createPosenc(inherited), true);
});

// A server answering like a misconfigured host or a dev server's SPA fallback.
async function htmlServer() {
  const page = '<!doctype html>\n<html><head><title>app</title></head><body></body></html>\n';
  const server = createServer((req, res) => {
    if (req.url.startsWith('/missing')) return res.writeHead(404).end('not found');
    const type = req.url.startsWith('/as-wasm') ? 'application/wasm' : 'text/html';
    res.writeHead(200, { 'Content-Type': type }).end(page);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

test('HTTP: an HTML page where the .wasm should be (as text/html or as application/wasm), a 404', async () => {
  const server = await htmlServer();
  try {
    for (const path of ['posenc-simd.wasm', 'as-wasm/posenc-simd.wasm']) {
      await assertRejects(createPosenc({ wasm: `${server.url}${path}` }), new RegExp(`${path.replace('.', '\\.')} is not WebAssembly: it is an HTML page`), /locateWasm/);
    }
    await assertRejects(createPosenc({ wasm: `${server.url}missing/posenc-simd.wasm` }), /HTTP 404/, /missing\/posenc-simd\.wasm/);
  } finally {
    await server.close();
  }
});

test('HTTP: the real binary streams from a server with the application/wasm type', async () => {
  const { serve } = await import('../../scripts/serve.mjs');
  const server = await serve(`${repoRoot}wasm`);
  try {
    await assertWorks(createPosenc({ wasm: `${server.url}dist/posenc-simd.wasm` }), true);
    await assertWorks(createPosenc({ locateWasm: (f) => new URL(`dist/posenc-${f}.wasm`, server.url), simd: false }), false);
  } finally {
    await server.close();
  }
});

// Sources that never end: each rejects within seconds (assertRejects: 20 s at most) saying
// what arrived, and memory stays bounded (the loader reads at most 32 MiB of any source).
async function assertBounded(what, promise, ...patterns) {
  const before = process.memoryUsage().rss;
  const started = Date.now();
  await assertRejects(promise, ...patterns);
  const grew = process.memoryUsage().rss - before;
  assert.ok(grew < 256 * 2 ** 20, `${what}: memory grew by ${grew} bytes`);
  assert.ok(Date.now() - started < 15000, `${what}: took ${Date.now() - started} ms`);
}

test('endless sources: an HTTP body, a ReadableStream, /dev/zero and a FIFO are cut off by name', async () => {
  const zeros = new Uint8Array(1 << 16);
  const server = createServer((req, res) => {
    const type = req.url.startsWith('/as-wasm') ? 'application/wasm' : 'application/octet-stream';
    res.writeHead(200, { 'Content-Type': type });
    // Endless: the wasm magic, then zeros for as long as the client reads.
    res.write(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    const more = () => { while (res.write(zeros)); };
    res.on('drain', more);
    res.on('error', () => {});
    more();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}/`;
  try {
    for (const path of ['endless.wasm', 'as-wasm/endless.wasm']) {
      await assertBounded(path, createPosenc({ wasm: `${url}${path}` }), /more than 33554432 bytes arrived/,
        /starting as .*00 61 73 6d/, new RegExp(path.replace('.', '\\.')));
    }
    await assertBounded('locateWasm endless', createPosenc({ locateWasm: () => `${url}endless.wasm` }),
      /locateWasm|endless\.wasm/, /more than 33554432 bytes/);
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }

  // A fetch whose body is a ReadableStream that never closes (an announced length is refused
  // before reading).
  const realFetch = globalThis.fetch;
  try {
    globalThis.fetch = async () => new Response(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(1 << 16)) }),
      { headers: { 'content-type': 'application/wasm' } });
    await assertBounded('ReadableStream', createPosenc({ wasm: 'https://example.invalid/posenc-simd.wasm' }),
      /more than 33554432 bytes arrived/, /starting as .*00 00 00 00/);
    globalThis.fetch = async () => new Response(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(1 << 16)) }));
    await assertBounded('ReadableStream (octet-stream)', createPosenc({ wasm: 'https://example.invalid/posenc-simd.wasm' }),
      /more than 33554432 bytes arrived/);
    globalThis.fetch = async () => new Response('x', { headers: { 'content-length': String(2 ** 40) } });
    await assertRejects(createPosenc({ wasm: 'https://example.invalid/posenc-simd.wasm' }), /announces 1099511627776 bytes/);
  } finally {
    globalThis.fetch = realFetch;
  }

  // Files that are not files: /dev/zero (endless), a FIFO with a writer that never stops.
  await assertBounded('/dev/zero', createPosenc({ wasm: 'file:///dev/zero' }), /file:\/\/\/dev\/zero is a character device, not a \.wasm file/);
  await assertBounded('locateWasm /dev/zero', createPosenc({ locateWasm: () => new URL('file:///dev/zero') }), /character device/);
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { execFileSync, spawn } = await import('node:child_process');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(`${tmpdir()}/posenc-fifo-`);
  const fifo = `${dir}/posenc-simd.wasm`;
  execFileSync('mkfifo', [fifo]);
  const writer = spawn('sh', ['-c', `cat /dev/zero > '${fifo}'`], { stdio: 'ignore' });
  try {
    await assertBounded('FIFO', createPosenc({ wasm: pathToFileURL(fifo) }), /is a FIFO, not a \.wasm file/);
  } finally {
    writer.kill();
    await rm(dir, { recursive: true, force: true });
  }
});

test('locateWasm returning a revoked Proxy, or wasm a revoked Proxy: a TypeError naming it', async () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  await assertRejects(createPosenc({ locateWasm: () => proxy }), /locateWasm\('simd'\) must return .*got a revoked Proxy/);
  // Resolved by an async locateWasm, or its promise rejected: named, the engine's words quoted.
  await assertRejects(createPosenc({ locateWasm: async () => proxy }), /^posenc: locateWasm\('simd'\) did not give a binary: '.*proxy/i);
  await assertRejects(createPosenc({ locateWasm: () => Promise.reject(new Error('no\nnetwork')) }),
    /^posenc: locateWasm\('simd'\) did not give a binary: 'no\\nnetwork'/);
  await assert.rejects(createPosenc({ wasm: proxy }), (e) => e instanceof TypeError && /wasm must be .*got a revoked Proxy/.test(e.message));
});

test('after every failure above, a default createPosenc() still works', async () => {
  await assertWorks(createPosenc(), true);
});
