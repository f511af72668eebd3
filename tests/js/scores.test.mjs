// Attention logits (none / additive / rotary), the four-term split, the relative kernel,
// shift invariance and the decay bound, against the float64 reference.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as ref from './reference.mjs';
import { Random, assertClose, assertThrows, loadBoth, randomFloats, randomInt } from './support.mjs';

const { simd: pe, scalar } = await loadBoth();
const rng = new Random(4242);

for (const [name, p] of [['simd', pe], ['scalar', scalar]]) {
  test(`${name}: hand check: pair θ=0.1, q=(1,0), k=(0,1): score = −sin 0.3 for every (m, m+3)`, () => {
    // dim 8: pair i = 1 has θ = 0.1; interleaved it is (x[2], x[3]), half it is (x[1], x[5]).
    for (const [layout, a, b] of [['interleaved', 2, 3], ['half', 1, 5]]) {
      const q = new Float32Array(8);
      const k = new Float32Array(8);
      q[a] = 1;
      k[b] = 1;
      for (const [m, n] of [[2, 5], [5, 8], [0, 3], [97, 100]]) {
        const { scores, terms } = p.scores({ q, k, dim: 8, qPositions: [m], kPositions: [n], mode: 'rotary', layout });
        assert.equal(terms, undefined);
        assert.ok(Math.abs(scores[0] - -0.295520) < 5e-7, `${layout} (${m}, ${n}): ${scores[0]}`);
      }
      const kernel = p.relativeKernel({ q, k, delta: 3, layout });
      assert.ok(Math.abs(kernel.score + Math.sin(0.3)) < 1e-12, `${kernel.score}`);
      assert.equal(kernel.dot + kernel.area, kernel.score);
      assert.ok(Math.abs(kernel.area + Math.sin(0.3)) < 1e-12 && Math.abs(kernel.dot) < 1e-12);
    }
  });
}

// Score error (scores.hpp): ≤ 2·dim·2⁻²⁴·Σ|q'k'| + float rounding of q', k'; inputs in [−1, 1).
const scoreTol = (dim, factor = 1) => (4 * dim * 2 ** -24 * dim + 1e-6) * factor * factor;

test('random scores in every mode, layout, partial rotary, scaling and scale match the reference', () => {
  const scalings = [undefined, { type: 'linear', factor: 2 }, { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 64 },
    { type: 'llama3', factor: 8, originalMaxPositionEmbeddings: 128 }];
  for (let trial = 0; trial < 60; trial++) {
    const mode = ['none', 'additive', 'rotary'][trial % 3];
    const dim = 2 * randomInt(rng, 1, 32);
    const tq = randomInt(rng, 1, 6);
    const tk = randomInt(rng, 1, 6);
    const opts = {
      q: randomFloats(rng, tq * dim), k: randomFloats(rng, tk * dim), dim, mode,
      qPositions: Array.from({ length: tq }, () => randomInt(rng, -5000, 5000)),
      kPositions: Int32Array.from({ length: tk }, () => randomInt(rng, -5000, 5000)),
      layout: trial % 2 ? 'half' : 'interleaved', peLayout: trial % 4 < 2 ? 'interleaved' : 'concat',
      rotaryDim: mode === 'rotary' && trial % 5 === 0 ? 2 * randomInt(rng, 1, dim / 2) : undefined,
      scaling: mode === 'rotary' ? scalings[trial % 4] : undefined, scale: trial % 7 === 0,
    };
    const got = pe.scores(opts);
    const want = ref.scores(opts);
    const factor = mode === 'rotary' ? ref.inverseFrequencies({ dim: opts.rotaryDim ?? dim, scaling: opts.scaling }).attentionFactor : 1;
    assertClose(got.scores, want.scores, scoreTol(dim, factor), `trial ${trial} ${mode}`);
    assertClose(scalar.scores(opts).scores, got.scores, 2 * scoreTol(dim, factor), 'scalar vs SIMD');
    if (mode === 'additive') {
      for (const term of ['content', 'queryPosition', 'positionKey', 'positionPosition']) {
        assertClose(got.terms[term], want.terms[term], scoreTol(dim), term);
      }
      const sum = got.scores.map((_, i) => got.terms.content[i] + got.terms.queryPosition[i] + got.terms.positionKey[i] + got.terms.positionPosition[i]);
      assertClose(sum, got.scores, 1e-5, 'the four terms add up to the score');
    }
  }
});

test('additive scores: only the position-position term depends on n − m alone', () => {
  const dim = 16;
  const q = randomFloats(rng, dim);
  const k = randomFloats(rng, dim);
  const at = (m, n) => pe.scores({ q, k, dim, mode: 'additive', qPositions: [m], kPositions: [n] }).terms;
  const a = at(3, 10);
  const b = at(503, 510);
  assert.ok(Math.abs(a.positionPosition[0] - b.positionPosition[0]) < 1e-5);
  assert.ok(Math.abs(a.queryPosition[0] - b.queryPosition[0]) > 1e-3, 'cross terms carry absolute position');
  assert.equal(a.content[0], b.content[0]);
});

