// RoPE on float16 / bfloat16 storage through the JS API, on both binaries: every rotated
// value within 1 ulp of the 16-bit format of the exact float64 rotation of the decoded
// inputs (rounded to nearest even by a reference written here), pass-through bits kept,
// GQA, M-RoPE on 16-bit data, and the refused combinations with nothing written.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, assertThrows, loadBoth } from './support.mjs';

const both = await loadBoth();
const rng = new Random(1717);
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

// IEEE binary16 from its fields.
function f16Value(h) {
  const e = (h >> 10) & 31;
  const m = h & 1023;
  const mag = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1024 + m) * 2 ** (e - 25);
  return h & 0x8000 ? -mag : mag;
}
function bf16Value(h) {
  u32[0] = h << 16;
  return f32[0];
}

// Round-half-even of a finite double v onto the grid of a format with `mant` fraction
// bits and minimum normal exponent `emin`, as bits (overflow → Inf).
function roundTo(v, mant, emin, maxFinite, encode) {
  const sign = v < 0 || Object.is(v, -0) ? 1 : 0;
  const a = Math.abs(v);
  let e = Math.max(emin, Math.floor(Math.log2(a || 2 ** emin)));
  if (2 ** e > a && e > emin) e--;
  if (2 ** (e + 1) <= a) e++;
  const ulp = 2 ** (e - mant);
  const q = a / ulp;
  let r = Math.floor(q);
  if (q - r > 0.5 || (q - r === 0.5 && r % 2 === 1)) r++;
  const value = r * ulp;
  return encode(sign, value > maxFinite ? Infinity : value);
}
function f16Round(v) {
  return roundTo(v, 10, -14, 65504, (sign, value) => {
    if (value === Infinity) return (sign << 15) | 0x7c00;
    if (value < 2 ** -14) return (sign << 15) | Math.round(value / 2 ** -24);
    const e = Math.floor(Math.log2(value));
    return (sign << 15) | ((e + 15) << 10) | Math.round((value / 2 ** e - 1) * 1024);
  });
}
function bf16Round(v) {
  return roundTo(v, 7, -126, 3.3895313892515355e38, (sign, value) => {
    f32[0] = value; // exact: value is on the bfloat16 grid (or Inf)
    return (sign << 15) | (u32[0] >>> 16);
  });
}

const FORMATS = {
  float16: { value: f16Value, round: f16Round },
  bfloat16: { value: bf16Value, round: bf16Round },
};
const ordered = (h) => (h & 0x8000 ? -(h & 0x7fff) : h);

