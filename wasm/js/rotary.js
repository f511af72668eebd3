// wasm/js/rotary.js — RoPE rotators (core: posenc/rotary.hpp). A rotator owns a cos/sin
// cache in WebAssembly memory; apply/invert/applyQK/shift work in place on a Float32Array
// (copied through scratch memory around one WebAssembly call) or on a posenc tensor (zero
// copies). Every method reads its options once (check.js), then checks the rotator and the
// tensors live, then stages and calls: see check.js for the rule.
import * as check from './check.js';
import { fromStatus, unwrap } from './errors.js';
import { axesOption, realPositions, withBands } from './axes.js';
import { baseArg } from './frequencies.js';
import { align, tensorDtype, tensorHeap } from './heap.js';
import { scalingArg, withScaling } from './scaling.js';
import { Target, chunkable, inChunks, resolveHalfTarget, resolveTarget, sharing, stage, stagedBytes,
  unstage } from './target.js';

export const ROPE_LAYOUTS = ['half', 'interleaved'];
export const ANGLE_PRECISIONS = ['exact', 'float32'];
export const DIRECTIONS = ['forward', 'inverse'];
export const VISION_2D = ['qwen2-vl', 'pixtral'];
export const HALF_DTYPES = ['float16', 'bfloat16'];
const ROPE_KEYS = ['headDim', 'rotaryDim', 'base', 'layout', 'scaling', 'angles', 'cacheStart', 'cacheLength',
  'mrope', 'vision2d', 'axes', 'direction'];
const MROPE_KEYS = ['section', 'interleaved'];
// The options of the per-token methods, as record classes (check.recordOf): their fields
// are the allowed keys. Each call site makes its own record (`new ApplyOptions()`), so the
// allocation stays inline.
const ApplyOptions = check.recordOf(class {
  tokens; heads; positions; start; inverse; tokenStride; headStride; out; dtype;
});
const InvertOptions = check.recordOf(class {
  tokens; heads; positions; start; tokenStride; headStride; out; dtype;
});
const QKOptions = check.recordOf(class {
  tokens; positions; start; qHeads; kHeads; qTokenStride; qHeadStride; kTokenStride; kHeadStride; dtype;
});
const ShiftOptions = check.recordOf(class { tokens; heads; delta; tokenStride; headStride; });
const CosSinOptions = check.recordOf(class { positions; start; tokens; });
const APPLY_KEYS = check.keysOf(ApplyOptions);
const INVERT_KEYS = check.keysOf(InvertOptions);
const QK_KEYS = check.keysOf(QKOptions);
const SHIFT_KEYS = check.keysOf(ShiftOptions);
const COS_SIN_KEYS = check.keysOf(CosSinOptions);

// Without cacheLength a rotator caches the rows from cacheStart up as positions are seen:
// the cache is rebuilt at twice the length (at least AUTO_MIN_ROWS) whenever a call reaches
// past it, until it holds AUTO_MAX_FLOATS floats (cos + sin: 4 MiB); rows past that are
// computed on the fly. Cached and on-the-fly rows are bit-identical, so this changes speed only.
const AUTO_MIN_ROWS = 256;
const AUTO_MAX_FLOATS = 1 << 20;

// The core names the cache's range `first` / `count` and the dims in snake_case; JS calls
// them cacheStart / cacheLength, headDim / rotaryDim.
const cacheNames = (m) => m.replace(/\bfirst\b/g, 'cacheStart').replace(/\bcount\b/g, 'cacheLength')
  .replace(/\brotary_dim\b/g, 'rotaryDim').replace(/\bhead_dim\b/g, 'headDim');
