// Every worked fact of core/README.md, through the JS API, on both binaries.
import test from 'node:test';
import assert from 'node:assert/strict';
import { assertClose, loadBoth } from './support.mjs';

const flavours = Object.entries(await loadBoth());
const round = (values, places) => Array.from(values, (v) => Number(v.toFixed(places)) + 0);

for (const [name, pe] of flavours) {
  test(`${name}: d=8, b=10000: θ = [1, 0.1, 0.01, 0.001], λ ≈ [6.28, 62.8, 628, 6283]`, () => {
    const { invFreq, attentionFactor } = pe.inverseFrequencies({ dim: 8, base: 10000 });
    assert.ok(invFreq instanceof Float64Array);
    assertClose(invFreq, [1, 0.1, 0.01, 0.001], 1e-17);
    assert.equal(attentionFactor, 1);
    const lambda = pe.wavelengths({ dim: 8, base: 10000 });
    assert.ok(lambda instanceof Float64Array);
    assert.deepEqual(round(lambda, 2), [6.28, 62.83, 628.32, 6283.19]);
    assertClose(lambda, [2 * Math.PI, 20 * Math.PI, 200 * Math.PI, 2000 * Math.PI], 1e-11);
  });

  test(`${name}: PE, d=8, rows p=0..3 to 4 decimals`, () => {
    const table = pe.sinusoidal({ dim: 8, base: 10000, positions: 4 });
    assert.ok(table instanceof Float32Array);
    assert.equal(table.length, 32);
    const rows = [
      [0, 1, 0, 1, 0, 1, 0, 1],
      [0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000],
      [0.9093, -0.4161, 0.1987, 0.9801, 0.0200, 0.9998, 0.0020, 1.0000],
      [0.1411, -0.9900, 0.2955, 0.9553, 0.0300, 0.9996, 0.0030, 1.0000],
    ];
    // float32 cos 0.01 = 0.99995 rounds to 0.9999 or 1.0000 depending on its last bit: 5e-5.
    rows.forEach((row, p) => assertClose(table.subarray(8 * p, 8 * p + 8), row, 5.01e-5, `row ${p}`));
    assert.ok(table.every((v) => v >= -1 && v <= 1));
  });

  test(`${name}: PE, d=4: θ = [1, 0.01], λ ≈ [6.28, 628.32], row 1 to 5 places`, () => {
    assertClose(pe.inverseFrequencies({ dim: 4 }).invFreq, [1, 0.01], 1e-17);
    assert.deepEqual(round(pe.wavelengths({ dim: 4 }), 2), [6.28, 628.32]);
    const row = pe.sinusoidal({ dim: 4, positions: [1] });
    assertClose(row, [0.84147, 0.54030, 0.0099998, 0.99995], 5e-6);
    assert.deepEqual(Array.from(pe.sinusoidalRow({ dim: 4, position: 1 })), Array.from(row));
    assert.equal(row[3].toFixed(5), '0.99995');
  });

  test(`${name}: d=8, k=3: M(3)·PE(5) = PE(8) = [0.98936, −0.14550, 0.71736, 0.69671, …]`, () => {
    const shifted = pe.applyShift(pe.sinusoidalRow({ dim: 8, position: 5 }), { k: 3 });
    assertClose(shifted.subarray(0, 4), [0.98936, -0.14550, 0.71736, 0.69671], 5e-6);
    // The identity holds for every p to float rounding, also through the explicit matrix.
    const m = pe.shiftMatrix({ dim: 8, k: 3 });
    for (const p of [0, 1, 5, 77, 1000, -40]) {
      const row = pe.sinusoidalRow({ dim: 8, position: p });
      const target = pe.sinusoidalRow({ dim: 8, position: p + 3 });
      assertClose(pe.applyShift(row, { k: 3 }), target, 2e-7, `p=${p}`);
      const product = Array.from({ length: 8 }, (_, r) => row.reduce((acc, v, j) => acc + m[8 * r + j] * v, 0));
      assertClose(product, target, 2e-7, `M·PE(${p})`);
    }
  });

  test(`${name}: d=32: every ‖PE(p)‖ = 4.0`, () => {
    const norms = pe.peNorms({ dim: 32, start: 0, count: 1000 });
    assertClose(norms, new Float64Array(1000).fill(4), 4 * 6e-8 * 4);
    const table = pe.sinusoidal({ dim: 32, positions: 1000, start: 999000 });
    for (let p = 0; p < 1000; p++) {
      const norm = Math.hypot(...table.subarray(32 * p, 32 * p + 32));
      assert.ok(Math.abs(norm - 4) < 1e-6, `‖PE(${999000 + p})‖ = ${norm}`);
    }
  });

  test(`${name}: PE(m)·PE(n) depends on n−m only and is not monotone in |n−m|`, () => {
    const closed = pe.peDotClosedForm({ dim: 8, kFirst: 0, kCount: 50 });
    for (const m of [0, 7, 1234]) {
      assertClose(pe.peDotByDistance({ dim: 8, position: m, kFirst: 0, kCount: 50 }), closed, 8 * 6e-8, `m=${m}`);
    }
    const increases = closed.slice(1).some((v, k) => v > closed[k]);
    assert.ok(increases, 'the dot product rises again somewhere');
  });
}
