// wasm/js/relative.js — the relative-bias families and the learned absolute table
// (core: posenc/relative.hpp): ALiBi slopes and biases, T5 buckets, Shaw's clipped distances.
//
// Each options object is read once, own properties only, into a null-prototype record
// (so getters run once, inherited or polluted properties are ignored), every value is
// type-checked, and only then does anything cross into WebAssembly; the core checks ranges
// and its RangeError names the argument. Nothing is written before validation succeeds.
import * as check from './check.js';
import { unwrap } from './errors.js';

/** A count or size (the core checks its range and names it); `def` when absent. */
const count = (name, v, def) => (v === undefined && def !== undefined ? def : check.safeInteger(name, v));
const flag = (name, v, def) => (v === undefined ? def : check.boolean(name, v));

/** Positions to look up: an Array or Int32Array of integers in [0, length), copied once. */
function rowIndices(v, length, heapBuffer) {
  const idx = check.positions('positions', v, heapBuffer);
  for (let i = 0; i < check.lengthOf(idx); i++) {
    if (idx[i] < 0 || idx[i] >= length) {
      throw new RangeError(`posenc: positions[${i}] must be an integer in [0, ${length - 1}] ` +
        `(a learned table has no vector past its ${length} trained positions), got ${idx[i]}`);
    }
  }
  return idx;
}

export function relativeApi({ module, heap }) {
  return {
    /** ALiBi slopes m_h for `heads` heads (Press et al.; BLOOM/MPT for non-powers of two). */
    alibiSlopes(opts) {
      const o = check.options(opts, 'alibiSlopes()', ['heads']);
      return heap.take(unwrap(module, module.alibiSlopes(count('heads', o.heads))), 'Float64Array');
    },

    /** [heads][queries][keys] of −m_h·|P_i − j|, P_i = keys − queries + i; causal: j > P_i → −Infinity. */
    alibiBias(opts) {
      const o = check.options(opts, 'alibiBias()', ['heads', 'queries', 'keys', 'causal']);
      const heads = count('heads', o.heads);
      const keys = count('keys', o.keys);
      const queries = count('queries', o.queries, keys);
      const causal = flag('causal', o.causal, false);
      return heap.take(unwrap(module, module.alibiBias(heads, queries, keys, causal)), 'Float32Array');
    },

    /** [queries][keys] Int32Array of HF T5's bucket of (key − query). */
    t5Buckets(opts) {
      const o = check.options(opts, 't5Buckets()', ['queries', 'keys', 'bidirectional', 'numBuckets', 'maxDistance']);
      const queries = count('queries', o.queries);
      const keys = count('keys', o.keys, queries);
      const bidirectional = flag('bidirectional', o.bidirectional, true);
      const numBuckets = count('numBuckets', o.numBuckets, 32);
      const maxDistance = count('maxDistance', o.maxDistance, 128);
      return heap.take(unwrap(module, module.t5Buckets(queries, keys, bidirectional, numBuckets, maxDistance)), 'Int32Array');
    },

    /** [queries][keys] Int32Array of clip(j − i, −maxDistance, maxDistance) (Shaw et al. 2018). */
    clippedDistances(opts) {
      const o = check.options(opts, 'clippedDistances()', ['queries', 'keys', 'maxDistance']);
      const queries = count('queries', o.queries);
      const keys = count('keys', o.keys, queries);
      const maxDistance = count('maxDistance', o.maxDistance);
      return heap.take(unwrap(module, module.clippedDistances(queries, keys, maxDistance)), 'Int32Array');
    },

    /**
     * A seeded stand-in for a trained table of `positions` vectors of `dim` floats:
     * { positions, dim, parameters, lookup(list) → Float32Array [list.length][dim] }; a
     * position ≥ positions throws RangeError (there is no vector past the trained length).
     */
    learnedTable(opts) {
      const o = check.options(opts, 'learnedTable()', ['positions', 'dim', 'seed']);
      const positions = count('positions', o.positions);
      const dim = count('dim', o.dim);
      const [lo, hi] = check.seed('seed', o.seed === undefined ? 0 : o.seed);
      const table = heap.take(unwrap(module, module.learnedTable(positions, dim, lo, hi)), 'Float32Array');
      return Object.freeze({
        positions,
        dim,
        parameters: positions * dim,
        lookup(list) {
          const idx = rowIndices(list, positions, heap.buffer);
          const n = check.lengthOf(idx);
          const out = new check.Float32(n * dim);
          for (let r = 0; r < n; r++) out.set(table.subarray(idx[r] * dim, (idx[r] + 1) * dim), r * dim);
          return out;
        },
      });
    },
  };
}
