// wasm/js/loader.js — picks and instantiates one of the two binaries.
//
// The SIMD binary needs WebAssembly SIMD128, exception handling and bulk memory; other
// engines get the scalar one. We instantiate the .wasm ourselves (the glue's
// `instantiateWasm` hook) so the same code path works in Node (bytes read from the file next
// to this module: Emscripten 3.1.6 glue would try `fetch` on a file path there), in a browser
// (streaming fetch of the URL next to the module, same origin, works offline from a local
// server) and under bundlers, which see the static `new URL('…', import.meta.url)` and
// `import('…')` forms below and copy both files.

// The smallest module using a v128 instruction (i8x16.splat + i8x16.popcnt), from
// wasm-feature-detect; WebAssembly.validate is synchronous and compiles nothing.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0,
  253, 15, 253, 98, 11,
]);

// The smallest module using WebAssembly exception handling (try … catch_all), from
// wasm-feature-detect. The SIMD binary is built with -fwasm-exceptions (wasm/CMakeLists.txt),
// so it also needs this (Chrome 95, Firefox 100, Safari 15.2, Node 17); the scalar one
// keeps Emscripten's JS-based exceptions and runs on any engine with WebAssembly.
const EXCEPTIONS_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 8, 1, 6, 0, 6, 64, 25, 11, 11,
]);

// The smallest module using bulk memory (memory.copy), from wasm-feature-detect. The SIMD
// kernels stage large tensors through an L1 block with it (core/src/detail/rotary_kernels.hpp,
// rotate_token_staged). Every engine with SIMD128 has it (Chrome 75, Firefox 79, Safari 15);
// checked all the same, so that no engine is handed a binary it cannot compile.
const BULK_MEMORY_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1, 10, 14, 1, 12, 0,
  65, 0, 65, 0, 65, 0, 252, 10, 0, 0, 11,
]);

function validates(bytes) {
  try {
    return WebAssembly.validate(bytes);
  } catch {
    return false;
  }
}

/** True when this engine can run the SIMD binary: SIMD128, exception handling, bulk memory. */
export function simdSupported() {
  return validates(SIMD_PROBE) && validates(EXCEPTIONS_PROBE) && validates(BULK_MEMORY_PROBE);
}

// Literal specifiers on purpose: bundlers only rewrite static strings.
const flavours = {
  simd: {
    glue: () => import('../dist/posenc-simd.js'),
    wasm: () => new URL('../dist/posenc-simd.wasm', import.meta.url),
  },
  scalar: {
    glue: () => import('../dist/posenc-scalar.js'),
    wasm: () => new URL('../dist/posenc-scalar.wasm', import.meta.url),
  },
};

async function readFileBytes(url) {
  // Node ≥ 20.16 has process.getBuiltinModule; older Node falls back to a dynamic import
  // whose specifier is computed so that bundlers do not try to resolve it for browsers.
  const fs = globalThis.process?.getBuiltinModule?.('node:fs/promises') ??
    (await import(/* @vite-ignore */ ['node', 'fs/promises'].join(':')));
  return fs.readFile(url);
}

async function instantiate(source, imports) {
  if (source instanceof WebAssembly.Module) return WebAssembly.instantiate(source, imports);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return (await WebAssembly.instantiate(source, imports)).instance;
  }
  const url = new URL(source, import.meta.url);
  if (url.protocol === 'file:') {
    return (await WebAssembly.instantiate(await readFileBytes(url), imports)).instance;
  }
  const request = () => fetch(url, { credentials: 'same-origin' });
  if (WebAssembly.instantiateStreaming) {
    try {
      return (await WebAssembly.instantiateStreaming(request(), imports)).instance;
    } catch (e) {
      // A server without the application/wasm MIME type, or a failed request: fetch the
      // bytes afresh below (the streamed body is consumed), which also reports the status.
      if (!(e instanceof TypeError)) throw e;
    }
  }
  const res = await request();
  if (!res.ok) {
    // The usual cause: a bundler's dev server pre-bundled posenc away from its dist/ folder.
    throw new Error(`posenc: failed to fetch ${url} (HTTP ${res.status}); serve wasm/dist/ next to ` +
      "the package's JS, or pass createPosenc({ wasm }) (Vite dev: optimizeDeps.exclude: ['posenc'])");
  }
  return (await WebAssembly.instantiate(await res.arrayBuffer(), imports)).instance;
}

/**
 * Loads the Emscripten module. `simd`: true / false forces a binary, undefined picks.
 * `wasm`: optional URL / bytes / WebAssembly.Module replacing the bundled .wasm file
 * (it must be the binary of the chosen flavour).
 */
export async function loadModule({ simd, wasm } = {}) {
  const useSimd = simd ?? simdSupported();
  const flavour = flavours[useSimd ? 'simd' : 'scalar'];
  const { default: factory } = await flavour.glue();
  const source = wasm ?? flavour.wasm();
  // The glue offers no failure path for instantiateWasm, so a failed fetch/compile rejects
  // a promise of our own that races the factory's.
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  const ready = factory({
    instantiateWasm(imports, receiveInstance) {
      instantiate(source, imports).then((instance) => receiveInstance(instance), fail);
      return {}; // asynchronous instantiation
    },
  });
  const module = await Promise.race([ready, failed]);
  return { module, simd: useSimd };
}
