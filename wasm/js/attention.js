// wasm/js/attention.js — the small multi-head self-attention and the permutation test
// (core: posenc/attention.hpp).
import * as check from './check.js';
import { unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { ROPE_LAYOUTS } from './rotary.js';
import { SCORE_MODES } from './scores.js';
import { PE_LAYOUTS } from './sinusoidal.js';

const ATTENTION_KEYS = ['x', 'weights', 'tokens', 'modelDim', 'heads', 'mode', 'causal', 'base',
  'layout', 'peLayout', 'positions'];
const MATRICES = ['wq', 'wk', 'wv', 'wo'];

// x, the four matrices (equal lengths, each checked against modelDim² by the core) and the
// option object handed to C++.
function attentionArgs(o) {
  const x = check.float32Array('x', o.x);
  if (o.weights === null || typeof o.weights !== 'object') {
    throw new TypeError('posenc: weights must be an object { wq, wk, wv, wo } of Float32Arrays');
  }
  const w = MATRICES.map((m) => check.float32Array(`weights.${m}`, o.weights[m]));
  for (let i = 1; i < 4; i++) {
    if (w[i].length !== w[0].length) {
      throw new RangeError(`posenc: weights.${MATRICES[i]} has ${w[i].length} elements but weights.wq has ${w[0].length}`);
    }
  }
  const modelDim = check.integer('modelDim', o.modelDim);
  const options = {
    // Derived from x only for a usable modelDim; otherwise 1, so the core reports modelDim.
    tokens: o.tokens === undefined ? (modelDim > 0 ? Math.floor(x.length / modelDim) : 1) : check.integer('tokens', o.tokens),
    modelDim,
    heads: o.heads === undefined ? 1 : check.integer('heads', o.heads),
    mode: o.mode === undefined ? 'none' : check.oneOf('mode', o.mode, SCORE_MODES),
    causal: o.causal === undefined ? false : check.boolean('causal', o.causal),
    base: baseArg(o),
    layout: o.layout === undefined ? 'half' : check.oneOf('layout', o.layout, ROPE_LAYOUTS),
    peLayout: o.peLayout === undefined ? 'interleaved' : check.oneOf('peLayout', o.peLayout, PE_LAYOUTS),
  };
  return { x, w, options };
}

// One Float32Array holding wq | wk | wv | wo back to back (bind_attention.cpp reads it so).
function packed(w) {
  const all = new Float32Array(4 * w[0].length);
  w.forEach((m, i) => all.set(m, i * w[0].length));
  return all;
}

export function attentionApi({ module, heap }) {
  return {
    /** { wq, wk, wv, wo }: Float32Array(modelDim²) each, uniform in ±1/√modelDim from seed. */
    attentionWeights(opts) {
      const o = check.options(opts, 'attentionWeights()', ['modelDim', 'seed']);
      const [lo, hi] = check.seed('seed', o.seed);
      return unwrap(module.makeAttentionWeights(check.integer('modelDim', o.modelDim), lo, hi));
    },

    /** { output: Float32Array [T][D], weights: Float32Array [H][T][T] } (softmax rows). */
    selfAttention(opts) {
      const o = check.options(opts, 'selfAttention()', ATTENTION_KEYS);
      const { x, w, options } = attentionArgs(o);
      const positions = o.positions === undefined ? new Int32Array(0) : check.int32Array('positions', o.positions);
      return heap.stage([x, packed(w), positions], 'selfAttention()', ([xp, wp, pp]) =>
        unwrap(module.selfAttention(xp, x.length, wp, w[0].length, pp, positions.length, options)));
    },

    /**
     * max |shuffle(out(X)) − out(shuffle(X))| for the permutation drawn from seed: ~1e−7
     * without positions, O(1) with additive or rotary ones (DESIGN §3).
     */
    permutationTest(opts) {
      const o = check.options(opts, 'permutationTest()', [...ATTENTION_KEYS.filter((k) => k !== 'positions'), 'seed']);
      const { x, w, options } = attentionArgs(o);
      const [lo, hi] = check.seed('seed', o.seed);
      return heap.stage([x, packed(w)], 'permutationTest()', ([xp, wp]) =>
        unwrap(module.permutationTest(xp, x.length, wp, w[0].length, options, lo, hi)));
    },
  };
}
