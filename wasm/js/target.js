// wasm/js/target.js — where an in-place kernel finds the floats it works on.
//
// Three kinds of argument, one contract ("x is changed in place and returned"):
//   - a posenc tensor of this instance, or a Float32Array view of a live tensor's memory:
//     the kernel runs on that memory directly, zero copies;
//   - any other Float32Array, or a tensor of another createPosenc() instance (its address
//     means nothing in this module's memory): copied into scratch memory, processed in one
//     WebAssembly call, copied back only when the call succeeded.
// Resolving runs no user code (private tensor state, intrinsic typed-array getters), so a
// caller resolves its targets after reading its options, and a handle disposed by a getter
// is seen here. Targets are reusable records: nothing is allocated per call.
import * as check from './check.js';
import { tensorDtype, tensorHeap, tensorLength, tensorPtr } from './heap.js';

/** A resolved in-place argument. */
export class Target {
  /** Its address in WebAssembly memory (for a copy: set by the caller once staged). */
  ptr = 0;
  /** Element count. */
  length = 0;
  /** Bytes per element: 4 (float32) or 2 (float16 / bfloat16 bits). */
  bytes = 4;
  /** The Float32Array to stage and copy back (copying path), or null (zero-copy). */
  copy = null;
  /** The argument's name (for a copy target detached since it was resolved). */
  name = '';
}

/**
 * Resolves `x` (argument `name`) into `t`: throws TypeError for anything that is not a
 * Float32Array or a live posenc tensor, and for a view of WebAssembly memory no live
 * tensor owns. Returns t.
 */
export function resolveTarget(heap, name, x, t) {
  const owner = tensorHeap(x);
  if (owner !== null) {
    const ptr = tensorPtr(x);
    if (ptr === 0) throw new TypeError(`posenc: ${name} is a disposed tensor`);
    if (tensorDtype(x) !== 'float32') {
      throw new TypeError(`posenc: ${name} is a ${tensorDtype(x)} tensor; this call takes float32 data`);
    }
    t.length = tensorLength(x);
    t.bytes = 4;
    if (owner === heap) {
      t.ptr = ptr;
      t.copy = null;
    } else {
      t.ptr = 0;
      t.copy = owner.f32(ptr, t.length);
    }
    return t;
  }
  if (check.tagOf(x) !== 'Float32Array') {
    throw new TypeError(`posenc: ${name} must be a Float32Array or a posenc tensor, got ${check.describe(x)}`);
  }
  const a = check.float32Array(name, x, false); // attached, pinned to its measured length
  const n = check.lengthOf(a);
  t.length = n;
  t.bytes = 4;
  t.name = name;
  if (check.bufferOf(a) !== heap.buffer) {
    t.ptr = 0;
    t.copy = a;
    return t;
  }
  const offset = check.byteOffsetOf(a);
  const held = heap.tensorHolding(offset, 4 * n);
  if (held === null) {
    throw new TypeError(`posenc: ${name} views WebAssembly memory that no live posenc tensor owns`);
  }
  if (held !== 'float32') {
    throw new TypeError(`posenc: ${name} is a Float32Array viewing a ${held} tensor's memory; this call takes float32 data`);
  }
  t.ptr = offset;
  t.copy = null;
  return t;
}

/** The 16-bit array types: their elements are the bits of float16 / bfloat16 values. */
export const HALF_TAGS = ['Uint16Array', 'Float16Array'];

/**
 * Resolves a 16-bit `x` of `dtype` into `t`: a 16-bit tensor of this instance, or a
 * Uint16Array / Float16Array view of a live one's memory, zero-copy; any other such array,
 * or a tensor of another instance, by copy: its bits are staged as they are (a Float16Array
 * through a Uint16Array view of its memory, so no value converts). The caller has checked
 * that x is a 16-bit array or tensor; a tensor or view of another dtype is a TypeError, as
 * is a view of WebAssembly memory no live tensor owns. Returns t.
 */
export function resolveHalfTarget(heap, name, x, dtype, t) {
  t.bytes = 2;
  t.name = name;
  const owner = tensorHeap(x);
  if (owner !== null) {
    const ptr = tensorPtr(x);
    if (ptr === 0) throw new TypeError(`posenc: ${name} is a disposed tensor`);
    if (tensorDtype(x) !== dtype) throw new TypeError(`posenc: ${name} is a ${tensorDtype(x)} tensor, not ${dtype}`);
    t.length = tensorLength(x);
    t.ptr = owner === heap ? ptr : 0;
    t.copy = owner === heap ? null : owner.u16(ptr, t.length);
    return t;
  }
  const tag = check.tagOf(x);
  const a = check.typedArray(name, x, tag, false); // attached, pinned (a Uint16Array for shared memory)
  const n = check.lengthOf(a);
  t.length = n;
  if (check.bufferOf(a) === heap.buffer) {
    const offset = check.byteOffsetOf(a);
    const held = heap.tensorHolding(offset, 2 * n);
    if (held === null) {
      throw new TypeError(`posenc: ${name} is a ${tag} viewing WebAssembly memory that no live posenc tensor owns`);
    }
    if (held !== dtype) throw new TypeError(`posenc: ${name} views a ${held} tensor's memory, not ${dtype}`);
    t.ptr = offset;
    t.copy = null;
    return t;
  }
  t.ptr = 0;
  t.copy = check.tagOf(a) === 'Uint16Array' ? a : new check.Uint16(check.bufferOf(a), check.byteOffsetOf(a), n);
  return t;
}

