// Multimodal RoPE (M-RoPE) and 2-D vision rotary through the JS API, on both binaries,
// against float64 references written here from Hugging Face transformers' code (file and
// function named at each), plus text-only = plain RoPE bit for bit and refused input.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Random, assertThrows, loadBoth, randomFloats } from './support.mjs';

const both = await loadBoth();
const rng = new Random(1616);

// 1 / base ** (arange(0, dim, 2) / dim), float64.
const invFreq = (dim, base) => Array.from({ length: dim / 2 }, (_, j) => 1 / base ** ((2 * j) / dim));

// models/qwen2_vl/modeling_qwen2_vl.py, apply_multimodal_rotary_pos_emb: the full-width
// cos (cat(freqs, freqs) per axis) split by mrope_section * 2, chunk i from axis i % 3.
function qwen2vlAngles(p, dim, base, section) {
  const inv = invFreq(dim, base);
  const emb = p.map((pa) => [...inv, ...inv].map((f) => pa * f));
  const split = [...section, ...section];
  const out = [];
  let e = 0;
  split.forEach((n, chunk) => {
    for (let k = 0; k < n; k++, e++) out.push(emb[chunk % 3][e]);
  });
  return out;
}

// models/qwen3_vl/modeling_qwen3_vl.py, Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope:
// freqs_t = freqs[0]; freqs_t[..., offset:3·section[dim]:3] = freqs[dim, ...] for
// (dim, offset) = (1, 1), (2, 2); then emb = cat(freqs_t, freqs_t).
function qwen3vlAngles(p, dim, base, section) {
  const inv = invFreq(dim, base);
  const ft = inv.map((f) => p[0] * f);
  for (const d of [1, 2]) for (let i = d; i < Math.min(3 * section[d], dim / 2); i += 3) ft[i] = p[d] * inv[i];
  return [...ft, ...ft];
}

// models/qwen2_vl/modeling_qwen2_vl.py: VisionRotaryEmbedding(head_dim // 2) + rot_pos_emb
// (cat of the row and column ladders) + apply_rotary_pos_emb_vision (emb = cat(rpe, rpe)).
function qwen2vlVisionAngles([row, col], headDim, base) {
  const inv = invFreq(headDim / 2, base);
  const rpe = [...inv.map((f) => row * f), ...inv.map((f) => col * f)];
  return [...rpe, ...rpe];
}

// models/pixtral/modeling_pixtral.py, PixtralRotaryEmbedding: cat(h·freqs[::2], w·freqs[1::2]),
// then cat((inv_freq, inv_freq)).
function pixtralAngles([row, col], dim, base) {
  const f = invFreq(dim, base);
  const a = [...f.filter((_, j) => j % 2 === 0).map((x) => row * x), ...f.filter((_, j) => j % 2 === 1).map((x) => col * x)];
  return [...a, ...a];
}

// models/llama/modeling_llama.py, apply_rotary_pos_emb: x·cos + rotate_half(x)·sin.
function rotateHalf(x, angles) {
  const d = angles.length;
  const h = d / 2;
  return Array.from({ length: d }, (_, j) => x[j] * Math.cos(angles[j]) + (j < h ? -x[j + h] : x[j - h]) * Math.sin(angles[j]));
}

// Every element within 4e-7·(|a| + |b|) (+ a float32 rounding of the input) of the reference.
function checkRows(out, x, tokens, heads, dim, anglesOf, what) {
  let worst = 0;
  for (let t = 0; t < tokens; t++) {
    const angles = anglesOf(t);
    for (let h = 0; h < heads; h++) {
      const o = (t * heads + h) * dim;
      const row = x.subarray(o, o + dim);
      const ref = rotateHalf(row, angles);
      for (let j = 0; j < dim; j++) {
        const partner = j < dim / 2 ? j + dim / 2 : j - dim / 2;
        worst = Math.max(worst, Math.abs(out[o + j] - ref[j]) / (Math.abs(row[j]) + Math.abs(row[partner]) + 1e-30));
      }
    }
  }
  assert.ok(worst <= 4e-7, `${what}: worst relative error ${worst}`);
}

// HF get_rope_index layout: text, an image grid of frames × rows × cols, text again.
function vlPositions(start, lead, frames, rows, cols, tail) {
  const pos = [];
  for (let i = 0; i < lead; i++) pos.push([start + i, start + i, start + i]);
  const v = start + lead;
  for (let f = 0; f < frames; f++) for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) pos.push([v + f, v + r, v + c]);
  const next = v + Math.max(frames, rows, cols);
  for (let i = 0; i < tail; i++) pos.push([next + i, next + i, next + i]);
  return pos;
}

