// Self-attention, the permutation test and the seeded generator.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as ref from './reference.mjs';
import { assertClose, assertThrows, loadBoth, maxAbsDiff } from './support.mjs';

const { simd: pe, scalar } = await loadBoth();

test('the generator gives the reference numbers bit for bit, number and BigInt seeds', () => {
  for (const seed of [0, 1, 42, 2 ** 53 - 1]) {
    assert.deepEqual(pe.fillUniform(new Float32Array(1000), { seed }), ref.fillUniform(1000, seed));
    assert.deepEqual(pe.fillUniform(new Float32Array(100), { seed, lo: 2, hi: 3 }), ref.fillUniform(100, seed, 2, 3));
    assert.deepEqual(pe.permutation({ n: 500, seed }), ref.permutation(500, seed));
  }
  const big = 0xfedcba9876543210n;
  assert.deepEqual(pe.fillUniform(new Float32Array(10), { seed: big }), ref.fillUniform(10, big));
  assert.deepEqual(scalar.permutation({ n: 64, seed: big }), ref.permutation(64, big));
  // into a tensor, in place
  const t = pe.tensor(64);
  pe.fillUniform(t, { seed: 9 });
  assert.deepEqual(t.array, ref.fillUniform(64, 9));
  t.dispose();
  assertThrows(() => pe.fillUniform(new Float32Array(2), { seed: -1 }), RangeError, /seed/);
  assertThrows(() => pe.fillUniform(new Float32Array(2), { seed: 2n ** 64n }), RangeError, /seed/);
  assertThrows(() => pe.fillUniform(new Float32Array(2), { seed: 1, lo: 1, hi: 0 }), RangeError, /\blo\b|\bhi\b/);
  assertThrows(() => pe.permutation({ n: 2 ** 25, seed: 1 }), RangeError, /\bn\b/);
});

test('attention weights are fill_uniform over 4·D² floats in ±1/√D', () => {
  const w = pe.attentionWeights({ modelDim: 12, seed: 5 });
  const bound = Math.fround(1 / Math.sqrt(12));
  const all = ref.fillUniform(4 * 144, 5, -bound, bound);
  ['wq', 'wk', 'wv', 'wo'].forEach((m, i) => assert.deepEqual(w[m], all.subarray(144 * i, 144 * (i + 1))));
});

const D = 16;
const T = 7;
const weights = pe.attentionWeights({ modelDim: D, seed: 11 });
const x = pe.fillUniform(new Float32Array(T * D), { seed: 12 });

test('self-attention: softmax rows sum to 1, causal mask is respected, binaries agree', () => {
  for (const mode of ['none', 'additive', 'rotary']) {
    for (const causal of [false, true]) {
      const opts = { x, weights, modelDim: D, heads: 4, mode, causal };
      const { output, weights: a } = pe.selfAttention(opts);
      assert.equal(output.length, T * D);
      assert.equal(a.length, 4 * T * T);
      for (let r = 0; r < 4 * T; r++) {
        const row = a.subarray(r * T, r * T + T);
        assert.ok(Math.abs(row.reduce((s, v) => s + v, 0) - 1) < 1e-6);
        if (causal) for (let j = (r % T) + 1; j < T; j++) assert.equal(row[j], 0);
      }
      assertClose(scalar.selfAttention(opts).output, output, 1e-6, `${mode} scalar vs SIMD`);
    }
  }
});

test('without positions attention is permutation-equivariant; with PE or RoPE it is not', () => {
  const base = { x, weights, modelDim: D, heads: 2, seed: 99 };
  const none = pe.permutationTest({ ...base, mode: 'none' });
  assert.ok(none < 1e-6, `none: ${none}`);
  assert.ok(pe.permutationTest({ ...base, mode: 'additive' }) > 1e-3);
  assert.ok(pe.permutationTest({ ...base, mode: 'rotary' }) > 1e-3);
  // The same by hand through selfAttention: shuffle rows of X, compare with shuffled output.
  const perm = pe.permutation({ n: T, seed: 99 });
  const shuffle = (m) => {
    const out = new Float32Array(m.length);
    perm.forEach((src, i) => out.set(m.subarray(src * D, src * D + D), i * D));
    return out;
  };
  const outNone = pe.selfAttention({ x, weights, modelDim: D, heads: 2 }).output;
  const outShuffled = pe.selfAttention({ x: shuffle(x), weights, modelDim: D, heads: 2 }).output;
  assert.ok(maxAbsDiff(shuffle(outNone), outShuffled) < 1e-6);
  assert.ok(Math.abs(maxAbsDiff(shuffle(outNone), outShuffled) - none) < 1e-7, 'permutationTest measures exactly this');
  const outRope = pe.selfAttention({ x, weights, modelDim: D, heads: 2, mode: 'rotary' }).output;
  const outRopeShuffled = pe.selfAttention({ x: shuffle(x), weights, modelDim: D, heads: 2, mode: 'rotary' }).output;
  assert.ok(maxAbsDiff(shuffle(outRope), outRopeShuffled) > 1e-3);
});

test('explicit positions move the encodings: positions [0..T−1] equal the default', () => {
  const opts = { x, weights, modelDim: D, heads: 2, mode: 'rotary' };
  const dflt = pe.selfAttention(opts).output;
  assert.deepEqual(pe.selfAttention({ ...opts, positions: Array.from({ length: T }, (_, i) => i) }).output, dflt);
  assert.ok(maxAbsDiff(pe.selfAttention({ ...opts, positions: Array.from({ length: T }, (_, i) => 100 + 3 * i) }).output, dflt) > 1e-4);
});

test('bad attention arguments: errors name the argument', () => {
  const base = { x, weights, modelDim: D, heads: 2 };
  assertThrows(() => pe.selfAttention({ ...base, heads: 3 }), RangeError, /heads|model_dim/);
  assertThrows(() => pe.selfAttention({ ...base, mode: 'alibi' }), RangeError, /mode/);
  assertThrows(() => pe.selfAttention({ ...base, x: x.subarray(1) }), RangeError, /\bx\b/);
  assertThrows(() => pe.selfAttention({ ...base, weights: { ...weights, wk: weights.wk.subarray(1) } }), RangeError, /weights\.wk/);
  assertThrows(() => pe.selfAttention({ ...base, weights: { wq: weights.wq } }), TypeError, /weights\.wk/);
  assertThrows(() => pe.selfAttention({ ...base, weights: null }), TypeError, /weights/);
  assertThrows(() => pe.selfAttention({ ...base, modelDim: 8 }), RangeError, /\bw|model_dim|x\b/);
  assertThrows(() => pe.selfAttention({ ...base, positions: [1, 2] }), RangeError, /positions/);
  assertThrows(() => pe.selfAttention({ ...base, causal: 'yes' }), TypeError, /causal/);
  assertThrows(() => pe.permutationTest({ ...base }), TypeError, /seed/);
  assertThrows(() => pe.attentionWeights({ modelDim: 0, seed: 1 }), RangeError, /model_dim|modelDim/);
  assert.equal(pe.selfAttention(base).output.length, T * D);
});
