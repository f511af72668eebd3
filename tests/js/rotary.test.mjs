// RoPE through the JS API against the float64 reference: both layouts, partial rotary,
// strides, arbitrary positions, start offsets, every scaling variant, inverse, shift.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as ref from './reference.mjs';
import { Random, assertClose, assertThrows, loadBoth, randomFloats, randomInt } from './support.mjs';

const { simd: pe, scalar } = await loadBoth();
const rng = new Random(31337);
const layouts = ['half', 'interleaved'];

// rotary.hpp: ≤ 4e−7·f·(|a| + |b|) per element for |p| ≤ 2^24; inputs are in [−1, 1).
const tol = (factor = 1) => 8e-7 * factor + 1e-7;

const SCALINGS = (rotaryDim) => [
  undefined,
  { type: 'linear', factor: 4 },
  { type: 'dynamic', factor: 2, maxPositionEmbeddings: 1024, seqLen: 4096 },
  { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 },
  { type: 'yarn', factor: 16, originalMaxPositionEmbeddings: 2048, mscale: 1, mscaleAllDim: 0.5, truncate: false },
  { type: 'llama3', factor: 8, originalMaxPositionEmbeddings: 8192, lowFreqFactor: 1, highFreqFactor: 4 },
  { type: 'longrope', factor: 16, originalMaxPositionEmbeddings: 4096, seqLen: 9000,
    shortFactor: Array.from({ length: rotaryDim / 2 }, (_, i) => 1 + i / rotaryDim),
    longFactor: Array.from({ length: rotaryDim / 2 }, (_, i) => 2 + i) },
];

// A random case: shape, layout, partial rotary, storage order with padding, positions.
function randomCase(trial) {
  const headDim = 2 * randomInt(rng, 1, 40) + (trial % 5 === 0 ? 1 : 0); // odd head dims too
  const rotaryDim = 2 * randomInt(rng, 1, Math.floor(headDim / 2));
  const tokens = randomInt(rng, 0, 9);
  const heads = randomInt(rng, 1, 4);
  const layout = layouts[trial % 2];
  const headsMajor = trial % 3 === 1; // [heads][tokens][dim] storage
  const pad = trial % 4 === 3 ? randomInt(rng, 1, 5) : 0; // gaps between rows
  const tokenStride = headsMajor ? headDim + pad : heads * (headDim + pad);
  const headStride = headsMajor ? tokens * (headDim + pad) : headDim + pad;
  const length = Math.max(1, tokens * heads * (headDim + pad));
  const usePositions = trial % 2 === 0;
  const positions = Array.from({ length: tokens }, () => randomInt(rng, -(2 ** 24), 2 ** 24));
  const start = randomInt(rng, -(2 ** 24), 2 ** 24 - 10);
  const where = usePositions ? { positions } : { start };
  return { rope: { headDim, rotaryDim, layout }, call: { tokens, heads, tokenStride, headStride, ...where }, length };
}

test('random shapes, layouts, partial rotary, strides and positions match the reference', () => {
  for (let trial = 0; trial < 120; trial++) {
    const { rope: ro, call, length } = randomCase(trial);
    const x = randomFloats(rng, length);
    const want = ref.ropeApply(x, { ...ro, ...call });
    const rope = pe.rope(ro);
    const got = rope.apply(Float32Array.from(x), call);
    assertClose(got, want, tol(), `trial ${trial}: ${JSON.stringify({ ...ro, ...call }).slice(0, 200)}`);
    // Elements the view does not cover (padding) and pass-through dims are never touched.
    for (let i = 0; i < x.length; i++) if (want[i] === x[i]) assert.equal(got[i], x[i], `untouched ${i}`);
    // The scalar binary agrees to the same bound.
    const other = scalar.rope(ro);
    assertClose(other.apply(Float32Array.from(x), call), got, 2 * tol(), `trial ${trial}: scalar vs SIMD`);
    // inverse undoes apply (≤ 1e−6 relative).
    assertClose(rope.invert(got, call), x, 2e-6, `trial ${trial}: invert`);
    rope.dispose();
    other.dispose();
  }
});

