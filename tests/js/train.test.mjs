// pe.train of 'posenc/train' (wasm/train.js, wasm/js/train.js → posenc::protocol_trainer) on
// both trainer binaries: the native build's recorded curves reproduce, a seed gives the same
// run twice, evaluation and attention shapes, and bad or hostile input refused by name with
// the module still working. The trainer is its own entry: the package's binaries hold none
// of it, and each entry refuses the other's binary by name.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createTrainer } from '../../wasm/train.js';
import { createPosenc } from '../../wasm/index.js';
import { repoRoot } from './support.mjs';

const [simd, scalar] = await Promise.all([createTrainer({ simd: true }), createTrainer({ simd: false })]);
const dist = `${repoRoot}wasm/dist/`;

test("the package's entry holds no trainer: pe.train says where it is, its binaries have no trainer code", async () => {
  const pe = await createPosenc();
  assert.throws(() => pe.train({ encoding: 'none' }), (e) => e instanceof TypeError &&
    /import \{ createTrainer \} from 'posenc\/train'/.test(e.message));
  assert.equal(pe.rope({ headDim: 8 }).headDim, 8); // still working
  for (const flavour of ['simd', 'scalar']) {
    const names = readFileSync(`${dist}posenc-${flavour}.js.symbols`, 'utf8');
    assert.doesNotMatch(names, /protocol_trainer|transformer/, `posenc-${flavour}.wasm`);
    assert.match(readFileSync(`${dist}posenc-train-${flavour}.js.symbols`, 'utf8'), /protocol_trainer/);
  }
});