/**
 * How two copy targets share memory (zero-copy ones are the core's to check): 0 not at
 * all, 1 the very same floats, 2 partly.
 */
export function sharing(a, b) {
  if (a.copy === null || b.copy === null || a.length === 0 || b.length === 0) return 0;
  if (check.bufferOf(a.copy) !== check.bufferOf(b.copy)) return 0;
  const a0 = check.byteOffsetOf(a.copy);
  const b0 = check.byteOffsetOf(b.copy);
  if (a0 === b0 && a.length === b.length && a.bytes === b.bytes) return 1;
  return a0 < b0 + b.bytes * b.length && b0 < a0 + a.bytes * a.length ? 2 : 0;
}

/** Scratch bytes a target needs (0 when zero-copy). */
export const stagedBytes = (t) => (t.copy === null ? 0 : t.bytes * t.length);

/** Stages a copy target at ptr (its elements copied in). */
export function stage(heap, t, ptr) {
  if (t.copy === null) return;
  t.ptr = ptr;
  heap.put(ptr, t.copy, t.bytes === 2 ? 'Uint16Array' : 'Float32Array', t.name);
}

/** Copies a staged target's elements back to its array. */
export function unstage(heap, t) {
  if (t.copy === null) return;
  if (t.bytes === 2) heap.getU16(t.copy, t.ptr, t.length);
  else heap.getF32(t.copy, t.ptr, t.length);
}

// Token chunks of the copying path stay this small so that the copy in, the kernel and the
// copy out all hit L2 (one block as big as x would make three passes through DRAM).
const CHUNK_BYTES = 256 << 10;

/**
 * Whether x (n floats) [tokens][…] is worth chunking and can be: bigger than one chunk, token
 * rows of rowFloats ≤ tokenStride that do not overlap and lie inside x, whole tokens per chunk.
 */
export function chunkable(n, tokens, tokenStride, rowFloats, extraBytesPerToken) {
  return 4 * n > CHUNK_BYTES && tokens >= 2 && rowFloats >= 1 && rowFloats <= tokenStride &&
    4 * tokenStride + extraBytesPerToken <= CHUNK_BYTES && (tokens - 1) * tokenStride + rowFloats <= n;
}

/**
 * The copying path for a big x [tokens][…] (a Float32Array outside WebAssembly memory)
 * whose token rows do not overlap: token t owns floats [t·tokenStride, t·tokenStride +
 * rowFloats), rowFloats ≤ tokenStride, all inside x. Runs `body(ptr, floats, t0, count,
 * extra)` on chunks of whole tokens staged one after another in the resident scratch
 * block, with `extraBytesPerToken`·count bytes at `extra` (positions), and copies each
 * chunk back. Token rows being disjoint, chunk by chunk gives the same floats as one call
 * over all of x. Only for a layout `chunkable` accepted; the caller must have checked the
 * whole call first: a chunk already copied back is not undone. With `out` (another array of
 * x's length, no gaps in the rows: every float of a chunk is a result) each chunk is copied
 * to out instead, so x is only read. Returns true.
 */
export function inChunks(heap, what, x, tokens, tokenStride, rowFloats, extraBytesPerToken, body, out = x) {
  const per = Math.floor(CHUNK_BYTES / (4 * tokenStride + extraBytesPerToken));
  const spanOf = (count) => (count - 1) * tokenStride + rowFloats;
  const floatBytes = 4 * spanOf(Math.min(per, tokens));
  const base = heap.acquire(floatBytes + extraBytesPerToken * per + 16, what);
  const extra = base + Math.ceil(floatBytes / 16) * 16;
  try {
    for (let t0 = 0; t0 < tokens; t0 += per) {
      const count = Math.min(per, tokens - t0);
      const first = t0 * tokenStride;
      const floats = spanOf(count);
      const chunk = new check.Float32(check.bufferOf(x), check.byteOffsetOf(x) + 4 * first, floats);
      heap.put(base, chunk, 'Float32Array');
      body(base, floats, t0, count, extra);
      check.copyInto(out, heap.f32(base, floats), first);
    }
  } finally {
    heap.release(base);
  }
  return true;
}
