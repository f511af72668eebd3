// rope.cosSin (HF's full-width pair) against the float64 reference on both binaries, its
// refused inputs, and the growing cos/sin cache of a rotator made without cacheLength
// (bit-identical to a full cache and to no cache, across every rebuild).
import test from 'node:test';
import assert from 'node:assert/strict';
import * as ref from './reference.mjs';
import { Random, assertThrows, loadBoth, randomFloats } from './support.mjs';

const both = await loadBoth();
const rng = new Random(4242);

// f·cos/sin(p·θ_i) in float64 at its place in the layout: [tokens][rotaryDim] each.
function referencePair(positions, { rotaryDim, layout, scaling, base = 10000 }) {
  const { invFreq, attentionFactor: f } = ref.inverseFrequencies({ dim: rotaryDim, base, scaling });
  const half = rotaryDim / 2;
  const cos = new Float64Array(positions.length * rotaryDim);
  const sin = new Float64Array(positions.length * rotaryDim);
  positions.forEach((p, t) => {
    for (let i = 0; i < half; i++) {
      const a = Number(p) * invFreq[i];
      for (const j of layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + half]) {
        cos[t * rotaryDim + j] = f * Math.cos(a);
        sin[t * rotaryDim + j] = f * Math.sin(a);
      }
    }
  });
  return { cos, sin, f };
}

function assertPair(got, want, what) {
  for (const k of ['cos', 'sin']) {
    assert.ok(got[k] instanceof Float32Array, `${what}: ${k} is a Float32Array`);
    assert.equal(got[k].length, want[k].length, `${what}: ${k} length`);
    for (let i = 0; i < want[k].length; i++) {
      const err = Math.abs(got[k][i] - want[k][i]);
      assert.ok(err <= 3e-7 * want.f, `${what}: ${k}[${i}] = ${got[k][i]}, want ${want[k][i]}`);
    }
  }
}

