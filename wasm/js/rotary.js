// wasm/js/rotary.js — RoPE rotators (core: posenc/rotary.hpp). A rotator owns a cos/sin
// cache in WebAssembly memory; apply/invert/applyQK/shift work in place on a Float32Array
// (copied through scratch memory around one WebAssembly call) or on a posenc tensor (zero
// copies). Every method reads its options once (check.js), then checks the rotator and the
// tensors live, then stages and calls: see check.js for the rule.
import * as check from './check.js';
import { fromStatus, unwrap } from './errors.js';
import { baseArg } from './frequencies.js';
import { align } from './heap.js';
import { scalingArg, withScaling } from './scaling.js';
import { Target, chunkable, inChunks, resolveTarget, sharing, stage, stagedBytes, unstage } from './target.js';

export const ROPE_LAYOUTS = ['half', 'interleaved'];
export const ANGLE_PRECISIONS = ['exact', 'float32'];
const ROPE_KEYS = ['headDim', 'rotaryDim', 'base', 'layout', 'scaling', 'angles', 'cacheStart', 'cacheLength'];
const APPLY_KEYS = ['tokens', 'heads', 'positions', 'start', 'inverse', 'tokenStride', 'headStride', 'out'];
const INVERT_KEYS = APPLY_KEYS.filter((k) => k !== 'inverse');
const QK_KEYS = ['tokens', 'positions', 'start', 'qHeads', 'kHeads', 'qTokenStride', 'qHeadStride',
  'kTokenStride', 'kHeadStride'];
const SHIFT_KEYS = ['tokens', 'heads', 'delta', 'tokenStride', 'headStride'];

