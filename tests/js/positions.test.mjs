// positionAngles (p·θ_i) and addSinusoidal (scale·e + PE(p)) on both binaries: the values,
// one rounding per element, and hostile options (getters, Proxies, inherited values).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadBoth } from './support.mjs';

const { simd, scalar } = await loadBoth();

for (const [name, pe] of [['simd', simd], ['scalar', scalar]]) {
  test(`${name}: positionAngles is p·θ_i in double`, () => {
    const { invFreq } = pe.inverseFrequencies({ dim: 4 });
    const a = pe.positionAngles({ dim: 4, positions: [0, 1, 2, 3, -9] });
    assert.ok(a instanceof Float64Array);
    assert.deepEqual(Array.from(a), [0, 1, 2, 3, -9].flatMap((p) => [p * invFreq[0], p * invFreq[1]]));
  });

  test(`${name}: addSinusoidal is scale·e + PE(p), rounded once`, () => {
    const dim = 32;
    const word = pe.fillUniform(new Float32Array(dim), { seed: 5, lo: -0.1, hi: 0.1 });
    const e = new Float32Array(2 * dim);
    e.set(word, 0); e.set(word, dim);
    const x = pe.addSinusoidal({ e, dim, positions: [0, 3] });
    const rows = pe.sinusoidal({ dim, positions: [0, 3] });
    for (let i = 0; i < x.length; i++) assert.equal(x[i], Math.fround(e[i] + rows[i]));
    let gap = 0;
    for (let j = 0; j < dim; j++) gap = Math.max(gap, Math.abs(x[dim + j] - x[j]));
    assert.ok(Math.abs(gap - (1 - Math.cos(3))) < 3e-7, String(gap));
    const s = Math.sqrt(dim);
    const y = pe.addSinusoidal({ e: word, dim, positions: [7], scale: s, layout: 'concat' });
    const row = pe.sinusoidal({ dim, positions: [7], layout: 'concat' });
    for (let j = 0; j < dim; j++) assert.equal(y[j], Math.fround(s * word[j] + row[j]));
  });

  test(`${name}: bad arguments throw naming the argument, and the module keeps working`, () => {
    const e = new Float32Array(8);
    assert.throws(() => pe.addSinusoidal({ e, dim: 7, positions: [0] }), /dim/);
    assert.throws(() => pe.addSinusoidal({ e, dim: 4, positions: [0] }), (err) => err instanceof RangeError && /e must hold/.test(err.message));
    assert.throws(() => pe.addSinusoidal({ e: [0, 1], dim: 2, positions: [0] }), (err) => err instanceof TypeError && /e must be a Float32Array/.test(err.message));
    assert.throws(() => pe.addSinusoidal({ e, dim: 8, positions: [0], scale: NaN }), (err) => err instanceof RangeError && /scale/.test(err.message));
    assert.throws(() => pe.addSinusoidal({ e, dim: 8, positions: [0.5] }), (err) => err instanceof RangeError && /positions\[0\]/.test(err.message));
    assert.throws(() => pe.addSinusoidal({ e, dim: 8, positions: [0], layout: 'half' }), /layout/);
    assert.throws(() => pe.addSinusoidal({ e, dim: 8, positions: [0], nope: 1 }), /unknown option 'nope'/);
    assert.throws(() => pe.positionAngles({ dim: 4, base: 1, positions: [0] }), (err) => err instanceof RangeError && /base/.test(err.message));
    assert.throws(() => pe.positionAngles(null), TypeError);
    const gone = new Float32Array(8);
    structuredClone(gone.buffer, { transfer: [gone.buffer] });
    assert.throws(() => pe.addSinusoidal({ e: gone, dim: 8, positions: [0] }), (err) => err instanceof TypeError && /e is a detached/.test(err.message));
    let reads = 0;
    const getter = { get dim() { reads++; return 8; }, e, positions: [0] };
    assert.equal(pe.addSinusoidal(getter).length, 8);  // a getter runs once, its value is used
    assert.equal(reads, 1);
    const proto = Object.create({ dim: 8 });
    Object.assign(proto, { e, positions: [0] });
    assert.throws(() => pe.addSinusoidal(proto), (err) => err instanceof TypeError && /dim/.test(err.message));
    const proxy = new Proxy({ dim: 4, positions: [1] }, { get: (t, k) => (k === 'dim' ? 6 : t[k]) });
    assert.equal(pe.positionAngles(proxy).length, 2);  // own data values, not the get trap
    assert.equal(pe.positionAngles({ dim: 4, positions: [1] })[0], 1);
  });
}
