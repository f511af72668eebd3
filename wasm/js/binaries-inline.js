// wasm/js/binaries-inline.js — the 'posenc/inline' entry's binaries, embedded in the JS.
//
// Only a build input: scripts/build-package.mjs bundles the package with this module in place
// of binaries.js and esbuild's `binary` loader turns each .wasm import into a Uint8Array
// decoded from base64 at load time. Nothing is located or fetched, so the entry works in any
// bundle format (iife and cjs included, where import.meta.url is empty), in a single-file Node
// bundle and as a classic-worker script.
import simdGlue from '../dist/posenc-simd.js';
import scalarGlue from '../dist/posenc-scalar.js';
import simdBytes from '../dist/posenc-simd.wasm';
import scalarBytes from '../dist/posenc-scalar.wasm';

export const binaries = {
  simd: { glue: simdGlue, wasm: () => simdBytes },
  scalar: { glue: scalarGlue, wasm: () => scalarBytes },
};
