// The benchmark's bare in-place pass (bench/wasm/bare-pass.mjs) is the yardstick of the
// WASM apply's speed, so it must really visit every float of its tensor, in place, once per
// run, and nothing past it: with a factor of 2 every value doubles and the floats after
// the tensor keep theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bareHalfPass, barePass, ropeLoop } from '../../bench/wasm/bare-pass.mjs';
import { loadBoth } from './support.mjs';

test('the bare pass multiplies every float of its tensor in place, once per run', () => {
  for (const floats of [16, 4096, 3 * 16384 + 16]) {  // one 64-byte step; 16 KiB; past 3 pages
    const s = barePass(floats, (a) => a.forEach((_, i) => { a[i] = i + 1; }), 2);
    // The memory is whole 64 KiB pages: the rest of the last one is the guard.
    const guard = new Float32Array(s.array.buffer, 4 * floats, 16).fill(7);
    s.run();
    s.array.forEach((v, i) => assert.equal(v, 2 * (i + 1), `float ${i} of ${floats}`));
    s.run();
    assert.equal(s.array[floats - 1], 4 * floats, 'a second run passes over it again');
    assert.ok(guard.every((v) => v === 7), `nothing past the ${floats} floats is touched`);
  }
});

test('the bare pass with factor 1 leaves its values as they were', () => {
  const s = barePass(1024, (a) => a.forEach((_, i) => { a[i] = Math.sin(i); }));
  const before = Float32Array.from(s.array);
  s.run();
  assert.deepEqual(s.array, before);
});

test('the bare pass refuses sizes its 64-byte steps cannot cover exactly', () => {
  for (const floats of [0, 8, 17]) assert.throws(() => barePass(floats, (a) => a), RangeError);
});

// The float16 yardstick (bareHalfPass): every normal float16 value must come back exactly,
// and every value must really be visited (a subnormal, outside the normal-range path it
// computes, comes back changed wherever it sits; its garbage may spill into its neighbour),
// nothing past the array touched.
test('the bare float16 round trip returns every normal value and visits every slot', () => {
  const normals = [];
  for (let s = 0; s < 2; s++) for (let e = 1; e <= 30; e++) for (let m = 0; m < 1024; m++) normals.push((s << 15) | (e << 10) | m);
  const p = bareHalfPass(normals.length, (a) => a.set(normals));
  const guard = new Uint16Array(p.array.buffer, 2 * normals.length, 16).fill(0x0001);
  p.run();
  assert.deepEqual(Array.from(p.array), normals);
  assert.ok(guard.every((v) => v === 0x0001), 'nothing past the array is touched');
  for (const at of [0, 7, 8, 15, 16, 31, normals.length - 1]) {
    p.array.set(normals);
    p.array[at] = 0x0001;  // the smallest subnormal
    p.run();
    assert.notEqual(p.array[at], 0x0001, `slot ${at} is visited`);
  }
});

test('the bare float16 round trip refuses sizes its 32-byte steps cannot cover', () => {
  for (const count of [0, 8, 17]) assert.throws(() => bareHalfPass(count, (a) => a), RangeError);
});

// The plain v128 RoPE loop (ropeLoop), the yardstick of the stable WASM targets: it must
// compute exactly what posenc's half-layout apply computes from the same cos/sin rows (the
// same operations in the same order), over every token and head, and nothing past them.
test('the plain v128 RoPE loop rotates every pair as posenc does, bit for bit', async () => {
  const { simd } = await loadBoth();
  for (const [tokens, heads, dim] of [[1, 1, 8], [3, 2, 16], [16, 32, 128]]) {
    const rope = simd.rope({ headDim: dim });
    const x = Float32Array.from({ length: tokens * heads * dim }, (_, i) => Math.sin(1.7 * i));
    const { cos, sin } = rope.cosSin({ start: 40, tokens });
    const loop = ropeLoop(tokens, heads, dim, (a) => a.set(x), (c, s) => {
      for (let t = 0; t < tokens; ++t) {
        c.set(cos.subarray(t * dim, t * dim + dim / 2), t * dim / 2);
        s.set(sin.subarray(t * dim, t * dim + dim / 2), t * dim / 2);
      }
    });
    const rows = new Float32Array(loop.array.buffer, 4 * x.length, tokens * dim).slice();
    loop.run();
    assert.deepEqual(loop.array, rope.apply(Float32Array.from(x), { tokens, heads, start: 40 }), `${tokens}×${heads}×${dim}`);
    assert.deepEqual(new Float32Array(loop.array.buffer, 4 * x.length, tokens * dim), rows, 'the rows are only read');
    rope.dispose();
  }
  assert.throws(() => ropeLoop(1, 1, 6, () => {}, () => {}), RangeError);
});