test('every scaling variant: ladder and attention factor as in HF, applied to rotated dims only', () => {
  for (const layout of layouts) {
    for (const scaling of SCALINGS(32)) {
      const ro = { headDim: 40, rotaryDim: 32, layout, scaling };
      const rope = pe.rope(ro);
      const expected = ref.inverseFrequencies({ dim: 32, scaling });
      assert.ok(Math.abs(rope.attentionFactor - expected.attentionFactor) < 1e-15);
      assertClose(rope.invFreq, expected.invFreq, 1e-15);
      const call = { tokens: 6, heads: 2, positions: [0, 1, 4095, 4096, 70000, -3] };
      const x = randomFloats(rng, 6 * 2 * 40);
      const got = rope.apply(Float32Array.from(x), call);
      assertClose(got, ref.ropeApply(x, { ...ro, ...call }), tol(rope.attentionFactor), JSON.stringify(scaling));
      for (let t = 0; t < 12; t++) {
        for (let j = 32; j < 40; j++) assert.equal(got[40 * t + j], x[40 * t + j], 'pass-through dims');
      }
      assertClose(rope.invert(got, call), x, 3e-6, 'invert undoes the factor too');
      rope.dispose();
    }
  }
});

test('start offset equals explicit positions start … start+tokens−1', () => {
  for (const layout of layouts) {
    const rope = pe.rope({ headDim: 64, layout, cacheLength: 128 });
    const x = randomFloats(rng, 10 * 3 * 64);
    for (const start of [0, 100, 4000, 123456789]) {
      const positions = Int32Array.from({ length: 10 }, (_, t) => start + t);
      assert.deepEqual(rope.apply(Float32Array.from(x), { tokens: 10, heads: 3, start }),
        rope.apply(Float32Array.from(x), { tokens: 10, heads: 3, positions }));
    }
    // positions beyond 2^31 only through start (the core takes int64 starts up to 2^53).
    // At p = 2^40 a 1-ulp difference in θ_i moves the angle by 2^40·θ_i·2^−52 ≤ 2.5e−4 rad,
    // so core and reference can only agree to that.
    const far = rope.apply(Float32Array.from(x), { tokens: 10, heads: 3, start: 2 ** 40 });
    assertClose(far, ref.ropeApply(x, { headDim: 64, layout, tokens: 10, heads: 3, start: 2 ** 40 }), 1e-3);
    rope.dispose();
  }
});

test('RoPE scores depend on n − m only, even when both positions move by 10^6', () => {
  const rope = pe.rope({ headDim: 128 });
  const q = randomFloats(rng, 128);
  const k = randomFloats(rng, 128);
  const score = (m, n) => {
    const rq = rope.apply(Float32Array.from(q), { tokens: 1, positions: [m] });
    const rk = rope.apply(Float32Array.from(k), { tokens: 1, positions: [n] });
    return rq.reduce((acc, v, j) => acc + v * rk[j], 0);
  };
  const base = score(10, 17);
  for (const shift of [1, 1000, 1000000, 16000000]) {
    const moved = score(10 + shift, 17 + shift);
    assert.ok(Math.abs(moved - base) <= 1e-5 * Math.max(1, Math.abs(base)), `shift ${shift}: ${moved} vs ${base}`);
  }
  rope.dispose();
});

test('shift re-rotates keys as if they sat at p + delta, without drift', () => {
  for (const layout of layouts) {
    const ro = { headDim: 48, rotaryDim: 40, layout, scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } };
    const rope = pe.rope(ro);
    const x = randomFloats(rng, 5 * 2 * 48);
    const positions = [3, 9, 100, 2000, 77777];
    const keys = rope.apply(Float32Array.from(x), { tokens: 5, heads: 2, positions });
    const delta = -128;
    const shifted = rope.shift(Float32Array.from(keys), { tokens: 5, heads: 2, delta });
    assertClose(shifted, ref.ropeShift(keys, { ...ro, tokens: 5, heads: 2, delta }), 4e-7);
    const direct = rope.apply(Float32Array.from(x), { tokens: 5, heads: 2, positions: positions.map((p) => p + delta) });
    assertClose(shifted, direct, 2e-6 * rope.attentionFactor * 2);
    // 1000 shifts by +1 then one by −1000: back where we started, norms kept.
    const k = pe.tensor(keys);
    for (let i = 0; i < 1000; i++) rope.shift(k, { tokens: 5, heads: 2, delta: 1 });
    rope.shift(k, { tokens: 5, heads: 2, delta: -1000 });
    assertClose(k.array, keys, 2e-5);
    const norm = (v) => Math.hypot(...v);
    assert.ok(Math.abs(norm(k.array) / norm(keys) - 1) < 1e-5);
    k.dispose();
    rope.dispose();
  }
});

