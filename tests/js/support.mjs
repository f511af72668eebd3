// tests/js/support.mjs — shared helpers of the package tests (not a test file itself).
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createPosenc } from '../../wasm/index.js';
import { Random } from './reference.mjs';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

let both;
/** Both binaries, loaded once per test file: { simd, scalar }. */
export async function loadBoth() {
  both ??= Promise.all([createPosenc({ simd: true }), createPosenc({ simd: false })])
    .then(([simd, scalar]) => ({ simd, scalar }));
  return both;
}

/** max_i |a[i] − b[i]| (lengths must match). */
export function maxAbsDiff(a, b) {
  assert.equal(a.length, b.length, 'length');
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

/** Asserts |a[i] − b[i]| ≤ tol for every i, reporting the worst index. */
export function assertClose(actual, expected, tol, what = 'values') {
  assert.equal(actual.length, expected.length, `${what}: length`);
  let worst = -1;
  let worstErr = 0;
  for (let i = 0; i < actual.length; i++) {
    const err = Math.abs(actual[i] - expected[i]);
    if (!(err <= worstErr)) { worst = i; worstErr = err; }
  }
  assert.ok(worstErr <= tol,
    `${what}: |${actual[worst]} − ${expected[worst]}| = ${worstErr} at ${worst} > ${tol}`);
}

/** n float32 values uniform in [lo, hi) from the reference generator. */
export function randomFloats(rng, n, lo = -1, hi = 1) {
  return Float32Array.from({ length: n }, () => rng.uniform(lo, hi));
}

/** A random integer in [lo, hi]. */
export function randomInt(rng, lo, hi) {
  return lo + rng.below(hi - lo + 1);
}

export { Random };

/** Asserts that fn throws `type` with a message matching every regexp of `patterns`. */
export function assertThrows(fn, type, ...patterns) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof type, `expected ${type.name}, got ${e?.constructor?.name}: ${e?.message}`);
    for (const p of patterns) assert.match(e.message, p);
    return true;
  });
}