const YARN = { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 };

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: cosSin is HF's full-width pair in both layouts, times the attention factor`, () => {
    for (const layout of ['half', 'interleaved']) {
      for (const scaling of [undefined, YARN]) {
        for (const cacheLength of [undefined, 0, 64]) {
          const opts = { headDim: 40, rotaryDim: 24, layout, scaling, cacheLength };
          const rope = pe.rope(opts);
          const positions = [0, 1, 63, 64, 4000, -9, 65535, 12345];
          const want = referencePair(positions, { ...opts, rotaryDim: 24 });
          if (scaling) assert.ok(want.f > 1);
          const what = `${layout} ${scaling?.type ?? 'default'} cacheLength ${cacheLength}`;
          assertPair(rope.cosSin({ positions }), want, what);
          assertPair(rope.cosSin({ positions: Int32Array.from(positions) }), want, `${what} Int32Array`);
          assertPair(rope.cosSin({ positions: BigInt64Array.from(positions, BigInt) }), want, `${what} BigInt64Array`);
          assertPair(rope.cosSin({ positions: positions.map(BigInt) }), want, `${what} bigint[]`);
          assertPair(rope.cosSin({ start: 62, tokens: 3 }), referencePair([62, 63, 64], { ...opts, rotaryDim: 24 }),
            `${what} start`);
          assertPair(rope.cosSin({ tokens: 2 }), referencePair([0, 1], { ...opts, rotaryDim: 24 }), `${what} tokens`);
          const empty = rope.cosSin({ tokens: 0 });
          assert.equal(empty.cos.length + empty.sin.length, 0);
          rope.dispose();
        }
      }
    }
  });

  test(`${name}: cosSin matches row() and what apply rotates with`, () => {
    const rope = pe.rope({ headDim: 8 });
    const { cos, sin } = rope.cosSin({ positions: [777] });
    const row = rope.row(777);
    assert.deepEqual(Array.from(cos), [...row.cos, ...row.cos]);
    assert.deepEqual(Array.from(sin), [...row.sin, ...row.sin]);
    // x = [1, 0, 0, 0 | 0, 0, 0, 0] rotated: pair 0 becomes (cos, sin).
    const x = new Float32Array(8);
    x[0] = 1;
    rope.apply(x, { positions: [777] });
    assert.equal(x[0], cos[0]);
    assert.equal(x[4], sin[0]);
    rope.dispose();
  });

  test(`${name}: cosSin refuses bad input with a clear error and keeps working`, () => {
    const rope = pe.rope({ headDim: 16 });
    assertThrows(() => rope.cosSin(), TypeError, /tokens/);
    assertThrows(() => rope.cosSin({ tokens: 1, bogus: 1 }), TypeError, /bogus/);
    assertThrows(() => rope.cosSin({ positions: [1], start: 0 }), TypeError, /positions or start/);
    assertThrows(() => rope.cosSin({ positions: [1, 2], tokens: 3 }), RangeError, /positions.*tokens/);
    assertThrows(() => rope.cosSin({ tokens: -1 }), RangeError, /tokens/);
    assertThrows(() => rope.cosSin({ tokens: 1.5 }), RangeError, /tokens/);
    assertThrows(() => rope.cosSin({ start: 2 ** 53, tokens: 2 }), RangeError, /start/);
    assertThrows(() => rope.cosSin({ positions: [0, 2 ** 40] }), RangeError, /positions/);
    assertThrows(() => rope.cosSin({ positions: new Float32Array(2) }), TypeError, /positions/);
    assertThrows(() => rope.cosSin.call({}, { tokens: 1 }), TypeError, /pe\.rope\(\)/);
    // Each option read once, own properties only; a Proxy is just another object.
    let reads = 0;
    const once = { get tokens() { reads++; return reads === 1 ? 2 : 1e9; } };
    assert.equal(rope.cosSin(once).cos.length, 2 * 16);
    assert.equal(reads, 1);
    const proto = Object.create({ tokens: 3 });
    assertThrows(() => rope.cosSin(proto), TypeError, /tokens/);
    const proxied = new Proxy({ tokens: 1 }, {});
    assert.equal(rope.cosSin(proxied).sin.length, 16);
    // A re-entrant call from a positions getter cannot interleave with the first one.
    const reentrant = { get positions() { rope.cosSin({ tokens: 5 }); return [3]; } };
    assertPair(rope.cosSin(reentrant), referencePair([3], { rotaryDim: 16, layout: 'half' }), 're-entrant');
    assertPair(rope.cosSin({ positions: [5] }), referencePair([5], { rotaryDim: 16, layout: 'half' }), 'after errors');
    rope.dispose();
    assertThrows(() => rope.cosSin({ tokens: 1 }), TypeError, /disposed/);
  });

  test(`${name}: without cacheLength the cache grows as positions are seen, same numbers`, () => {
    const headDim = 64;
    const grown = pe.rope({ headDim, layout: 'interleaved' });
    const none = pe.rope({ headDim, layout: 'interleaved', cacheLength: 0 });
    const full = pe.rope({ headDim, layout: 'interleaved', cacheLength: 40000 });
    const shifted = pe.rope({ headDim, layout: 'interleaved', cacheStart: 100 });
    // Decode steps past each rebuild and past the 2^20-float bound (16384 rows here), then
    // prefill chunks, explicit and BigInt positions, and positions below cacheStart.
    const calls = [
      ...[0, 1, 255, 256, 257, 600, 4000, 4095, 4096, 16383, 16384, 39999].map((start) => ({ start, tokens: 1 })),
      { start: 10, tokens: 300 },
      { positions: [5, 70000, -3, 2000] },
      { positions: BigInt64Array.of(9n, 30000n) },
    ];
    for (const opts of calls) {
      const x = randomFloats(rng, 4 * headDim * (opts.tokens ?? opts.positions.length));
      const outs = [grown, none, full, shifted].map((r) => r.apply(Float32Array.from(x), { heads: 4, ...opts }));
      for (const out of outs.slice(1)) assert.deepEqual(out, outs[0], JSON.stringify(opts, (k, v) => typeof v === 'bigint' ? `${v}` : v));
    }
    const q = randomFloats(rng, 2 * headDim);
    const k = randomFloats(rng, headDim);
    const qk = [grown, full].map((r) => r.applyQK(Float32Array.from(q), Float32Array.from(k),
      { qHeads: 2, kHeads: 1, start: 50000, tokens: 1 }));
    assert.deepEqual(qk[0], qk[1]);
    assert.deepEqual(grown.cosSin({ start: 3000, tokens: 2 }), full.cosSin({ start: 3000, tokens: 2 }));
    for (const r of [grown, none, full, shifted]) r.dispose();
    assert.equal(grown.disposed, true);
  });
}

