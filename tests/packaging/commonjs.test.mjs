// CommonJS consumers of the packed package: require('posenc') and require('posenc/inline')
// (and the trainer's require('posenc/train')) load the CommonJS build (both binaries embedded), which needs no require(esm), so it works on
// every Node that `engines` admits; a .cts file type-checks under TypeScript's node16 and
// nodenext module modes (the `require` condition has its own .d.cts typings); ESM in Node gets
// the inline build through the `node` condition.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bin, project, run, scratch } from './tarball.mjs';

const dir = project(scratch('commonjs'), 'cjs-consumer', { type: 'commonjs' });

const CHECK = `
  const rope = pe.rope({ headDim: 8, layout: 'interleaved' });
  const q = new Float32Array(8); q[2] = 1;
  const k = new Float32Array(8); k[3] = 1;
  rope.apply(q, { tokens: 1, positions: [2] });
  rope.apply(k, { tokens: 1, positions: [5] });
  return { simd: pe.simd, pe1: pe.sinusoidal({ dim: 8, positions: [1] })[0], score: q.reduce((s, v, i) => s + v * k[i], 0) };`;

// The trainer's first two steps of a tiny model: finite losses near ln(vocab) before training.
const TRAIN = `
  const t = pt.train({ task: 'recall', encoding: 'rope-half', symbols: 4, distance: 2, length: 8, evalLengths: [8],
    steps: 2, batch: 2, evalTokens: 16 });
  const loss = Array.from(t.step(2).loss);
  t.dispose();
  return { simd: pt.simd, loss };`;

function assertTrained(r, simd = true) {
  assert.equal(r.simd, simd);
  assert.ok(r.loss.length === 2 && r.loss.every((l) => l > 0.5 && l < 3), String(r.loss));
}

function assertNumbers(r, simd = true) {
  assert.equal(r.simd, simd);
  assert.ok(Math.abs(r.pe1 - 0.8415) < 1e-4, String(r.pe1));
  assert.ok(Math.abs(r.score + 0.295520) < 1e-6, String(r.score));
}

test("require('posenc') and require('posenc/inline') work in a CommonJS program", () => {
  writeFileSync(join(dir, 'main.js'), `
    const { createPosenc } = require('posenc');
    const inline = require('posenc/inline');
    const numbers = (pe) => {${CHECK} };
    const { createTrainer } = require('posenc/train');
    const trained = (pt) => {${TRAIN} };
    Promise.all([createPosenc(), inline.createPosenc({ simd: false }), require('posenc').default(),
      createTrainer(), require('posenc/train/inline').createTrainer({ simd: false })])
      .then(([a, b, c, t, u]) => console.log(JSON.stringify({
        resolved: require.resolve('posenc'), trainer: require.resolve('posenc/train'),
        a: numbers(a), b: numbers(b), c: numbers(c), t: trained(t), u: trained(u) })));`);
  const out = run('node', ['main.js'], dir);
  const r = JSON.parse(out);
  assert.match(r.resolved, /node_modules[\\/]posenc[\\/]wasm[\\/]dist[\\/]inline\.cjs$/);
  assert.match(r.trainer, /node_modules[\\/]posenc[\\/]wasm[\\/]dist[\\/]train-inline\.cjs$/);
  assertNumbers(r.a);
  assertNumbers(r.b, false);
  assertNumbers(r.c);
  assertTrained(r.t);
  assertTrained(r.u, false);
});

test('the CommonJS build uses nothing newer than the engines floor: ES2022 syntax, no require(esm)', () => {
  const pkg = JSON.parse(readFileSync(join(dir, 'node_modules/posenc/package.json'), 'utf8'));
  assert.equal(pkg.engines.node, '>=18');
  // Node 18 parses ES2022, which the build's targets keep (class fields and private members
  // native; bundles.test.mjs checks that); acorn: Debian's, a dependency of emscripten.
  const acorn = createRequire(import.meta.url)('/usr/share/nodejs/acorn');
  for (const file of ['inline.cjs', 'train-inline.cjs']) {
    const cjs = readFileSync(join(dir, `node_modules/posenc/wasm/dist/${file}`), 'utf8');
    assert.doesNotMatch(cjs, /\brequire\(/, `${file} requires nothing (no ESM, no Node module)`);
    assert.doesNotMatch(cjs, /import\.meta|\bimport\(/, file);
    acorn.parse(cjs, { ecmaVersion: 2022, sourceType: 'script' });
  }
});

test('ESM in Node resolves the inline build through the node condition and reads no file', () => {
  writeFileSync(join(dir, 'esm.mjs'), `
    import { createPosenc } from 'posenc';
    import { createTrainer } from 'posenc/train';
    const pe = await createPosenc();
    const numbers = (pe) => {${CHECK} };
    const trained = (pt) => {${TRAIN} };
    console.log(JSON.stringify({ resolved: import.meta.resolve('posenc'), trainer: import.meta.resolve('posenc/train'),
      n: numbers(pe), t: trained(await createTrainer()) }));`);
  const r = JSON.parse(run('node', ['esm.mjs'], dir));
  assert.match(r.resolved, /\/node_modules\/posenc\/wasm\/dist\/inline\.js$/);
  assert.match(r.trainer, /\/node_modules\/posenc\/wasm\/dist\/train-inline\.js$/);
  assertNumbers(r.n);
  assertTrained(r.t);
});

for (const mode of ['node16', 'nodenext']) {
  test(`a .cts consumer type-checks under module ${mode}, and a misuse is an error`, () => {
    const tsconfig = { compilerOptions: { module: mode, moduleResolution: mode, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['es2022', 'dom'] }, files: ['consumer.cts'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    writeFileSync(join(dir, 'consumer.cts'), `
      import { createPosenc, type Posenc } from 'posenc';
      import * as inline from 'posenc/inline';
      import { createTrainer, type Trainer } from 'posenc/train';
      async function main(): Promise<number> {
        const pe: Posenc = await createPosenc({ locateWasm: (flavour) => \`/static/posenc-\${flavour}.wasm\` });
        const other: Posenc = await inline.createPosenc();
        const t: Trainer = (await createTrainer({ simd: false })).train({ encoding: 'alibi' });
        return pe.sinusoidal({ dim: 8, positions: [1] })[0] + other.wavelengths({ dim: 2 })[0] + t.step(1).loss[0];
      }
      main();`);
    try {
      run(bin('tsc'), ['-p', 'tsconfig.json'], dir);
    } catch (e) {
      assert.fail(`tsc (${mode}) failed:\n${e.stdout}${e.stderr}`);
    }
    writeFileSync(join(dir, 'consumer.cts'), "import { createPosenc } from 'posenc';\ncreatePosenc({ locateWasm: 42 });\n");
    assert.throws(() => run(bin('tsc'), ['-p', 'tsconfig.json'], dir), (e) => /TS2322/.test(e.stdout));
  });
}
