// The copying path of rope.apply on a large Float32Array runs through WASM scratch memory in
// token chunks (wasm/js/rotary.js), in place and, for dense rows, out of place; it must equal
// the zero-copy tensor path bit for bit for every layout, leave x untouched out of place (and
// out's floats outside the rows), and a refused call must leave the caller's arrays untouched.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createPosenc } from '../../wasm/index.js';

// A tiny LCG for inputs (values in [−1, 1)); the numbers only need to be reproducible.
function lcg(seed) {
  return () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 31 - 1);
}

const CASES = [
  { headDim: 128, tokens: 700, heads: 8 },
  { headDim: 64, tokens: 1000, heads: 4, tokenStride: 300, headStride: 70 },
  { headDim: 64, tokens: 1500, heads: 3, layout: 'interleaved', inverse: true, start: 123456 },
  { headDim: 32, tokens: 3000, heads: 4, positions: true },
  { headDim: 128, tokens: 40, heads: 600 }, // one token is larger than a chunk: single-block path
  { headDim: 16, tokens: 20000, heads: 1, tokenStride: 16, start: -5000 },
];

function optionsOf(c) {
  const opts = { tokens: c.tokens, heads: c.heads };
  if (c.tokenStride !== undefined) opts.tokenStride = c.tokenStride;
  if (c.headStride !== undefined) opts.headStride = c.headStride;
  if (c.inverse) opts.inverse = true;
  if (c.positions) opts.positions = Int32Array.from({ length: c.tokens }, (_, i) => ((i * 7919) % 100000) - 300);
  else if (c.start !== undefined) opts.start = c.start;
  return opts;
}

for (const simd of [true, false]) {
  test(`${simd ? 'simd' : 'scalar'}: chunked copying apply equals the zero-copy path, errors write nothing`, async () => {
    const pe = await createPosenc({ simd });
    const rnd = lcg(7);
    for (const c of CASES) {
      const rope = pe.rope({ headDim: c.headDim, layout: c.layout ?? 'half', cacheLength: 512 });
      const ts = c.tokenStride ?? c.heads * c.headDim;
      const hs = c.headStride ?? c.headDim;
      const length = (c.tokens - 1) * ts + (c.heads - 1) * hs + c.headDim + 37;
      const x = Float32Array.from({ length }, rnd);
      const opts = optionsOf(c);

      const t = pe.tensor(x);
      rope.apply(t, opts);
      const want = t.array.slice();
      t.dispose();
      const got = x.slice();
      rope.apply(got, opts);
      assert.deepEqual(got, want, JSON.stringify(c));

      // Out of place: out holds other values first; the tensor path says what it must hold.
      const before = Float32Array.from({ length }, rnd);
      const [tin, tout] = [pe.tensor(x), pe.tensor(before)];
      rope.apply(tin, { ...opts, out: tout });
      const wantOut = tout.array.slice();
      tin.dispose();
      tout.dispose();
      const xs = x.slice(), out = before.slice();
      assert.equal(rope.apply(xs, { ...opts, out }), out);
      assert.deepEqual(out, wantOut, `out of place: ${JSON.stringify(c)}`);
      assert.deepEqual(xs, x, `x only read: ${JSON.stringify(c)}`);

      const y = x.slice();
      const { positions, ...rest } = opts;
      const refusedOut = before.slice();
      assert.throws(() => rope.apply(y, { ...rest, start: 2 ** 53 - 10, out: refusedOut }), RangeError);
      assert.deepEqual(refusedOut, before, `out unchanged after a refused call: ${JSON.stringify(c)}`);
      assert.throws(() => rope.apply(y, { ...rest, tokens: c.tokens + 100, start: 0 }), RangeError);
      assert.throws(() => rope.apply(y, { ...rest, start: 2 ** 53 - 10 }), RangeError);
      assert.deepEqual(y, x, `unchanged after refused calls: ${JSON.stringify(c)}`);
      rope.dispose();
    }
  });
}
