// wasm/js/scores.js — attention logits under none / additive / rotary positions, the
// relative kernel, the shift-invariance measure and the decay bound (core: posenc/scores.hpp).
import * as check from './check.js';
import { unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { align } from './heap.js';
import { putScaling, scalingArg, scalingBytes } from './scaling.js';
import { ANGLE_PRECISIONS, ROPE_LAYOUTS } from './rotary.js';
import { PE_LAYOUTS } from './sinusoidal.js';

export const SCORE_MODES = ['none', 'additive', 'rotary'];

const SCORE_KEYS = ['q', 'k', 'dim', 'qPositions', 'kPositions', 'mode', 'layout', 'peLayout',
  'base', 'rotaryDim', 'scaling', 'scale', 'angles'];

function arange(n) {
  const a = new check.Int32(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

// Everything scores() / shiftInvariance() read from their record, checked.
function scoreArgs(o, heapBuffer) {
  const q = check.floatInput('q', o.q, heapBuffer);
  const k = check.floatInput('k', o.k, heapBuffer);
  const dim = check.dim('dim', o.dim);
  // Rows are length/dim; a length that is not a multiple of dim is reported by the core.
  const tq = dim > 0 ? Math.floor(check.lengthOf(q) / dim) : 0;
  const tk = dim > 0 ? Math.floor(check.lengthOf(k) / dim) : 0;
  return {
    q, k, tq, tk, dim,
    qPositions: o.qPositions === undefined ? arange(tq) : check.positions('qPositions', o.qPositions, heapBuffer),
    kPositions: o.kPositions === undefined ? arange(tk) : check.positions('kPositions', o.kPositions, heapBuffer),
    mode: o.mode === undefined ? 'rotary' : check.oneOf('mode', o.mode, SCORE_MODES),
    layout: o.layout === undefined ? 'half' : check.oneOf('layout', o.layout, ROPE_LAYOUTS),
    peLayout: o.peLayout === undefined ? 'interleaved' : check.oneOf('peLayout', o.peLayout, PE_LAYOUTS),
    base: baseArg(o),
    rotaryDim: o.rotaryDim === undefined ? 0 : check.dim('rotaryDim', o.rotaryDim),
    scaling: scalingArg(o.scaling),
    scale: o.scale === undefined ? false : check.boolean('scale', o.scale),
    angles: o.angles === undefined ? 'exact' : check.oneOf('angles', o.angles, ANGLE_PRECISIONS),
  };
}

export function scoresApi({ module, heap }) {
  // Stages q, k, both position lists and the scaling block, and calls attentionScores, or
  // shiftInvariance when a shift is given; returns the binding's raw result.
  function callScores(a, what, shift) {
    const nq = check.lengthOf(a.q);
    const nk = check.lengthOf(a.k);
    const npq = check.lengthOf(a.qPositions);
    const npk = check.lengthOf(a.kPositions);
    const offK = align(4 * nq);
    const offQp = offK + align(4 * nk);
    const offKp = offQp + align(4 * npq);
    const offS = offKp + align(4 * npk);
    const base = heap.acquire(offS + scalingBytes(a.scaling), what);
    try {
      heap.put(base, a.q, 'Float32Array', 'q');
      heap.put(base + offK, a.k, 'Float32Array', 'k');
      heap.put(base + offQp, a.qPositions, 'Int32Array', 'qPositions');
      heap.put(base + offKp, a.kPositions, 'Int32Array', 'kPositions');
      const s = putScaling(heap, base + offS, a.scaling);
      const q = base;
      const k = base + offK;
      const qp = base + offQp;
      const kp = base + offKp;
      if (shift === undefined) {
        return module.attentionScores(q, nq, a.tq, k, nk, a.tk, qp, npq, kp, npk,
          a.dim, a.mode, a.layout, a.peLayout, a.base, a.rotaryDim, a.scaling.type, s, a.scale, a.angles);
      }
      return module.shiftInvariance(q, nq, a.tq, k, nk, a.tk, qp, npq, kp, npk,
        a.dim, a.mode, a.layout, a.peLayout, a.base, a.rotaryDim, a.scaling.type, s, a.scale, a.angles, shift);
    } finally {
      heap.release(base);
    }
  }

  return {
    /**
     * S[m][n] = ⟨q'_m, k'_n⟩ as Float32Array [Tq][Tk]; in 'additive' mode also the four terms.
     * See index.d.ts for the options.
     */
    scores(opts) {
      const a = scoreArgs(check.options(opts, 'scores()', SCORE_KEYS), heap.buffer);
      const all = heap.take(unwrap(module, callScores(a, 'scores()')), 'Float32Array');
      const n = a.tq * a.tk;
      const buffer = check.bufferOf(all);
      const part = (i) => new check.Float32(buffer, 4 * n * i, n);
      if (a.mode !== 'additive') return { scores: part(0) };
      return {
        scores: part(0),
        terms: { content: part(1), queryPosition: part(2), positionKey: part(3), positionPosition: part(4) },
      };
    },

    /** max |S(m+shift, n+shift) − S(m, n)| for the same options as scores(). */
    shiftInvariance(opts) {
      const o = check.options(opts, 'shiftInvariance()', [...SCORE_KEYS, 'shift']);
      const a = scoreArgs(o, heap.buffer);
      const shift = check.safeInteger('shift', o.shift);
      return unwrap(module, callScores(a, 'shiftInvariance()', shift));
    },

    /** { score, dot, area }: qᵀR(δθ)k in double for one pair of rows (dim = q.length). */
    relativeKernel(opts) {
      const o = check.options(opts, 'relativeKernel()', ['q', 'k', 'delta', 'base', 'layout']);
      const q = check.evenRow('q', o.q, heap.buffer);
      const k = check.floatInput('k', o.k, heap.buffer);
      const n = check.lengthOf(q);
      if (check.lengthOf(k) !== n) {
        throw new RangeError(`posenc: k must have the length of q (${n}), got ${check.lengthOf(k)}`);
      }
      const delta = check.safeInteger('delta', o.delta);
      const base = baseArg(o);
      const layout = o.layout === undefined ? 'half' : check.oneOf('layout', o.layout, ROPE_LAYOUTS);
      const p = heap.acquire(8 * n, 'relativeKernel()');
      let r;
      try {
        heap.put(p, q, 'Float32Array', 'q');
        heap.put(p + 4 * n, k, 'Float32Array', 'k');
        r = module.relativeKernel(p, n, p + 4 * n, n, n, base, delta, layout);
      } finally {
        heap.release(p);
      }
      const v = heap.take(unwrap(module, r), 'Float64Array');
      return { score: v[0], dot: v[1], area: v[2] };
    },

    /** RoFormer's long-term-decay bound for δ = 0 … maxDistance: Float64Array. */
    decayBound(opts) {
      const o = check.options(opts, 'decayBound()', ['dim', 'base', 'maxDistance']);
      const r = module.decayBound(check.dim('dim', o.dim), baseArg(o), check.int64('maxDistance', o.maxDistance));
      return heap.take(unwrap(module, r), 'Float64Array');
    },
  };
}