// The core names the cache's range `first` / `count`; JS calls them cacheStart / cacheLength.
const cacheNames = (m) => m.replace(/\bfirst\b/g, 'cacheStart').replace(/\bcount\b/g, 'cacheLength');
// The out-of-place overload names its input `in`; JS calls it x.
const inNames = (m) => m.replace(/^posenc: in([ .:])/, 'posenc: x$1').replace(/\bin's\b/g, "x's")
  .replace(/ as in or /, ' as x or ');

// The call being prepared (options read and checked; targets resolved). One per API
// object, reused: from the moment it is filled to the return no user code runs (check.js),
// so no other call can interleave with it.
class Call {
  tokens = 0;
  positions = null; // Int32Array or null (start)
  start = 0;
  heads = 0;
  tokenStride = 0;
  headStride = 0;
}

// positions | start (never both) of an apply/applyQK record into c; fn names the method.
function readPositions(c, o, fn, heapBuffer) {
  if (o.positions !== undefined && o.start !== undefined) {
    throw new TypeError(`posenc: ${fn} takes positions or start, not both`);
  }
  c.positions = o.positions === undefined ? null : check.positions('positions', o.positions, heapBuffer);
  c.start = o.start === undefined ? 0 : check.safeInteger('start', o.start);
  c.tokens = o.tokens === undefined && c.positions !== null ? check.lengthOf(c.positions)
    : check.size('tokens', o.tokens);
}

// heads, tokenStride and headStride into c from the record's options named h, ts, hs
// ('heads', 'tokenStride', 'headStride'; for applyQK 'qHeads', 'qTokenStride', …).
function readStrides(c, o, headDim, h, ts, hs) {
  c.heads = o[h] === undefined ? 1 : check.size(h, o[h]);
  c.tokenStride = o[ts] === undefined ? c.heads * headDim : check.size(ts, o[ts]);
  c.headStride = o[hs] === undefined ? headDim : check.size(hs, o[hs]);
}

export function rotaryApi({ module, heap }) {
  const registry = new FinalizationRegistry((handle) => module.ropeDestroy(handle));
  const call = new Call();
  const kCall = new Call(); // applyQK: k's heads and strides
  const X = new Target();
  const OUT = new Target();

  class Rope {
    #handle;
    #headDim;
    #rotaryDim;
    #base;
    #layout;
    #angles;
    #attentionFactor;
    #invFreq;

    constructor(opts) {
      const o = check.options(opts, 'rope()', ROPE_KEYS);
      const headDim = check.integer('headDim', o.headDim);
      const rotaryDim = o.rotaryDim === undefined ? headDim : check.integer('rotaryDim', o.rotaryDim);
      const base = baseArg(o);
      const layout = o.layout === undefined ? 'half' : check.oneOf('layout', o.layout, ROPE_LAYOUTS);
      const angles = o.angles === undefined ? 'exact' : check.oneOf('angles', o.angles, ANGLE_PRECISIONS);
      const scaling = scalingArg(o.scaling);
      const cacheStart = o.cacheStart === undefined ? 0 : check.safeInteger('cacheStart', o.cacheStart);
      // An int32 count; the core caps cacheLength·rotaryDim/2 at 2^28 floats (rotary.hpp).
      const cacheLength = o.cacheLength === undefined ? 0 : check.integer('cacheLength', o.cacheLength, 0);
      const handle = withScaling(heap, scaling, 'rope()', (ptr) => module.ropeCreate(headDim, rotaryDim, base,
        layout, scaling.type, ptr, angles, cacheStart, cacheLength));
      unwrap(module, handle, cacheNames);
      const info = heap.take(module.ropeInfo(handle), 'Float64Array');
      this.#handle = handle;
      this.#headDim = headDim;
      this.#rotaryDim = info[1];
      this.#base = base;
      this.#layout = layout;
      this.#angles = angles;
      this.#attentionFactor = info[0];
      this.#invFreq = new check.Float64(check.bufferOf(info), 16, check.lengthOf(info) - 2);
      registry.register(this, handle, this);
      Object.freeze(this); // nothing to add to a rotator: what it was made with is read-only
    }

    // What the rotator was made with, read from private state (getters on the prototype:
    // neither an own property nor Object.prototype can stand in for them).
    get headDim() { return this.#headDim; }
    get rotaryDim() { return this.#rotaryDim; }
    get base() { return this.#base; }
    get layout() { return this.#layout; }
    get angles() { return this.#angles; }
    /** HF's attention_scaling, multiplied into rotated dims; 1 unless yarn / longrope. */
    get attentionFactor() { return this.#attentionFactor; }
    /** θ_i exactly as used (rotaryDim/2 values; a copy per rotator, changing it changes nothing). */
    get invFreq() { return this.#invFreq; }

    get disposed() {
      Rope.#check(this, 'rope.disposed');
      return this.#handle === 0;
    }

    // The brand check: methods called on anything but a rope (rope.apply.call({}, …)).
    static #check(r, fn) {
      if (typeof r !== 'object' || r === null || !(#handle in r)) {
        throw new TypeError(`posenc: ${fn} must be called on a rope made by pe.rope()`);
      }
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
      Rope.#check(this, 'rope.apply()');
      const o = check.options(opts, 'rope.apply()', APPLY_KEYS);
      const inverse = o.inverse === undefined ? false : check.boolean('inverse', o.inverse);
      return this.#apply(x, o, inverse, 'rope.apply()');
    }

    /** apply with inverse: true: undoes apply to float rounding. */
    invert(x, opts) {
      Rope.#check(this, 'rope.invert()');
      return this.#apply(x, check.options(opts, 'rope.invert()', INVERT_KEYS), true, 'rope.invert()');
    }

    #apply(x, o, inverse, fn) {
      readPositions(call, o, fn, heap.buffer);
      readStrides(call, o, this.#headDim, 'heads', 'tokenStride', 'headStride');
      const { tokens, positions, start, heads, tokenStride: ts, headStride: hs } = call;
      const out = o.out;
      // Every option is read: from here on no user code runs.
      const handle = this.#live();
      resolveTarget(heap, 'x', x, X);
      let hasOut = out !== undefined;
      if (hasOut) {
        resolveTarget(heap, 'out', out, OUT);
        const shared = sharing(X, OUT);
        if (shared === 2) {
          throw new RangeError('posenc: out must be the same array as x or not share memory with it ' +
            '(out overlaps x)');
        }
        hasOut = shared === 0;
      }
      const n = positions === null ? 0 : check.lengthOf(positions);
      if (!hasOut && X.copy !== null && n === (positions === null ? 0 : tokens) &&
          this.#applyChunked(handle, tokens, heads, ts, hs, positions, start, inverse)) return x;
      const xBytes = align(stagedBytes(X));
      const outBytes = hasOut ? align(stagedBytes(OUT)) : 0;
      const total = xBytes + outBytes + 4 * n;
      const base = total === 0 ? 0 : heap.acquire(total, fn);
      let status;
      try {
        stage(heap, X, base);
        if (hasOut) stage(heap, OUT, base + xBytes);
        const pp = base + xBytes + outBytes;
        if (n !== 0) heap.put(pp, positions, 'Int32Array');
        const target = hasOut ? OUT : X;
        status = module._posenc_rope_apply(handle, X.ptr, X.length, target.ptr, target.length, tokens, heads,
          ts, hs, pp, n, start, positions === null ? 0 : 1, inverse ? 1 : 0);
        if (status === 0) unstage(heap, target);
      } finally {
        if (base !== 0) heap.release(base);
      }
      fromStatus(module, status, hasOut ? inNames : undefined);
      return out === undefined ? x : out;
    }

    // apply in place on a big X (a copy target) in token chunks through scratch memory
    // (target.js inChunks); false when x is small or the layout does not allow chunks. The
    // whole call is checked first (one extra call, for big x only), so an error changes
    // nothing.
    #applyChunked(handle, tokens, heads, ts, hs, positions, start, inverse) {
      const p = positions === null ? 0 : 4;
      const rowFloats = heads < 1 ? 0 : (heads - 1) * hs + this.#headDim;
      if (!chunkable(X.length, tokens, ts, rowFloats, p)) return false;
      fromStatus(module, module._posenc_rope_check(handle, X.length, tokens, heads, ts, hs, start));
      const inv = inverse ? 1 : 0;
      return inChunks(heap, 'x', X.copy, tokens, ts, rowFloats, p, (ptr, floats, t0, count, pp) => {
        if (p !== 0) heap.put(pp, new check.Int32(check.bufferOf(positions), check.byteOffsetOf(positions) + 4 * t0, count), 'Int32Array');
        fromStatus(module, module._posenc_rope_apply(handle, ptr, floats, ptr, floats, count, heads, ts, hs,
          pp, p === 0 ? 0 : count, p === 0 ? start + t0 : 0, p === 0 ? 0 : 1, inv));
      });
    }

    /**
     * Grouped-query attention: rotates q [tokens][qHeads][headDim] and k [tokens][kHeads]
     * [headDim] forward in place with one cos/sin row per token (same numbers as two
     * apply calls). Strides per tensor: qTokenStride, qHeadStride, kTokenStride, kHeadStride.
     */
    applyQK(q, k, opts) {
      Rope.#check(this, 'rope.applyQK()');
      const o = check.options(opts, 'rope.applyQK()', QK_KEYS);
      readPositions(call, o, 'rope.applyQK()', heap.buffer);
      readStrides(call, o, this.#headDim, 'qHeads', 'qTokenStride', 'qHeadStride');
      readStrides(kCall, o, this.#headDim, 'kHeads', 'kTokenStride', 'kHeadStride');
      const { tokens, positions, start } = call;
      const handle = this.#live();
      resolveTarget(heap, 'q', q, X);
      resolveTarget(heap, 'k', k, OUT);
      if (sharing(X, OUT) !== 0) throw new RangeError('posenc: q and k must not share memory');
      const n = positions === null ? 0 : check.lengthOf(positions);
      const qBytes = align(stagedBytes(X));
      const kBytes = align(stagedBytes(OUT));
      const total = qBytes + kBytes + 4 * n;
      const base = total === 0 ? 0 : heap.acquire(total, 'rope.applyQK()');
      let status;
      try {
        stage(heap, X, base);
        stage(heap, OUT, base + qBytes);
        const pp = base + qBytes + kBytes;
        if (n !== 0) heap.put(pp, positions, 'Int32Array');
        status = module._posenc_rope_apply_qk(handle, X.ptr, X.length, call.heads, call.tokenStride,
          call.headStride, OUT.ptr, OUT.length, kCall.heads, kCall.tokenStride, kCall.headStride, tokens, pp, n,
          start, positions === null ? 0 : 1);
        if (status === 0) {
          unstage(heap, X);
          unstage(heap, OUT);
        }
      } finally {
        if (base !== 0) heap.release(base);
      }
      fromStatus(module, status);
      return [q, k];
    }

    /** Re-rotates keys by delta positions in place (pure rotation, no attention factor). */
    shift(k, opts) {
      Rope.#check(this, 'rope.shift()');
      const o = check.options(opts, 'rope.shift()', SHIFT_KEYS);
      const delta = check.safeInteger('delta', o.delta);
      const tokens = check.size('tokens', o.tokens);
      readStrides(call, o, this.#headDim, 'heads', 'tokenStride', 'headStride');
      const { heads, tokenStride: ts, headStride: hs } = call;
      const handle = this.#live();
      resolveTarget(heap, 'k', k, X);
      const total = stagedBytes(X);
      const base = total === 0 ? 0 : heap.acquire(total, 'rope.shift()');
      let status;
      try {
        stage(heap, X, base);
        status = module._posenc_rope_shift(handle, X.ptr, X.length, tokens, heads, ts, hs, delta);
        if (status === 0) unstage(heap, X);
      } finally {
        if (base !== 0) heap.release(base);
      }
      fromStatus(module, status, (m) => m.replace(/^posenc: x\b/, 'posenc: k'));
      return k;
    }

    /** { cos, sin }: Float32Array(rotaryDim/2) each, cos/sin(position·θ_i) without the factor. */
    row(position) {
      Rope.#check(this, 'rope.row()');
      const p = check.safeInteger('position', position);
      const all = heap.take(unwrap(module, module.ropeRow(this.#live(), p)), 'Float32Array');
      const half = check.lengthOf(all) / 2;
      const buffer = check.bufferOf(all);
      return { cos: new check.Float32(buffer, 0, half), sin: new check.Float32(buffer, 4 * half, half) };
    }

    dispose() {
      Rope.#check(this, 'rope.dispose()');
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
