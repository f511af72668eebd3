// posenc/train — "train short, test long": a tiny decoder-only transformer with one position
// encoding, trained step by step in WebAssembly (core: posenc/train_protocol.hpp). Its own
// entry with its own two binaries (SIMD and scalar, as the package's), so that pages which
// only encode positions never download the trainer. See train.d.ts for the contract.
import { LOADER_OPTIONS, loadModule, simdSupported } from './js/loader.js';
import { binaries } from './js/train-binaries.js';
import { Heap, memoryStats } from './js/heap.js';
import * as check from './js/check.js';
import { trainApi } from './js/train.js';

export { simdSupported };

const ENTRY = { binaries, prefix: 'train-', create: 'createTrainer', inline: 'posenc/train/inline' };

/**
 * Loads the trainer's binary (SIMD when the engine supports it). Options as createPosenc's:
 * `simd`, `wasm` (one trainer binary), `locateWasm` ((flavour) => URL of each trainer binary).
 */
export async function createTrainer(opts) {
  const o = check.options(opts, 'createTrainer()', LOADER_OPTIONS);
  const { module, simd } = await loadModule(o, ENTRY);
  return Object.freeze({
    simd,
    ...trainApi({ module, heap: new Heap(module) }),
    /** Debug: WebAssembly memory size and allocator bytes in use (for leak tests). */
    memoryStats: () => memoryStats(module),
  });
}

export default createTrainer;
