// ALiBi, T5 buckets, Shaw distances and the learned table, on both binaries, against
// float64 references transcribed here from Hugging Face transformers:
//   src/transformers/models/bloom/modeling_bloom.py  build_alibi_tensor      (slopes)
//   src/transformers/models/mpt/modeling_mpt.py      build_mpt_alibi_tensor  (slopes, −slope·|i−j|)
//   src/transformers/models/t5/modeling_t5.py        T5Attention._relative_position_bucket,
//                                                    T5Attention.compute_bias (key − query)
// plus hostile options (getters, proxies, prototype pollution, wrong types).
import test from 'node:test';
import assert from 'node:assert/strict';
import { assertThrows, loadBoth } from './support.mjs';

const { simd, scalar } = await loadBoth();

// BLOOM build_alibi_tensor (float64).
function bloomSlopes(numHeads) {
  const cp = 2 ** Math.floor(Math.log2(numHeads));
  const base = 2 ** -(2 ** -(Math.log2(cp) - 3));
  const slopes = Array.from({ length: cp }, (_, i) => base ** (i + 1));
  if (cp !== numHeads) {
    const extra = 2 ** -(2 ** -(Math.log2(2 * cp) - 3));
    const remaining = Math.min(cp, numHeads - cp);
    for (let p = 1; p < 1 + 2 * remaining; p += 2) slopes.push(extra ** p);
  }
  return slopes;
}

// MPT build_mpt_alibi_tensor, alibi_bias_max = 8 (float64).
function mptSlopes(numHeads) {
  const n2 = 2 ** Math.ceil(Math.log2(numHeads));
  const s = Array.from({ length: n2 }, (_, i) => 1 / 2 ** ((i + 1) * (8 / n2)));
  if (n2 === numHeads) return s;
  return [...s.filter((_, i) => i % 2 === 1), ...s.filter((_, i) => i % 2 === 0)].slice(0, numHeads);
}

// T5Attention._relative_position_bucket; `f32` keeps HF's float32 tensor arithmetic.
function t5Bucket(relativePosition, bidirectional, numBuckets, maxDistance, f32 = true) {
  const f = f32 ? Math.fround : (x) => x;
  let buckets = 0;
  let r = relativePosition;
  let n = numBuckets;
  if (bidirectional) {
    n = Math.floor(n / 2);
    buckets += (r > 0 ? 1 : 0) * n;
    r = Math.abs(r);
  } else {
    r = -Math.min(r, 0);
  }
  const maxExact = Math.floor(n / 2);
  const isSmall = r < maxExact;
  const v = f(f(f(Math.log(f(f(r) / maxExact))) / f(Math.log(maxDistance / maxExact))) * (n - maxExact));
  const large = Math.min(maxExact + Math.trunc(v), n - 1);
  return buckets + (isSmall ? r : large);
}

const ulp = (x) => Math.abs(x) * Number.EPSILON;

