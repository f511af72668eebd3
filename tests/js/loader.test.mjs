// The loader: SIMD detection, explicit flavour choice, custom wasm sources, bad options.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createPosenc, simdSupported } from '../../wasm/index.js';
import { assertThrows, repoRoot } from './support.mjs';

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

test('an engine without bulk memory (memory.copy) also gets the scalar binary', async () => {
  const validate = WebAssembly.validate;
  // Rejects any module holding the memory.copy opcode (0xfc 0x0a), accepts the rest.
  WebAssembly.validate = (bytes) => {
    const b = new Uint8Array(bytes);
    for (let i = 0; i + 1 < b.length; i++) if (b[i] === 0xfc && b[i + 1] === 0x0a) return false;
    return validate(bytes);
  };
  try {
    assert.equal(simdSupported(), false);
    assert.equal((await createPosenc()).simd, false);
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

test('a wasm source that cannot be instantiated rejects instead of hanging', async () => {
  await assert.rejects(createPosenc({ wasm: new Uint8Array([0, 97, 115, 109, 9, 9]) }));
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

test('a .wasm URL that answers 404 rejects with the URL, the status and a hint', async () => {
  const { serve } = await import('../../scripts/serve.mjs');
  const server = await serve(`${repoRoot}wasm`);
  try {
    await assert.rejects(createPosenc({ wasm: `${server.url}dist/missing.wasm` }),
      (e) => /missing\.wasm/.test(e.message) && /404/.test(e.message) && /optimizeDeps/.test(e.message));
    // … and over HTTP with the right MIME type the real binary loads (streaming compile).
    const pe = await createPosenc({ wasm: `${server.url}dist/posenc-simd.wasm` });
    assert.equal(pe.sinusoidal({ dim: 2, positions: [0] })[1], 1);
  } finally {
    await server.close();
  }
});
