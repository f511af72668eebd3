// wasm/js/rotary.js — RoPE rotators (core: posenc/rotary.hpp). A rotator owns a cos/sin
// cache in WebAssembly memory; apply/invert/shift work in place on a Float32Array (copied
// through scratch memory) or on a posenc tensor (zero copies).
import * as check from './check.js';
import { unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { scalingArg } from './scaling.js';
import { inPlace, inPlaceAll } from './target.js';

export const ROPE_LAYOUTS = ['half', 'interleaved'];
export const ANGLE_PRECISIONS = ['exact', 'float32'];
const ROPE_KEYS = ['headDim', 'rotaryDim', 'base', 'layout', 'scaling', 'angles', 'cacheStart', 'cacheLength'];
const APPLY_KEYS = ['tokens', 'heads', 'positions', 'start', 'inverse', 'tokenStride', 'headStride', 'out'];
const QK_KEYS = ['tokens', 'positions', 'start', 'qHeads', 'kHeads', 'qTokenStride', 'qHeadStride',
  'kTokenStride', 'kHeadStride'];
const SHIFT_KEYS = ['tokens', 'heads', 'delta', 'tokenStride', 'headStride'];

// tokens, heads and strides of an apply/shift call; dense [tokens][heads][headDim] by default.
// `p` prefixes the option names in messages ('q' → qHeads, qTokenStride, …).
function shape(o, headDim, positions, p = '') {
  const name = (n) => (p ? p + n[0].toUpperCase() + n.slice(1) : n);
  const heads = o.heads === undefined ? 1 : check.size(name('heads'), o.heads);
  const tokens = o.tokens === undefined && positions ? positions.length : check.size('tokens', o.tokens);
  const tokenStride = o.tokenStride === undefined ? heads * headDim : check.size(name('tokenStride'), o.tokenStride);
  const headStride = o.headStride === undefined ? headDim : check.size(name('headStride'), o.headStride);
  return [tokens, heads, tokenStride, headStride];
}

export function rotaryApi({ module, heap }) {
  const registry = new FinalizationRegistry((handle) => module.ropeDestroy(handle));

  class Rope {
    #handle;

    constructor(opts) {
      const o = check.options(opts, 'rope()', ROPE_KEYS);
      const headDim = check.integer('headDim', o.headDim);
      const rotaryDim = o.rotaryDim === undefined ? headDim : check.integer('rotaryDim', o.rotaryDim);
      const layout = o.layout === undefined ? 'half' : check.oneOf('layout', o.layout, ROPE_LAYOUTS);
      const angles = o.angles === undefined ? 'exact' : check.oneOf('angles', o.angles, ANGLE_PRECISIONS);
      const r = unwrap(module.ropeCreate(headDim, rotaryDim, baseArg(o), layout, scalingArg(o.scaling), angles,
        o.cacheStart === undefined ? 0 : check.safeInteger('cacheStart', o.cacheStart),
        // An int32 count; the core caps cacheLength·rotaryDim/2 at 2^28 floats (rotary.hpp).
        o.cacheLength === undefined ? 0 : check.integer('cacheLength', o.cacheLength, 0)));
      this.#handle = r.handle;
      this.headDim = headDim;
      this.rotaryDim = r.rotaryDim;
      this.base = baseArg(o);
      this.layout = layout;
      this.angles = angles;
      this.attentionFactor = r.attentionFactor;
      this.invFreq = r.invFreq;
      registry.register(this, r.handle, this);
      Object.freeze(this); // headDim etc. describe the C++ cache: not for reassignment
    }

    get disposed() {
      return this.#handle === 0;
    }

    #live() {
      if (this.#handle === 0) throw new TypeError('posenc: this rope has been disposed');
      return this.#handle;
    }

    /**
     * Rotates x [tokens][heads][headDim] in place, or into `out` (same length and strides;
     * x is then left as it was): token t at positions[t] or start + t; inverse: true undoes
     * it. Rotated dims are multiplied by attentionFactor (HF). Returns x, or out.
     */
    apply(x, opts) {
      const handle = this.#live();
      const o = check.options(opts, 'rope.apply()', APPLY_KEYS);
      const inverse = o.inverse === undefined ? false : check.boolean('inverse', o.inverse);
      if (o.positions !== undefined && o.start !== undefined) {
        throw new TypeError('posenc: rope.apply() takes positions or start, not both');
      }
      const positions = o.positions === undefined ? null : check.int32Array('positions', o.positions);
      const start = o.start === undefined ? 0 : check.safeInteger('start', o.start);
      const [tokens, heads, ts, hs] = shape(o, this.headDim, positions);
      const n = positions ? positions.length : 0;
      const targets = o.out === undefined ? [['x', x]] : [['x', x, true], ['out', o.out]];
      inPlaceAll(heap, targets, [4 * n], (ptrs, lengths, [pp]) => {
        if (positions) heap.i32(pp, n).set(positions);
        const [outPtr, outLength] = o.out === undefined ? [ptrs[0], lengths[0]] : [ptrs[1], lengths[1]];
        unwrap(module.ropeApply(handle, ptrs[0], lengths[0], outPtr, outLength, tokens, heads, ts, hs,
          pp, n, start, positions !== null, inverse));
      });
      return o.out === undefined ? x : o.out;
    }

    /** apply(x, { ...opts, inverse: true }): undoes apply to float rounding. */
    invert(x, opts) {
      const o = check.options(opts, 'rope.invert()', APPLY_KEYS.filter((k) => k !== 'inverse'));
      return this.apply(x, { ...o, inverse: true });
    }

    /**
     * Grouped-query attention: rotates q [tokens][qHeads][headDim] and k [tokens][kHeads]
     * [headDim] forward in place with one cos/sin row per token (same numbers as two
     * apply calls). Strides per tensor: qTokenStride, qHeadStride, kTokenStride, kHeadStride.
     */
    applyQK(q, k, opts) {
      const handle = this.#live();
      const o = check.options(opts, 'rope.applyQK()', QK_KEYS);
      if (o.positions !== undefined && o.start !== undefined) {
        throw new TypeError('posenc: rope.applyQK() takes positions or start, not both');
      }
      const positions = o.positions === undefined ? null : check.int32Array('positions', o.positions);
      const start = o.start === undefined ? 0 : check.safeInteger('start', o.start);
      const [tokens, qHeads, qts, qhs] = shape({ tokens: o.tokens, heads: o.qHeads, tokenStride: o.qTokenStride,
        headStride: o.qHeadStride }, this.headDim, positions, 'q');
      const [, kHeads, kts, khs] = shape({ tokens, heads: o.kHeads, tokenStride: o.kTokenStride,
        headStride: o.kHeadStride }, this.headDim, positions, 'k');
      const n = positions ? positions.length : 0;
      inPlaceAll(heap, [['q', q], ['k', k]], [4 * n], ([qp, kp], [qn, kn], [pp]) => {
        if (positions) heap.i32(pp, n).set(positions);
        unwrap(module.ropeApplyQK(handle, qp, qn, qHeads, qts, qhs, kp, kn, kHeads, kts, khs,
          tokens, pp, n, start, positions !== null));
      });
      return [q, k];
    }

    /** Re-rotates keys by delta positions in place (pure rotation, no attention factor). */
    shift(k, opts) {
      const handle = this.#live();
      const o = check.options(opts, 'rope.shift()', SHIFT_KEYS);
      const delta = check.safeInteger('delta', o.delta);
      const [tokens, heads, ts, hs] = shape(o, this.headDim, null);
      return inPlace(heap, 'k', k, [], (ptr, n) => {
        unwrap(module.ropeShift(handle, ptr, n, tokens, heads, ts, hs, delta));
      });
    }

    /** { cos, sin }: Float32Array(rotaryDim/2) each, cos/sin(position·θ_i) without the factor. */
    row(position) {
      return unwrap(module.ropeRow(this.#live(), check.safeInteger('position', position)));
    }

    dispose() {
      if (this.#handle === 0) return;
      registry.unregister(this);
      module.ropeDestroy(this.#handle);
      this.#handle = 0;
    }
  }

  return {
    /** A reusable rotator; see index.d.ts for the options. */
    rope: (opts) => new Rope(opts),
  };
}
