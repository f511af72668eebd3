// Prints what a browser downloads on each path of the package, raw and gzip -9, as README's
// size table shows it. Usage: node scripts/sizes.mjs [--json]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../wasm/dist/', import.meta.url));
export const PATHS = {
  'default entry, SIMD': ['posenc.js', 'posenc-simd.wasm'],
  'default entry, scalar': ['posenc.js', 'posenc-scalar.wasm'],
  "'posenc/inline' (both binaries embedded)": ['inline.js'],
  "'posenc/classic' (classic script, both embedded)": ['posenc.classic.js'],
};

export function sizes() {
  const kib = (n) => Math.round((n / 1024) * 10) / 10;
  return Object.entries(PATHS).map(([path, files]) => {
    const bytes = files.map((f) => readFileSync(dist + f));
    const raw = bytes.reduce((s, b) => s + b.length, 0);
    const gzip = bytes.reduce((s, b) => s + gzipSync(b, { level: 9 }).length, 0);
    return { path, files, requests: files.length, rawKiB: kib(raw), gzipKiB: kib(gzip) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = sizes();
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows, null, 1));
  else for (const r of rows) {
    console.log(`${r.path.padEnd(50)} ${r.files.join(' + ').padEnd(30)} ${String(r.rawKiB).padStart(7)} KiB raw ${String(r.gzipKiB).padStart(6)} KiB gzip`);
  }
}
