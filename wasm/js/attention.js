// wasm/js/attention.js — the small multi-head self-attention and the permutation test
// (core: posenc/attention.hpp).
import * as check from './check.js';
import { unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { align } from './heap.js';
import { ROPE_LAYOUTS } from './rotary.js';
import { SCORE_MODES } from './scores.js';
import { PE_LAYOUTS } from './sinusoidal.js';

const ATTENTION_KEYS = ['x', 'weights', 'tokens', 'modelDim', 'heads', 'mode', 'causal', 'base',
  'layout', 'peLayout', 'positions'];
const PERMUTATION_KEYS = [...ATTENTION_KEYS.filter((k) => k !== 'positions'), 'seed'];
const MATRICES = ['wq', 'wk', 'wv', 'wo'];

// The core names the four matrices w.wq …; JS passes them as weights.wq ….
const weightNames = (m) => m.replace(/\bw\.(w[qkvo])\b/g, 'weights.$1');

// Everything selfAttention() / permutationTest() read from their record, checked: x, the
// four matrices (own keys of `weights`, read once each; equal lengths, each checked against
// modelDim² by the core) and the options.
function attentionArgs(o, heapBuffer) {
  const x = check.floatInput('x', o.x, heapBuffer);
  const weights = o.weights;
  if (weights === null || typeof weights !== 'object') {
    throw new TypeError(`posenc: weights must be an object { wq, wk, wv, wo } of Float32Arrays, got ${check.describe(weights)}`);
  }
  // Each measured when it is checked: a getter of a later matrix may detach an earlier one
  // (the copy then names it, heap.js put).
  const w = [null, null, null, null];
  const lengths = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) {
    w[i] = check.floatInput(`weights.${MATRICES[i]}`, check.field(weights, MATRICES[i]), heapBuffer);
    lengths[i] = check.lengthOf(w[i]);
  }
  for (let i = 1; i < 4; i++) {
    if (lengths[i] !== lengths[0]) {
      throw new RangeError(`posenc: weights.${MATRICES[i]} has ${lengths[i]} elements but weights.wq has ${lengths[0]}`);
    }
  }
  const modelDim = check.integer('modelDim', o.modelDim);
  return {
    x, w,
    // Derived from x only for a usable modelDim; otherwise 1, so the core reports modelDim.
    tokens: o.tokens === undefined ? (modelDim > 0 ? Math.floor(check.lengthOf(x) / modelDim) : 1)
      : check.integer('tokens', o.tokens),
    modelDim,
    heads: o.heads === undefined ? 1 : check.integer('heads', o.heads),
    mode: o.mode === undefined ? 'none' : check.oneOf('mode', o.mode, SCORE_MODES),
    causal: o.causal === undefined ? false : check.boolean('causal', o.causal),
    base: baseArg(o),
    layout: o.layout === undefined ? 'half' : check.oneOf('layout', o.layout, ROPE_LAYOUTS),
    peLayout: o.peLayout === undefined ? 'interleaved' : check.oneOf('peLayout', o.peLayout, PE_LAYOUTS),
  };
}

export function attentionApi({ module, heap }) {
  // Stages x, wq | wk | wv | wo back to back (bind_attention.cpp reads them so) and the
  // positions, then runs call(x, xLength, w, matrixLength, positions, count); its result.
  function staged(a, positions, what, call) {
    const nx = check.lengthOf(a.x);
    const nw = check.lengthOf(a.w[0]);
    const np = positions === null ? 0 : check.lengthOf(positions);
    const offW = align(4 * nx);
    const offP = offW + 16 * nw;
    const base = heap.acquire(offP + 4 * np, what);
    try {
      heap.put(base, a.x, 'Float32Array', 'x');
      for (let i = 0; i < 4; i++) heap.put(base + offW + 4 * nw * i, a.w[i], 'Float32Array', `weights.${MATRICES[i]}`);
      if (np !== 0) heap.put(base + offP, positions, 'Int32Array', 'positions');
      return call(base, nx, base + offW, nw, base + offP, np);
    } finally {
      heap.release(base);
    }
  }

  return {
    /** { wq, wk, wv, wo }: Float32Array(modelDim²) each, uniform in ±1/√modelDim from seed. */
    attentionWeights(opts) {
      const o = check.options(opts, 'attentionWeights()', ['modelDim', 'seed']);
      const [lo, hi] = check.seed('seed', o.seed);
      const all = heap.take(unwrap(module, module.makeAttentionWeights(check.integer('modelDim', o.modelDim), lo, hi)),
        'Float32Array');
      const n = check.lengthOf(all) / 4;
      const buffer = check.bufferOf(all);
      const m = (i) => new check.Float32(buffer, 4 * n * i, n);
      return { wq: m(0), wk: m(1), wv: m(2), wo: m(3) };
    },

    /** { output: Float32Array [T][D], weights: Float32Array [H][T][T] } (softmax rows). */
    selfAttention(opts) {
      const o = check.options(opts, 'selfAttention()', ATTENTION_KEYS);
      const a = attentionArgs(o, heap.buffer);
      const positions = o.positions === undefined ? null : check.positions('positions', o.positions, heap.buffer);
      const r = staged(a, positions, 'selfAttention()', (x, nx, w, nw, p, np) => module.selfAttention(x, nx, w, nw, p,
        np, a.tokens, a.modelDim, a.heads, a.mode, a.causal, a.base, a.layout, a.peLayout));
      const all = heap.take(unwrap(module, r, weightNames), 'Float32Array');
      const n = a.tokens * a.modelDim;
      const buffer = check.bufferOf(all);
      return { output: new check.Float32(buffer, 0, n), weights: new check.Float32(buffer, 4 * n, check.lengthOf(all) - n) };
    },

    /**
     * max |shuffle(out(X)) − out(shuffle(X))| for the permutation drawn from seed: ~1e−7
     * without positions, O(1) with additive or rotary ones.
     */
    permutationTest(opts) {
      const o = check.options(opts, 'permutationTest()', PERMUTATION_KEYS);
      const a = attentionArgs(o, heap.buffer);
      const [lo, hi] = check.seed('seed', o.seed);
      const r = staged(a, null, 'permutationTest()', (x, nx, w, nw) => module.permutationTest(x, nx, w, nw,
        a.tokens, a.modelDim, a.heads, a.mode, a.causal, a.base, a.layout, a.peLayout, lo, hi));
      return unwrap(module, r, weightNames);
    },
  };
}
