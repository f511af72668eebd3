// wasm/js/rotary.js — RoPE rotators (core: posenc/rotary.hpp). A rotator owns a cos/sin
// cache in WebAssembly memory; apply/invert/shift work in place on a Float32Array (copied
// through scratch memory) or on a posenc tensor (zero copies).
import * as check from './check.js';
import { fromStatus, unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { scalingArg } from './scaling.js';
import { Tensor } from './heap.js';
import { inChunks, inPlace, inPlaceAll, resolve } from './target.js';

export const ROPE_LAYOUTS = ['half', 'interleaved'];
export const ANGLE_PRECISIONS = ['exact', 'float32'];
const ROPE_KEYS = ['headDim', 'rotaryDim', 'base', 'layout', 'scaling', 'angles', 'cacheStart', 'cacheLength'];
const APPLY_KEYS = ['tokens', 'heads', 'positions', 'start', 'inverse', 'tokenStride', 'headStride', 'out'];
const QK_KEYS = ['tokens', 'positions', 'start', 'qHeads', 'kHeads', 'qTokenStride', 'qHeadStride',
  'kTokenStride', 'kHeadStride'];
const SHIFT_KEYS = ['tokens', 'heads', 'delta', 'tokenStride', 'headStride'];

// tokens, heads and strides of an apply/shift call; dense [tokens][heads][headDim] by default.
// `p` prefixes the option names in messages ('q' → qHeads, qTokenStride, …).
// (Names are built only for a prefix: decode calls come here once per token.)
function shape(o, headDim, positions, p = '') {
  const heads = o.heads === undefined ? 1 : check.size(p ? `${p}Heads` : 'heads', o.heads);
  const tokens = o.tokens === undefined && positions ? positions.length : check.size('tokens', o.tokens);
  const tokenStride = o.tokenStride === undefined ? heads * headDim
    : check.size(p ? `${p}TokenStride` : 'tokenStride', o.tokenStride);
  const headStride = o.headStride === undefined ? headDim
    : check.size(p ? `${p}HeadStride` : 'headStride', o.headStride);
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
      const usePositions = positions === null ? 0 : 1;
      const inv = inverse ? 1 : 0;
      if (o.out === undefined && positions === null && x instanceof Tensor && x.ownedBy(heap)) {
        // The decode path: a live tensor of this module, rotated where it is. No arrays,
        // closures or embind glue per call (the status/lastError transport of guard.hpp).
        x.assertLive('x');
        fromStatus(module, module._posenc_rope_apply(handle, x.ptr, x.length, x.ptr, x.length, tokens, heads,
          ts, hs, 0, 0, start, 0, inv));
        return x;
      }
      const n = positions ? positions.length : 0;
      if (o.out === undefined && n === (positions ? tokens : 0) && this.#applyChunked(x, tokens, heads, ts, hs,
        positions, start, inv)) return x;
      const targets = o.out === undefined ? [['x', x]] : [['x', x, true], ['out', o.out]];
      inPlaceAll(heap, targets, [4 * n], (ptrs, lengths, [pp]) => {
        if (positions) heap.i32(pp, n).set(positions);
        const [outPtr, outLength] = o.out === undefined ? [ptrs[0], lengths[0]] : [ptrs[1], lengths[1]];
        fromStatus(module, module._posenc_rope_apply(handle, ptrs[0], lengths[0], outPtr, outLength, tokens, heads,
          ts, hs, pp, n, start, usePositions, inv));
      });
      return o.out === undefined ? x : o.out;
    }

    /**
     * apply in place on a big array outside WebAssembly memory, in token chunks through
     * the scratch block (target.js inChunks); false when x is something else or the layout
     * does not allow chunks. The whole call is checked first, so an error changes nothing.
     */
    #applyChunked(x, tokens, heads, ts, hs, positions, start, inv) {
      if (heads < 1 || x instanceof Tensor || !(x instanceof Float32Array)) return false;
      const copy = resolve(heap, 'x', x).copy;
      if (copy === undefined) return false;
      const rowFloats = (heads - 1) * hs + this.headDim;
      const handle = this.#handle;
      fromStatus(module, module._posenc_rope_check(handle, copy.length, tokens, heads, ts, hs, start));
      return inChunks(heap, 'x', copy, tokens, ts, rowFloats, positions ? 4 : 0, (ptr, floats, t0, count, pp) => {
        if (positions) heap.i32(pp, count).set(positions.subarray(t0, t0 + count));
        fromStatus(module, module._posenc_rope_apply(handle, ptr, floats, ptr, floats, count, heads, ts, hs,
          pp, positions ? count : 0, positions ? 0 : start + t0, positions ? 1 : 0, inv));
      });
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
