// Sinusoidal tables and their algebra against the float64 reference, both layouts.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as ref from './reference.mjs';
import { Random, assertClose, assertThrows, loadBoth, randomInt } from './support.mjs';

const { simd: pe, scalar } = await loadBoth();
const rng = new Random(20261129);
const layouts = ['interleaved', 'concat'];

// Table values: 0.5 ulp(float) + 1e−12 from the core, plus the reference's own error in
// forming p·θ (|p·θ|·2⁻⁵³) — 1e−7 covers both for |p| ≤ 2²⁴.
const TABLE_TOL = 1e-7;

test('random tables (count + start) match the reference in both layouts, on both binaries', () => {
  for (let trial = 0; trial < 60; trial++) {
    const dim = 2 * randomInt(rng, 1, 80);
    const positions = randomInt(rng, 0, 70);
    const start = randomInt(rng, -(2 ** 24), 2 ** 24);
    const base = [10000, 500, 1e6][trial % 3];
    const layout = layouts[trial % 2];
    const opts = { dim, base, positions, start, layout };
    const got = pe.sinusoidal(opts);
    assert.ok(got instanceof Float32Array);
    assertClose(got, ref.sinusoidal(opts), TABLE_TOL, JSON.stringify(opts));
    // The SIMD path steps rows by angle addition in double (re-anchored every 64 rows), the
    // scalar one evaluates each angle: both within 0.5 ulp(float) + 1e−12 of the truth.
    assertClose(scalar.sinusoidal(opts), got, 1.2e-7, 'scalar and SIMD binaries agree');
  }
});

test('tables at arbitrary position lists (Int32Array or number[]) match the reference', () => {
  for (let trial = 0; trial < 40; trial++) {
    const dim = 2 * randomInt(rng, 1, 64);
    const list = Array.from({ length: randomInt(rng, 0, 40) }, () => randomInt(rng, -(2 ** 31), 2 ** 31 - 1));
    const layout = layouts[trial % 2];
    const want = ref.sinusoidal({ dim, positions: list, layout });
    // |p| up to 2^31: the reference's p·θ rounding grows to 2^31·2^-53 ≈ 2.4e−7.
    assertClose(pe.sinusoidal({ dim, positions: list, layout }), want, 4e-7, `dim=${dim}`);
    assertClose(pe.sinusoidal({ dim, positions: Int32Array.from(list), layout }), want, 4e-7);
    assertClose(scalar.sinusoidal({ dim, positions: list, layout }), pe.sinusoidal({ dim, positions: list, layout }), 1.2e-7);
  }
});

test('sinusoidalRow is the table row; concat is a permutation of interleaved', () => {
  for (const p of [0, 1, 2, 1000, -5, 2 ** 40]) {
    const row = pe.sinusoidalRow({ dim: 16, position: p });
    const concat = pe.sinusoidalRow({ dim: 16, position: p, layout: 'concat' });
    for (let i = 0; i < 8; i++) {
      assert.equal(concat[i], row[2 * i]);
      assert.equal(concat[8 + i], row[2 * i + 1]);
    }
    if (Math.abs(p) < 2 ** 31) assert.deepEqual(pe.sinusoidal({ dim: 16, positions: [p] }), row);
  }
});

test('large positions stay accurate: angles are reduced in double', () => {
  // At p = 10^6 a float32 angle is off by up to 0.03 rad; posenc stays within 1e−7.
  const want = ref.sinusoidal({ dim: 128, positions: 4, start: 1000000 });
  assertClose(pe.sinusoidal({ dim: 128, positions: 4, start: 1000000 }), want, TABLE_TOL);
});

test('shift matrix, applyShift, dot-vs-distance, norms, min distance match the reference', () => {
  for (const layout of layouts) {
    for (const [dim, k] of [[8, 3], [16, -7], [64, 1000], [2, 1]]) {
      assertClose(pe.shiftMatrix({ dim, k, layout }), ref.shiftMatrix({ dim, k, layout }), 1e-12, `M(${k})`);
      const row = pe.sinusoidalRow({ dim, position: 11, layout });
      assertClose(pe.applyShift(row, { k, layout }), ref.applyShift(row, { dim, k, layout }), 1e-12, `M(${k})·row`);
    }
  }
  const ks = Array.from({ length: 300 }, (_, j) => j - 100);
  assertClose(pe.peDotClosedForm({ dim: 64, kFirst: -100, kCount: 300 }), ref.peDotByDistance({ dim: 64, ks }), 1e-12);
  assertClose(pe.peDotByDistance({ dim: 64, position: 5000, kFirst: -100, kCount: 300 }), ref.peDotByDistance({ dim: 64, ks }), 64 * 6e-8);
  assertClose(pe.peNorms({ dim: 10, start: -50, count: 100 }), new Float64Array(100).fill(Math.sqrt(5)), 3e-7);
  // Brute force over the float64 reference rows: the closest pair among 0 … 199.
  const rows = Array.from({ length: 200 }, (_, p) => ref.sinusoidalRow(p, { dim: 8 }));
  let best = { distance: Infinity };
  for (let p = 0; p < 200; p++) {
    for (let q = p + 1; q < 200; q++) {
      const d = Math.hypot(...rows[p].map((v, j) => v - rows[q][j]));
      if (d < best.distance - 1e-12 || (Math.abs(d - best.distance) <= 1e-12 && q - p < best.q - best.p)) best = { distance: d, p, q };
    }
  }
  const m = pe.peMinDistance({ dim: 8, start: 0, count: 200 });
  assert.ok(Math.abs(m.distance - best.distance) < 1e-12, `${m.distance} vs ${best.distance}`);
  assert.equal(m.q - m.p, best.q - best.p);
});

