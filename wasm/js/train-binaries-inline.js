// wasm/js/train-binaries-inline.js — the 'posenc/train/inline' entry's binaries, embedded in
// the JS: only a build input, as binaries-inline.js is for 'posenc/inline'.
import simdGlue from '../dist/posenc-train-simd.js';
import scalarGlue from '../dist/posenc-train-scalar.js';
import simdBytes from '../dist/posenc-train-simd.wasm';
import scalarBytes from '../dist/posenc-train-scalar.wasm';

export const binaries = {
  simd: { glue: simdGlue, wasm: () => simdBytes },
  scalar: { glue: scalarGlue, wasm: () => scalarBytes },
};
