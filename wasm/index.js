// posenc — positional encodings for transformers (sinusoidal tables, RoPE) from a C++/xsimd
// core compiled to WebAssembly. This is the package entry: `createPosenc()` loads the binary
// (SIMD when the engine supports it) and returns the API object. Every function validates
// its arguments (TypeError / RangeError naming the argument) and leaves the module usable
// after any error. See index.d.ts for the full contract.
import { loadModule, simdSupported } from './js/loader.js';
import { Heap, Tensor } from './js/heap.js';
import * as check from './js/check.js';
import { frequencyApi } from './js/frequencies.js';
import { sinusoidalApi } from './js/sinusoidal.js';
import { rotaryApi } from './js/rotary.js';
import { scoresApi } from './js/scores.js';
import { attentionApi } from './js/attention.js';
import { randomApi } from './js/random.js';
import { relativeApi } from './js/relative.js';

export { simdSupported };

/**
 * Loads posenc. Options: `simd` (true/false forces a binary; default: SIMD when
 * WebAssembly.validate accepts SIMD128), `wasm` (URL, bytes or WebAssembly.Module of the
 * chosen binary, for hosts that serve it elsewhere).
 */
export async function createPosenc(opts) {
  const o = check.options(opts, 'createPosenc()', ['simd', 'wasm']);
  if (o.simd !== undefined) check.boolean('simd', o.simd);
  const w = o.wasm;
  if (w !== undefined && !(typeof w === 'string' || w instanceof URL || w instanceof ArrayBuffer ||
      ArrayBuffer.isView(w) || w instanceof WebAssembly.Module)) {
    throw new TypeError('posenc: wasm must be a URL, a string, bytes or a WebAssembly.Module');
  }
  const { module, simd } = await loadModule(o);
  const heap = new Heap(module);
  const ctx = { module, heap };
  return Object.freeze({
    simd,
    ...frequencyApi(ctx),
    ...sinusoidalApi(ctx),
    ...rotaryApi(ctx),
    ...scoresApi(ctx),
    ...attentionApi(ctx),
    ...randomApi(ctx),
    ...relativeApi(ctx),

    /** A Float32Array in WebAssembly memory (zero-copy argument); length or data to copy. */
    tensor(lengthOrData) {
      if (lengthOrData instanceof Float32Array) {
        check.float32Array('data', lengthOrData);
        // A view of WebAssembly memory would detach if allocating the tensor grows it.
        const data = lengthOrData.buffer === heap.buffer ? lengthOrData.slice() : lengthOrData;
        const t = new Tensor(heap, data.length);
        t.array.set(data);
        return t;
      }
      const t = new Tensor(heap, check.size('length', lengthOrData));
      t.array.fill(0); // malloc'd memory may hold a freed tensor's floats
      return t;
    },

    /** Debug: WebAssembly memory size and allocator bytes in use (for leak tests). */
    memoryStats() {
      return { memoryBytes: module.HEAPU8.byteLength, heapInUse: module.heapInUse() };
    },
  });
}

export default createPosenc;