// The out-of-place overload names its input `in`; JS calls it x.
const inNames = (m) => m.replace(/^posenc: in([ .:])/, 'posenc: x$1').replace(/\bin's\b/g, "x's")
  .replace(/ as in or /, ' as x or ');

// The call being prepared (options read and checked; targets resolved). One per API
// object, reused: from the moment it is filled to the return no user code runs (check.js),
// so no other call can interleave with it.
class Call {
  tokens = 0;
  positions = null; // Int32Array, Float64Array (real: true) or null (start)
  real = false;
  start = 0;
  heads = 0;
  tokenStride = 0;
  headStride = 0;
}

// positions | start (never both) of an apply/applyQK record into c; fn names the method.
// A rotator with `axes` positions per token takes axes·tokens of them ([axes][tokens]).
function readPositions(c, o, fn, heapBuffer, axes) {
  if (o.positions !== undefined && o.start !== undefined) {
    throw new TypeError(`posenc: ${fn} takes positions or start, not both`);
  }
  const real = o.positions === undefined ? null : realPositions('positions', o.positions, heapBuffer);
  c.real = real !== null;
  c.positions = o.positions === undefined ? null : real ?? check.positions('positions', o.positions, heapBuffer);
  c.start = o.start === undefined ? 0 : check.safeInteger('start', o.start);
  if (o.tokens !== undefined || c.positions === null) {
    c.tokens = check.size('tokens', o.tokens);
    return;
  }
  const n = check.lengthOf(c.positions);
  if (n % axes !== 0) {
    throw new RangeError(`posenc: positions holds ${n} values, not a multiple of ${axes} (this rotator takes ` +
      `${axes} positions per token, [${axes}][tokens])`);
  }
  c.tokens = n / axes;
}

// mrope.interleaved: false (contiguous), true (Qwen3-VL's round-robin) or 'hw' (ERNIE 4.5 VL).
function mropeInterleaved(v) {
  if (v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (v === 'hw') return v;
  const E = typeof v === 'string' ? RangeError : TypeError;
  throw new E(`posenc: mrope.interleaved must be true, false or 'hw', got ${check.describe(v)}`);
}

// The rope() options mrope / vision2d → [core axes name, section t, h, w, facts].
function axesArg(o) {
  const given = ['mrope', 'vision2d', 'axes'].filter((k) => o[k] !== undefined);
  if (given.length > 1) throw new TypeError(`posenc: rope() takes mrope or vision2d or axes (one of them), got ${given.join(' and ')}`);
  if (o.vision2d !== undefined) {
    const v = check.oneOf('vision2d', o.vision2d, VISION_2D);
    return { axes: v, section: [0, 0, 0], mrope: null, vision2d: v, count: 2 };
  }
  if (o.mrope === undefined) return { axes: 'none', section: [0, 0, 0], mrope: null, vision2d: null, count: 1 };
  const m = check.options(o.mrope, 'rope() (mrope)', MROPE_KEYS);
  if (m.section === undefined) {
    throw new TypeError('posenc: mrope.section is required (HF mrope_section: the t, h, w rung counts)');
  }
  const list = check.numberList('mrope.section', m.section, 3);
  if (check.lengthOf(list) !== 3) {
    throw new RangeError(`posenc: mrope.section must hold 3 values (t, h, w), got ${check.lengthOf(list)}`);
  }
  const section = [0, 1, 2].map((i) => check.integer(`mrope.section[${i}]`, list[i], 0));
  const interleaved = mropeInterleaved(m.interleaved);
  return {
    axes: interleaved === 'hw' ? 'mrope-hw' : interleaved ? 'mrope-interleaved' : 'mrope', section, count: 3,
    vision2d: null,
    mrope: Object.freeze({ section: Object.freeze(section.slice()), interleaved }),
  };
}

// The dtype of an apply/applyQK record: undefined (float32), 'float16' or 'bfloat16'.
function dtypeArg(o) {
  return o.dtype === undefined ? undefined : check.oneOf('dtype', o.dtype, HALF_DTYPES);
}

// Whether x is 16-bit data, checked against the dtype given (argument `name`): a Uint16Array
// needs one, a Float16Array implies 'float16', a posenc tensor has its own (a dtype given
// must be it), anything else takes none. Returns the dtype to use, or undefined for float32
// data. Runs no user code (private tensor state, intrinsic tag).
function halfDtype(name, x, dtype) {
  if (tensorHeap(x) !== null) {
    const own = tensorDtype(x);
    if (dtype !== undefined && dtype !== own) {
      throw new TypeError(`posenc: ${name} is a ${own} tensor, so dtype must be '${own}' or absent, got '${dtype}'`);
    }
    return own === 'float32' ? undefined : own;
  }
  const tag = check.tagOf(x);
  if (tag === 'Float16Array') {
    if (dtype !== undefined && dtype !== 'float16') {
      throw new TypeError(`posenc: ${name} is a Float16Array, so dtype must be 'float16' or absent, got '${dtype}'`);
    }
    return 'float16';
  }
  if (tag === 'Uint16Array') {
    if (dtype === undefined) {
      throw new TypeError(`posenc: ${name} is a Uint16Array: give dtype 'float16' or 'bfloat16' (what its bits hold)`);
    }
    return dtype;
  }
  if (dtype !== undefined) {
    throw new TypeError(`posenc: dtype '${dtype}' is for 16-bit data (a Uint16Array, Float16Array or 16-bit ` +
      `tensor), but ${name} is ${check.describe(x)}`);
  }
  return undefined;
}

// The storage of out (rope.apply's option), which must be x's: x's dtype (undefined:
// float32) is the dtype its bits are read as; no call converts between storage types.
function checkOutDtype(out, dtype) {
  const outTag = check.tagOf(out);
  const sixteen = tensorHeap(out) !== null ? tensorDtype(out) !== 'float32'
    : outTag === 'Uint16Array' || outTag === 'Float16Array';
  const has = dtype === undefined ? 'float32' : dtype;
  if (dtype === undefined ? sixteen : !sixteen) {
    throw new TypeError(`posenc: out is ${check.describe(out)}${tensorHeap(out) !== null ? ` (${tensorDtype(out)})` : ''}` +
      ` but x holds ${has}: out must hold x's dtype (rope.apply does not convert between storage types)`);
  }
  if (dtype !== undefined) halfDtype('out', out, dtype); // a Float16Array / tensor of another dtype
}

// heads, tokenStride and headStride into c from the option values given (undefined when
// absent), named in messages by names ('heads', 'tokenStride', 'headStride'; for applyQK
// 'qHeads', 'qTokenStride', …). The caller reads the record by name: its reads stay
// monomorphic.
function readStrides(c, headDim, heads, tokenStride, headStride, names) {
  c.heads = heads === undefined ? 1 : check.size(names[0], heads);
  c.tokenStride = tokenStride === undefined ? c.heads * headDim : check.size(names[1], tokenStride);
  c.headStride = headStride === undefined ? headDim : check.size(names[2], headStride);
}
const STRIDES = ['heads', 'tokenStride', 'headStride'];
const Q_STRIDES = ['qHeads', 'qTokenStride', 'qHeadStride'];
const K_STRIDES = ['kHeads', 'kTokenStride', 'kHeadStride'];

// A rotator. Module level (not one class per posenc instance), so every rope has one shape
// and the methods' property accesses stay monomorphic however many instances a program
// loads; #api holds the instance's module, heap and call buffers.
class Rope {
  #api;
  #handle;
  #headDim;
  #rotaryDim;
  #base;
  #layout;
  #angles;
  #direction;
  #attentionFactor;
  #invFreq;
  #cacheStart;
  #cacheLength; // rows cached now
  #cacheMax; // rows the cache may grow to (= cacheLength when given)
  #make; // cacheLength → a new handle, for the growing cache (null when cacheLength was given)
  #axes;

  constructor(api, opts) {
    const { module, heap, registry } = api;
    const o = check.options(opts, 'rope()', ROPE_KEYS);
    const headDim = check.dim('headDim', o.headDim);
    // 0: the core's "rotaryDim is headDim", so an odd headDim is reported as headDim.
    const rotaryDim = o.rotaryDim === undefined ? 0 : check.dim('rotaryDim', o.rotaryDim);
    const base = baseArg(o);
    const layout = o.layout === undefined ? 'half' : check.oneOf('layout', o.layout, ROPE_LAYOUTS);
    const angles = o.angles === undefined ? 'exact' : check.oneOf('angles', o.angles, ANGLE_PRECISIONS);
    const direction = o.direction === undefined ? 'forward' : check.oneOf('direction', o.direction, DIRECTIONS);
    const scaling = scalingArg(o.scaling);
    const cacheStart = o.cacheStart === undefined ? 0 : check.safeInteger('cacheStart', o.cacheStart);
    // An int32 count; the core caps cacheLength·rotaryDim/2 at 2^28 floats (rotary.hpp).
    const auto = o.cacheLength === undefined;
    const cacheLength = auto ? 0 : check.integer('cacheLength', o.cacheLength, 0);
    let axes = axesArg(o);
    let make;
    if (o.axes === undefined) {
      const { section } = axes;
      make = (length) => withScaling(heap, scaling, 'rope()', (ptr) => module.ropeCreate(headDim, rotaryDim,
        base, layout, scaling.type, ptr, angles, cacheStart, length, axes.axes, section[0], section[1], section[2],
        direction));
    } else {
      const bands = axesOption(o.axes);
      for (const key of ['rotaryDim', 'scaling']) {
        if (o[key] !== undefined) {
          throw new TypeError(`posenc: rope() with axes takes no ${key} (the axes fix the rotated width; ` +
            'image and video presets use no scaling)');
        }
      }
      if (bands.preset !== '') {
        if (o.layout !== undefined) throw new TypeError(`posenc: rope() with axes '${bands.preset}' takes no layout (the preset fixes it)`);
        const info = heap.take(unwrap(module, module.axesPresetInfo(bands.preset, headDim)), 'Float64Array');
        axes = { axes: bands.preset, count: info[2], mrope: null, vision2d: null, name: bands.preset,
          base: o.base === undefined ? info[0] : base, layout: info[1] === 1 ? 'interleaved' : 'half' };
      } else {
        axes = { axes: 'custom', count: bands.n, mrope: null, vision2d: null, name: 'custom', base, layout };
      }
      const a = axes;
      make = (length) => withBands(heap, bands, (ptr) => module.ropeCreateBands(headDim, bands.preset, ptr, bands.n,
        bands.names, a.base, a.layout, angles, cacheStart, length, direction));
    }
    const handle = make(cacheLength);
    unwrap(module, handle, cacheNames);
    const info = heap.take(module.ropeInfo(handle), 'Float64Array');
    this.#api = api;
    this.#handle = handle;
    this.#headDim = headDim;
    this.#rotaryDim = info[1];
    // A preset's own base and layout (own fields of the record made above; nothing inherited).
    this.#base = o.axes === undefined ? base : axes.base;
    this.#layout = o.axes === undefined ? layout : axes.layout;
    this.#angles = angles;
    this.#direction = direction;
    this.#attentionFactor = info[0];
    this.#invFreq = new check.Float64(check.bufferOf(info), 16, check.lengthOf(info) - 2);
    this.#cacheStart = cacheStart;
    this.#cacheLength = cacheLength;
    this.#cacheMax = auto ? Math.floor(AUTO_MAX_FLOATS / info[1]) : cacheLength;
    this.#make = auto ? make : null;
    this.#axes = axes;
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
  /** 'inverse' when apply turns each pair by −p·θ (nanochat), else 'forward'. */
  get direction() { return this.#direction; }
  /** HF's attention_scaling, multiplied into rotated dims; 1 unless yarn / longrope. */
  get attentionFactor() { return this.#attentionFactor; }
  /** θ_i exactly as used (rotaryDim/2 values; a copy per rotator, changing it changes nothing). */
  get invFreq() { return this.#invFreq; }
  /** Positions per token: 1, 3 (M-RoPE: t, h, w) or 2 (vision2d: row, col). */
  get axes() { return this.#axes.count; }
  /** { section, interleaved } (frozen) of an M-RoPE rotator, else null. */
  get mrope() { return this.#axes.mrope; }
  /** 'qwen2-vl' | 'pixtral' for a 2-D rotary, else null. */
  get vision2d() { return this.#axes.vision2d; }
  /** The image / video preset ('flux', 'wan', …) or 'custom' for an explicit axes description, else null. */
  get axesName() { return this.#axes.name ?? null; }

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

  // The live handle, its cache grown (see AUTO_MIN_ROWS) when a call reaches row `last`
  // (a position) past the cached rows and below the bound. Runs after every option is read;
  // a failed rebuild (out of memory) keeps the current cache and stops growing.
  #covering(last) {
    const { module, registry } = this.#api;
    const handle = this.#live();
    const need = last - this.#cacheStart + 1;
    if (need <= this.#cacheLength || this.#cacheLength >= this.#cacheMax || need <= 0) return handle;
    const rows = Math.min(this.#cacheMax, Math.max(AUTO_MIN_ROWS, 2 * this.#cacheLength,
      2 ** Math.ceil(Math.log2(need))));
    let next = null;
    try {
      next = this.#make(rows);
      if (typeof next !== 'number') module.lastError(); // dropped: the current rows are the same
    } catch {
      // scratch memory for a scaling block exhausted: the same, keep the current cache
    }
    if (typeof next !== 'number') {
      this.#cacheMax = this.#cacheLength;
      return handle;
    }
    registry.unregister(this);
    module.ropeDestroy(handle);
    registry.register(this, next, this);
    this.#handle = next;
    this.#cacheLength = rows;
    return next;
  }

  // The last position a call rotates at (start + tokens − 1, or the largest of positions).
  static #last(positions, start, tokens) {
    if (positions === null) return start + tokens - 1;
    let m = -Infinity;
    for (let i = 0, n = check.lengthOf(positions); i < n; i++) if (positions[i] > m) m = positions[i];
    return m;
  }

  #liveFor(positions, start, tokens) {
    return this.#make === null ? this.#live() : this.#covering(Rope.#last(positions, start, tokens));
  }

  /**
   * Rotates x [tokens][heads][headDim] in place, or into `out` (same length and strides;
   * x is then left as it was): token t at positions[t] or start + t; inverse: true undoes
   * it. Rotated dims are multiplied by attentionFactor (HF). Returns x, or out.
   */
  apply(x, opts) {
    Rope.#check(this, 'rope.apply()');
    const o = check.options(opts, 'rope.apply()', APPLY_KEYS, new ApplyOptions());
    const inverse = o.inverse === undefined ? false : check.boolean('inverse', o.inverse);
    return this.#apply(x, o, inverse, 'rope.apply()');
  }

  /** apply with inverse: true: undoes apply to float rounding. */
  invert(x, opts) {
    Rope.#check(this, 'rope.invert()');
    return this.#apply(x, check.options(opts, 'rope.invert()', INVERT_KEYS, new InvertOptions()), true, 'rope.invert()');
  }

  #apply(x, o, inverse, fn) {
    const { module, heap, call, X, OUT } = this.#api;
    readPositions(call, o, fn, heap.buffer, this.#axes.count);
    readStrides(call, this.#headDim, o.heads, o.tokenStride, o.headStride, STRIDES);
    const { tokens, positions, start, heads, tokenStride: ts, headStride: hs } = call;
    const out = o.out;
    const dtype = halfDtype('x', x, dtypeArg(o));
    if (out !== undefined) checkOutDtype(out, dtype);
    // Every option is read: from here on no user code runs.
    const handle = this.#liveFor(positions, start, tokens);
    const half = dtype !== undefined;
    const real = call.real;
    if (half && real) throw new TypeError(`posenc: ${fn} takes real-valued positions (a Float64Array) for float32 tensors only`);
    if (half) resolveHalfTarget(heap, 'x', x, dtype, X);
    else resolveTarget(heap, 'x', x, X);
    let hasOut = out !== undefined;
    if (hasOut) {
      if (half) resolveHalfTarget(heap, 'out', out, dtype, OUT);
      else resolveTarget(heap, 'out', out, OUT);
      const shared = sharing(X, OUT);
      if (shared === 2) {
        throw new RangeError('posenc: out must be the same array as x or not share memory with it ' +
          '(out overlaps x)');
      }
      hasOut = shared === 0;
    }
    const n = positions === null ? 0 : check.lengthOf(positions);
    if (!half && !real && X.copy !== null && n === (positions === null ? 0 : tokens) &&
        (!hasOut || this.#chunksOut(OUT, heads, ts, hs)) &&
        this.#applyChunked(handle, tokens, heads, ts, hs, positions, start, inverse, hasOut)) {
      return out === undefined ? x : out;
    }
    const xBytes = align(stagedBytes(X));
    const outBytes = hasOut ? align(stagedBytes(OUT)) : 0;
    const total = xBytes + outBytes + (real ? 8 : 4) * n;
    const base = total === 0 ? 0 : heap.acquire(total, fn);
    let status;
    try {
      stage(heap, X, base);
      if (hasOut) stage(heap, OUT, base + xBytes);
      const pp = base + xBytes + outBytes;
      if (n !== 0) heap.put(pp, positions, real ? 'Float64Array' : 'Int32Array', 'positions');
      const target = hasOut ? OUT : X;
      // positions: 0 start, 1 int32, 2 float64 (bind_rotary.cpp positions_kind).
      const use = positions === null ? 0 : real ? 2 : 1, inv = inverse ? 1 : 0;
      // x → target (target = x in place): float32, or 16-bit values of one dtype.
      status = half
        ? module._posenc_rope_apply16(handle, X.ptr, X.length, target.ptr, target.length, tokens, heads, ts, hs,
          pp, n, start, use, inv, dtype === 'bfloat16' ? 1 : 0)
        : module._posenc_rope_apply(handle, X.ptr, X.length, target.ptr, target.length, tokens, heads, ts, hs,
          pp, n, start, use, inv);
      if (status === 0) unstage(heap, target);
    } finally {
      if (base !== 0) heap.release(base);
    }
    fromStatus(module, status, hasOut ? inNames : undefined);
    return out === undefined ? x : out;
  }

  // Whether an out-of-place call may go chunk by chunk into OUT: both plain arrays of one
  // length, neither over shared memory (across two buffer objects the documented order, every
  // input read before anything is written, needs the whole call), rows without gaps (a
  // chunk's every float is a result, so nothing of out outside the rows is written).
  #chunksOut(OUT, heads, ts, hs) {
    const { X } = this.#api;
    return OUT.copy !== null && OUT.length === X.length && hs === this.#headDim && ts === heads * hs &&
      check.bufferKind(check.bufferOf(X.copy)) !== 2 && check.bufferKind(check.bufferOf(OUT.copy)) !== 2;
  }

  // apply on a big X (a copy target) in token chunks through scratch memory (target.js
  // inChunks), in place or into OUT (toOut); false when x is small or the layout does not
  // allow chunks. The whole call is checked first (one extra call, for big x only), so an
  // error changes nothing.
  #applyChunked(handle, tokens, heads, ts, hs, positions, start, inverse, toOut = false) {
    const { module, heap, X, OUT } = this.#api;
    const p = positions === null ? 0 : 4;
    const rowFloats = heads < 1 ? 0 : (heads - 1) * hs + this.#headDim;
    if (!chunkable(X.length, tokens, ts, rowFloats, p)) return false;
    fromStatus(module, module._posenc_rope_check(handle, X.length, tokens, heads, ts, hs, start));
    const inv = inverse ? 1 : 0;
    return inChunks(heap, 'x', X.copy, tokens, ts, rowFloats, p, (ptr, floats, t0, count, pp) => {
      if (p !== 0) heap.put(pp, new check.Int32(check.bufferOf(positions), check.byteOffsetOf(positions) + 4 * t0, count), 'Int32Array');
      fromStatus(module, module._posenc_rope_apply(handle, ptr, floats, ptr, floats, count, heads, ts, hs,
        pp, p === 0 ? 0 : count, p === 0 ? start + t0 : 0, p === 0 ? 0 : 1, inv));
    }, toOut ? OUT.copy : X.copy);
  }

  /**
   * Grouped-query attention: rotates q [tokens][qHeads][headDim] and k [tokens][kHeads]
   * [headDim] forward in place with one cos/sin row per token (same numbers as two
   * apply calls). Strides per tensor: qTokenStride, qHeadStride, kTokenStride, kHeadStride.
   */
  applyQK(q, k, opts) {
    Rope.#check(this, 'rope.applyQK()');
    const { module, heap, call, kCall, X, OUT } = this.#api;
    const o = check.options(opts, 'rope.applyQK()', QK_KEYS, new QKOptions());
    readPositions(call, o, 'rope.applyQK()', heap.buffer, this.#axes.count);
    readStrides(call, this.#headDim, o.qHeads, o.qTokenStride, o.qHeadStride, Q_STRIDES);
    readStrides(kCall, this.#headDim, o.kHeads, o.kTokenStride, o.kHeadStride, K_STRIDES);
    const { tokens, positions, start } = call;
    const dtypeGiven = dtypeArg(o);
    const dtype = halfDtype('q', q, dtypeGiven);
    const kDtype = halfDtype('k', k, dtypeGiven);
    if (kDtype !== dtype) {
      throw new TypeError(`posenc: q holds ${dtype ?? 'float32'} but k holds ${kDtype ?? 'float32'}: q and k must share one dtype`);
    }
    const handle = this.#liveFor(positions, start, tokens);
    const half = dtype !== undefined;
    const real = call.real;
    if (half && real) throw new TypeError('posenc: rope.applyQK() takes real-valued positions (a Float64Array) for float32 tensors only');
    if (half) {
      resolveHalfTarget(heap, 'q', q, dtype, X);
      resolveHalfTarget(heap, 'k', k, dtype, OUT);
    } else {
      resolveTarget(heap, 'q', q, X);
      resolveTarget(heap, 'k', k, OUT);
    }
    if (sharing(X, OUT) !== 0) throw new RangeError('posenc: q and k must not share memory');
    const n = positions === null ? 0 : check.lengthOf(positions);
    const qBytes = align(stagedBytes(X));
    const kBytes = align(stagedBytes(OUT));
    const total = qBytes + kBytes + (real ? 8 : 4) * n;
    const base = total === 0 ? 0 : heap.acquire(total, 'rope.applyQK()');
    let status;
    try {
      stage(heap, X, base);
      stage(heap, OUT, base + qBytes);
      const pp = base + qBytes + kBytes;
      if (n !== 0) heap.put(pp, positions, real ? 'Float64Array' : 'Int32Array', 'positions');
      const use = positions === null ? 0 : real ? 2 : 1;
      status = half
        ? module._posenc_rope_apply_qk16(handle, X.ptr, X.length, call.heads, call.tokenStride, call.headStride,
          OUT.ptr, OUT.length, kCall.heads, kCall.tokenStride, kCall.headStride, tokens, pp, n, start, use,
          dtype === 'bfloat16' ? 1 : 0)
        : module._posenc_rope_apply_qk(handle, X.ptr, X.length, call.heads, call.tokenStride, call.headStride,
          OUT.ptr, OUT.length, kCall.heads, kCall.tokenStride, kCall.headStride, tokens, pp, n, start, use);
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
    const { module, heap, call, X } = this.#api;
    const o = check.options(opts, 'rope.shift()', SHIFT_KEYS, new ShiftOptions());
    const delta = check.safeInteger('delta', o.delta);
    const tokens = check.size('tokens', o.tokens);
    readStrides(call, this.#headDim, o.heads, o.tokenStride, o.headStride, STRIDES);
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
    const { module, heap } = this.#api;
    const axes = this.#axes.count;
    let all;
    if (axes > 1 && typeof position !== 'number' && typeof position !== 'bigint') {
      // A multi-axis token: its axes positions ((t, h, w), (row, col), …; a Float64Array for
      // real values) → the merged row.
      const p = realPositions('position', position, heap.buffer) ?? check.positions('position', position, heap.buffer);
      if (check.lengthOf(p) !== axes) {
        throw new RangeError(`posenc: position must hold ${axes} values (one per axis), got ${check.lengthOf(p)}`);
      }
      all = heap.take(unwrap(module, module.ropeRowAxes(this.#live(), p[0], p[1], axes > 2 ? p[2] : 0,
        axes > 3 ? p[3] : 0)), 'Float32Array');
    } else {
      const p = check.safeInteger('position', position);
      all = heap.take(unwrap(module, module.ropeRow(this.#live(), p)), 'Float32Array');
    }
    const half = check.lengthOf(all) / 2;
    const buffer = check.bufferOf(all);
    return { cos: new check.Float32(buffer, 0, half), sin: new check.Float32(buffer, 4 * half, half) };
  }

  /**
   * HF's (cos, sin) pair as a model's rotary embedding returns it: Float32Array
   * [tokens][rotaryDim] each, full width in the rotator's layout, times attentionFactor;
   * token t at positions[t] or start + t. A multi-axis rotator takes axes·tokens positions
   * ([axes][tokens]) and returns each token's merged row (after HF's section merge).
   */
  cosSin(opts) {
    Rope.#check(this, 'rope.cosSin()');
    const { module, heap, call } = this.#api;
    const o = check.options(opts, 'rope.cosSin()', COS_SIN_KEYS, new CosSinOptions());
    const axes = this.#axes.count;
    readPositions(call, o, 'rope.cosSin()', heap.buffer, axes);
    const { tokens, positions, start } = call;
    const n = positions === null ? 0 : check.lengthOf(positions);
    if (positions !== null && n !== axes * tokens) {
      throw new RangeError(`posenc: rope.cosSin() positions holds ${n} values but tokens is ${tokens}` +
        (axes === 1 ? '' : ` (this rotator takes ${axes} positions per token: ${axes * tokens})`));
    }
    const handle = this.#liveFor(positions, start, tokens);
    const real = call.real;
    const base = n === 0 ? 0 : heap.acquire((real ? 8 : 4) * n, 'rope.cosSin()');
    let r;
    try {
      if (n !== 0) heap.put(base, positions, real ? 'Float64Array' : 'Int32Array', 'positions');
      r = module.ropeCosSin(handle, base, n, start, tokens, positions !== null, real);
    } finally {
      if (base !== 0) heap.release(base);
    }
    const both = heap.take(unwrap(module, r, undefined, () => `rope.cosSin() returns cos and sin of tokens × ` +
      `rotaryDim = ${tokens} × ${this.#rotaryDim} floats each (${8 * tokens * this.#rotaryDim} bytes)`), 'Float32Array');
    const size = check.lengthOf(both) / 2;
    const buffer = check.bufferOf(both);
    return { cos: new check.Float32(buffer, 0, size), sin: new check.Float32(buffer, 4 * size, size) };
  }

  dispose() {
    Rope.#check(this, 'rope.dispose()');
    const { module, registry } = this.#api;
    if (this.#handle === 0) return;
    registry.unregister(this);
    module.ropeDestroy(this.#handle);
    this.#handle = 0;
  }
}

export function rotaryApi({ module, heap }) {
  // What every rope of this instance shares (Rope's #api); the Call and Target records are
  // reused by each call (see Call).
  const api = Object.freeze({
    module,
    heap,
    registry: new FinalizationRegistry((handle) => module.ropeDestroy(handle)),
    call: new Call(),
    kCall: new Call(), // applyQK: k's heads and strides
    X: new Target(),
    OUT: new Target(),
  });
  return {
    /** A reusable rotator; see index.d.ts for the options. */
    rope: (opts) => new Rope(api, opts),
  };
}
