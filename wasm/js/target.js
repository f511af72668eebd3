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
function resolve(heap, name, x) {
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
 * Calls `body(ptrs, lengths, extra)` with each of `targets` ([name, x, readOnly?]) in
 * WebAssembly memory and `extra` scratch blocks of `extraBytes` (for positions). Zero-copy
 * targets are resolved before anything allocates (growth would detach their views); the
 * others share one scratch allocation with the extra blocks and are copied back afterwards
 * unless readOnly. Returns nothing: the callers return their own arguments.
 */
export function inPlaceAll(heap, targets, extraBytes, body) {
  const resolved = targets.map(([name, x, readOnly]) => ({ ...resolve(heap, name, x), readOnly }));
  const copies = resolved.filter((r) => r.copy);
  const what = targets.map(([name]) => name).join(', ');
  heap.withScratch([...copies.map((r) => r.copy.byteLength), ...extraBytes], what, (blocks) => {
    copies.forEach((r, i) => {
      r.ptr = blocks[i];
      r.length = r.copy.length;
      heap.f32(r.ptr, r.length).set(r.copy);
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