test('shift invariance: rotary and none are invariant, additive is not (reference agrees)', () => {
  const dim = 32;
  const opts = { q: randomFloats(rng, 4 * dim), k: randomFloats(rng, 5 * dim), dim, qPositions: [0, 5, 9, 30], kPositions: [1, 2, 3, 4, 100] };
  for (const shift of [1, 1000, 1000000]) {
    assert.ok(pe.shiftInvariance({ ...opts, mode: 'rotary', shift }) < 1e-5 * dim, `rotary, shift ${shift}`);
    assert.equal(pe.shiftInvariance({ ...opts, mode: 'none', shift }), 0);
    const additive = pe.shiftInvariance({ ...opts, mode: 'additive', shift });
    assert.ok(Math.abs(additive - ref.shiftInvariance({ ...opts, mode: 'additive' }, shift)) < 1e-4, `additive ${additive}`);
    assert.ok(additive > 0.01);
  }
});

test('relative kernel = score of rotated rows, for random pairs, both layouts', () => {
  for (let trial = 0; trial < 30; trial++) {
    const dim = 2 * randomInt(rng, 1, 32);
    const layout = trial % 2 ? 'half' : 'interleaved';
    const q = randomFloats(rng, dim);
    const k = randomFloats(rng, dim);
    const delta = randomInt(rng, -100000, 100000);
    const got = pe.relativeKernel({ q, k, delta, layout });
    const want = ref.relativeKernel({ q, k, dim, delta, layout });
    assert.ok(Math.abs(got.score - want.score) < 1e-9 * dim, `${got.score} vs ${want.value}`);
    assert.ok(Math.abs(got.dot - want.dot) < 1e-9 * dim && Math.abs(got.area - want.area) < 1e-9 * dim);
  }
});

test('decay bound: matches RoFormer §3.4.3 in double, starts at (d/2 + 1)/2 and falls', () => {
  for (const dim of [8, 64, 128]) {
    const curve = pe.decayBound({ dim, maxDistance: 2000 });
    assert.equal(curve.length, 2001);
    assert.ok(Math.abs(curve[0] - (dim / 2 + 1) / 2) < 1e-12);
    assertClose(curve, ref.decayBound({ dim, deltas: Array.from({ length: 2001 }, (_, d) => d) }), dim * 1e-12);
    assert.ok(curve[2000] < curve[0] / 2, 'falls');
  }
});

test('bad score arguments: errors name the argument, module keeps working', () => {
  const q = new Float32Array(16);
  const k = new Float32Array(16);
  assertThrows(() => pe.scores({ q, k, dim: 8, mode: 'relative' }), RangeError, /\bmode\b/);
  assertThrows(() => pe.scores({ q, k, dim: 7 }), RangeError, /dim|q/);
  assertThrows(() => pe.scores({ q: new Float32Array(15), k, dim: 8 }), RangeError, /\bq\b/);
  assertThrows(() => pe.scores({ q, k, dim: 8, qPositions: [1] }), RangeError, /q_positions|qPositions/);
  assertThrows(() => pe.scores({ q: Array.from(q), k, dim: 8 }), TypeError, /\bq\b/, /Float32Array/);
  assertThrows(() => pe.scores({ q, k, dim: 8, layout: 'neox' }), RangeError, /\blayout\b/);
  assertThrows(() => pe.scores({ q, k, dim: 8, peLayout: 'half', mode: 'additive' }), RangeError, /\bpeLayout\b/);
  assertThrows(() => pe.scores({ q, k, dim: 8, scale: 1 }), TypeError, /\bscale\b/);
  assertThrows(() => pe.scores({ q, k, dim: 8, rotaryDim: 3 }), RangeError, /rotary_dim|rotaryDim/);
  assertThrows(() => pe.scores({ q, k, dim: 8, sclae: true }), TypeError, /sclae/);
  assertThrows(() => pe.relativeKernel({ q, k: new Float32Array(8), delta: 1 }), RangeError, /\bk\b/);
  assertThrows(() => pe.relativeKernel({ q, k, delta: 0.5 }), RangeError, /delta/);
  assertThrows(() => pe.shiftInvariance({ q, k, dim: 8, qPositions: [2 ** 31 - 1, 0], shift: 1 }), RangeError, /shift/);
  assertThrows(() => pe.decayBound({ dim: 8, maxDistance: 2 ** 25 }), RangeError, /max_distance|maxDistance/);
  assert.equal(pe.scores({ q: new Float32Array([1, 0]), k: new Float32Array([1, 0]), dim: 2, mode: 'none' }).scores[0], 1);
});
