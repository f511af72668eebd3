// The ladder and every scaling variant against the float64 reference (tests/js/reference.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import * as ref from './reference.mjs';
import { Random, assertClose, assertThrows, loadBoth } from './support.mjs';

const { simd: pe, scalar } = await loadBoth();

// Relative agreement: the core promises ≤ 4 ulp (none/linear/longrope) and 1e−15 relative
// (dynamic/yarn/llama3) against float64 evaluations of the same formulas.
function assertLadder(opts, what) {
  const got = pe.inverseFrequencies(opts);
  const want = ref.inverseFrequencies(opts);
  const rel = got.invFreq.map((v, i) => Math.abs(v - want.invFreq[i]) / want.invFreq[i]);
  assert.ok(Math.max(...rel) <= 2e-15, `${what}: relative error ${Math.max(...rel)}`);
  assert.ok(Math.abs(got.attentionFactor - want.attentionFactor) <= 1e-15, `${what}: attention factor`);
  assertClose(pe.wavelengths(opts), ref.wavelengths(opts), 2e-15 * ref.wavelengths(opts).at(-1), `${what}: λ`);
  const other = scalar.inverseFrequencies(opts);
  assert.deepEqual(other, got, `${what}: scalar and SIMD binaries agree`);
}

const rng = new Random(0x5eed);
const dims = [2, 4, 8, 64, 96, 128, 256];
const bases = [10000, 500000, 1e6, 2];

function scalingsFor(dim) {
  const factors = Array.from({ length: dim / 2 }, () => 1 + 3 * rng.uniform(0, 1));
  return [
    { type: 'default' },
    { type: 'linear', factor: 4 },
    { type: 'dynamic', factor: 2, maxPositionEmbeddings: 2048, seqLen: 8192 },
    { type: 'dynamic', factor: 2, maxPositionEmbeddings: 2048 },
    { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 },
    { type: 'yarn', factor: 8, originalMaxPositionEmbeddings: 2048, betaFast: 16, betaSlow: 2, truncate: false },
    { type: 'yarn', factor: 16, originalMaxPositionEmbeddings: 4096, mscale: 0.707, mscaleAllDim: 0.707 },
    { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096, attentionFactor: 1.5 },
    { type: 'yarn', maxPositionEmbeddings: 32768, originalMaxPositionEmbeddings: 4096 },
    { type: 'llama3', factor: 8, originalMaxPositionEmbeddings: 8192, lowFreqFactor: 1, highFreqFactor: 4 },
    { type: 'llama3', factor: 32, originalMaxPositionEmbeddings: 8192, lowFreqFactor: 2, highFreqFactor: 8 },
    { type: 'longrope', factor: 8, originalMaxPositionEmbeddings: 4096, shortFactor: factors, longFactor: factors.map((f) => 2 * f), seqLen: 1000 },
    { type: 'longrope', factor: 8, originalMaxPositionEmbeddings: 4096, shortFactor: factors, longFactor: new Float64Array(factors.map((f) => 2 * f)), seqLen: 10000 },
    { type: 'longrope', maxPositionEmbeddings: 131072, originalMaxPositionEmbeddings: 4096, shortFactor: factors, longFactor: factors, attentionFactor: 1.2 },
  ];
}

test('default ladder for many dims and bases matches the float64 reference', () => {
  for (const dim of dims) for (const base of bases) assertLadder({ dim, base }, `dim=${dim} base=${base}`);
});

test('every scaling variant matches HF semantics as restated in the reference', () => {
  for (const dim of dims.filter((d) => d >= 4)) {
    for (const scaling of scalingsFor(dim)) {
      for (const base of [10000, 500000]) assertLadder({ dim, base, scaling }, `${JSON.stringify(scaling).slice(0, 90)} dim=${dim}`);
    }
  }
});

test('scaling changes the ladder (the test can tell variants apart)', () => {
  const plain = pe.inverseFrequencies({ dim: 64 }).invFreq;
  // (dynamic NTK at seqLen ≤ maxPositionEmbeddings is the plain ladder, as in HF.)
  const changing = scalingsFor(64).filter((s) => s.type !== 'default' && !(s.type === 'dynamic' && !s.seqLen));
  assert.deepEqual(pe.inverseFrequencies({ dim: 64, scaling: { type: 'dynamic', factor: 2, maxPositionEmbeddings: 2048, seqLen: 2048 } }).invFreq, plain);
  for (const scaling of changing) {
    const scaled = pe.inverseFrequencies({ dim: 64, scaling });
    assert.ok(scaled.invFreq.some((v, i) => v !== plain[i]) || scaled.attentionFactor !== 1, JSON.stringify(scaling));
  }
});

test('the core rejects out-of-range ladders with a RangeError naming the argument', () => {
  assertThrows(() => pe.inverseFrequencies({ dim: 7 }), RangeError, /\bdim\b/, /even/);
  assertThrows(() => pe.inverseFrequencies({ dim: 0 }), RangeError, /\bdim\b/);
  assertThrows(() => pe.inverseFrequencies({ dim: 65538 }), RangeError, /\bdim\b/, /65536/);
  assertThrows(() => pe.wavelengths({ dim: 8, base: 1 }), RangeError, /\bbase\b/);
  assertThrows(() => pe.wavelengths({ dim: 8, base: -3 }), RangeError, /\bbase\b/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { type: 'ntk' } }), RangeError, /scaling\.type/, /yarn/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { type: 'linear', factor: 0.5 } }), RangeError, /scaling\.factor/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { type: 'linear' } }), RangeError, /scaling\.factor/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { type: 'longrope', factor: 2, originalMaxPositionEmbeddings: 10, shortFactor: [1, 2], longFactor: [1, 2, 3, 4] } }),
    RangeError, /short_factor|shortFactor/);
  assert.throws(() => pe.inverseFrequencies({ dim: 7 }), (e) => e.kind === 'invalid_argument');
  // … and the module keeps working.
  assertClose(pe.inverseFrequencies({ dim: 4 }).invFreq, [1, 0.01], 1e-17);
});

test('JS type checks name the argument before calling in', () => {
  assertThrows(() => pe.inverseFrequencies(), TypeError, /\bdim\b/);
  assertThrows(() => pe.inverseFrequencies({ dim: '8' }), TypeError, /\bdim\b/, /integer/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8.5 }), RangeError, /\bdim\b/, /integer/);
  assertThrows(() => pe.inverseFrequencies({ dim: NaN }), RangeError, /\bdim\b/);
  assertThrows(() => pe.inverseFrequencies({ dim: 2 ** 40 }), RangeError, /\bdim\b/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, base: Infinity }), RangeError, /\bbase\b/, /finite/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, base: '10000' }), TypeError, /\bbase\b/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, bsae: 10 }), TypeError, /unknown option 'bsae'/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { type: 'linear', facter: 2 } }), TypeError, /facter/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { factor: 2 } }), TypeError, /scaling\.type/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { type: 'linear', factor: NaN } }), RangeError, /scaling\.factor/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { type: 'yarn', originalMaxPositionEmbeddings: 1.5 } }), RangeError, /originalMaxPositionEmbeddings/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { type: 'yarn', truncate: 1 } }), TypeError, /scaling\.truncate/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: { type: 'longrope', shortFactor: 'x' } }), TypeError, /shortFactor/);
  assertThrows(() => pe.inverseFrequencies({ dim: 8, scaling: 'yarn' }), TypeError, /scaling/);
});
