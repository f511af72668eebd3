// wasm/js/train-binaries.js — where 'posenc/train' finds its two binaries: next to the JS, in
// the same `new URL('…', import.meta.url)` form as binaries.js (see there for why). The
// 'posenc/train/inline' entry replaces this module with train-binaries-inline.js.
import simdGlue from '../dist/posenc-train-simd.js';
import scalarGlue from '../dist/posenc-train-scalar.js';

export const binaries = {
  simd: { glue: simdGlue, wasm: () => new URL('../dist/posenc-train-simd.wasm', import.meta.url) },
  scalar: { glue: scalarGlue, wasm: () => new URL('../dist/posenc-train-scalar.wasm', import.meta.url) },
};