test("each entry refuses the other's binary by name; a trainer binary's flavour is read from it", async () => {
  const trainScalar = readFileSync(`${dist}posenc-train-scalar.wasm`);
  const pt = await createTrainer({ wasm: trainScalar });
  assert.equal(pt.simd, false);
  assert.equal(pt.train({ ...small, encoding: 'none' }).step(1).loss.length, 1);
  await assert.rejects(createTrainer({ wasm: readFileSync(`${dist}posenc-simd.wasm`) }), (e) =>
    /should be posenc's train-simd binary \(posenc-train-simd\.wasm\) but is posenc's simd binary \(posenc-simd\.wasm\); that one is 'posenc' \(createPosenc\)'s/.test(e.message));
  await assert.rejects(createPosenc({ wasm: trainScalar }), (e) =>
    /should be posenc's simd binary \(posenc-simd\.wasm\) but is posenc's train-scalar binary \(posenc-train-scalar\.wasm\); that one is 'posenc\/train' \(createTrainer\)'s/.test(e.message));
  await assert.rejects(createTrainer({ wasm: new Uint8Array([60, 33, 100, 111, 99, 116, 121, 112]) }), (e) =>
    /import 'posenc\/train\/inline' \(both binaries embedded\), or pass createTrainer\(\{ locateWasm/.test(e.message));
  await assert.rejects(createTrainer({ simd: 1 }), TypeError);
});
// Recorded from the native build (tests/core/test_train_protocol.cpp checks it there too).
const recorded = JSON.parse(readFileSync(`${repoRoot}tests/fixtures/train-curves.json`, 'utf8'));
// Measured on x86-64: the SIMD binary equals the native curves bit for bit (the same 4-lane
// sums); the scalar binary sums in another order, and 100 Adam steps amplify that to at most
// 1.8e−3 in loss (learned, t5) and one more or fewer correct answer.
const TOL = { simd: 1e-6, scalar: 5e-3 };
const CORRECT_TOL = { simd: 0, scalar: 2 };

const small = { task: 'recall', symbols: 6, distance: 3, length: 16, evalLengths: [16, 32], steps: 40, batch: 4,
  warmupSteps: 5, evalTokens: 64 };

for (const [name, pe] of [['simd', simd], ['scalar', scalar]]) {
  test(`${name}: the native build's recorded curves reproduce within ${TOL[name]}`, () => {
    for (const [encoding, curve] of Object.entries(recorded.curves)) {
      const t = pe.train({ ...recorded.options, encoding });
      const { loss } = t.step(recorded.options.steps);
      for (const [step, value] of curve.loss) {
        assert.ok(Math.abs(loss[step] - value) <= TOL[name], `${encoding} step ${step}: ${loss[step]} vs native ${value}`);
      }
      const scores = t.evaluate();
      curve.eval.forEach((e, i) => {
        assert.equal(scores[i].length, e.length);
        assert.equal(scores[i].scored, e.scored);
        assert.ok(Math.abs(scores[i].loss - e.loss) <= TOL[name], `${encoding} eval ${e.length}`);
        assert.ok(Math.abs(scores[i].correct - e.correct) <= CORRECT_TOL[name], `${encoding} eval ${e.length} correct`);
        assert.equal(scores[i].accuracy, scores[i].correct / scores[i].scored);
      });
      t.dispose();
    }
  });

  test(`${name}: a seed gives the same run in any step grouping; another seed another run`, () => {
    const a = pe.train({ ...small, encoding: 'rope-interleaved', seed: 3 });
    const b = pe.train({ ...small, encoding: 'rope-interleaved', seed: 3 });
    const c = pe.train({ ...small, encoding: 'rope-interleaved', seed: 4 });
    const la = a.step(40).loss;
    const lb = [...b.step(1).loss, ...b.step(0).loss, ...b.step(13).loss, ...b.step(26).loss];
    assert.deepEqual(Array.from(la), lb);
    assert.notDeepEqual(Array.from(c.step(40).loss), lb);
    assert.deepEqual(a.evaluate(), b.evaluate());
    assert.equal(a.stepsDone, 40);
    assert.throws(() => a.step(), (e) => e instanceof RangeError && /count must be at most the 0 steps left of 40/.test(e.message));
    for (const t of [a, b, c]) t.dispose();
  });

  test(`${name}: loss falls, evaluation scores each length, PI/YaRN change only lengths past L`, () => {
    const t = pe.train({ ...small, steps: 100, encoding: 'rope-half', seed: 7 });
    assert.equal(t.vocab, 6);
    assert.equal(t.maxLength, 32);
    assert.ok(t.parameters > 0 && t.memoryBytes > 16 * t.parameters);
    const { loss, accuracy } = t.step(100);
    const mean = (v, from, to) => v.slice(from, to).reduce((x, y) => x + y, 0) / (to - from);
    assert.ok(mean(loss, 90, 100) < mean(loss, 0, 10) - 0.5, `${mean(loss, 0, 10)} → ${mean(loss, 90, 100)}`);
    assert.ok(accuracy.every((x) => x >= 0 && x <= 1));
    const plain = t.evaluate({ lengths: [16, 32] });
    for (const extension of ['pi', 'yarn']) {
      const ext = t.evaluate({ extension });
      assert.equal(ext[0].loss, plain[0].loss);
      assert.notEqual(ext[1].loss, plain[1].loss);
    }
    t.dispose();
  });

  test(`${name}: attention maps are causal distributions, [layers][heads][T][T]`, () => {
    const t = pe.train({ ...small, encoding: 'alibi', layers: 2, heads: 2 });
    t.step(5);
    const input = [0, 1, 2, 3, 4, 5, 0, 1, 2];
    const a = t.attention({ tokens: input });
    assert.deepEqual([a.layers, a.heads, a.length, a.weights.length], [2, 2, 9, 2 * 2 * 81]);
    for (let m = 0; m < 4; m++) {
      for (let i = 0; i < 9; i++) {
        let sum = 0;
        for (let j = 0; j < 9; j++) {
          const w = a.weights[m * 81 + i * 9 + j];
          if (j > i) assert.equal(w, 0);
          sum += w;
        }
        assert.ok(Math.abs(sum - 1) < 1e-5, String(sum));
      }
    }
    // The untrained model of the same seed differs from the trained one.
    const fresh = pe.train({ ...small, encoding: 'alibi', layers: 2, heads: 2 });
    assert.notDeepEqual(Array.from(fresh.attention({ tokens: Int32Array.from(input) }).weights), Array.from(a.weights));
    t.dispose();
    fresh.dispose();
  });

  test(`${name}: the text task trains on UTF-8 bytes and maps typed text through its alphabet`, () => {
    const text = 'the cat sat on the mat; 고양이가 매트 위에 앉았다. '.repeat(4);
    const t = pe.train({ task: 'text', text, encoding: 'learned', length: 12, evalLengths: [12, 24], steps: 3 });
    assert.equal(t.alphabet.length, t.vocab);
    assert.equal(t.step(3).loss.length, 3);
    assert.equal(t.attention({ text: 'the mat' }).length, 7);
    assert.equal(t.attention({ text: '고' }).length, 3); // three UTF-8 bytes
    assert.throws(() => t.attention({ text: 'dog' }), (e) => e instanceof RangeError && /byte 100 at 0/.test(e.message));
    t.dispose();
  });

  test(`${name}: bad options refused by name, nothing made, the module keeps working`, () => {
    const before = pe.memoryStats().heapInUse;
    const bad = [
      [{}, TypeError, /needs encoding/],
      [{ encoding: 'rope' }, RangeError, /encoding must be/],
      [{ encoding: 'none', task: 'sort' }, RangeError, /task must be/],
      [{ encoding: 'none', dim: 15 }, RangeError, /dim must be a multiple of heads/],
      [{ encoding: 'none', dim: 16.5 }, RangeError, /dim must be an integer/],
      [{ encoding: 'none', length: 3 }, RangeError, /length must be in \[4, 8192\], got 3/],
      [{ encoding: 'none', evalLengths: [64, 9000] }, RangeError, /evalLengths/],
      [{ encoding: 'none', evalLengths: [] }, RangeError, /evalLengths must hold at least one/],
      [{ encoding: 'none', evalLengths: new Int32Array(2) }, TypeError, /evalLengths must be an array/],
      [{ encoding: 'none', steps: 0 }, RangeError, /steps must be in \[1, 1000000\]/],
      [{ encoding: 'none', learningRate: -1 }, RangeError, /learningRate/],
      [{ encoding: 'none', learningRate: '0.1' }, TypeError, /learningRate must be a number/],
      [{ encoding: 'none', seed: -1 }, RangeError, /seed/],
      [{ encoding: 'none', text: 'abc' }, TypeError, /text only with task 'text'/],
      [{ encoding: 'none', task: 'text' }, TypeError, /needs text/],
      [{ encoding: 'none', task: 'text', text: 'aaaa' }, RangeError, /text must hold/],
      [{ encoding: 'none', symbol: 4 }, TypeError, /unknown option 'symbol'/],
      [{ encoding: 'rope-half', heads: 4, dim: 12 }, RangeError, /dim/],
    ];
    for (const [opts, type, pattern] of bad) {
      assert.throws(() => pe.train({ ...small, evalLengths: undefined, length: undefined, ...opts }), (e) => e instanceof type && pattern.test(e.message),
        JSON.stringify(opts));
    }
    assert.throws(() => pe.train(null), TypeError);
    assert.equal(pe.memoryStats().heapInUse, before);
    const t = pe.train({ ...small, encoding: 'none' });
    assert.throws(() => t.step(1.5), (e) => e instanceof RangeError && /count/.test(e.message));
    assert.throws(() => t.step(41), (e) => e instanceof RangeError && /count must be at most the 40 steps left/.test(e.message));
    assert.throws(() => t.evaluate({ lengths: [64] }), (e) => e instanceof RangeError && /length must be in \[4, 32\], got 64/.test(e.message));
    assert.throws(() => t.evaluate({ extension: 'ntk' }), (e) => e instanceof RangeError && /extension/.test(e.message));
    assert.throws(() => t.attention({ tokens: [0, 6] }), (e) => e instanceof RangeError && /tokens\[1\] must be in \[0, 5\]/.test(e.message));
    assert.throws(() => t.attention({ tokens: [0], text: 'a' }), (e) => e instanceof TypeError && /either tokens or text/.test(e.message));
    assert.throws(() => t.attention({ text: 'a' }), (e) => e instanceof TypeError && /text is for the text task/.test(e.message));
    assert.throws(() => t.step.call({}), (e) => e instanceof TypeError && /made by pe.train/.test(e.message));
    assert.equal(t.stepsDone, 0); // refused calls stepped nothing
    assert.equal(t.step(2).loss.length, 2);
    t.dispose();
    t.dispose();
    assert.ok(t.disposed);
    assert.throws(() => t.step(), (e) => e instanceof TypeError && /disposed/.test(e.message));
    assert.equal(pe.memoryStats().heapInUse, before);
  });

  test(`${name}: options are read once, own properties only`, () => {
    let reads = 0;
    const opts = { ...small, get encoding() { reads++; return 'sinusoidal'; } };
    const t = pe.train(opts);
    assert.equal(reads, 1);
    assert.equal(t.encoding, 'sinusoidal');
    t.dispose();
    const inherited = Object.assign(Object.create({ encoding: 'none' }), small);
    assert.throws(() => pe.train(inherited), (e) => e instanceof TypeError && /needs encoding/.test(e.message));
    const proxy = new Proxy({ ...small, encoding: 'none' }, { get: (o, k) => (k === 'steps' ? 7 : o[k]) });
    const p = pe.train(proxy);
    assert.equal(p.steps, 40); // own data values, not the get trap
    p.dispose();
    // A getter that calls posenc (re-entrant) runs to completion before train() goes on.
    const nested = { ...small, get encoding() { pe.train({ ...small, encoding: 'none' }).dispose(); return 't5'; } };
    const n = pe.train(nested);
    assert.equal(n.step(1).loss.length, 1);
    n.dispose();
  });
}

test('simd and scalar binaries give the same curve to the tolerance', () => {
  const a = simd.train({ ...small, encoding: 't5', seed: 9 }).step(40).loss;
  const b = scalar.train({ ...small, encoding: 't5', seed: 9 }).step(40).loss;
  for (let i = 0; i < 40; i++) assert.ok(Math.abs(a[i] - b[i]) <= TOL.scalar, `${i}: ${a[i]} vs ${b[i]}`);
});