test('tensor handles and their views rotate in place with the same numbers as the copying path', () => {
  const rope = pe.rope({ headDim: 16, layout: 'interleaved' });
  const x = randomFloats(rng, 4 * 2 * 16);
  const call = { tokens: 4, heads: 2, positions: [1, 5, 9, 400] };
  const copied = rope.apply(Float32Array.from(x), call);
  const t = pe.tensor(x);
  assert.equal(rope.apply(t, call), t, 'returns the tensor');
  assert.deepEqual(t.array, copied);
  const u = pe.tensor(x);
  const view = u.array;
  assert.equal(rope.apply(view, call), view, 'returns the view');
  assert.deepEqual(u.array, copied);
  // A sub-view of a tensor works too (rotate only the second token).
  const w = pe.tensor(x);
  rope.apply(w.array.subarray(32), { tokens: 1, heads: 2, positions: [5] });
  assert.deepEqual(w.array.subarray(32, 64), copied.subarray(32, 64));
  assert.deepEqual(w.array.subarray(0, 32), x.subarray(0, 32));
  for (const h of [t, u, w]) h.dispose();
  rope.dispose();
});

test('row(position) gives the raw cos/sin of the cache (cached or not: identical)', () => {
  const cached = pe.rope({ headDim: 8, cacheStart: 0, cacheLength: 64 });
  const fly = pe.rope({ headDim: 8 });
  for (const p of [0, 3, 63, 64, -1, 1000000]) {
    const a = cached.row(p);
    assert.deepEqual(a, fly.row(p));
    assertClose(a.cos, [1, 0.1, 0.01, 0.001].map((t) => Math.cos(p * t)), 3e-7);
    assertClose(a.sin, [1, 0.1, 0.01, 0.001].map((t) => Math.sin(p * t)), 3e-7);
  }
  cached.dispose();
  fly.dispose();
});