test('bad sinusoidal arguments: RangeError/TypeError naming the argument; module keeps working', () => {
  assertThrows(() => pe.sinusoidal({ dim: 7, positions: 4 }), RangeError, /\bdim\b/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: 4, layout: 'half' }), RangeError, /\blayout\b/, /concat/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: -1 }), RangeError, /\bpositions\b/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: 2.5 }), RangeError, /\bpositions\b/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: '4' }), TypeError, /\bpositions\b/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: [1, 2.5] }), RangeError, /positions\[1\]/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: [1, 2 ** 31] }), RangeError, /positions\[1\]/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: new Float32Array(3) }), TypeError, /\bpositions\b/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: [1], start: 3 }), TypeError, /\bstart\b/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: 2, start: 2 ** 41 }), RangeError, /first|start/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: 2, start: 0.5 }), RangeError, /\bstart\b/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: 2, colour: 1 }), TypeError, /colour/);
  assertThrows(() => pe.sinusoidalRow({ dim: 8 }), TypeError, /\bposition\b/);
  assertThrows(() => pe.shiftMatrix({ dim: 4096, k: 1 }), RangeError, /\bdim\b/);
  assertThrows(() => pe.applyShift([1, 2], { k: 1 }), TypeError, /\brow\b/, /Float32Array/);
  assertThrows(() => pe.applyShift(new Float32Array(3), { k: 1 }), RangeError, /\bdim\b|\brow\b/);
  assertThrows(() => pe.peDotByDistance({ dim: 8, kCount: 2 ** 25 }), RangeError, /k_count|kCount/);
  assertThrows(() => pe.peMinDistance({ dim: 8, count: 1 }), RangeError, /\bcount\b/);
  assert.equal(pe.sinusoidal({ dim: 8, positions: 4 })[8], Math.fround(Math.sin(1)));
});

test('out: a reused Float32Array or a tensor receives exactly the table sinusoidal() returns', () => {
  for (const p of [pe, scalar]) {
    for (let trial = 0; trial < 12; trial++) {
      const dim = 2 * randomInt(rng, 1, 40);
      const layout = layouts[trial % 2];
      const opts = trial % 3 === 2
        ? { dim, layout, positions: Int32Array.from({ length: randomInt(rng, 0, 30) }, () => randomInt(rng, -1e6, 1e6)) }
        : { dim, layout, positions: randomInt(rng, 0, 90), start: randomInt(rng, -1e6, 1e6) };
      const want = p.sinusoidal(opts);
      const array = new Float32Array(want.length).fill(42);
      assert.equal(p.sinusoidal({ ...opts, out: array }), array);
      assert.deepEqual(array, want);
      const tensor = p.tensor(want.length);
      try {
        assert.equal(p.sinusoidal({ ...opts, out: tensor }), tensor, 'returns the tensor itself');
        assert.deepEqual(tensor.array, want, 'written in place');
        const view = tensor.array;
        view.fill(-1);
        assert.equal(p.sinusoidal({ ...opts, out: view }), view, 'a view of a live tensor works too');
        assert.deepEqual(tensor.array, want);
      } finally {
        tensor.dispose();
      }
    }
  }
});

test('out: a wrong length or type is refused before anything is written; a bad dim is named first', () => {
  const out = new Float32Array(40).fill(3);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: 4, out }), RangeError, /out must hold positions x dim = 32 floats, got 40/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: [1, 2, 3, 4, 5, 6], out }), RangeError, /out must hold .* = 48 floats, got 40/);
  assert.ok(out.every((v) => v === 3), 'out untouched');
  assertThrows(() => pe.sinusoidal({ dim: 7, positions: 5, out }), RangeError, /dim must be an even integer/);
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: 5, out: new Float64Array(40) }), TypeError, /out must be a Float32Array/);
  const gone = pe.tensor(40);
  gone.dispose();
  assertThrows(() => pe.sinusoidal({ dim: 8, positions: 5, out: gone }), Error, /out/);
  assert.deepEqual(pe.sinusoidal({ dim: 8, positions: 5, out }), pe.sinusoidal({ dim: 8, positions: 5 }), 'module still works');
});

test('out: a tensor of another instance is filled through the copying path', () => {
  const other = scalar.tensor(16);
  try {
    pe.sinusoidal({ dim: 8, positions: 2, start: 9, out: other });
    assert.deepEqual(other.array, pe.sinusoidal({ dim: 8, positions: 2, start: 9 }));
  } finally {
    other.dispose();
  }
});
