// wasm/js/binaries.js — where the default entry finds its two binaries: next to the JS.
//
// The literal `new URL('…', import.meta.url)` form is the one pattern that Vite, webpack 5 and
// Parcel all recognise without configuration: each copies the file into its output and
// rewrites the URL. The package's bundled entry (wasm/dist/posenc.js, built by
// scripts/build-package.mjs) is this file with '../dist/' turned into './'. The 'posenc/inline'
// entry replaces this module with binaries-inline.js.
import simdGlue from '../dist/posenc-simd.js';
import scalarGlue from '../dist/posenc-scalar.js';

export const binaries = {
  simd: { glue: simdGlue, wasm: () => new URL('../dist/posenc-simd.wasm', import.meta.url) },
  scalar: { glue: scalarGlue, wasm: () => new URL('../dist/posenc-scalar.wasm', import.meta.url) },
};
