// The npm package as a user gets it: `npm pack`, installed into a temporary project and
// imported from there; its typings checked by tsc; a Vite build of a page that imports it;
// the README's JS example run as written.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './support.mjs';

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const bin = (name) => join(repoRoot, 'node_modules', '.bin', name);

const project = mkdtempSync(join(tmpdir(), 'posenc-package-'));
test.after(() => rmSync(project, { recursive: true, force: true }));

let tarball;
test('npm pack: the tarball holds only what a user needs', () => {
  const out = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', project], repoRoot));
  tarball = join(project, out[0].filename);
  const files = out[0].files.map((f) => f.path).sort();
  const expected = ['package.json', 'wasm/index.js', 'wasm/index.d.ts',
    'wasm/dist/posenc-simd.js', 'wasm/dist/posenc-simd.wasm', 'wasm/dist/posenc-scalar.js', 'wasm/dist/posenc-scalar.wasm'];
  for (const f of expected) assert.ok(files.includes(f), `has ${f}`);
  for (const f of files) {
    assert.match(f, /^(package\.json|README\.md|LICENSE(\.\w+)?|wasm\/(index\.js|index\.d\.ts|js\/\w+\.js|dist\/posenc-(simd|scalar)\.(js|wasm)))$/, `unexpected file ${f}`);
  }
});

test('installed from the tarball into a fresh project, it imports and computes', () => {
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], project);
  writeFileSync(join(project, 'check.mjs'), `
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
  const r = JSON.parse(run('node', ['check.mjs'], project));
  assert.equal(r.simd, true);
  assert.equal(r.scalar, false);
  assert.ok(r.resolved.includes('/node_modules/posenc/'), r.resolved);
  assert.ok(Math.abs(r.theta[1] - 0.1) < 1e-16);
  assert.ok(Math.abs(r.pe1[0] - 0.8415) < 1e-4 && Math.abs(r.pe1[1] - 0.5403) < 1e-4);
  assert.ok(Math.abs(r.score + 0.295520) < 1e-6, `hand check ${r.score}`);
});

test('tsc --noEmit accepts the typed example against the installed typings', () => {
  copyFileSync(join(repoRoot, 'tests/js/types/example.ts'), join(project, 'example.ts'));
  copyFileSync(join(repoRoot, 'tests/js/types/tsconfig.json'), join(project, 'tsconfig.json'));
  try {
    run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], project);
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
  // … and rejects a misuse (the check can fail).
  writeFileSync(join(project, 'example.ts'), "import { createPosenc } from 'posenc';\nconst pe = await createPosenc();\npe.rope({ headDim: '64' });\n");
  assert.throws(() => run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], project), (e) => /TS2322/.test(e.stdout));
});

test('Vite builds a page that imports the package, emitting both .wasm files', () => {
  const site = join(project, 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'index.html'), '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>');
  writeFileSync(join(site, 'main.js'), "import { createPosenc } from 'posenc';\nconst pe = await createPosenc();\ndocument.body.textContent = String(pe.sinusoidal({ dim: 8, positions: [1] })[0]);\n");
  run(bin('vite'), ['build', site, '--outDir', join(site, 'dist'), '--logLevel', 'warn', '--emptyOutDir'], project);
  const assets = readdirSync(join(site, 'dist', 'assets'));
  assert.ok(assets.some((f) => /^posenc-simd-.*\.wasm$/.test(f)), assets.join(', '));
  assert.ok(assets.some((f) => /^posenc-scalar-.*\.wasm$/.test(f)), assets.join(', '));
  const js = assets.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(site, 'dist', 'assets', f), 'utf8')).join('\n');
  assert.ok(!/\bnew Function\b|\beval\(/.test(js), 'no eval in the bundle (CSP without unsafe-eval)');
});

test("the README's JS example runs as written", () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const block = /<!-- js-example -->\s*```js\n([\s\S]*?)```\s*<!-- \/js-example -->/.exec(readme);
  assert.ok(block, 'README.md has a ```js block between <!-- js-example --> and <!-- /js-example -->');
  assert.ok(block[1].trim().split('\n').length <= 12, 'about ten lines');
  writeFileSync(join(project, 'readme-example.mjs'), block[1]);
  const out = run('node', ['readme-example.mjs'], project);
  assert.ok(out.trim().length > 0, 'prints something');
  assert.doesNotMatch(out, /NaN|undefined/);
});