// HF's merged (cos, sin) of a multi-axis rotator in float64, [T][rotaryDim], half layout,
// written from transformers' code (positions [axes][T]):
//  - mrope: modeling_qwen2_vl.py apply_multimodal_rotary_pos_emb — cos = cat(freqs, freqs)
//    per axis, split by mrope_section * 2, chunk j taken from axis j % 3;
//  - mrope-interleaved: modeling_qwen3_vl.py Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope
//    — freqs_t[..., offset : 3·section[offset] : 3] = freqs[offset] for offset 1 (h), 2 (w);
//  - qwen2-vl: modeling_qwen2_vl.py VisionRotaryEmbedding(head_dim / 2) + rot_pos_emb —
//    cat(freqs[row], freqs[col]), then cat(emb, emb);
//  - pixtral: modeling_pixtral.py PixtralRotaryEmbedding — cat(outer(row, freqs[::2]),
//    outer(col, freqs[1::2])), then cat(inv_freq, inv_freq).
function referenceMulti(kind, positions, { rotaryDim, base, section, scaling }) {
  const half = rotaryDim / 2;
  const axes = kind === 'qwen2-vl' || kind === 'pixtral' ? 2 : 3;
  const T = positions.length / axes;
  const at = (a, t) => Number(positions[a * T + t]);
  const { invFreq: theta, attentionFactor: f } = ref.inverseFrequencies({ dim: rotaryDim, base, scaling });
  const cos = new Float64Array(T * rotaryDim);
  const sin = new Float64Array(T * rotaryDim);
  for (let t = 0; t < T; t++) {
    const angle = new Float64Array(half); // the merged half row
    if (kind === 'mrope') {
      const chunks = [...section, ...section];
      let k = 0;
      chunks.forEach((size, j) => {
        for (let e = 0; e < size; e++, k++) if (k < half) angle[k] = at(j % 3, t) * theta[k];
      });
    } else if (kind === 'mrope-interleaved') {
      for (let i = 0; i < half; i++) angle[i] = at(0, t) * theta[i];
      for (const offset of [1, 2]) {
        for (let i = offset; i < 3 * section[offset]; i += 3) angle[i] = at(offset, t) * theta[i];
      }
    } else if (kind === 'qwen2-vl') {
      const dim = rotaryDim / 2; // VisionRotaryEmbedding(head_dim // 2)
      const phi = Array.from({ length: dim / 2 }, (_, j) => 1 / base ** ((2 * j) / dim));
      phi.forEach((p, j) => { angle[j] = at(0, t) * p; angle[dim / 2 + j] = at(1, t) * p; });
    } else {
      const freqs = Array.from({ length: half }, (_, j) => 1 / base ** ((2 * j) / rotaryDim));
      for (let j = 0; j < half / 2; j++) {
        angle[j] = at(0, t) * freqs[2 * j];
        angle[half / 2 + j] = at(1, t) * freqs[2 * j + 1];
      }
    }
    for (let i = 0; i < half; i++) {
      for (const k of [i, i + half]) { // emb = cat(freqs, freqs)
        cos[t * rotaryDim + k] = f * Math.cos(angle[i]);
        sin[t * rotaryDim + k] = f * Math.sin(angle[i]);
      }
    }
  }
  return { cos, sin, f };
}

// The half-layout pair moved to the interleaved places (value i at 2i and 2i + 1).
function toInterleaved(pair, rotaryDim) {
  const move = (a) => a.map((_, k) => a[k - (k % rotaryDim) + Math.floor((k % rotaryDim) / 2)]);
  return { cos: move(pair.cos), sin: move(pair.sin), f: pair.f };
}

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: cosSin of M-RoPE and 2-D rotators is HF's merged pair`, () => {
    const T = 9;
    const text = (n, hi) => Array.from({ length: n }, () => rng.below(hi));
    const cases = [
      ['mrope', { headDim: 128, base: 1e6, mrope: { section: [16, 24, 24] } }, [16, 24, 24], 3, 100000],
      ['mrope', { headDim: 128, base: 1e6, mrope: { section: [16, 24, 24] }, scaling: YARN }, [16, 24, 24], 3, 30000],
      ['mrope-interleaved', { headDim: 128, base: 5e6, mrope: { section: [24, 20, 20], interleaved: true } },
        [24, 20, 20], 3, 100000],
      ['mrope', { headDim: 64, rotaryDim: 48, base: 1e4, mrope: { section: [8, 8, 8] } }, [8, 8, 8], 3, 5000],
      ['qwen2-vl', { headDim: 80, base: 10000, vision2d: 'qwen2-vl' }, null, 2, 200],
      ['pixtral', { headDim: 64, base: 10000, vision2d: 'pixtral' }, null, 2, 110],
    ];
    for (const [kind, opts, section, axes, hi] of cases) {
      const rope = pe.rope(opts);
      const positions = text(axes * T, hi);
      const want = referenceMulti(kind, positions, { rotaryDim: rope.rotaryDim, base: opts.base, section,
        scaling: opts.scaling });
      const what = `${kind} ${JSON.stringify(opts)}`;
      assertPair(rope.cosSin({ positions }), want, what);
      assertPair(rope.cosSin({ positions: BigInt64Array.from(positions, BigInt) }), want, `${what} BigInt64Array`);
      assertPair(rope.cosSin({ positions: Int32Array.from(positions), tokens: T }), want, `${what} tokens`);
      rope.dispose();
    }
    // Mistral's complex form of Pixtral: the same values at the interleaved places.
    const mistral = pe.rope({ headDim: 64, vision2d: 'pixtral', layout: 'interleaved' });
    const ids = text(2 * T, 110);
    assertPair(mistral.cosSin({ positions: ids }),
      toInterleaved(referenceMulti('pixtral', ids, { rotaryDim: 64, base: 10000 }), 64), 'pixtral interleaved');
  });

  test(`${name}: M-RoPE text tokens (t = h = w) give plain RoPE's pair bit for bit; bad positions refused`, () => {
    for (const mrope of [{ section: [16, 24, 24] }, { section: [24, 20, 20], interleaved: true }]) {
      const m = pe.rope({ headDim: 128, base: 1e6, mrope });
      const plain = pe.rope({ headDim: 128, base: 1e6 });
      const p = [0, 5, 4000, 65535];
      const same = m.cosSin({ positions: [...p, ...p, ...p] });
      assert.deepEqual(same, plain.cosSin({ positions: p }));
      assert.deepEqual(m.cosSin({ start: 4000, tokens: 3 }), plain.cosSin({ start: 4000, tokens: 3 }));
      assertThrows(() => m.cosSin({ positions: [1, 2, 3, 4] }), RangeError, /multiple of 3/);
      assertThrows(() => m.cosSin({ positions: [1, 2, 3], tokens: 2 }), RangeError, /positions holds 3.*tokens is 2/);
      assert.equal(m.cosSin({ positions: [1, 1, 1] }).cos.length, 128, 'still works');
    }
    const vis = pe.rope({ headDim: 80, vision2d: 'qwen2-vl' });
    assertThrows(() => vis.cosSin({ start: 0, tokens: 2 }), RangeError, /not start/);
    assertThrows(() => vis.cosSin({ positions: [1, 2, 3] }), RangeError, /multiple of 2/);
    assert.equal(vis.cosSin({ positions: [1, 2] }).cos.length, 80, 'still works');
  });
}

