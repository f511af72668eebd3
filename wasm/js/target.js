// wasm/js/target.js — where an in-place kernel finds the floats it works on.
//
// Three kinds of argument, one contract ("x is changed in place and returned"):
//   - a posenc Tensor handle, or a Float32Array view of a live tensor's memory: the kernel
//     runs on that memory directly, zero copies;
//   - any other Float32Array, or a tensor of another createPosenc() instance (its address
//     means nothing in this module's memory): copied into the scratch block, processed,
//     copied back.
import * as check from './check.js';
import { Tensor } from './heap.js';

// { ptr, length } of a zero-copy target, or { copy: Float32Array } for the copying path.
export function resolve(heap, name, x) {
  if (x instanceof Tensor) {
    x.assertLive(name);
    return x.ownedBy(heap) ? { ptr: x.ptr, length: x.length } : { copy: x.array };
  }
  check.float32Array(name, x);
  if (x.buffer !== heap.buffer) return { copy: x };
  if (!heap.tensorOf(x)) throw new TypeError(`posenc: ${name} views WebAssembly memory that no live posenc tensor owns`);
  return { ptr: x.byteOffset, length: x.length };
}

/**
 * Calls `body(ptrs, lengths, extra)` with each of `targets` ([name, x, readOnly?,
 * writeOnly?]) in WebAssembly memory and `extra` scratch blocks of `extraBytes` (for
 * positions). Zero-copy targets are resolved before anything allocates (growth would detach
 * their views); the others share one scratch allocation with the extra blocks, copied in
 * unless writeOnly (the kernel sets every float) and back afterwards unless readOnly.
 * Returns nothing: the callers return their own arguments.
 */
export function inPlaceAll(heap, targets, extraBytes, body) {
  const resolved = targets.map(([name, x, readOnly, writeOnly]) => ({ ...resolve(heap, name, x), readOnly, writeOnly }));
  const copies = resolved.filter((r) => r.copy);
  const what = targets.map(([name]) => name).join(', ');
  heap.withScratch([...copies.map((r) => r.copy.byteLength), ...extraBytes], what, (blocks) => {
    copies.forEach((r, i) => {
      r.ptr = blocks[i];
      r.length = r.copy.length;
      if (!r.writeOnly) heap.f32(r.ptr, r.length).set(r.copy);
    });
    body(resolved.map((r) => r.ptr), resolved.map((r) => r.length), blocks.slice(copies.length));
    for (const r of copies) if (!r.readOnly) r.copy.set(heap.f32(r.ptr, r.length));
  });
}

/** inPlaceAll for one target; `body(ptr, length, extra)`. Returns x. */
export function inPlace(heap, name, x, extraBytes, body) {
  inPlaceAll(heap, [[name, x]], extraBytes, ([ptr], [length], extra) => body(ptr, length, extra));
  return x;
}

// Token chunks of the copying path stay this small so that the copy in, the kernel and the
// copy out all hit L2 (one block as big as x would make three passes through DRAM).
const CHUNK_BYTES = 256 << 10;

/**
 * The copying path for a big x [tokens][…] (a Float32Array outside WebAssembly memory)
 * whose token rows do not overlap: token t owns floats [t·tokenStride, t·tokenStride +
 * rowFloats), rowFloats ≤ tokenStride, all inside x. Runs `body(ptr, floats, t0, count,
 * extra)` on chunks of whole tokens staged one after another in the resident scratch
 * block, with `extraBytesPerToken`·count bytes at `extra` (positions), and copies each
 * chunk back. Token rows being disjoint, chunk by chunk gives the same floats as one call
 * over all of x. Returns false, having done nothing, when x fits the scratch block anyway
 * or the layout does not allow chunks; the caller then takes inPlaceAll. The caller must
 * have checked the whole call first: a chunk already copied back is not undone.
 */
export function inChunks(heap, what, x, tokens, tokenStride, rowFloats, extraBytesPerToken, body) {
  const tokenBytes = 4 * tokenStride + extraBytesPerToken;
  const per = Math.floor(CHUNK_BYTES / tokenBytes);
  if (x.byteLength <= CHUNK_BYTES || per < 1 || tokens < 2 || rowFloats < 1 || rowFloats > tokenStride ||
      (tokens - 1) * tokenStride + rowFloats > x.length) return false;
  const spanOf = (count) => (count - 1) * tokenStride + rowFloats;
  heap.withScratch([4 * spanOf(Math.min(per, tokens)), extraBytesPerToken * per], what, ([ptr, extra]) => {
    for (let t0 = 0; t0 < tokens; t0 += per) {
      const count = Math.min(per, tokens - t0);
      const first = t0 * tokenStride;
      const floats = spanOf(count);
      heap.f32(ptr, floats).set(x.subarray(first, first + floats));
      body(ptr, floats, t0, count, extra);
      x.set(heap.f32(ptr, floats), first);
    }
  });
  return true;
}
