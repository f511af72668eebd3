// wasm/js/target.js — where an in-place kernel finds the floats it works on.
//
// Three kinds of argument, one contract ("x is rotated in place and returned"):
//   - a posenc Tensor handle, or a Float32Array view of a live tensor's memory: the kernel
//     runs on that memory directly, zero copies;
//   - any other Float32Array: copied into the scratch block, processed, copied back.
import * as check from './check.js';
import { Tensor } from './heap.js';

/**
 * Calls `body(ptr, length, stage)` with x's floats in WebAssembly memory; `stage(bytes)`
 * hands out further scratch blocks (for positions) as a list of pointers. Returns x.
 */
export function inPlace(heap, name, x, extraBytes, body) {
  if (x instanceof Tensor) {
    x.assertLive(name);
    const ptr = x.ptr; // read before anything allocates
    heap.withScratch(extraBytes, name, (extra) => body(ptr, x.length, extra));
    return x;
  }
  check.float32Array(name, x);
  if (x.buffer === heap.buffer) {
    const owner = heap.tensorOf(x);
    if (!owner) throw new TypeError(`posenc: ${name} views WebAssembly memory that no live posenc tensor owns`);
    const ptr = x.byteOffset;
    heap.withScratch(extraBytes, name, (extra) => body(ptr, x.length, extra));
    return x;
  }
  return heap.withScratch([4 * x.length, ...extraBytes], name, ([ptr, ...extra]) => {
    heap.f32(ptr, x.length).set(x);
    body(ptr, x.length, extra);
    x.set(heap.f32(ptr, x.length));
    return x;
  });
}
