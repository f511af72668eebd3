// wasm/js/frequencies.js — the frequency ladder θ_i and wavelengths λ_i (core:
// posenc/frequencies.hpp).
import * as check from './check.js';
import { unwrap } from './errors.js';
import { scalingArg } from './scaling.js';

const KEYS = ['dim', 'base', 'scaling'];

export function baseArg(o) {
  return o.base === undefined ? 10000 : check.number('base', o.base);
}

export function frequencyApi({ module }) {
  return {
    /** { invFreq: Float64Array(dim/2), attentionFactor } for dim, base, scaling. */
    inverseFrequencies(opts) {
      const o = check.options(opts, 'inverseFrequencies()', KEYS);
      return unwrap(module.inverseFrequencies(check.integer('dim', o.dim), baseArg(o), scalingArg(o.scaling)));
    },

    /** Float64Array(dim/2) of λ_i = 2π/θ_i. */
    wavelengths(opts) {
      const o = check.options(opts, 'wavelengths()', KEYS);
      return unwrap(module.wavelengths(check.integer('dim', o.dim), baseArg(o), scalingArg(o.scaling)));
    },
  };
}
