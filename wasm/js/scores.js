// wasm/js/scores.js — attention logits under none / additive / rotary positions, the
// relative kernel, the shift-invariance measure and the decay bound (core: posenc/scores.hpp).
import * as check from './check.js';
import { unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { scalingArg } from './scaling.js';
import { ANGLE_PRECISIONS, ROPE_LAYOUTS } from './rotary.js';
import { PE_LAYOUTS } from './sinusoidal.js';

export const SCORE_MODES = ['none', 'additive', 'rotary'];

const SCORE_KEYS = ['q', 'k', 'dim', 'qPositions', 'kPositions', 'mode', 'layout', 'peLayout',
  'base', 'rotaryDim', 'scaling', 'scale', 'angles'];

const arange = (n) => Int32Array.from({ length: n }, (_, i) => i);

// q, k, positions and the option object handed to C++ for scores() / shiftInvariance().
function scoreArgs(o) {
  const q = check.float32Array('q', o.q);
  const k = check.float32Array('k', o.k);
  const dim = check.integer('dim', o.dim);
  // Rows are length/dim; a length that is not a multiple of dim is reported by the core.
  const tq = dim > 0 ? Math.floor(q.length / dim) : 0;
  const tk = dim > 0 ? Math.floor(k.length / dim) : 0;
  const qPositions = o.qPositions === undefined ? arange(tq) : check.int32Array('qPositions', o.qPositions);
  const kPositions = o.kPositions === undefined ? arange(tk) : check.int32Array('kPositions', o.kPositions);
  const options = {
    dim,
    mode: o.mode === undefined ? 'rotary' : check.oneOf('mode', o.mode, SCORE_MODES),
    layout: o.layout === undefined ? 'half' : check.oneOf('layout', o.layout, ROPE_LAYOUTS),
    peLayout: o.peLayout === undefined ? 'interleaved' : check.oneOf('peLayout', o.peLayout, PE_LAYOUTS),
    base: baseArg(o),
    rotaryDim: o.rotaryDim === undefined ? 0 : check.integer('rotaryDim', o.rotaryDim),
    scaling: scalingArg(o.scaling),
    scale: o.scale === undefined ? false : check.boolean('scale', o.scale),
    angles: o.angles === undefined ? 'exact' : check.oneOf('angles', o.angles, ANGLE_PRECISIONS),
  };
  return { q, k, tq, tk, qPositions, kPositions, options };
}

export function scoresApi({ module, heap }) {
  // Runs `call(...heap args)` with q, k and both position lists staged.
  function withScoreInputs(a, what, call) {
    return heap.stage([a.q, a.k, a.qPositions, a.kPositions], what, ([q, k, qp, kp]) =>
      call(q, a.q.length, a.tq, k, a.k.length, a.tk, qp, a.qPositions.length, kp, a.kPositions.length));
  }

  return {
    /**
     * S[m][n] = ⟨q'_m, k'_n⟩ as Float32Array [Tq][Tk]; in 'additive' mode also the four terms.
     * See index.d.ts for the options.
     */
    scores(opts) {
      const a = scoreArgs(check.options(opts, 'scores()', SCORE_KEYS));
      return withScoreInputs(a, 'scores()', (...args) => unwrap(module.attentionScores(...args, a.options)));
    },

    /** max |S(m+shift, n+shift) − S(m, n)| for the same options as scores(). */
    shiftInvariance(opts) {
      const o = check.options(opts, 'shiftInvariance()', [...SCORE_KEYS, 'shift']);
      const a = scoreArgs(o);
      const shift = check.safeInteger('shift', o.shift);
      return withScoreInputs(a, 'shiftInvariance()', (...args) =>
        unwrap(module.shiftInvariance(...args, a.options, shift)));
    },

    /** { score, dot, area }: qᵀR(δθ)k in double for one pair of rows (dim = q.length). */
    relativeKernel(opts) {
      const o = check.options(opts, 'relativeKernel()', ['q', 'k', 'delta', 'base', 'layout']);
      const q = check.evenRow('q', o.q);
      const k = check.float32Array('k', o.k);
      if (k.length !== q.length) throw new RangeError(`posenc: k must have the length of q (${q.length}), got ${k.length}`);
      const delta = check.safeInteger('delta', o.delta);
      const layout = o.layout === undefined ? 'half' : check.oneOf('layout', o.layout, ROPE_LAYOUTS);
      return heap.stage([q, k], 'relativeKernel()', ([qp, kp]) =>
        unwrap(module.relativeKernel(qp, q.length, kp, k.length, q.length, baseArg(o), delta, layout)));
    },

    /** RoFormer's long-term-decay bound for δ = 0 … maxDistance: Float64Array. */
    decayBound(opts) {
      const o = check.options(opts, 'decayBound()', ['dim', 'base', 'maxDistance']);
      return unwrap(module.decayBound(check.integer('dim', o.dim), baseArg(o), check.int64('maxDistance', o.maxDistance)));
    },
  };
}