// [axes][tokens] (HF position_ids order) of per-token tuples.
const axisMajor = (pos) => Int32Array.from({ length: pos.length * pos[0].length },
  (_, i) => pos[i % pos.length][Math.floor(i / pos.length)]);

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: Qwen2-VL / Qwen2.5-VL M-RoPE matches HF apply_multimodal_rotary_pos_emb`, () => {
    for (const [dim, section, start] of [[128, [16, 24, 24], 0], [128, [16, 24, 24], 1048000], [64, [8, 12, 12], 777]]) {
      const rope = pe.rope({ headDim: dim, base: 1e6, mrope: { section }, cacheLength: 32 });
      assert.equal(rope.axes, 3);
      assert.deepEqual(rope.mrope, { section, interleaved: false });
      assert.equal(rope.vision2d, null);
      const pos = vlPositions(start, 3, 2, 3, 4, 3);
      const heads = 2;
      const x = randomFloats(rng, pos.length * heads * dim);
      const y = x.slice();
      rope.apply(y, { heads, positions: axisMajor(pos) }); // tokens = positions / 3
      checkRows(y, x, pos.length, heads, dim, (t) => qwen2vlAngles(pos[t], dim, 1e6, section), `dim ${dim} start ${start}`);
      rope.dispose();
    }
  });

  test(`${name}: Qwen3-VL interleaved M-RoPE matches HF apply_interleaved_mrope; BigInt64Array positions`, () => {
    const rope = pe.rope({ headDim: 128, base: 5e6, mrope: { section: [24, 20, 20], interleaved: true } });
    const pos = vlPositions(2000000, 2, 3, 4, 5, 2);
    const x = randomFloats(rng, pos.length * 3 * 128);
    const y = x.slice();
    rope.apply(y, { heads: 3, tokens: pos.length, positions: BigInt64Array.from(axisMajor(pos), BigInt) });
    checkRows(y, x, pos.length, 3, 128, (t) => qwen3vlAngles(pos[t], 128, 5e6, [24, 20, 20]), 'qwen3-vl');
    rope.dispose();
  });

  test(`${name}: text-only M-RoPE (t = h = w) equals plain RoPE bit for bit; start too; GQA`, () => {
    for (const mrope of [{ section: [16, 24, 24] }, { section: [24, 20, 20], interleaved: true }]) {
      for (const layout of ['half', 'interleaved']) {
        const m = pe.rope({ headDim: 128, base: 1e6, layout, mrope, cacheLength: 20 });
        const plain = pe.rope({ headDim: 128, base: 1e6, layout, cacheLength: 20 });
        const p = [0, 3, 19, 20, 21, 2 ** 31 - 1, -9, 123456];
        const x = randomFloats(rng, p.length * 4 * 128);
        const a = m.apply(x.slice(), { heads: 4, positions: [...p, ...p, ...p] });
        const b = plain.apply(x.slice(), { heads: 4, positions: p });
        assert.deepEqual(new Uint32Array(a.buffer), new Uint32Array(b.buffer));
        const c = m.apply(x.slice(), { heads: 4, tokens: p.length, start: 2 ** 40 });
        const d = plain.apply(x.slice(), { heads: 4, tokens: p.length, start: 2 ** 40 });
        assert.deepEqual(new Uint32Array(c.buffer), new Uint32Array(d.buffer));
        // applyQK with 3·tokens positions equals two applies.
        const q = x.slice();
        const k = randomFloats(rng, p.length * 128);
        const k2 = k.slice();
        const ids = axisMajor(vlPositions(5, 2, 1, 2, 3, 0));
        m.applyQK(q, k, { qHeads: 4, kHeads: 1, positions: ids });
        const q2 = m.apply(x.slice(), { heads: 4, positions: ids });
        m.apply(k2, { positions: ids });
        assert.deepEqual(q, q2);
        assert.deepEqual(k, k2);
        // The merged row of [t, h, w] is what apply uses; a number is every axis at it.
        const row = m.row([3, 100, 7]);
        const rows = [3, 100, 7].map((v) => m.row(v));
        const axisOf = (i) => (mrope.interleaved ? (i < 60 && i % 3 ? i % 3 : 0) : i < 16 ? 0 : i < 40 ? 1 : 2);
        for (let i = 0; i < 64; i++) assert.equal(row.cos[i], rows[axisOf(i)].cos[i], `rung ${i}`);
        m.dispose();
        plain.dispose();
      }
    }
  });

  test(`${name}: M-RoPE under every scaling type, empty sections, partial rotary: each pair rotated as plain RoPE at its axis' position, bit for bit`, () => {
    // The axis of rung i by HF's rule (apply_multimodal_rotary_pos_emb's sections, or
    // apply_interleaved_mrope's 1::3 / 2::3 slices below 3·section).
    const axisOf = (i, s, interleaved) => (interleaved
      ? (i % 3 === 1 && i < 3 * s[1] ? 1 : i % 3 === 2 && i < 3 * s[2] ? 2 : 0)
      : (i < s[0] ? 0 : i < s[0] + s[1] ? 1 : 2));
    const factors = (r, step) => Array.from({ length: r / 2 }, (_, i) => 1 + step * i);
    const scalings = (r) => [undefined, { type: 'linear', factor: 4 },
      { type: 'dynamic', factor: 2, maxPositionEmbeddings: 4096, seqLen: 20000 }, { type: 'dynamic', alpha: 1000 },
      { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 },
      { type: 'yarn', factor: 8, originalMaxPositionEmbeddings: 4096, mscale: 1, mscaleAllDim: 0.707, truncate: false },
      { type: 'llama3', factor: 8, originalMaxPositionEmbeddings: 8192 },
      ...[8000, 100].map((seqLen) => ({ type: 'longrope', originalMaxPositionEmbeddings: 4096, maxPositionEmbeddings: 131072,
        seqLen, shortFactor: factors(r, 0.01), longFactor: factors(r, 0.37) })),
      { type: 'proportional', partialRotaryFactor: 0.25, factor: 2 }];
    // In and out of the cache, negative, past 2^24, up to 2^53 (real positions reach it).
    const values = [0, 1, 5, 39, 40, 41, 1000, -3, -70001, 2 ** 24, 2 ** 24 + 1, 2 ** 31 - 1, 123456789012.375, 2 ** 53 - 1, -(2 ** 53)];
    const T = values.length;
    for (const [headDim, rotaryDim, section, interleaved] of [[128, 128, [16, 24, 24], false], [128, 128, [64, 0, 0], false],
      [128, 128, [0, 32, 32], false], [128, 64, [11, 11, 10], false], [128, 128, [24, 20, 20], true],
      [128, 128, [64, 0, 0], true], [128, 128, [43, 0, 21], true], [96, 64, [11, 11, 10], true]]) {
      for (const scaling of scalings(rotaryDim)) {
        for (const layout of ['half', 'interleaved']) {
          const base = { headDim, rotaryDim, base: 1e6, layout, cacheLength: 40, ...(scaling ? { scaling } : {}) };
          const m = pe.rope({ ...base, mrope: { section, interleaved } });
          const plain = pe.rope(base);
          const what = `${section} ${interleaved} ${scaling?.type} ${layout}`;
          assert.deepEqual(m.invFreq, plain.invFreq, what);
          assert.equal(m.attentionFactor, plain.attentionFactor, what);
          // Token t at (values[t], values[t + 5], values[t + 11]); token 2 a text token.
          const pos = new Float64Array(3 * T);
          for (let a = 0; a < 3; a++) for (let t = 0; t < T; t++) pos[a * T + t] = values[(t + (t === 2 ? 0 : 5 * a + (a >> 1))) % T];
          const x = randomFloats(rng, T * 2 * headDim);
          const got = m.apply(x.slice(), { heads: 2, positions: pos });
          const perAxis = [0, 1, 2].map((a) => plain.apply(x.slice(), { heads: 2, positions: pos.subarray(a * T, (a + 1) * T) }));
          const want = x.slice();
          for (let row = 0; row < 2 * T; row++) {
            for (let i = 0; i < rotaryDim / 2; i++) {
              for (const d of layout === 'half' ? [i, i + rotaryDim / 2] : [2 * i, 2 * i + 1]) {
                want[row * headDim + d] = perAxis[axisOf(i, section, interleaved)][row * headDim + d];
              }
            }
          }
          assert.deepEqual(new Uint32Array(got.buffer), new Uint32Array(want.buffer), what);
          m.dispose();
          plain.dispose();
        }
      }
    }
  });

  test(`${name}: Qwen2-VL vision 2-D rotary matches HF VisionRotaryEmbedding + apply_rotary_pos_emb_vision`, () => {
    const rope = pe.rope({ headDim: 80, base: 10000, vision2d: 'qwen2-vl', cacheLength: 16 });
    assert.equal(rope.axes, 2);
    assert.equal(rope.vision2d, 'qwen2-vl');
    const pos = [];
    for (let r = 0; r < 14; r += 2) for (let c = 0; c < 20; c += 3) pos.push([r, c]);
    pos.push([70000, 90000]);
    const x = randomFloats(rng, pos.length * 2 * 80);
    const y = rope.apply(x.slice(), { heads: 2, positions: axisMajor(pos) });
    checkRows(y, x, pos.length, 2, 80, (t) => qwen2vlVisionAngles(pos[t], 80, 10000), 'qwen2-vl vision');
    rope.dispose();
  });

  test(`${name}: Pixtral 2-D rotary matches HF PixtralRotaryEmbedding; the score depends on (drow, dcol) only`, () => {
    const rope = pe.rope({ headDim: 64, base: 10000, vision2d: 'pixtral' });
    const pos = [];
    for (let r = 0; r < 64; r += 9) for (let c = 0; c < 64; c += 11) pos.push([r, c]);
    const x = randomFloats(rng, pos.length * 64);
    const y = rope.apply(x.slice(), { positions: axisMajor(pos) });
    checkRows(y, x, pos.length, 1, 64, (t) => pixtralAngles(pos[t], 64, 10000), 'pixtral');
    const q0 = randomFloats(rng, 64);
    const k0 = randomFloats(rng, 64);
    const score = (qp, kp) => {
      const q = rope.apply(q0.slice(), { positions: qp });
      const k = rope.apply(k0.slice(), { positions: kp });
      return q.reduce((s, v, i) => s + v * k[i], 0);
    };
    const s0 = score([3, 4], [1, 9]);
    assert.ok(Math.abs(score([23, 34], [21, 39]) - s0) < 2e-5);
    assert.ok(Math.abs(score([3, 4], [2, 9]) - s0) > 1e-3);
    rope.dispose();
  });

  test(`${name}: bad mrope / vision2d input: errors name the argument, nothing written, module usable`, () => {
    assertThrows(() => pe.rope({ headDim: 128, mrope: { section: [16, 24, 23] } }), RangeError, /mrope\.section/, /64/);
    assertThrows(() => pe.rope({ headDim: 128, rotaryDim: 64, mrope: { section: [16, 24, 24] } }), RangeError,
      /mrope\.section/, /32/);
    assertThrows(() => pe.rope({ headDim: 128, mrope: { section: [4, 30, 30], interleaved: true } }), RangeError,
      /mrope\.section/);
    assertThrows(() => pe.rope({ headDim: 128, mrope: { section: [16, 48] } }), RangeError, /mrope\.section/);
    assertThrows(() => pe.rope({ headDim: 128, mrope: { section: [16, 24, 24.5] } }), RangeError, /mrope\.section\[2\]/);
    assertThrows(() => pe.rope({ headDim: 128, mrope: {} }), TypeError, /mrope\.section/);
    assertThrows(() => pe.rope({ headDim: 128, mrope: { section: [16, 24, 24], order: 1 } }), TypeError, /order/);
    assertThrows(() => pe.rope({ headDim: 128, mrope: { section: [16, 24, 24] }, vision2d: 'pixtral' }), TypeError,
      /mrope or vision2d/);
    assertThrows(() => pe.rope({ headDim: 78, vision2d: 'qwen2-vl' }), RangeError, /rotaryDim/, /multiple of 4/);
    assertThrows(() => pe.rope({ headDim: 64, vision2d: '2d' }), RangeError, /vision2d/);
    assertThrows(() => pe.rope({ headDim: 64, vision2d: 'pixtral', scaling: { type: 'linear', factor: 2 } }),
      RangeError, /scaling/);
    // A getter on the nested options runs once.
    let reads = 0;
    const r = pe.rope({ headDim: 64, mrope: { get section() { reads++; return [8, 12, 12]; } } });
    assert.equal(reads, 1);
    const v = pe.rope({ headDim: 64, vision2d: 'pixtral' });
    const canary = pe.tensor(4 * 64);
    canary.array.fill(0.5);
    const x = canary.array.slice();
    for (const [rope, opts, re] of [
      [r, { positions: new Int32Array(4) }, /positions/],
      [r, { tokens: 4, positions: new Int32Array(8) }, /3 x tokens = 12/],
      [r, { positions: new Int32Array(7) }, /multiple of 3/],
      [v, { tokens: 4, positions: new Int32Array(12) }, /positions/],
      [v, { tokens: 4, start: 0 }, /start/],
    ]) {
      assertThrows(() => rope.apply(canary, opts), RangeError, re);
      assertThrows(() => rope.apply(x, opts), RangeError, re);
    }
    assert.ok(canary.array.every((e) => e === 0.5));
    assert.ok(x.every((e) => e === 0.5));
    r.apply(canary, { positions: new Int32Array(12) }); // still usable
    v.apply(x, { positions: [1, 2, 3, 4, 5, 6, 7, 8] });
    assert.ok(x.some((e) => e !== 0.5));
    r.dispose();
    v.dispose();
    canary.dispose();
  });
}
