// Bundles the package's JS entries into wasm/dist/ (after scripts/build-wasm.sh has linked
// both binaries there), each one module that a browser downloads in one request:
//   posenc.js          default entry (ESM): the wrapper + both glues; finds its .wasm files
//                      next to itself (wasm/js/binaries.js)
//   inline.js          'posenc/inline' (ESM): the same with both binaries embedded
//   inline.cjs         the inline build as CommonJS: require('posenc') and require('posenc/inline')
//   posenc.classic.js  'posenc/classic': the inline build as a classic script defining the
//                      global `posenc` (importScripts in a classic worker, <script> without type)
//   index.d.cts        the typings for require() (TypeScript reads .d.cts as CommonJS)
// and the same four for 'posenc/train' (wasm/train.js, the trainer with its own two binaries):
//   train.js, train-inline.js, train-inline.cjs, train.classic.js (global `posencTrain`),
//   train.d.cts
// Usage: node scripts/build-package.mjs
import { build } from 'esbuild';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
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
    b.onLoad({ filter: /[\\/]dist[\\/]posenc-(train-)?(simd|scalar)\.js$/ }, ({ path }) => ({
      contents: readFileSync(path, 'utf8').replaceAll('import.meta.url', '"file:///"'),
      loader: 'js',
    }));
  },
};

// The bundle sits in wasm/dist/ beside the .wasm files: binaries.js's new URL('../dist/…') is './…'.
const locateBesideBundle = {
  name: 'locate-beside-bundle',
  setup(b) {
    b.onLoad({ filter: /[\\/]wasm[\\/]js[\\/](train-)?binaries\.js$/ }, ({ path }) => ({
      contents: readFileSync(path, 'utf8').replaceAll("new URL('../dist/", "new URL('./"),
      loader: 'js',
    }));
  },
};

const embedBinaries = {
  name: 'embed-binaries',
  setup(b) {
    b.onResolve({ filter: /^\.\/js\/(train-)?binaries\.js$/ }, ({ path }) => ({ path: `${repo}wasm/${path.slice(2).replace(/\.js$/, '-inline.js')}` }));
  },
};

const common = {
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

// One entry's four bundles and its CommonJS typings: `located` is the ESM that finds its .wasm
// files beside itself, `name` the prefix of the inline ones.
async function bundleEntry({ entry, located, name, globalName, typings }) {
  const entryPoints = [`${repo}wasm/${entry}.js`];
  await bundle({
    entryPoints, outfile: `${dist}${located}.js`, format: 'esm', platform: 'neutral',
    plugins: [glueWithoutImportMeta, locateBesideBundle],
  });
  const inline = { entryPoints, plugins: [glueWithoutImportMeta, embedBinaries], loader: { '.wasm': 'binary' }, platform: 'neutral' };
  await bundle({ ...inline, outfile: `${dist}${name}inline.js`, format: 'esm' });
  await bundle({ ...inline, outfile: `${dist}${name}inline.cjs`, format: 'cjs' });
  await bundle({ ...inline, outfile: `${dist}${located}.classic.js`, format: 'iife', globalName });
  // The .d.cts sits in dist/ beside index.d.cts, which its type imports of './index.js' mean.
  const types = readFileSync(`${repo}wasm/${typings}.d.ts`, 'utf8').replaceAll("from './index.js'", "from './index.cjs'");
  writeFileSync(`${dist}.${typings}.d.cts.tmp`, types);
  renameSync(`${dist}.${typings}.d.cts.tmp`, `${dist}${typings}.d.cts`);
}

await bundleEntry({ entry: 'index', located: 'posenc', name: '', globalName: 'posenc', typings: 'index' });
await bundleEntry({ entry: 'train', located: 'train', name: 'train-', globalName: 'posencTrain', typings: 'train' });