test('bad rope arguments raise TypeError/RangeError naming the argument; the rope keeps working', () => {
  assertThrows(() => pe.rope({ headDim: 0 }), RangeError, /head_dim|headDim/);
  assertThrows(() => pe.rope({ headDim: 8, rotaryDim: 5 }), RangeError, /rotary_dim|rotaryDim/);
  assertThrows(() => pe.rope({ headDim: 8, rotaryDim: 10 }), RangeError, /rotary_dim|rotaryDim/);
  assertThrows(() => pe.rope({ headDim: 8, layout: 'neox' }), RangeError, /\blayout\b/, /half/);
  assertThrows(() => pe.rope({ headDim: 8, base: 0.5 }), RangeError, /\bbase\b/);
  assertThrows(() => pe.rope({ headDim: 8, scaling: { type: 'linear' } }), RangeError, /scaling\.factor/);
  assertThrows(() => pe.rope({ headDim: 8, heads: 2 }), TypeError, /unknown option 'heads'/);
  assertThrows(() => pe.rope({ headDim: '8' }), TypeError, /headDim/);
  const rope = pe.rope({ headDim: 8 });
  const x = new Float32Array(16);
  assertThrows(() => rope.apply([1, 2, 3], { tokens: 1 }), TypeError, /\bx\b/, /Float32Array/);
  assertThrows(() => rope.apply(new Float64Array(16), { tokens: 1 }), TypeError, /\bx\b/);
  assertThrows(() => rope.apply(x, { tokens: 3 }), RangeError, /\bx\b/, /16/);
  assertThrows(() => rope.apply(x, { tokens: 2, positions: [1] }), RangeError, /positions/);
  assertThrows(() => rope.apply(x, { positions: [1, 2], start: 4 }), TypeError, /positions or start/);
  assertThrows(() => rope.apply(x, { tokens: 2, positions: [1, NaN] }), RangeError, /positions\[1\]/);
  assertThrows(() => rope.apply(x, { tokens: 2, positions: 'abc' }), TypeError, /positions/);
  assertThrows(() => rope.apply(x, { tokens: -1 }), RangeError, /\btokens\b/);
  assertThrows(() => rope.apply(x, { tokens: 1.5 }), RangeError, /\btokens\b/);
  assertThrows(() => rope.apply(x, { tokens: 2, start: 2 ** 54 }), RangeError, /\bstart\b/);
  assertThrows(() => rope.apply(x, { tokens: 2, start: Infinity }), RangeError, /\bstart\b/);
  assertThrows(() => rope.apply(x, { tokens: 2, heads: 1, tokenStride: 4 }), RangeError, /overlap|x/);
  assertThrows(() => rope.apply(x, { tokens: 2, inverse: 'yes' }), TypeError, /inverse/);
  assertThrows(() => rope.apply(x, { tokens: 2, poisitions: [1, 2] }), TypeError, /poisitions/);
  assertThrows(() => rope.invert(x, { tokens: 2, inverse: false }), TypeError, /inverse/);
  assertThrows(() => rope.shift(x, { tokens: 2 }), TypeError, /delta/);
  assertThrows(() => rope.shift(x, { tokens: 2, delta: 2 ** 54 }), RangeError, /delta/);
  assertThrows(() => rope.row(0.5), RangeError, /position/);
  const t = pe.tensor(16);
  const stale = t.array;
  t.dispose();
  assertThrows(() => rope.apply(t, { tokens: 2 }), TypeError, /disposed/);
  assertThrows(() => rope.apply(stale, { tokens: 2 }), TypeError, /no live posenc tensor/);
  // The rope still works after all of that, and so does a second one.
  x.fill(1);
  rope.apply(x, { tokens: 2, positions: [0, 0] });
  assert.deepEqual(x, new Float32Array(16).fill(1));
  rope.dispose();
  rope.dispose(); // idempotent
  assert.equal(rope.disposed, true);
  assertThrows(() => rope.apply(x, { tokens: 2 }), TypeError, /disposed/);
  assertThrows(() => rope.row(1), TypeError, /disposed/);
});

test('applyQK (grouped-query attention) equals two apply calls, any mix of arrays and tensors', () => {
  for (const layout of layouts) {
    const rope = pe.rope({ headDim: 24, rotaryDim: 16, layout });
    const T = 6;
    const xq = randomFloats(rng, T * 4 * 24);
    const xk = randomFloats(rng, T * 2 * 24);
    const positions = [0, 7, 7, 100, -4, 65536];
    // q dense [T][4][24]; k heads-major [2][T][24]
    const kStrides = { tokenStride: 24, headStride: T * 24 };
    const wantQ = rope.apply(Float32Array.from(xq), { tokens: T, heads: 4, positions });
    const wantK = rope.apply(Float32Array.from(xk), { tokens: T, heads: 2, positions, ...kStrides });
    const q = Float32Array.from(xq);
    const k = pe.tensor(xk);
    const [rq, rk] = rope.applyQK(q, k, { positions, qHeads: 4, kHeads: 2, kTokenStride: 24, kHeadStride: T * 24 });
    assert.equal(rq, q);
    assert.equal(rk, k);
    assert.deepEqual(q, wantQ);
    assert.deepEqual(k.array, wantK);
    // start offsets, both copied
    const q2 = Float32Array.from(xq);
    const k2 = Float32Array.from(xk);
    rope.applyQK(q2, k2, { tokens: T, start: 50, qHeads: 4, kHeads: 2, kTokenStride: 24, kHeadStride: T * 24 });
    assert.deepEqual(q2, rope.apply(Float32Array.from(xq), { tokens: T, heads: 4, start: 50 }));
    assertThrows(() => rope.applyQK(q2, k2, { tokens: T, qHeads: 4, kHeads: 3 }), RangeError, /\bk\b/);
    assertThrows(() => rope.applyQK(q2, k2, { tokens: T, qHeads: 4, kHeads: 2, kHeadStride: -1 }), RangeError, /kHeadStride/);
    k.dispose();
    rope.dispose();
  }
});

