// wasm/js/sinusoidal.js — sinusoidal tables (Vaswani et al.) and their algebra (core:
// posenc/sinusoidal.hpp). Tables are Float32Array rows × dim, row-major; the algebra
// (shift matrix, dot products, norms) comes back in double as Float64Array.
import * as check from './check.js';
import { unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { inPlaceAll } from './target.js';

export const PE_LAYOUTS = ['interleaved', 'concat'];

const layoutArg = (o) => (o.layout === undefined ? 'interleaved' : check.oneOf('layout', o.layout, PE_LAYOUTS));

export function sinusoidalApi({ module, heap }) {
  // The table the binding left in a malloc'd block (bind_sinusoidal.cpp): one copy out, freed.
  const takeTable = (ptr, floats) => {
    try {
      return heap.f32(ptr, floats).slice();
    } finally {
      heap.free(ptr);
    }
  };

  // The table written into `out` (a tensor: straight into its memory; any other
  // Float32Array: through scratch, nothing copied in). The binding checks that out holds
  // exactly the table, after the other arguments. fill(ptr, length, extra) runs it.
  const intoOut = (out, extraBytes, fill) => {
    inPlaceAll(heap, [['out', out, false, true]], extraBytes, ([ptr], [length], extra) => fill(ptr, length, extra));
    return out;
  };

  return {
    /**
     * The table PE(p) for p = start … start+positions−1 (positions: a count) or for the given
     * positions (Int32Array | number[]). layout: 'interleaved' (default) | 'concat'. A new
     * Float32Array, or with `out` (a tensor, or a Float32Array to reuse, of exactly
     * positions × dim floats) that one, filled: a tensor receives the table with no copy.
     */
    sinusoidal(opts) {
      const o = check.options(opts, 'sinusoidal()', ['dim', 'base', 'positions', 'start', 'layout', 'out']);
      const dim = check.integer('dim', o.dim);
      const base = baseArg(o);
      const layout = layoutArg(o);
      if (typeof o.positions === 'number' || o.positions === undefined) {
        const count = check.size('positions', o.positions);
        const start = o.start === undefined ? 0 : check.safeInteger('start', o.start);
        if (o.out !== undefined) {
          return intoOut(o.out, [], (ptr, length) =>
            unwrap(module.sinusoidalTable(dim, base, start, count, layout, ptr, length)));
        }
        return takeTable(unwrap(module.sinusoidalTable(dim, base, start, count, layout, 0, 0)), count * dim);
      }
      if (o.start !== undefined) {
        throw new TypeError('posenc: sinusoidal() takes start only with a count of positions, not with a list');
      }
      const positions = check.int32Array('positions', o.positions);
      if (o.out !== undefined) {
        return intoOut(o.out, [positions.byteLength], (ptr, length, [p]) => {
          heap.i32(p, positions.length).set(positions);
          unwrap(module.sinusoidalTableAt(dim, base, p, positions.length, layout, ptr, length));
        });
      }
      return takeTable(heap.stage([positions], 'sinusoidal()', ([p]) =>
        unwrap(module.sinusoidalTableAt(dim, base, p, positions.length, layout, 0, 0))), positions.length * dim);
    },

    /** One row PE(position): Float32Array(dim). */
    sinusoidalRow(opts) {
      const o = check.options(opts, 'sinusoidalRow()', ['dim', 'base', 'position', 'layout']);
      return unwrap(module.sinusoidalRow(check.integer('dim', o.dim), baseArg(o),
        check.safeInteger('position', o.position), layoutArg(o)));
    },

    /** The shift matrix M(k), dim×dim row-major Float64Array: PE(p+k) = M(k)·PE(p). */
    shiftMatrix(opts) {
      const o = check.options(opts, 'shiftMatrix()', ['dim', 'base', 'k', 'layout']);
      return unwrap(module.shiftMatrix(check.integer('dim', o.dim), baseArg(o),
        check.safeInteger('k', o.k), layoutArg(o)));
    },

    /** M(k)·row in double (row: Float32Array of dim values in `layout`) → Float64Array. */
    applyShift(row, opts) {
      check.evenRow('row', row);
      const o = check.options(opts, 'applyShift()', ['base', 'k', 'layout']);
      const base = baseArg(o);
      const k = check.safeInteger('k', o.k);
      const layout = layoutArg(o);
      return heap.stage([row], 'applyShift()', ([p]) =>
        unwrap(module.applyShift(row.length, base, k, p, row.length, layout)));
    },

    /** out[j] = PE(position)·PE(position + kFirst + j), j < kCount (float32 rows, double sums). */
    peDotByDistance(opts) {
      const o = check.options(opts, 'peDotByDistance()', ['dim', 'base', 'position', 'kFirst', 'kCount']);
      return unwrap(module.peDotByDistance(check.integer('dim', o.dim), baseArg(o),
        o.position === undefined ? 0 : check.safeInteger('position', o.position),
        o.kFirst === undefined ? 0 : check.safeInteger('kFirst', o.kFirst),
        check.int64('kCount', o.kCount)));
    },

    /** out[j] = Σ_i cos((kFirst + j)·θ_i), the closed form of peDotByDistance, in double. */
    peDotClosedForm(opts) {
      const o = check.options(opts, 'peDotClosedForm()', ['dim', 'base', 'kFirst', 'kCount']);
      return unwrap(module.peDotClosedForm(check.integer('dim', o.dim), baseArg(o),
        o.kFirst === undefined ? 0 : check.safeInteger('kFirst', o.kFirst),
        check.int64('kCount', o.kCount)));
    },

    /** out[r] = ‖PE(start + r)‖, r < count (every value √(dim/2) up to float rounding). */
    peNorms(opts) {
      const o = check.options(opts, 'peNorms()', ['dim', 'base', 'start', 'count']);
      return unwrap(module.peNorms(check.integer('dim', o.dim), baseArg(o),
        o.start === undefined ? 0 : check.safeInteger('start', o.start), check.int64('count', o.count)));
    },

    /** { distance, p, q }: the closest pair of encodings among positions start … start+count−1. */
    peMinDistance(opts) {
      const o = check.options(opts, 'peMinDistance()', ['dim', 'base', 'start', 'count']);
      return unwrap(module.peMinDistance(check.integer('dim', o.dim), baseArg(o),
        o.start === undefined ? 0 : check.safeInteger('start', o.start), check.int64('count', o.count)));
    },
  };
}
