// RoPE on float16 / bfloat16 storage through the JS API, on both binaries: every rotated
// value within 1 ulp of the 16-bit format of the exact float64 rotation of the decoded
// inputs (rounded to nearest even by a reference written here), pass-through bits kept,
// GQA, M-RoPE on 16-bit data, and the refused combinations with nothing written.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, assertThrows, loadBoth } from './support.mjs';
import { FORMATS, bf16Round, bf16Value, f16Value, worstUlp } from './half-reference.mjs';

const both = await loadBoth();
const rng = new Random(1717);
function randomHalf(n, dtype) {
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = FORMATS[dtype].round(rng.uniform(-2, 2));
  return out;
}

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: 16-bit RoPE within 1 ulp of the exact rotation (float16, bfloat16; both layouts; large positions)`, () => {
    for (const dtype of ['float16', 'bfloat16']) {
      // yarn: attention factor ≠ 1 (the scaled kernels); without it, the unscaled ones. Rotary
      // dims that are not whole vectors of 16-bit values leave a tail to the scalar code.
      for (const [headDim, rotaryDim, layout, heads, yarn] of [[64, 64, 'half', 2, true],
        [128, 128, 'interleaved', 4, true], [80, 80, 'half', 3, true], [128, 96, 'half', 2, true],
        [64, 64, 'half', 2, false], [128, 128, 'interleaved', 3, false], [64, 36, 'interleaved', 3, false],
        [80, 40, 'interleaved', 2, true]]) {
        const rope = pe.rope({ headDim, rotaryDim, base: 1e6, layout, cacheLength: 8,
          ...(yarn && { scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } }) });
        const positions = [0, 7, 8, 1000000, 2 ** 24, -3];
        const x = randomHalf(positions.length * heads * headDim, dtype);
        const y = rope.apply(x.slice(), { heads, positions, dtype });
        const worst = worstUlp(rope, x, y, heads, positions, dtype);
        assert.ok(worst <= 1, `${dtype} ${headDim}/${rotaryDim} ${layout}: ${worst} ulp`);
        // invert undoes it to two 16-bit roundings.
        const back = rope.invert(y, { heads, positions, dtype });
        const { value } = FORMATS[dtype];
        const f = rope.attentionFactor;
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

  // The conversions of each binary's 16-bit kernels, bit for bit: every 16-bit pattern as
  // input (subnormals, ±Inf, NaNs), rotated at position 0 with attention factor 0.5 (results
  // on exact ties, subnormal results) and 2 (overflow to Inf), and at varied positions; each
  // result must be the round-to-nearest-even of the float32 apply of the widened input.
  test(`${name}: 16-bit apply = the 16-bit rounding of the float32 apply, every input pattern (ties, subnormals, Inf, NaN)`, () => {
    const all = Uint16Array.from({ length: 65536 }, (_, i) => i);
    const tokens = 512;
    for (const dtype of ['float16', 'bfloat16']) {
      const { value, round } = FORMATS[dtype];
      const inf = dtype === 'float16' ? 0x7c00 : 0x7f80;
      for (const [attentionFactor, layout, positions] of [
        [0.5, 'half', new Int32Array(tokens)], [2, 'interleaved', new Int32Array(tokens)],
        [1.25, 'half', Int32Array.from({ length: tokens }, (_, t) => t * 37 + 5)],
        [1, 'interleaved', Int32Array.from({ length: tokens }, (_, t) => t * 37 + 5)]]) {
        const rope = pe.rope({ headDim: 128, base: 10000, layout, cacheLength: 8,
          scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096, attentionFactor } });
        const y = rope.apply(all.slice(), { tokens, positions, dtype });
        const wide = Float32Array.from(all, value);
        rope.apply(wide, { tokens, positions });
        for (let i = 0; i < all.length; i++) {
          const w = wide[i];
          const where = `${dtype} factor ${attentionFactor}: input 0x${all[i].toString(16)} → ${w}, got 0x${y[i].toString(16)}`;
          if (Number.isNaN(w)) assert.ok(Number.isNaN(value(y[i])), where);
          else if (!Number.isFinite(w)) assert.equal(y[i], w < 0 ? inf | 0x8000 : inf, where);
          else assert.equal(y[i], round(w), where);
        }
        rope.dispose();
      }
    }
  });

  // Specials mixed among finite values (every 37th element: NaNs, ±Inf, subnormals, −0), so a
  // vector of 16-bit values holds both and takes the conversions' rare paths with finite
  // neighbours; both layouts, scaled and not: again the 16-bit rounding of the float32 apply.
  test(`${name}: 16-bit apply with specials among finite values = the rounding of the float32 apply`, () => {
    const tokens = 16, heads = 3, headDim = 64;
    const positions = Int32Array.from({ length: tokens }, (_, t) => t * 11 + 3);
    for (const dtype of ['float16', 'bfloat16']) {
      const { value, round } = FORMATS[dtype];
      const inf = dtype === 'float16' ? 0x7c00 : 0x7f80;
      const specials = dtype === 'float16' ? [0x7e00, 0x7d01, 0xfc00, 0x7c00, 0x0001, 0x83ff, 0x8000]
        : [0x7fc0, 0x7f81, 0xff80, 0x7f80, 0x0001, 0x807f, 0x8000];
      const x = randomHalf(tokens * heads * headDim, dtype);
      for (let i = 0; i < x.length; i += 37) x[i] = specials[(i / 37) % specials.length];
      for (const layout of ['half', 'interleaved']) {
        for (const attentionFactor of [1, 1.5]) {
          const rope = pe.rope({ headDim, base: 10000, layout, cacheLength: 8,
            scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096, attentionFactor } });
          const y = rope.apply(x.slice(), { heads, positions, dtype });
          const wide = Float32Array.from(x, value);
          rope.apply(wide, { heads, positions });
          for (let i = 0; i < x.length; i++) {
            const where = `${dtype} ${layout} factor ${attentionFactor}: element ${i} → ${wide[i]}, got 0x${y[i].toString(16)}`;
            if (Number.isNaN(wide[i])) assert.ok(Number.isNaN(value(y[i])), where);
            else if (!Number.isFinite(wide[i])) assert.equal(y[i], wide[i] < 0 ? inf | 0x8000 : inf, where);
            else assert.equal(y[i], round(wide[i]), where);
          }
          rope.dispose();
        }
      }
    }
  });

  // The SIMD binary rotates float16 rows in blocks of up to 2048 float32 values (rows past
  // that take the fused kernel); a row with a special value is redone on its own. Many heads
  // (several blocks), one row per block, rows past 2048 and rows with a tail of fewer than 8
  // values, specials in a late block only, in place and out of place (the dims past
  // rotaryDim copied): each output the 16-bit rounding of the float32 apply.
  test(`${name}: 16-bit apply across head blocks, long rows and tails = the rounding of the float32 apply`, () => {
    const tokens = 3;
    const positions = Int32Array.from({ length: tokens }, (_, t) => t * 7 + 2);
    for (const dtype of ['float16', 'bfloat16']) {
      const { value, round } = FORMATS[dtype];
      const inf = dtype === 'float16' ? 0x7c00 : 0x7f80;
      const special = dtype === 'float16' ? [0x7e00, 0xfc00, 0x0001, 0x8000] : [0x7fc0, 0xff80, 0x0001, 0x8000];
      for (const [headDim, rotaryDim, heads, layout, outOfPlace] of [[128, 128, 40, 'half', false],
        [128, 96, 37, 'interleaved', true], [2048, 2048, 3, 'half', true], [1040, 1036, 5, 'interleaved', false],
        [4112, 4100, 2, 'half', true], [24, 20, 90, 'half', false]]) {
        const rope = pe.rope({ headDim, rotaryDim, base: 10000, layout, cacheLength: 32,
          scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096, attentionFactor: 1.25 } });
        const x = randomHalf(tokens * heads * headDim, dtype);
        const lateHead = (tokens * heads - 2) * headDim;  // the last token's next-to-last head
        for (let k = 0; k < special.length; k++) x[lateHead + 3 * k] = special[k];
        const before = x.slice();
        const out = outOfPlace ? new Uint16Array(x.length).fill(0x1234) : x;
        rope.apply(x, { heads, positions, dtype, ...(outOfPlace && { out }) });
        const wide = Float32Array.from(before, value);
        rope.apply(wide, { heads, positions });
        for (let i = 0; i < x.length; i++) {
          const where = `${dtype} ${headDim}/${rotaryDim} × ${heads} ${layout}: element ${i} → ${wide[i]}, got 0x${out[i].toString(16)}`;
          if (Number.isNaN(wide[i])) assert.ok(Number.isNaN(value(out[i])), where);
          else if (!Number.isFinite(wide[i])) assert.equal(out[i], wide[i] < 0 ? inf | 0x8000 : inf, where);
          else assert.equal(out[i], round(wide[i]), where);
        }
        if (outOfPlace) assert.deepEqual(x, before, 'the input is unchanged');
        rope.dispose();
      }
    }
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
    assertThrows(() => rope.apply(u, { tokens: 2, dtype: 'float16', out: new Float32Array(16) }), TypeError, /out/, /dtype/);
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
