// The SIMD binary really runs RoPE on f32x4 vectors; the scalar binary holds no SIMD at all.
// wasm-dis (binaryen) prints the code; the symbol map written next to each binary at link
// time (--emit-symbol-map, not shipped) tells which function is which.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { repoRoot } from './support.mjs';

const dist = `${repoRoot}wasm/dist/`;

// { wat functions by name: body text } for one binary.
function functionsOf(flavour) {
  const wat = execFileSync('wasm-dis', [`${dist}posenc-${flavour}.wasm`], { maxBuffer: 1 << 28 }).toString();
  const importedFunctions = (wat.match(/^ \(import .*\(func /gm) ?? []).length;
  const names = new Map();
  for (const line of readFileSync(`${dist}posenc-${flavour}.js.symbols`, 'utf8').split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) names.set(Number(line.slice(0, at)), line.slice(at + 1).replace(/\\([0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))));
  }
  // binaryen numbers the defined functions $0, $1, … after the imports.
  const bodies = new Map();
  const parts = wat.split(/^ \(func \$(\d+) /m);
  for (let i = 1; i < parts.length; i += 2) {
    bodies.set(names.get(Number(parts[i]) + importedFunctions) ?? `$${parts[i]}`, parts[i + 1]);
  }
  return { wat, bodies };
}

const count = (text, op) => text.split(op).length - 1;

test('SIMD binary: the RoPE apply kernel multiplies and adds f32x4 vectors', () => {
  const { bodies } = functionsOf('simd');
  const rope = [...bodies].filter(([name]) =>
    /posenc::.*(rotate_half|rotate_interleaved|rotate_token|apply_one|apply_qk|rope_apply)/.test(name));
  assert.ok(rope.length > 0, 'found the RoPE functions by name');
  const mul = rope.reduce((n, [, body]) => n + count(body, 'f32x4.mul'), 0);
  const addSub = rope.reduce((n, [, body]) => n + count(body, 'f32x4.add') + count(body, 'f32x4.sub'), 0);
  assert.ok(mul >= 4 && addSub >= 2, `f32x4.mul ×${mul}, f32x4.add/sub ×${addSub} in ${rope.map(([n]) => n.split('(')[0]).join(', ')}`);
  // … and the sinusoidal/cos-sin kernels use vectors too (xsimd's sse2 path via SIMD128).
  const anyV128 = [...bodies].filter(([name]) => /posenc::detail::/.test(name) && /f64x2|f32x4/.test(bodies.get(name)));
  assert.ok(anyV128.length > 0, 'posenc::detail kernels hold SIMD code');
});

test('scalar binary: no v128 instruction anywhere', () => {
  const { wat } = functionsOf('scalar');
  assert.equal(count(wat, 'v128.'), 0);
  assert.equal(count(wat, 'f32x4.'), 0);
  assert.equal(count(wat, 'f64x2.'), 0);
});

test('neither binary uses bulk memory, so the loader does not ask the engine for it', () => {
  for (const flavour of ['simd', 'scalar']) {
    const { wat } = functionsOf(flavour);
    assert.equal(count(wat, 'memory.copy') + count(wat, 'memory.fill'), 0, `${flavour}: memory.copy / memory.fill found`);
  }
});
