// The benchmark's bare in-place pass (bench/wasm/bare-pass.mjs) is the yardstick of the
// WASM apply's speed, so it must really visit every float of its tensor, in place, once per
// run, and nothing past it: with a factor of 2 every value doubles and the floats after
// the tensor keep theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barePass } from '../../bench/wasm/bare-pass.mjs';

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
