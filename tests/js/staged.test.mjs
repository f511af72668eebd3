// Large tensors rotated in place (≥ 16 MiB, zero-copy) take another path in the SIMD binary:
// each token's rows are first copied into an L1 block by memory.copy and rotated from there
// back into place (core/src/detail/rotary_kernels.hpp, rotate_token_staged). Out of place
// they do not, so the two must give the very same floats, for every layout, scaling,
// partial rotary, position list and storage order, and the staged path must write nothing
// but the rotated dims: not the gaps of a strided view, not the pass-through dims.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as ref from './reference.mjs';
import { assertClose, loadBoth } from './support.mjs';

const { simd: pe } = await loadBoth();
const LARGE = 1 << 22;  // floats: rotary.cpp's kLargeFloats, from where in-place tensors stage
const GAP = 12345.5;    // a value no rotation of inputs in [−1, 1) produces

// Index of the first float where a and b differ (bitwise, so NaN = NaN), or −1.
function firstMismatch(a, b) {
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < ua.length; i++) if (ua[i] !== ub[i]) return i;
  return -1;
}

// A tensor of `length` floats: the view's rows random in [−1, 1), everything else GAP.
function filled(length, { tokens, heads, dim, tokenStride, headStride }, seed) {
  const x = pe.tensor(length);
  x.array.fill(GAP);
  const row = new Float32Array(dim);
  for (let t = 0; t < tokens; t++) {
    for (let h = 0; h < heads; h++) {
      pe.fillUniform(row, { seed: seed + t * heads + h, lo: -1, hi: 1 });
      x.array.set(row, t * tokenStride + h * headStride);
    }
  }
  return x;
}

// Rotates the case in place (staged) and out of place into a second tensor (not staged);
// returns the in-place tensor for further checks after asserting both agree bitwise.
function inPlaceEqualsOutOfPlace(what, rope, view, call, seed = 1) {
  const { tokens, heads, dim, tokenStride, headStride } = view;
  assert.ok(tokens * heads * dim >= LARGE, `${what}: large enough to stage`);
  const length = (tokens - 1) * tokenStride + (heads - 1) * headStride + dim;
  const x = filled(length, view, seed);
  const y = pe.tensor(length);
  y.array.fill(GAP);
  const strides = { tokens, heads, tokenStride, headStride };
  rope.apply(x, { ...strides, ...call, out: y });
  rope.apply(x, { ...strides, ...call });
  const at = firstMismatch(x.array, y.array);
  assert.equal(at, -1, `${what}: in place ${x.array[at]}, out of place ${y.array[at]} at ${at}`);
  y.dispose();
  return x;
}

const dense = (tokens, heads, dim) => ({ tokens, heads, dim, tokenStride: heads * dim, headStride: dim });

test('staged in place equals out of place: both layouts, dense 1024 × 32 × 128 (16 MiB)', () => {
  for (const layout of ['half', 'interleaved']) {
    const rope = pe.rope({ headDim: 128, layout, cacheLength: 8192 });
    for (const call of [{ start: 4000 }, { start: 0, inverse: true }]) {
      const x = inPlaceEqualsOutOfPlace(`${layout} ${JSON.stringify(call)}`, rope, dense(1024, 32, 128), call);
      // And the numbers are RoPE's: a few rows against the float64 reference.
      for (const t of [0, 1, 513, 1023]) {
        const row = x.array.subarray((t * 32 + 7) * 128, (t * 32 + 8) * 128);
        const input = new Float32Array(128);
        pe.fillUniform(input, { seed: 1 + t * 32 + 7, lo: -1, hi: 1 });
        const p = (call.start ?? 0) + t;
        const want = ref.ropeApply(input, { headDim: 128, layout, tokens: 1, heads: 1, positions: [p], inverse: call.inverse });
        assertClose(row, want, 1e-6, `${layout} token ${t}`);
      }
      x.dispose();
    }
    rope.dispose();
  }
});

