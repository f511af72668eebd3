// The package's bundles keep the class features of the sources native: private fields and
// methods as `#name` (lowered, each becomes a WeakMap lookup on the path of every call) and
// no class static block, which engines posenc supports without WebAssembly SIMD (Safari
// 15.4–16.3) cannot parse. scripts/build-package.mjs sets the esbuild targets this checks.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = (f) => fileURLToPath(new URL(`../../wasm/dist/${f}`, import.meta.url));
const BUNDLES = ['posenc.js', 'inline.js', 'inline.cjs', 'posenc.classic.js',
  'train.js', 'train-inline.js', 'train-inline.cjs', 'train.classic.js'];

for (const file of BUNDLES) {
  test(`${file}: private class members stay native, no static block`, () => {
    const code = readFileSync(dist(file), 'utf8');
    assert.doesNotMatch(code, /WeakMap|WeakSet/, 'private members lowered to WeakMap / WeakSet');
    assert.match(code, /this\.#[A-Za-z_$]/, 'no native private member left');
    assert.doesNotMatch(code, /static\s*\{/, 'a class static block');
  });
}