for (const [name, pe] of [['simd', simd], ['scalar', scalar]]) {
  test(`${name}: alibiSlopes follows BLOOM and MPT for 1 … 64 heads (12, 20, 40 included)`, () => {
    for (let heads = 1; heads <= 64; heads++) {
      const got = pe.alibiSlopes({ heads });
      assert.ok(got instanceof Float64Array);
      assert.equal(got.length, heads);
      const bloom = bloomSlopes(heads);
      const mpt = mptSlopes(heads);
      // The references raise a rounded base to the p-th power (error ≤ p/2 + 1 ulp); the core
      // takes exp2 of the exact exponent.
      for (let h = 0; h < heads; h++) {
        const tol = (h + 4) * ulp(bloom[h]);
        assert.ok(Math.abs(got[h] - bloom[h]) <= tol, `heads ${heads}, head ${h}: ${got[h]} vs BLOOM ${bloom[h]}`);
        assert.ok(Math.abs(got[h] - mpt[h]) <= tol, `heads ${heads}, head ${h}: ${got[h]} vs MPT ${mpt[h]}`);
      }
    }
    assert.deepEqual([...pe.alibiSlopes({ heads: 8 })], [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]);
  });

  test(`${name}: alibiBias = −slope·|i − j| with the causal mask and a query offset`, () => {
    for (const heads of [12, 20, 40]) {
      for (const causal of [false, true]) {
        const queries = 3; const keys = 7;
        const got = pe.alibiBias({ heads, queries, keys, causal });
        assert.equal(got.length, heads * queries * keys);
        const slopes = bloomSlopes(heads);
        for (let h = 0; h < heads; h++) {
          for (let i = 0; i < queries; i++) {
            const at = keys - queries + i;
            for (let j = 0; j < keys; j++) {
              const v = got[(h * queries + i) * keys + j];
              if (causal && j > at) { assert.equal(v, -Infinity, `h ${h} i ${i} j ${j}: masked`); continue; }
              // float32 of −slope·|i − j|: within one float32 ulp of the float64 reference.
              const want = -slopes[h] * Math.abs(at - j);
              assert.ok(Math.abs(v - want) <= Math.abs(want) * 2 ** -23, `h ${h} i ${i} j ${j}: ${v} vs ${want}`);
            }
          }
        }
      }
    }
    // queries defaults to keys: a square matrix, 0 on the diagonal.
    const square = pe.alibiBias({ heads: 2, keys: 4 });
    assert.equal(square.length, 32);
    assert.ok(square[5] === 0, 'the diagonal is zero');
    assert.equal(square[3], -0.0625 * 3);  // head 0 of 2: slope 2^-4, |0 − 3|
  });

  test(`${name}: t5Buckets is HF's _relative_position_bucket of key − query, both directions`, () => {
    const shapes = [
      { bidirectional: true, numBuckets: 32, maxDistance: 128 },
      { bidirectional: false, numBuckets: 32, maxDistance: 128 },
      { bidirectional: true, numBuckets: 64, maxDistance: 256 },
      { bidirectional: false, numBuckets: 16, maxDistance: 40 },
    ];
    for (const s of shapes) {
      const queries = 200; const keys = 320;
      const got = pe.t5Buckets({ queries, keys, ...s });
      assert.ok(got instanceof Int32Array);
      for (let i = 0; i < queries; i++) {
        for (let j = 0; j < keys; j++) {
          const want = t5Bucket(j - i, s.bidirectional, s.numBuckets, s.maxDistance);
          if (got[i * keys + j] !== want) assert.fail(`${JSON.stringify(s)} (${i}, ${j}): ${got[i * keys + j]} ≠ ${want}`);
          // On these shapes the float64 formula lands in the same buckets.
          assert.equal(want, t5Bucket(j - i, s.bidirectional, s.numBuckets, s.maxDistance, false));
        }
      }
    }
    // Defaults: 32 buckets, 128, bidirectional; keys = queries.
    const d = pe.t5Buckets({ queries: 3 });
    assert.deepEqual([...d], [0, 17, 18, 1, 0, 17, 2, 1, 0]);
  });

  test(`${name}: clippedDistances and learnedTable`, () => {
    const d = pe.clippedDistances({ queries: 4, keys: 6, maxDistance: 2 });
    for (let i = 0; i < 4; i++) for (let j = 0; j < 6; j++) assert.equal(d[i * 6 + j], Math.max(-2, Math.min(2, j - i)));
    const table = pe.learnedTable({ positions: 512, dim: 32, seed: 3 });
    assert.equal(table.parameters, 16384);
    const rows = table.lookup([0, 511]);
    assert.equal(rows.length, 64);
    const direct = pe.fillUniform(new Float32Array(512 * 32), { seed: 3 });
    assert.deepEqual([...rows.subarray(32)], [...direct.subarray(511 * 32)]);
    assertThrows(() => table.lookup([3, 512]), RangeError, /positions\[1\]/, /no vector past/);
    assertThrows(() => table.lookup([-1]), RangeError, /positions\[0\]/);
    assertThrows(() => table.lookup('0'), TypeError, /positions/);
  });

  test(`${name}: bad input names the argument and leaves the module working`, () => {
    assertThrows(() => pe.alibiSlopes({ heads: 0 }), RangeError, /heads/);
    assertThrows(() => pe.alibiSlopes({ heads: 1.5 }), RangeError, /heads/);
    assertThrows(() => pe.alibiSlopes({ heads: '8' }), TypeError, /heads/);
    assertThrows(() => pe.alibiSlopes({ heads: 8, head: 8 }), TypeError, /unknown option 'head'/);
    assertThrows(() => pe.alibiSlopes(null), TypeError, /options/);
    assertThrows(() => pe.alibiBias({ heads: 4, queries: 9, keys: 4 }), RangeError, /queries/);
    assertThrows(() => pe.alibiBias({ heads: 4, keys: 4, causal: 1 }), TypeError, /causal/);
    assertThrows(() => pe.alibiBias({ heads: 4096, keys: 16384 }), RangeError, /heads \* queries \* keys/);
    assertThrows(() => pe.t5Buckets({ queries: 4, numBuckets: 3 }), RangeError, /numBuckets/);
    assertThrows(() => pe.t5Buckets({ queries: 4, maxDistance: 8 }), RangeError, /maxDistance/);
    assertThrows(() => pe.t5Buckets({ queries: 4, bidirectional: 'yes' }), TypeError, /bidirectional/);
    assertThrows(() => pe.clippedDistances({ queries: 4, maxDistance: -1 }), RangeError, /maxDistance/);
    assertThrows(() => pe.learnedTable({ positions: 0, dim: 4 }), RangeError, /positions/);
    assertThrows(() => pe.learnedTable({ positions: 4, dim: 4, seed: -1 }), RangeError, /seed/);
    assertThrows(() => pe.learnedTable({ positions: 2 ** 20, dim: 1024 }), RangeError, /positions \* dim/);
    assert.equal(pe.alibiSlopes({ heads: 2 }).length, 2);
  });

  test(`${name}: options are read once, own properties only`, () => {
    let reads = 0;
    const opts = { get heads() { reads++; return reads === 1 ? 4 : 0; }, keys: 5 };
    assert.equal(pe.alibiBias(opts).length, 4 * 5 * 5);
    assert.equal(reads, 1);
    const proxied = new Proxy({ queries: 3 }, { get: (t, k) => { reads++; return t[k]; } });
    reads = 0;
    assert.equal(pe.t5Buckets(proxied).length, 9);
    assert.equal(reads, 0, 'own data properties are read by descriptor, never through the get trap');
    Object.prototype.causal = true;  // eslint-disable-line no-extend-native
    Object.prototype.maxDistance = 1;
    try {
      const bias = pe.alibiBias({ heads: 1, keys: 3 });
      assert.equal(bias[2], -2 / 256, 'an inherited causal is ignored');
      assert.equal(pe.t5Buckets({ queries: 2 })[1], 17, 'an inherited maxDistance is ignored');
    } finally {
      delete Object.prototype.causal;
      delete Object.prototype.maxDistance;
    }
    const inherited = Object.create({ heads: 4 });
    assertThrows(() => pe.alibiSlopes(inherited), TypeError, /heads/);
  });
}
