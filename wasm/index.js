// posenc — positional encodings for transformers (sinusoidal tables, RoPE) from a C++/xsimd
// core compiled to WebAssembly. This is the package entry: `createPosenc()` loads the binary
// (SIMD when the engine supports it) and returns the API object. Every function validates
// its arguments (TypeError / RangeError naming the argument) and leaves the module usable
// after any error. See index.d.ts for the full contract.
import { LOADER_OPTIONS, loadModule, simdSupported } from './js/loader.js';
import { binaries } from './js/binaries.js';
import { Heap, memoryStats } from './js/heap.js';
import * as check from './js/check.js';
import { frequencyApi } from './js/frequencies.js';
import { sinusoidalApi } from './js/sinusoidal.js';
import { rotaryApi } from './js/rotary.js';
import { configApi } from './js/config.js';
import { scoresApi } from './js/scores.js';
import { attentionApi } from './js/attention.js';
import { randomApi } from './js/random.js';
import { positionsApi } from './js/positions.js';
import { relativeApi } from './js/relative.js';
import { tensorApi } from './js/tensor.js';
import { mropePositionsApi } from './js/mrope_positions.js';
import { axesApi } from './js/axes.js';

export { simdSupported };
export { goldenVectors } from './js/golden.js';

const ENTRY = { binaries, prefix: '', create: 'createPosenc', inline: 'posenc/inline' };

/**
 * Loads posenc. Options: `simd` (true/false forces a binary; default: SIMD when the engine
 * runs it), `wasm` (URL, bytes or WebAssembly.Module of one binary, for hosts that serve it
 * elsewhere), `locateWasm` ((flavour) => URL of each binary, for self-hosting both).
 */
export async function createPosenc(opts) {
  const o = check.options(opts, 'createPosenc()', LOADER_OPTIONS);
  const { module, simd } = await loadModule(o, ENTRY);
  const heap = new Heap(module);
  const ctx = { module, heap };
  const rotary = rotaryApi(ctx);
  return Object.freeze({
    simd,
    ...frequencyApi(ctx),
    ...sinusoidalApi(ctx),
    ...rotary,
    ...configApi(ctx, rotary.rope),
    ...scoresApi(ctx),
    ...attentionApi(ctx),
    ...randomApi(ctx),
    ...positionsApi(ctx),
    ...relativeApi(ctx),
    ...tensorApi(ctx),
    ...mropePositionsApi(ctx),
    ...axesApi(ctx),
    /** The trainer is its own entry with its own binaries; this says where. */
    train() {
      throw new TypeError("posenc: the trainer is its own entry, downloaded only by those who train: " +
        "import { createTrainer } from 'posenc/train'; const pe = await createTrainer(); pe.train(options)");
    },
    /** Debug: WebAssembly memory size and allocator bytes in use (for leak tests). */
    memoryStats: () => memoryStats(module),
  });
}

export default createPosenc;
