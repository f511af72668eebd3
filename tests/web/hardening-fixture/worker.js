// Module Web Worker of the hardening fixture: loads posenc inside the worker and answers
// { id, simd, seed } with { id, ...workload result } (or { id, crash }).
import { createPosenc } from '../../../wasm/index.js';
import { workload } from './workload.js';

const instances = new Map();
self.onmessage = async ({ data: { id, simd, seed } }) => {
  try {
    if (!instances.has(simd)) instances.set(simd, await createPosenc({ simd }));
    self.postMessage({ id, ...workload(instances.get(simd), seed) });
  } catch (e) {
    self.postMessage({ id, crash: `${e?.constructor?.name}: ${e?.message}` });
  }
};
