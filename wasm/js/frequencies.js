// wasm/js/frequencies.js — the frequency ladder θ_i and wavelengths λ_i (core:
// posenc/frequencies.hpp).
import * as check from './check.js';
import { unwrap } from './errors.js';
import { withScaling, scalingArg } from './scaling.js';

const KEYS = ['dim', 'base', 'scaling'];

/** The `base` option of a record: default 10000. */
export function baseArg(o) {
  return o.base === undefined ? 10000 : check.number('base', o.base);
}

export function frequencyApi({ module, heap }) {
  // [dim, base, scaling] of a ladder function's options.
  const ladderArgs = (opts, fn) => {
    const o = check.options(opts, fn, KEYS);
    return [check.dim('dim', o.dim), baseArg(o), scalingArg(o.scaling)];
  };

  return {
    /** { invFreq: Float64Array(dim/2), attentionFactor } for dim, base, scaling. */
    inverseFrequencies(opts) {
      const [dim, base, scaling] = ladderArgs(opts, 'inverseFrequencies()');
      const r = withScaling(heap, scaling, 'inverseFrequencies()', (ptr) =>
        module.inverseFrequencies(dim, base, scaling.type, ptr));
      const all = heap.take(unwrap(module, r), 'Float64Array');
      return { invFreq: new check.Float64(check.bufferOf(all), 8, check.lengthOf(all) - 1), attentionFactor: all[0] };
    },

    /** Float64Array(dim/2) of λ_i = 2π/θ_i. */
    wavelengths(opts) {
      const [dim, base, scaling] = ladderArgs(opts, 'wavelengths()');
      const r = withScaling(heap, scaling, 'wavelengths()', (ptr) => module.wavelengths(dim, base, scaling.type, ptr));
      return heap.take(unwrap(module, r), 'Float64Array');
    },
  };
}
