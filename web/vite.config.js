// Vite 7 build of the demo page: web/ → web/dist/, a folder any static host can serve.
// `posenc` resolves to the repo's own package entry, exactly the module a user imports,
// so the page exercises the real package (and its .wasm, emitted as a hashed asset).
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',                    // relative URLs: the folder works under any path
  publicDir: false,
  resolve: {
    alias: [
      { find: /^posenc$/, replacement: `${repo}wasm/index.js` },
      { find: /^posenc\/train$/, replacement: `${repo}wasm/train.js` },
      { find: /^@bench\//, replacement: `${repo}bench/` },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Never inline assets as data: URLs: the .wasm must be fetched from 'self' under the CSP,
    // and KaTeX fonts stay cacheable files.
    assetsInlineLimit: 0,
    // The modulepreload polyfill is an inline-free module, but we target engines that have it.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1024,
  },
  server: { fs: { allow: [repo] } },
});