function randomHalf(n, dtype) {
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = FORMATS[dtype].round(rng.uniform(-2, 2));
  return out;
}

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: 16-bit RoPE within 1 ulp of the exact rotation (float16, bfloat16; both layouts; large positions)`, () => {
    for (const dtype of ['float16', 'bfloat16']) {
      for (const [headDim, rotaryDim, layout, heads] of [[64, 64, 'half', 2], [128, 128, 'interleaved', 4],
        [80, 80, 'half', 3], [128, 96, 'half', 2]]) {
        const rope = pe.rope({ headDim, rotaryDim, base: 1e6, layout, cacheLength: 8,
          scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } });
        const positions = [0, 7, 8, 1000000, 2 ** 24, -3];
        const x = randomHalf(positions.length * heads * headDim, dtype);
        const y = rope.apply(x.slice(), { heads, positions, dtype });
        const { value, round } = FORMATS[dtype];
        const f = rope.attentionFactor;
        let worst = 0;
        for (let t = 0; t < positions.length; t++) {
          for (let h = 0; h < heads; h++) {
            const o = (t * heads + h) * headDim;
            for (let i = 0; i < rotaryDim / 2; i++) {
              const [ja, jb] = layout === 'half' ? [i, i + rotaryDim / 2] : [2 * i, 2 * i + 1];
              const ang = positions[t] * rope.invFreq[i];
              const a = value(x[o + ja]);
              const b = value(x[o + jb]);
              const ra = round(f * (a * Math.cos(ang) - b * Math.sin(ang)));
              const rb = round(f * (b * Math.cos(ang) + a * Math.sin(ang)));
              worst = Math.max(worst, Math.abs(ordered(y[o + ja]) - ordered(ra)), Math.abs(ordered(y[o + jb]) - ordered(rb)));
            }
            for (let j = rotaryDim; j < headDim; j++) assert.equal(y[o + j], x[o + j]);
          }
        }
        assert.ok(worst <= 1, `${dtype} ${headDim}/${rotaryDim} ${layout}: ${worst} ulp`);
        // invert undoes it to two 16-bit roundings.
        const back = rope.invert(y, { heads, positions, dtype });
        for (let i = 0; i < back.length; i++) assert.ok(Math.abs(value(back[i]) - value(x[i])) <= 2 ** -6 * f);
        rope.dispose();
      }
    }
  });

  test(`${name}: 16-bit applyQK equals two applies; M-RoPE on bfloat16; specials; Float16Array where present`, () => {
    const rope = pe.rope({ headDim: 64, base: 10000 });
    const q = randomHalf(10 * 4 * 64, 'bfloat16');
    const k = randomHalf(10 * 64, 'bfloat16');
    const [q1, k1] = rope.applyQK(q.slice(), k.slice(), { qHeads: 4, kHeads: 1, tokens: 10, start: 500, dtype: 'bfloat16' });
    assert.deepEqual(q1, rope.apply(q.slice(), { heads: 4, tokens: 10, start: 500, dtype: 'bfloat16' }));
    assert.deepEqual(k1, rope.apply(k.slice(), { tokens: 10, start: 500, dtype: 'bfloat16' }));
    // Specials: Inf and NaN stay non-finite, signed zero rotates at position 0 to itself.
    const s = new Uint16Array(64);
    s[0] = 0x7c00; s[1] = 0x7e00; s[2] = 0x8000; s[3] = 0x0001;
    const r0 = rope.apply(s.slice(), { tokens: 1, start: 0, dtype: 'float16' });
    assert.equal(r0[0], 0x7c00);
    assert.equal(r0[2], 0x8000);
    assert.equal(r0[3], 0x0001); // the smallest subnormal survives
    assert.ok(Number.isNaN(f16Value(r0[1])));
    const m = pe.rope({ headDim: 64, base: 1e6, mrope: { section: [8, 12, 12] } });
    const ids = [0, 1, 1, 1, /* h */ 0, 0, 1, 2, /* w */ 0, 2, 0, 1];
    const xm = randomHalf(4 * 2 * 64, 'bfloat16');
    const ym = m.apply(xm.slice(), { heads: 2, positions: ids, dtype: 'bfloat16' });
    const wide = Float32Array.from(xm, bf16Value);
    m.apply(wide, { heads: 2, positions: ids });
    for (let i = 0; i < ym.length; i++) assert.equal(ym[i], bf16Round(wide[i]), `element ${i}`);
    if (typeof globalThis.Float16Array === 'function') {
      const h = new globalThis.Float16Array(randomHalf(64, 'float16').buffer);
      const bits = new Uint16Array(h.buffer).slice();
      rope.apply(h, { tokens: 1, start: 9 });
      assert.deepEqual(new Uint16Array(h.buffer), rope.apply(bits, { tokens: 1, start: 9, dtype: 'float16' }));
      assertThrows(() => rope.apply(h, { tokens: 1, dtype: 'bfloat16' }), TypeError, /Float16Array/, /dtype/);
    }
    rope.dispose();
    m.dispose();
  });

  test(`${name}: refused 16-bit combinations name the argument; nothing written`, () => {
    const rope = pe.rope({ headDim: 8 });
    const f = new Float32Array(16).fill(0.25);
    const u = new Uint16Array(16).fill(0x3c00);
    const t = pe.tensor(16);
    assertThrows(() => rope.apply(f, { tokens: 2, dtype: 'float16' }), TypeError, /dtype/, /Float32Array/);
    assertThrows(() => rope.apply(t, { tokens: 2, dtype: 'bfloat16' }), TypeError, /dtype/, /tensor/);
    assertThrows(() => rope.apply(u, { tokens: 2 }), TypeError, /Uint16Array/, /dtype/);
    assertThrows(() => rope.apply(u, { tokens: 2, dtype: 'half' }), RangeError, /dtype/);
    assertThrows(() => rope.apply(u, { tokens: 2, dtype: 'float16', out: new Uint16Array(16) }), TypeError, /out/);
    assertThrows(() => rope.apply(u, { positions: [1, 2, 3], tokens: 2, dtype: 'float16' }), RangeError, /positions/);
    assertThrows(() => rope.apply(u, { tokens: 3, dtype: 'float16' }), RangeError, /x/);
    assertThrows(() => rope.applyQK(u, f, { tokens: 2, dtype: 'float16' }), TypeError, /dtype/);
    assertThrows(() => rope.applyQK(u, new Uint16Array(u.buffer, 8, 8), { tokens: 1, dtype: 'float16' }), RangeError,
      /share memory/);
    assertThrows(() => rope.apply(new Uint16Array(pe.memoryStats ? t.array.buffer : u.buffer, 0, 16), { tokens: 2, dtype: 'float16' }),
      TypeError, /WebAssembly memory/);
    assert.ok(f.every((v) => v === 0.25));
    assert.ok(u.every((v) => v === 0x3c00));
    assert.ok(t.array.every((v) => v === 0));
    rope.apply(u, { tokens: 2, start: 1, dtype: 'float16' });
    assert.ok(u.some((v) => v !== 0x3c00));
    t.dispose();
    rope.dispose();
  });
}