test('staged: YaRN attention factor, partial rotary and explicit positions; pass-through dims untouched', () => {
  for (const layout of ['half', 'interleaved']) {
    const rope = pe.rope({ headDim: 128, rotaryDim: 96, layout,
      scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 4096 } });
    assert.ok(rope.attentionFactor !== 1, 'the scaled kernels');
    const tokens = 1024;
    const positions = Array.from({ length: tokens }, (_, t) => (t % 7 === 3 ? 5 : 16000 - 13 * t));
    const view = dense(tokens, 32, 128);
    const x = inPlaceEqualsOutOfPlace(`yarn ${layout}`, rope, view, { positions }, 9);
    const before = filled(x.array.length, view, 9);
    for (let r = 0; r < tokens * 32; r += 31) {
      for (let j = 96; j < 128; j++) assert.equal(x.array[r * 128 + j], before.array[r * 128 + j], `row ${r} dim ${j}`);
    }
    for (const h of [x, before]) h.dispose();
    rope.dispose();
  }
});

test('staged: strided views keep their gaps; rows too far apart for one block go one at a time', () => {
  const cases = [
    // padded rows and tokens: several rows per block, gaps copied in but never written back
    ['padded', { headDim: 128 }, { tokens: 1024, heads: 32, dim: 128, headStride: 136, tokenStride: 32 * 136 + 8 }],
    // [heads][tokens][dim]: a token's rows are 128 Ki floats apart, one row per block
    ['heads-major', { headDim: 128 }, { tokens: 1024, heads: 32, dim: 128, headStride: 1024 * 128, tokenStride: 128 }],
    // 2048-float rows 2100 apart: the block holds exactly one
    ['wide rows', { headDim: 2048, rotaryDim: 2000 }, { tokens: 1024, heads: 2, dim: 2048, headStride: 2100, tokenStride: 4200 }],
    // rows longer than the block are not staged at all
    ['rows over 16 KiB', { headDim: 8192 }, { tokens: 512, heads: 1, dim: 8192, headStride: 8192, tokenStride: 8192 }],
  ];
  for (const [what, ro, view] of cases) {
    const rope = pe.rope({ ...ro, cacheLength: 2048 });
    const x = inPlaceEqualsOutOfPlace(what, rope, view, { start: 77 }, 3);
    // Every float outside the view's rows is still GAP.
    const inRow = new Uint8Array(x.array.length);
    for (let t = 0; t < view.tokens; t++) {
      for (let h = 0; h < view.heads; h++) inRow.fill(1, t * view.tokenStride + h * view.headStride, t * view.tokenStride + h * view.headStride + view.dim);
    }
    for (let i = 0; i < inRow.length; i++) if (!inRow[i]) assert.equal(x.array[i], GAP, `${what}: gap float ${i}`);
    x.dispose();
    rope.dispose();
  }
});

test('staged: applyQK (32 query heads staged, 8 key heads not) equals two out-of-place applies', () => {
  const rope = pe.rope({ headDim: 128 });
  const tokens = 1024;
  const qView = dense(tokens, 32, 128), kView = dense(tokens, 8, 128);
  const q = filled(tokens * 32 * 128, qView, 5), k = filled(tokens * 8 * 128, kView, 6);
  const wantQ = pe.tensor(q.array.length), wantK = pe.tensor(k.array.length);
  rope.apply(q, { tokens, heads: 32, start: 300, out: wantQ });
  rope.apply(k, { tokens, heads: 8, start: 300, out: wantK });
  rope.applyQK(q, k, { tokens, start: 300, qHeads: 32, kHeads: 8 });
  assert.equal(firstMismatch(q.array, wantQ.array), -1, 'q');
  assert.equal(firstMismatch(k.array, wantK.array), -1, 'k');
  for (const h of [q, k, wantQ, wantK]) h.dispose();
  rope.dispose();
});
