// posenc — positional encodings for transformers (sinusoidal tables, RoPE) from a C++/xsimd
// core compiled to WebAssembly. This is the package entry: `createPosenc()` loads the binary
// (SIMD when the engine supports it) and returns the API object. Every function validates
// its arguments (TypeError / RangeError naming the argument) and leaves the module usable
// after any error. See index.d.ts for the full contract.
import { LOADER_OPTIONS, loadModule, simdSupported } from './js/loader.js';
import { Heap, Tensor, tensorPtr } from './js/heap.js';
import * as check from './js/check.js';
import { frequencyApi } from './js/frequencies.js';
import { sinusoidalApi } from './js/sinusoidal.js';
import { rotaryApi } from './js/rotary.js';
import { scoresApi } from './js/scores.js';
import { attentionApi } from './js/attention.js';
import { randomApi } from './js/random.js';
import { positionsApi } from './js/positions.js';
import { relativeApi } from './js/relative.js';
import { mropePositionsApi } from './js/mrope_positions.js';

export { simdSupported };

/**
 * Loads posenc. Options: `simd` (true/false forces a binary; default: SIMD when the engine
 * runs it), `wasm` (URL, bytes or WebAssembly.Module of one binary, for hosts that serve it
 * elsewhere), `locateWasm` ((flavour) => URL of each binary, for self-hosting both).
 */
export async function createPosenc(opts) {
  const o = check.options(opts, 'createPosenc()', LOADER_OPTIONS);
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
    ...positionsApi(ctx),
    ...relativeApi(ctx),
    ...mropePositionsApi(ctx),

    /** A Float32Array in WebAssembly memory (zero-copy argument); length or data to copy. */
    tensor(lengthOrData) {
      if (check.tagOf(lengthOrData) !== undefined) {
        // Copied first when it views WebAssembly memory: allocating the tensor may grow it.
        const data = check.floatInput('data', lengthOrData, heap.buffer);
        const t = new Tensor(heap, check.lengthOf(data));
        heap.put(tensorPtr(t), data, 'Float32Array');
        return t;
      }
      if (typeof lengthOrData !== 'number') {
        throw new TypeError(`posenc: tensor() takes a length or a Float32Array, got ${check.describe(lengthOrData)}`);
      }
      const n = check.size('length', lengthOrData);
      const t = new Tensor(heap, n);
      module.HEAPF32.fill(0, tensorPtr(t) >>> 2, (tensorPtr(t) >>> 2) + n); // malloc'd memory may hold old floats
      return t;
    },

    /** Debug: WebAssembly memory size and allocator bytes in use (for leak tests). */
    memoryStats() {
      return { memoryBytes: module.HEAPU8.byteLength, heapInUse: module.heapInUse() };
    },
  });
}

export default createPosenc;
