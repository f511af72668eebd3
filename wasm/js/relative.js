// wasm/js/relative.js — the relative-bias families and the learned absolute table
// (core: posenc/relative.hpp): ALiBi slopes and biases, T5 buckets, Shaw's clipped distances.
//
// Each options object is read once, own properties only, into a null-prototype record
// (so getters run once, inherited or polluted properties are ignored), every value is
// type-checked, and only then does anything cross into WebAssembly; the core checks ranges
// and its RangeError names the argument. Nothing is written before validation succeeds.
import { unwrap } from './errors.js';

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an Array';
  if (typeof v === 'object') return `a ${Object.prototype.toString.call(v).slice(8, -1)}`;
  if (typeof v === 'string') return `the string '${v}'`;
  return `${typeof v} ${String(v)}`;
}

/** The own string-keyed properties of `value` named in `allowed`, each read once. */
function record(value, fn, allowed) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`posenc: ${fn} options must be an object, got ${describe(value)}`);
  }
  const out = Object.create(null);
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') continue;
    if (!allowed.includes(key)) {
      throw new TypeError(`posenc: unknown option '${key}' of ${fn}; allowed: ${allowed.join(', ')}`);
    }
    out[key] = value[key];
  }
  return out;
}

/** A safe integer (the core checks the range and names it). */
function count(name, v, def) {
  if (v === undefined && def !== undefined) return def;
  if (typeof v !== 'number') throw new TypeError(`posenc: ${name} must be an integer, got ${describe(v)}`);
  if (!Number.isSafeInteger(v)) throw new RangeError(`posenc: ${name} must be an integer, got ${v}`);
  return v;
}

function flag(name, v, def) {
  if (v === undefined) return def;
  if (typeof v !== 'boolean') throw new TypeError(`posenc: ${name} must be a boolean, got ${describe(v)}`);
  return v;
}

/** A 64-bit seed as two uint32 halves: a safe integer ≥ 0 or a BigInt in [0, 2^64). */
function seedHalves(name, v) {
  if (typeof v === 'bigint') {
    if (v < 0n || v >= 1n << 64n) throw new RangeError(`posenc: ${name} must be in [0, 2^64), got ${v}`);
    return [Number(v & 0xffffffffn), Number(v >> 32n)];
  }
  if (typeof v !== 'number') throw new TypeError(`posenc: ${name} must be an integer or a BigInt, got ${describe(v)}`);
  if (!Number.isSafeInteger(v) || v < 0) {
    throw new RangeError(`posenc: ${name} must be an integer in [0, 2^53) or a BigInt in [0, 2^64), got ${v}`);
  }
  return [v % 2 ** 32, Math.floor(v / 2 ** 32)];
}

/** Positions to look up: an Array or Int32Array of integers in [0, length), copied once. */
function rowIndices(v, length) {
  if (!(Array.isArray(v) || v instanceof Int32Array)) {
    throw new TypeError(`posenc: positions must be an Array or Int32Array of integers, got ${describe(v)}`);
  }
  const n = v.length;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = v[i];
    if (typeof p !== 'number') throw new TypeError(`posenc: positions[${i}] must be an integer, got ${describe(p)}`);
    if (!Number.isInteger(p) || p < 0 || p >= length) {
      throw new RangeError(`posenc: positions[${i}] must be an integer in [0, ${length - 1}] ` +
        `(a learned table has no vector past its ${length} trained positions), got ${p}`);
    }
    out[i] = p;
  }
  return out;
}

export function relativeApi({ module }) {
  return {
    /** ALiBi slopes m_h for `heads` heads (Press et al.; BLOOM/MPT for non-powers of two). */
    alibiSlopes(opts) {
      const o = record(opts, 'alibiSlopes()', ['heads']);
      return unwrap(module.alibiSlopes(count('heads', o.heads)));
    },

    /** [heads][queries][keys] of −m_h·|P_i − j|, P_i = keys − queries + i; causal: j > P_i → −Infinity. */
    alibiBias(opts) {
      const o = record(opts, 'alibiBias()', ['heads', 'queries', 'keys', 'causal']);
      const heads = count('heads', o.heads);
      const keys = count('keys', o.keys);
      const queries = count('queries', o.queries, keys);
      const causal = flag('causal', o.causal, false);
      return unwrap(module.alibiBias(heads, queries, keys, causal));
    },

    /** [queries][keys] Int32Array of HF T5's bucket of (key − query). */
    t5Buckets(opts) {
      const o = record(opts, 't5Buckets()', ['queries', 'keys', 'bidirectional', 'numBuckets', 'maxDistance']);
      const queries = count('queries', o.queries);
      const keys = count('keys', o.keys, queries);
      const bidirectional = flag('bidirectional', o.bidirectional, true);
      const numBuckets = count('numBuckets', o.numBuckets, 32);
      const maxDistance = count('maxDistance', o.maxDistance, 128);
      return unwrap(module.t5Buckets(queries, keys, bidirectional, numBuckets, maxDistance));
    },

    /** [queries][keys] Int32Array of clip(j − i, −maxDistance, maxDistance) (Shaw et al. 2018). */
    clippedDistances(opts) {
      const o = record(opts, 'clippedDistances()', ['queries', 'keys', 'maxDistance']);
      const queries = count('queries', o.queries);
      const keys = count('keys', o.keys, queries);
      const maxDistance = count('maxDistance', o.maxDistance);
      return unwrap(module.clippedDistances(queries, keys, maxDistance));
    },

    /**
     * A seeded stand-in for a trained table of `positions` vectors of `dim` floats:
     * { positions, dim, parameters, lookup(list) → Float32Array [list.length][dim] }; a
     * position ≥ positions throws RangeError (there is no vector past the trained length).
     */
    learnedTable(opts) {
      const o = record(opts, 'learnedTable()', ['positions', 'dim', 'seed']);
      const positions = count('positions', o.positions);
      const dim = count('dim', o.dim);
      const [lo, hi] = seedHalves('seed', o.seed === undefined ? 0 : o.seed);
      const table = unwrap(module.learnedTable(positions, dim, lo, hi));
      return Object.freeze({
        positions,
        dim,
        parameters: positions * dim,
        lookup(list) {
          const idx = rowIndices(list, positions);
          const out = new Float32Array(idx.length * dim);
          for (let r = 0; r < idx.length; r++) out.set(table.subarray(idx[r] * dim, (idx[r] + 1) * dim), r * dim);
          return out;
        },
      });
    },
  };
}
