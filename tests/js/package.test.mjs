// The npm package as a user gets it: `npm pack`, installed into a temporary project and
// imported from there; its typings checked by tsc; the README's JS example run as written.
// (Bundlers: tests/bundlers; CommonJS, clean clone, git dependency: tests/packaging.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, pack, project, repoRoot, run, scratch } from '../packaging/tarball.mjs';

const dir = project(scratch('package'), 'consumer');

test('npm pack: the tarball holds the bundled entries, the binaries (package and trainer) and the typings, nothing else', () => {
  const expected = ['LICENSE', 'README.md', 'package.json', 'wasm/bin/posenc.mjs', 'wasm/dist/index.d.cts', 'wasm/dist/inline.cjs',
    'wasm/dist/inline.js', 'wasm/dist/posenc-scalar.wasm', 'wasm/dist/posenc-simd.wasm',
    'wasm/dist/posenc-train-scalar.wasm', 'wasm/dist/posenc-train-simd.wasm',
    'wasm/dist/posenc.classic.js', 'wasm/dist/posenc.js', 'wasm/dist/train-inline.cjs', 'wasm/dist/train-inline.js',
    'wasm/dist/train.classic.js', 'wasm/dist/train.d.cts', 'wasm/dist/train.js', 'wasm/index.d.ts', 'wasm/train.d.ts'];
  assert.deepEqual(pack().files, expected);
  // Every file the exports map names is in the tarball.
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const targets = (v) => (typeof v === 'string' ? [v.slice(2)] : Object.values(v).flatMap(targets));
  for (const t of [...targets(pkg.exports), pkg.main, pkg.module, pkg.types].map((t) => t.replace(/^\.\//, ''))) {
    assert.ok(expected.includes(t), `${t} is in the tarball`);
  }
});

test('installed from the tarball, `npx posenc vectors` writes the golden vectors of a config', () => {
  copyFileSync(join(repoRoot, 'tests/fixtures/hf-configs/llama-3.1-8b.json'), join(dir, 'config.json'));
  const out = JSON.parse(run(join(dir, 'node_modules', '.bin', 'posenc'), ['vectors', 'config.json', '--positions', '0,4095'], dir));
  assert.deepEqual([out.family, out.layers.length, out.encodings.e0.scaling.type], ['llama', 32, 'llama3']);
  assert.deepEqual(out.encodings.e0.cos[0].slice(0, 2), [1, 1]);
});

test('installed from the tarball into a fresh project, it imports and computes', () => {
  writeFileSync(join(dir, 'check.mjs'), `
    import { createPosenc } from 'posenc';
    const pe = await createPosenc();
    const scalar = await createPosenc({ simd: false });
    const rope = pe.rope({ headDim: 8, layout: 'interleaved' });
    const q = new Float32Array(8); q[2] = 1;
    const k = new Float32Array(8); k[3] = 1;
    rope.apply(q, { tokens: 1, positions: [2] });
    rope.apply(k, { tokens: 1, positions: [5] });
    console.log(JSON.stringify({
      simd: pe.simd, scalar: scalar.simd,
      theta: Array.from(pe.inverseFrequencies({ dim: 8 }).invFreq),
      pe1: Array.from(pe.sinusoidal({ dim: 8, positions: [1] })),
      score: q.reduce((s, v, i) => s + v * k[i], 0),
      resolved: import.meta.resolve('posenc'),
    }));`);
  const r = JSON.parse(run('node', ['check.mjs'], dir));
  assert.equal(r.simd, true);
  assert.equal(r.scalar, false);
  assert.ok(r.resolved.includes('/node_modules/posenc/'), r.resolved);
  assert.ok(Math.abs(r.theta[1] - 0.1) < 1e-16);
  assert.ok(Math.abs(r.pe1[0] - 0.8415) < 1e-4 && Math.abs(r.pe1[1] - 0.5403) < 1e-4);
  assert.ok(Math.abs(r.score + 0.295520) < 1e-6, `hand check ${r.score}`);
});

test('tsc --noEmit accepts the typed example against the installed typings', () => {
  copyFileSync(join(repoRoot, 'tests/js/types/example.ts'), join(dir, 'example.ts'));
  copyFileSync(join(repoRoot, 'tests/js/types/tsconfig.json'), join(dir, 'tsconfig.json'));
  try {
    run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], dir);
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
  // … and rejects a misuse (the check can fail).
  writeFileSync(join(dir, 'example.ts'), "import { createPosenc } from 'posenc';\nconst pe = await createPosenc();\npe.rope({ headDim: '64' });\n");
  assert.throws(() => run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], dir), (e) => /TS2322/.test(e.stdout));
});

test("the README's JS example runs as written and prints what the README says", () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const block = /<!-- js-example -->\s*```js\n([\s\S]*?)```\s*<!-- \/js-example -->/.exec(readme);
  assert.ok(block, 'README.md has a ```js block between <!-- js-example --> and <!-- /js-example -->');
  assert.ok(block[1].trim().split('\n').length <= 12, 'about ten lines');
  writeFileSync(join(dir, 'readme-example.mjs'), block[1]);
  const out = run('node', ['readme-example.mjs'], dir).trim();
  const printed = /<!-- js-output -->\s*```text\n([\s\S]*?)```/.exec(readme);
  assert.ok(printed, 'README.md shows the output in a ```text block after <!-- js-output -->');
  assert.equal(out, printed[1].trim());
});

test("README's size table states what a browser downloads on each path (within 3 %)", async () => {
  const { sizes } = await import('../../scripts/sizes.mjs');
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  for (const { files, requests, rawKiB, gzipKiB } of sizes()) {
    const row = readme.split('\n').find((l) => l.startsWith('| ') && files.every((f) => l.includes(`\`${f}\``)) &&
      (files.length > 1 || !l.includes(' + ')));
    assert.ok(row, `README has a size row for ${files.join(' + ')}`);
    const [, count, raw, gzip] = /\| (\d+) \| ([\d.]+) KiB \| ([\d.]+) KiB \|$/.exec(row) ?? [];
    assert.equal(Number(count), requests, row);
    const near = (stated, actual) => Math.abs(stated - actual) <= 0.03 * actual;
    assert.ok(near(Number(raw), rawKiB) && near(Number(gzip), gzipKiB),
      `${row}\n  measured ${rawKiB} KiB raw, ${gzipKiB} KiB gzip: update README (node scripts/sizes.mjs)`);
  }
});
