// Bundles the package's JS entries into wasm/dist/ (after scripts/build-wasm.sh has linked
// both binaries there), each one module that a browser downloads in one request:
//   posenc.js          default entry (ESM): the wrapper + both glues; finds its .wasm files
//                      next to itself (wasm/js/binaries.js)
//   inline.js          'posenc/inline' (ESM): the same with both binaries embedded
//   inline.cjs         the inline build as CommonJS: require('posenc') and require('posenc/inline')
//   posenc.classic.js  'posenc/classic': the inline build as a classic script defining the
//                      global `posenc` (importScripts in a classic worker, <script> without type)
//   index.d.cts        the typings for require() (TypeScript reads .d.cts as CommonJS)
// Usage: node scripts/build-package.mjs
import { build } from 'esbuild';
import { copyFileSync, readFileSync, renameSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dist = `${repo}wasm/dist/`;
// The oldest engines posenc runs on (Object.hasOwn, class private fields): esbuild keeps every
// class feature they all have native (lowered, a private field is a WeakMap lookup on every
// access, on the path of every call).
const target = ['node18', 'chrome93', 'firefox92', 'safari15.4'];

// The Emscripten glue reads import.meta.url only for a file-location fallback the loader never
// uses (it compiles the .wasm itself). Left in, it makes webpack, Vite and Parcel emit the .wasm
// a second time and esbuild warn in iife/cjs output; a constant base keeps the code valid.
const glueWithoutImportMeta = {
  name: 'glue-without-import-meta',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]posenc-(simd|scalar)\.js$/ }, ({ path }) => ({
      contents: readFileSync(path, 'utf8').replaceAll('import.meta.url', '"file:///"'),
      loader: 'js',
    }));
  },
};

// The bundle sits in wasm/dist/ beside the .wasm files: binaries.js's new URL('../dist/…') is './…'.
const locateBesideBundle = {
  name: 'locate-beside-bundle',
  setup(b) {
    b.onLoad({ filter: /[\\/]wasm[\\/]js[\\/]binaries\.js$/ }, ({ path }) => ({
      contents: readFileSync(path, 'utf8').replaceAll("new URL('../dist/", "new URL('./"),
      loader: 'js',
    }));
  },
};

const embedBinaries = {
  name: 'embed-binaries',
  setup(b) {
    b.onResolve({ filter: /^\.\/binaries\.js$/ }, () => ({ path: `${repo}wasm/js/binaries-inline.js` }));
  },
};

const common = {
  entryPoints: [`${repo}wasm/index.js`],
  bundle: true,
  minify: true,
  target,
  legalComments: 'none',
  logLevel: 'warning',
};

// Written beside and renamed into place: a test or page reading wasm/dist/ never sees half a file.
async function bundle({ outfile, ...options }) {
  const temp = outfile.replace(/[^/]+$/, '.$&.tmp');
  const result = await build({ ...common, ...options, outfile: temp });
  if (result.warnings.length) throw new Error(`esbuild warned building ${outfile}`);
  renameSync(temp, outfile);
}

await bundle({
  outfile: `${dist}posenc.js`, format: 'esm', platform: 'neutral',
  plugins: [glueWithoutImportMeta, locateBesideBundle],
});
const inline = { plugins: [glueWithoutImportMeta, embedBinaries], loader: { '.wasm': 'binary' }, platform: 'neutral' };
await bundle({ ...inline, outfile: `${dist}inline.js`, format: 'esm' });
await bundle({ ...inline, outfile: `${dist}inline.cjs`, format: 'cjs' });
await bundle({ ...inline, outfile: `${dist}posenc.classic.js`, format: 'iife', globalName: 'posenc' });
copyFileSync(`${repo}wasm/index.d.ts`, `${dist}.index.d.cts.tmp`);
renameSync(`${dist}.index.d.cts.tmp`, `${dist}index.d.cts`);
