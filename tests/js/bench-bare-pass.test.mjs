// The benchmark's bare in-place pass (bench/wasm/bare-pass.mjs) is the yardstick of the
// WASM apply's speed, so it must really visit every float of its tensor, in place, once per
// run, and nothing past it: with a factor of 2 every value doubles and the floats after
// the tensor keep theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bareHalfPass, barePass } from '../../bench/wasm/bare-pass.mjs';

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