test("angles: 'float32' forms angles the common way: fine near 0, drifting at 10^6; 'exact' does not drift", () => {
  for (const layout of layouts) {
    const ro = { headDim: 64, layout };
    const exact = pe.rope(ro);
    const common = pe.rope({ ...ro, angles: 'float32' });
    assert.equal(common.angles, 'float32');
    assert.equal(exact.angles, 'exact');
    const x = randomFloats(rng, 4 * 64);
    for (const [start, drifts] of [[0, false], [1000000, true]]) {
      const call = { tokens: 4, start };
      const want = ref.ropeApply(x, { ...ro, ...call, heads: 1 });
      const a = exact.apply(Float32Array.from(x), call);
      const b = common.apply(Float32Array.from(x), call);
      assertClose(a, want, tol(), `exact at ${start}`);
      const err = Math.max(...b.map((v, i) => Math.abs(v - want[i])));
      if (drifts) assert.ok(err > 1e-3, `float32 angles drift at ${start}: ${err}`);
      else assert.ok(err < 1e-5, `float32 angles are fine at ${start}: ${err}`);
    }
    // The drift breaks RoPE's shift invariance; exact angles keep it.
    const s = { q: randomFloats(rng, 3 * 64), k: randomFloats(rng, 3 * 64), dim: 64, layout, qPositions: [0, 1, 2], kPositions: [3, 4, 5], shift: 1000000 };
    assert.ok(pe.shiftInvariance({ ...s, angles: 'float32' }) > 1e-3);
    assert.ok(pe.shiftInvariance(s) < 1e-4);
    assertThrows(() => pe.rope({ ...ro, angles: 'bf16' }), RangeError, /\bangles\b/, /float32/);
    exact.dispose();
    common.dispose();
  }
});

test('apply with out: same numbers as in place, x untouched, pass-through dims copied', () => {
  for (const layout of layouts) {
    const rope = pe.rope({ headDim: 20, rotaryDim: 12, layout });
    const x = randomFloats(rng, 3 * 2 * 20);
    const call = { tokens: 3, heads: 2, positions: [4, -9, 1000] };
    const inPlace = rope.apply(Float32Array.from(x), call);
    const src = Float32Array.from(x);
    const out = new Float32Array(x.length).fill(NaN);
    assert.equal(rope.apply(src, { ...call, out }), out);
    assert.deepEqual(out, inPlace);
    assert.deepEqual(src, x, 'x unchanged');
    const t = pe.tensor(x.length);
    assert.equal(rope.invert(out, { ...call, out: t }), t, 'into a tensor');
    assertClose(t.array, x, 2e-6);
    // Heads-major strides apply to both.
    const hm = { tokens: 3, heads: 2, start: 5, tokenStride: 20, headStride: 60 };
    assert.deepEqual(rope.apply(src, { ...hm, out: new Float32Array(x.length) }), rope.apply(Float32Array.from(x), hm));
    // Overlapping views of one tensor are refused; the very same view rotates in place.
    const u = pe.tensor(x);
    assertThrows(() => rope.apply(u.array.subarray(0, 100), { tokens: 2, heads: 2, start: 0, out: u.array.subarray(20) }),
      RangeError, /\bout\b|share|overlap/);
    assert.deepEqual(u.array, x);
    rope.apply(u, { ...call, out: u });
    assert.deepEqual(u.array, inPlace);
    assertThrows(() => rope.apply(src, { ...call, out: new Float32Array(10) }), RangeError, /\bout\b/);
    assertThrows(() => rope.apply(src, { ...call, out: [] }), TypeError, /\bout\b/);
    for (const h of [t, u]) h.dispose();
    rope.dispose();
  }
});
