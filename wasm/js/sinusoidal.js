// wasm/js/sinusoidal.js — sinusoidal tables (Vaswani et al.) and their algebra (core:
// posenc/sinusoidal.hpp). Tables are Float32Array rows × dim, row-major; the algebra
// (shift matrix, dot products, norms) comes back in double as Float64Array.
import * as check from './check.js';
import { unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { pair } from './axes.js';
import { align } from './heap.js';
import { Target, resolveTarget, stagedBytes, unstage } from './target.js';

export const PE_LAYOUTS = ['interleaved', 'concat'];

// The core names a row range first / count, a single position p; JS calls them start and
// positions (tables) or count (norms, distances), and position.
const tableNames = (m) => m.replace(/\bfirst\b/g, 'start').replace(/\bcount\b/g, 'positions');
const startNames = (m) => m.replace(/\bfirst\b/g, 'start');
const positionNames = (m) => m.replace(/^posenc: p\b/, 'posenc: position');

const layoutArg = (o) => (o.layout === undefined ? 'interleaved' : check.oneOf('layout', o.layout, PE_LAYOUTS));

export function sinusoidalApi({ module, heap }) {
  const OUT = new Target();

  // The table the binding left in a malloc'd block (bind_sinusoidal.cpp): one copy out, freed.
  const takeTable = (ptr, floats) => {
    try {
      const table = new check.Float32(floats);
      heap.getF32(table, ptr, floats);
      return table;
    } finally {
      heap.free(ptr);
    }
  };

  // A table into `out` (resolved after every option was read): a tensor receives it in
  // place, any other Float32Array through scratch (nothing copied in: the table sets every
  // float, and the binding checks that out holds exactly the table). positions: an
  // Int32Array staged beside it, or null. fill(outPtr, outLength, positionsPtr) calls.
  const intoOut = (out, positions, fill) => {
    resolveTarget(heap, 'out', out, OUT);
    const outBytes = align(stagedBytes(OUT));
    const total = outBytes + (positions === null ? 0 : 4 * check.lengthOf(positions));
    const base = total === 0 ? 0 : heap.acquire(total, 'sinusoidal()');
    try {
      if (OUT.copy !== null) OUT.ptr = base;
      if (positions !== null) heap.put(base + outBytes, positions, 'Int32Array', 'positions');
      unwrap(module, fill(OUT.ptr, OUT.length, base + outBytes), tableNames);
      unstage(heap, OUT);
    } finally {
      if (base !== 0) heap.release(base);
    }
    return out;
  };

  // What a table needs, for a message when memory is out (errors.js throwLast).
  const tableNeed = (rows, dim, what) => () => `sinusoidal() returns ${what} × dim = ${rows} × ${dim} floats ` +
    `(${4 * rows * dim} bytes)`;

  // A Float64Array result view of the binding, copied out (rename: see errors.js).
  const f64 = (r, rename) => heap.take(unwrap(module, r, rename), 'Float64Array');

  return {
    /**
     * The table PE(p) for p = start … start+positions−1 (positions: a count) or for the given
     * positions (Int32Array | BigInt64Array | number[] | bigint[]). layout: 'interleaved'
     * (default) | 'concat'. A new Float32Array, or with `out` (a tensor, or a Float32Array
     * to reuse, of exactly positions × dim floats) that one, filled: a tensor receives the
     * table with no copy.
     */
    sinusoidal(opts) {
      const o = check.options(opts, 'sinusoidal()', ['dim', 'base', 'positions', 'start', 'layout', 'out']);
      const dim = check.dim('dim', o.dim);
      const base = baseArg(o);
      const layout = layoutArg(o);
      if (typeof o.positions === 'number' || o.positions === undefined) {
        const count = check.size('positions', o.positions);
        const start = o.start === undefined ? 0 : check.safeInteger('start', o.start);
        if (o.out !== undefined) {
          return intoOut(o.out, null, (ptr, length) => module.sinusoidalTable(dim, base, start, count, layout, ptr, length));
        }
        return takeTable(unwrap(module, module.sinusoidalTable(dim, base, start, count, layout, 0, 0), tableNames,
          tableNeed(count, dim, 'positions')), count * dim);
      }
      if (o.start !== undefined) {
        throw new TypeError('posenc: sinusoidal() takes start only with a count of positions, not with a list');
      }
      const positions = check.positions('positions', o.positions, heap.buffer);
      const n = check.lengthOf(positions);
      if (o.out !== undefined) {
        return intoOut(o.out, positions, (ptr, length, p) => module.sinusoidalTableAt(dim, base, p, n, layout, ptr, length));
      }
      const p = heap.acquire(4 * n, 'sinusoidal()');
      let table;
      try {
        heap.put(p, positions, 'Int32Array', 'positions');
        table = unwrap(module, module.sinusoidalTableAt(dim, base, p, n, layout, 0, 0), undefined,
          tableNeed(n, dim, 'positions.length'));
      } finally {
        heap.release(p);
      }
      return takeTable(table, n * dim);
    },

    /**
     * get_2d_sincos_pos_embed (core posenc/sinusoidal_2d.hpp): [(extraTokens + h·w)][dim], a
     * new Float32Array or, with `out` (a tensor or a Float32Array of exactly that many
     * floats), that one filled. index.d.ts has the contract.
     */
    sinusoidal2d(opts) {
      const o = check.options(opts, 'sinusoidal2d()', ['dim', 'grid', 'baseSize', 'interpolationScale', 'maxSize',
        'extraTokens', 'out']);
      if (o.grid === undefined) throw new TypeError('posenc: sinusoidal2d() needs grid ([height, width] in patches)');
      const dim = check.integer('dim', o.dim);
      const [height, width] = pair('grid', o.grid, 'height, width');
      const args = [dim, height, width, o.baseSize === undefined ? 16 : check.number('baseSize', o.baseSize),
        o.interpolationScale === undefined ? 1 : check.number('interpolationScale', o.interpolationScale),
        o.maxSize === undefined ? 0 : check.integer('maxSize', o.maxSize),
        o.extraTokens === undefined ? 0 : check.integer('extraTokens', o.extraTokens)];
      if (o.out !== undefined) return intoOut(o.out, null, (ptr, length) => module.sinusoidal2d(...args, ptr, length));
      const ptr = unwrap(module, module.sinusoidal2d(...args, 0, 0));
      return takeTable(ptr, (args[6] + height * width) * dim);
    },

    /** One row PE(position): Float32Array(dim). */
    sinusoidalRow(opts) {
      const o = check.options(opts, 'sinusoidalRow()', ['dim', 'base', 'position', 'layout']);
      const r = module.sinusoidalRow(check.dim('dim', o.dim), baseArg(o), check.safeInteger('position', o.position),
        layoutArg(o));
      return heap.take(unwrap(module, r), 'Float32Array');
    },

    /** The shift matrix M(k), dim×dim row-major Float64Array: PE(p+k) = M(k)·PE(p). */
    shiftMatrix(opts) {
      const o = check.options(opts, 'shiftMatrix()', ['dim', 'base', 'k', 'layout']);
      return f64(module.shiftMatrix(check.dim('dim', o.dim), baseArg(o), check.safeInteger('k', o.k), layoutArg(o)));
    },

    /** M(k)·row in double (row: Float32Array of dim values in `layout`) → Float64Array. */
    applyShift(row, opts) {
      const o = check.options(opts, 'applyShift()', ['base', 'k', 'layout']);
      const base = baseArg(o);
      const k = check.safeInteger('k', o.k);
      const layout = layoutArg(o);
      const r = check.evenRow('row', row, heap.buffer);
      const n = check.lengthOf(r);
      const p = heap.acquire(4 * n, 'applyShift()');
      let result;
      try {
        heap.put(p, r, 'Float32Array', 'row');
        result = module.applyShift(n, base, k, p, n, layout);
      } finally {
        heap.release(p);
      }
      return f64(result);
    },

    /** out[j] = PE(position)·PE(position + kFirst + j), j < kCount (float32 rows, double sums). */
    peDotByDistance(opts) {
      const o = check.options(opts, 'peDotByDistance()', ['dim', 'base', 'position', 'kFirst', 'kCount']);
      return f64(module.peDotByDistance(check.dim('dim', o.dim), baseArg(o),
        o.position === undefined ? 0 : check.safeInteger('position', o.position),
        o.kFirst === undefined ? 0 : check.safeInteger('kFirst', o.kFirst),
        check.int64('kCount', o.kCount)), positionNames);
    },

    /** out[j] = Σ_i cos((kFirst + j)·θ_i), the closed form of peDotByDistance, in double. */
    peDotClosedForm(opts) {
      const o = check.options(opts, 'peDotClosedForm()', ['dim', 'base', 'kFirst', 'kCount']);
      return f64(module.peDotClosedForm(check.dim('dim', o.dim), baseArg(o),
        o.kFirst === undefined ? 0 : check.safeInteger('kFirst', o.kFirst),
        check.int64('kCount', o.kCount)));
    },

    /** out[r] = ‖PE(start + r)‖, r < count (every value √(dim/2) up to float rounding). */
    peNorms(opts) {
      const o = check.options(opts, 'peNorms()', ['dim', 'base', 'start', 'count']);
      return f64(module.peNorms(check.dim('dim', o.dim), baseArg(o),
        o.start === undefined ? 0 : check.safeInteger('start', o.start), check.int64('count', o.count)), startNames);
    },

    /** { distance, p, q }: the closest pair of encodings among positions start … start+count−1. */
    peMinDistance(opts) {
      const o = check.options(opts, 'peMinDistance()', ['dim', 'base', 'start', 'count']);
      const r = f64(module.peMinDistance(check.dim('dim', o.dim), baseArg(o),
        o.start === undefined ? 0 : check.safeInteger('start', o.start), check.int64('count', o.count)), startNames);
      return { distance: r[0], p: r[1], q: r[2] };
    },
  };
}
