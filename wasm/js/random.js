// wasm/js/random.js — the seeded generator (core: posenc/random.hpp): the same numbers as
// the native library for the same seed, bit for bit.
import * as check from './check.js';
import { unwrap } from './errors.js';
import { Target, resolveTarget, stagedBytes, unstage } from './target.js';

export function randomApi({ module, heap }) {
  const OUT = new Target();
  return {
    /**
     * Fills `out` (Float32Array or tensor) with uniform floats in [lo, hi) drawn from
     * seed (number ≥ 0 or BigInt < 2^64); defaults lo = −1, hi = 1. Returns out.
     */
    fillUniform(out, opts) {
      const o = check.options(opts, 'fillUniform()', ['seed', 'lo', 'hi']);
      const [seedLo, seedHi] = check.seed('seed', o.seed);
      const lo = o.lo === undefined ? -1 : check.number('lo', o.lo);
      const hi = o.hi === undefined ? 1 : check.number('hi', o.hi);
      resolveTarget(heap, 'out', out, OUT);
      // Nothing copied in: every float is drawn.
      const bytes = stagedBytes(OUT);
      const base = bytes === 0 ? 0 : heap.acquire(bytes, 'fillUniform()');
      try {
        if (OUT.copy !== null) OUT.ptr = base;
        unwrap(module, module.fillUniform(OUT.ptr, OUT.length, seedLo, seedHi, lo, hi));
        unstage(heap, OUT);
      } finally {
        if (base !== 0) heap.release(base);
      }
      return out;
    },

    /** A permutation of 0 … n−1 (Fisher–Yates driven by seed): Int32Array(n). */
    permutation(opts) {
      const o = check.options(opts, 'permutation()', ['n', 'seed']);
      const [seedLo, seedHi] = check.seed('seed', o.seed);
      return heap.take(unwrap(module, module.permutation(check.int64('n', o.n), seedLo, seedHi)), 'Int32Array');
    },
  };
}