// cos/sin(p·θ) of the exact product (θ the double the rotator uses), by BigInt: p·θ =
// p·m·2^e exactly, reduced by 2π to 220 bits (Machin's formula), the remainder rounded once
// to a double (|r| < 2π, error ~1e−16) and evaluated by Math.cos / Math.sin.
const SCALE = 220n;
const TWO_PI = (() => {
  const one = 1n << (SCALE + 16n);
  const arctanInv = (x) => {
    let sum = 0n, term = one / x, k = 1n, sign = 1n;
    while (term !== 0n) { sum += sign * (term / k); term /= x * x; k += 2n; sign = -sign; }
    return sum;
  };
  return (8n * (4n * arctanInv(5n) - arctanInv(239n))) >> 16n; // 2π·2^SCALE
})();
function exactAngle(p, theta) {
  const bits = new DataView(new Float64Array([theta]).buffer).getBigUint64(0, true);
  const exp = Number((bits >> 52n) & 0x7ffn) - 1075;
  const mantissa = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  const x = BigInt(p) * mantissa << (SCALE + BigInt(exp)); // p·θ·2^SCALE (exp + SCALE > 0 here)
  const r = x % TWO_PI; // |r| < 2π: the same cos/sin
  return Number(r) / 2 ** Number(SCALE);
}

// Positions 2^24 … 2^53 − 1 (JS's largest start): 2^k ± 1 and a random one in
// [2^k, 2^(k+1)), either sign.
function farPositions(random) {
  const out = [];
  for (let k = 24; k <= 53; k++) {
    const lo = 2 ** k;
    for (const p of [lo + 1, lo - 1, lo + Math.floor(random.uniform(0, 1) * lo)]) {
      if (p <= Number.MAX_SAFE_INTEGER) out.push(p, -p);
    }
  }
  return out;
}

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: cosSin past 2^24 is the exact angle's cos/sin correctly rounded, up to 2^53 (bases 1e4, 5e5)`, () => {
    const random = new Random(53);
    for (const base of [10000, 500000]) {
      const rope = pe.rope({ headDim: 128, base });
      const theta = rope.invFreq;
      let worst = 0;
      let at = '';
      for (const p of farPositions(random)) {
        const { cos, sin } = rope.cosSin({ start: p, tokens: 1 });
        for (let i = 0; i < theta.length; i++) {
          const a = exactAngle(p, theta[i]);
          // Half a float ulp of the value plus 2e−9 (the contract, core/README.md).
          for (const [got, want] of [[cos[i], Math.cos(a)], [sin[i], Math.sin(a)]]) {
            const ulp = Math.max(2 ** -149, 2 ** (Math.floor(Math.log2(Math.abs(want) || 1)) - 23));
            const excess = Math.abs(got - want) - (0.5 * ulp + 2e-9);
            if (excess > worst) { worst = excess; at = `p = ${p}, rung ${i}: ${got} vs ${want}`; }
          }
        }
      }
      assert.ok(worst <= 0, `base ${base}: ${at}`);
      rope.dispose();
    }
  });
}
