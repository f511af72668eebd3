// Zero-copy 16-bit tensors, on both binaries: pe.tensor(n, { dtype }) holds float16 /
// bfloat16 bits in WebAssembly memory; rope.apply / applyQK rotate it (or a Uint16Array /
// Float16Array view of it) where it is, to the same bits as the copying path and within
// 1 ulp of the exact rotation; out must share x's dtype; errors name the argument and
// write nothing (canaries around the view); disposal and overlap are refused.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, assertThrows, loadBoth } from './support.mjs';
import { FORMATS, worstUlp } from './half-reference.mjs';

const both = await loadBoth();
const rng = new Random(4242);
const DTYPES = ['float16', 'bfloat16'];

function randomHalf(n, dtype) {
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = FORMATS[dtype].round(rng.uniform(-2, 2));
  return out;
}

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: tensor(n, { dtype }) and tensor(bits, { dtype }): 16-bit zeros or a copy, a Uint16Array view`, () => {
    for (const dtype of DTYPES) {
      const z = pe.tensor(5, { dtype });
      assert.equal(z.dtype, dtype);
      assert.equal(z.length, 5);
      assert.ok(z.array instanceof Uint16Array);
      assert.equal(z.array.buffer, pe.tensor(0).array.buffer); // WebAssembly memory
      assert.deepEqual([...z.array], [0, 0, 0, 0, 0]);
      const bits = randomHalf(7, dtype);
      const t = pe.tensor(bits, { dtype });
      assert.deepEqual(t.array, bits);
      // A copy of a view of WebAssembly memory (allocating may grow and detach it).
      const again = pe.tensor(t.array, { dtype });
      assert.deepEqual(again.array, bits);
      z.dispose();
      t.dispose();
      again.dispose();
    }
    assert.equal(pe.tensor(3).dtype, 'float32');
    assert.ok(pe.tensor(3, { dtype: 'float32' }).array instanceof Float32Array);
    if (typeof globalThis.Float16Array === 'function') {
      const h = pe.tensor(new globalThis.Float16Array([1, -2, 0.5]));
      assert.equal(h.dtype, 'float16');
      assert.deepEqual([...h.array], [0x3c00, 0xc000, 0x3800]);
      assertThrows(() => pe.tensor(new globalThis.Float16Array(2), { dtype: 'bfloat16' }), TypeError, /Float16Array/,
        /dtype/);
    }
    assertThrows(() => pe.tensor(new Uint16Array(2)), TypeError, /Uint16Array/, /dtype/);
    assertThrows(() => pe.tensor(new Uint16Array(2), { dtype: 'float32' }), TypeError, /Uint16Array/, /dtype/);
    assertThrows(() => pe.tensor(new Float32Array(2), { dtype: 'bfloat16' }), TypeError, /Float32Array/, /dtype/);
    assertThrows(() => pe.tensor(new Int16Array(2), { dtype: 'bfloat16' }), TypeError, /Int16Array/);
    assertThrows(() => pe.tensor(4, { dtype: 'half' }), RangeError, /dtype/);
    assertThrows(() => pe.tensor(4, { dtype: 'float16', extra: 1 }), TypeError, /extra/);
    assertThrows(() => pe.tensor(-1, { dtype: 'float16' }), RangeError, /length/);
  });

  test(`${name}: rope.apply on a 16-bit tensor (and on a view of it) = the copying path, ≤ 1 ulp of the exact rotation`, () => {
    for (const dtype of DTYPES) {
      for (const [headDim, rotaryDim, layout, heads] of [[64, 64, 'half', 2], [128, 96, 'interleaved', 3]]) {
        const rope = pe.rope({ headDim, rotaryDim, base: 1e6, layout,
          scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } });
        const positions = [0, 5, 4095, 1000000, 2 ** 24, -7];
        const x = randomHalf(positions.length * heads * headDim, dtype);
        const copied = rope.apply(x.slice(), { heads, positions, dtype });
        const t = pe.tensor(x, { dtype });
        const view = t.array;
        assert.equal(rope.apply(t, { heads, positions }), t);
        assert.equal(t.array, view, 'no memory growth: the same view');
        assert.deepEqual(t.array, copied);
        assert.ok(worstUlp(rope, x, t.array, heads, positions, dtype) <= 1);
        // A view of the tensor's memory is zero-copy too (dtype needed: a Uint16Array).
        t.array.set(x);
        assert.equal(rope.apply(t.array, { heads, positions, dtype }), view);
        assert.deepEqual(t.array, copied);
        // inverse through the tensor undoes it to two 16-bit roundings.
        rope.invert(t, { heads, positions });
        const { value } = FORMATS[dtype];
        for (let i = 0; i < x.length; i++) assert.ok(Math.abs(value(t.array[i]) - value(x[i])) <= 2 ** -6 * rope.attentionFactor);
        t.dispose();
        rope.dispose();
      }
    }
  });

  test(`${name}: a view of part of a 16-bit tensor rotates that part only; errors leave every canary`, () => {
    const rope = pe.rope({ headDim: 16 });
    const t = pe.tensor(randomHalf(4 * 16, 'bfloat16'), { dtype: 'bfloat16' });
    const before = t.array.slice();
    const mid = new Uint16Array(t.array.buffer, t.array.byteOffset + 2 * 16, 2 * 16); // tokens 1, 2
    rope.apply(mid, { tokens: 2, start: 3, dtype: 'bfloat16' });
    const expected = rope.apply(before.slice(16, 48), { tokens: 2, start: 3, dtype: 'bfloat16' });
    assert.deepEqual(t.array.slice(16, 48), expected);
    assert.deepEqual(t.array.slice(0, 16), before.slice(0, 16));
    assert.deepEqual(t.array.slice(48), before.slice(48));
    const now = t.array.slice();
    assertThrows(() => rope.apply(mid, { tokens: 3, start: 3, dtype: 'bfloat16' }), RangeError, /x/);
    assertThrows(() => rope.apply(mid, { tokens: 2, positions: [1, 2, 3], dtype: 'bfloat16' }), RangeError,
      /positions/);
    assertThrows(() => rope.apply(mid, { tokens: 2, start: 2 ** 53, dtype: 'bfloat16' }), RangeError, /start/);
    assertThrows(() => rope.apply(mid, { tokens: 2, dtype: 'float16' }), TypeError, /bfloat16/, /float16/);
    assertThrows(() => rope.apply(t, { tokens: 4, dtype: 'float16' }), TypeError, /bfloat16 tensor/, /dtype/);
    assertThrows(() => rope.apply(t, { tokens: 4, tokenStride: 17 }), RangeError, /x/);
    // A view reaching past the tensor is memory no tensor owns.
    const past = new Uint16Array(t.array.buffer, t.array.byteOffset + 2 * 48, 32);
    assertThrows(() => rope.apply(past, { tokens: 2, dtype: 'bfloat16' }), TypeError, /WebAssembly memory/);
    // As float32 data a 16-bit tensor is refused, by rope.apply and by the other kernels.
    const asF32 = new Float32Array(t.array.buffer, t.array.byteOffset, 32);
    assertThrows(() => rope.apply(asF32, { tokens: 4 }), TypeError, /bfloat16 tensor/, /float32/);
    assertThrows(() => rope.shift(t, { tokens: 4, delta: 1 }), TypeError, /k/, /bfloat16 tensor/);
    assertThrows(() => pe.fillUniform(t, { seed: 1 }), TypeError, /out/, /bfloat16 tensor/);
    assert.deepEqual(t.array, now);
    t.dispose();
    rope.dispose();
  });

  test(`${name}: out of place on 16-bit data: same dtype only, x untouched, tensors or arrays in any mix`, () => {
    const rope = pe.rope({ headDim: 32, rotaryDim: 24 });
    for (const dtype of DTYPES) {
      const x = randomHalf(3 * 2 * 32, dtype);
      const inPlace = rope.apply(x.slice(), { heads: 2, tokens: 3, start: 40, dtype });
      const tx = pe.tensor(x, { dtype });
      const tout = pe.tensor(x.length, { dtype });
      assert.equal(rope.apply(tx, { heads: 2, tokens: 3, start: 40, out: tout }), tout);
      assert.deepEqual(tout.array, inPlace); // pass-through dims 24…31 copied
      assert.deepEqual(tx.array, x);
      const arrOut = new Uint16Array(x.length);
      assert.equal(rope.apply(tx, { heads: 2, tokens: 3, start: 40, out: arrOut }), arrOut);
      assert.deepEqual(arrOut, inPlace);
      tout.array.fill(0);
      rope.apply(x, { heads: 2, tokens: 3, start: 40, out: tout, dtype });
      assert.deepEqual(tout.array, inPlace);
      const plain = new Uint16Array(x.length);
      rope.apply(x, { heads: 2, tokens: 3, start: 40, out: plain, dtype });
      assert.deepEqual(plain, inPlace);
      // out === x is in place.
      rope.apply(tx, { heads: 2, tokens: 3, start: 40, out: tx });
      assert.deepEqual(tx.array, inPlace);
      tx.dispose();
      tout.dispose();
    }
    // Mixing storage types is refused before anything runs.
    const b = pe.tensor(randomHalf(64, 'bfloat16'), { dtype: 'bfloat16' });
    const h = pe.tensor(64, { dtype: 'float16' });
    const f = pe.tensor(64);
    const keep = b.array.slice();
    assertThrows(() => rope.apply(b, { tokens: 2, out: h }), TypeError, /out/, /float16/, /bfloat16/);
    assertThrows(() => rope.apply(b, { tokens: 2, out: f }), TypeError, /out/, /dtype/);
    assertThrows(() => rope.apply(b, { tokens: 2, out: new Float32Array(64) }), TypeError, /out/, /dtype/);
    assertThrows(() => rope.apply(f, { tokens: 2, out: b }), TypeError, /out/, /float32/);
    assertThrows(() => rope.apply(new Float32Array(64), { tokens: 2, out: new Uint16Array(64) }), TypeError, /out/,
      /float32/);
    // Overlap: a view of the same tensor shifted by half a token, as out.
    const shifted = new Uint16Array(b.array.buffer, b.array.byteOffset + 2 * 16, 32);
    const head = new Uint16Array(b.array.buffer, b.array.byteOffset, 32);
    assertThrows(() => rope.apply(head, { tokens: 1, out: shifted, dtype: 'bfloat16' }), RangeError, /share memory/);
    const arr = randomHalf(64, 'bfloat16');
    const arrKeep = arr.slice();
    assertThrows(() => rope.apply(arr.subarray(0, 32), { tokens: 1, out: arr.subarray(16, 48), dtype: 'bfloat16' }),
      RangeError, /overlaps/);
    assert.deepEqual(b.array, keep);
    assert.deepEqual(arr, arrKeep);
    assert.ok(h.array.every((v) => v === 0));
    assert.ok(f.array.every((v) => v === 0));
    b.dispose();
    h.dispose();
    f.dispose();
    rope.dispose();
  });

  test(`${name}: applyQK on 16-bit tensors (GQA) = the copying path; overlap and mixed dtypes refused`, () => {
    const rope = pe.rope({ headDim: 64, base: 5e5 });
    const q = randomHalf(6 * 4 * 64, 'float16');
    const k = randomHalf(6 * 64, 'float16');
    const positions = [3, 1, 4, 1, 5, 9];
    const [cq, ck] = rope.applyQK(q.slice(), k.slice(), { qHeads: 4, kHeads: 1, positions, dtype: 'float16' });
    const tq = pe.tensor(q, { dtype: 'float16' });
    const tk = pe.tensor(k, { dtype: 'float16' });
    const r = rope.applyQK(tq, tk, { qHeads: 4, kHeads: 1, positions });
    assert.equal(r[0], tq);
    assert.equal(r[1], tk);
    assert.deepEqual(tq.array, cq);
    assert.deepEqual(tk.array, ck);
    // A tensor with a plain array: one zero-copy, one copied.
    tk.array.set(k);
    rope.applyQK(q.slice(), tk, { qHeads: 4, kHeads: 1, positions, dtype: 'float16' });
    assert.deepEqual(tk.array, ck);
    const now = tq.array.slice();
    const half1 = new Uint16Array(tq.array.buffer, tq.array.byteOffset, 64);
    const half2 = new Uint16Array(tq.array.buffer, tq.array.byteOffset + 64, 64);
    assertThrows(() => rope.applyQK(half1, half2, { tokens: 1, dtype: 'float16' }), RangeError, /share memory/);
    const b = pe.tensor(6 * 64, { dtype: 'bfloat16' });
    assertThrows(() => rope.applyQK(tq, b, { qHeads: 4, kHeads: 1, positions }), TypeError, /k/, /bfloat16/);
    assertThrows(() => rope.applyQK(tq, new Float32Array(6 * 64), { qHeads: 4, kHeads: 1, positions }), TypeError,
      /dtype/);
    assert.deepEqual(tq.array, now);
    assert.ok(b.array.every((v) => v === 0));
    for (const t of [tq, tk, b]) t.dispose();
    rope.dispose();
  });

  test(`${name}: disposed 16-bit tensors (also by a getter) are refused; other instances' tensors are copied`, () => {
    const rope = pe.rope({ headDim: 8 });
    const t = pe.tensor(16, { dtype: 'float16' });
    t.dispose();
    assert.equal(t.disposed, true);
    assertThrows(() => t.array, TypeError, /disposed/);
    assertThrows(() => rope.apply(t, { tokens: 2 }), TypeError, /x/, /disposed/);
    const u = pe.tensor(randomHalf(16, 'float16'), { dtype: 'float16' });
    const keep = u.array.slice();
    const sneaky = { get tokens() { u.dispose(); return 2; } };
    assertThrows(() => rope.apply(u, sneaky), TypeError, /disposed/);
    const out = pe.tensor(16, { dtype: 'float16' });
    const x = pe.tensor(keep, { dtype: 'float16' });
    assertThrows(() => rope.apply(x, { get tokens() { out.dispose(); return 2; }, out }), TypeError, /out/, /disposed/);
    assert.deepEqual(x.array, keep);
    x.dispose();
    // A tensor of the other binary's instance: its bits are copied in and back.
    const other = both[name === 'simd' ? 'scalar' : 'simd'];
    const foreign = other.tensor(keep, { dtype: 'float16' });
    const expected = rope.apply(keep.slice(), { tokens: 2, start: 6, dtype: 'float16' });
    assert.equal(rope.apply(foreign, { tokens: 2, start: 6 }), foreign);
    assert.deepEqual(foreign.array, expected);
    foreign.dispose();
    // Not tensors: a Proxy of one, an object with the tensor prototype.
    const real = pe.tensor(16, { dtype: 'float16' });
    assertThrows(() => rope.apply(new Proxy(real, {}), { tokens: 2, dtype: 'float16' }), TypeError, /x/);
    assertThrows(() => rope.apply(Object.create(Object.getPrototypeOf(real)), { tokens: 2 }), TypeError, /x/);
    real.dispose();
    // The module keeps working.
    assert.deepEqual(rope.apply(keep.slice(), { tokens: 2, start: 6, dtype: 'float16' }), expected);
    rope.dispose();
  });
}
