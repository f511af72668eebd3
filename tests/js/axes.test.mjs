// Image and video models through the JS API, on both binaries: pe.rope({ axes }) presets
// and explicit descriptions, pe.axesPositions grids and pe.sinusoidal2d tables, against
// float64 references written here from the models' reference code (diffusers at
// 58eb52c0803ea9af3abec60841c2a093bdf1f951, transformers' modeling_dinov3_vit.py at
// 015e68769f9823df27f5f7372dc155277e6ff7e6; file and function named at each), on the
// models' real shapes; real positions = integer positions bit for bit; refused input.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Random, assertClose, assertThrows, loadBoth, randomFloats, repoRoot } from './support.mjs';

const both = await loadBoth();
const rng = new Random(3232);

// embeddings.py get_1d_rotary_pos_embed: pos · 1 / theta ** (arange(0, dim, 2) / dim), float64.
const rope1d = (dim, pos, theta) => Array.from({ length: dim / 2 }, (_, j) => pos * (1 / theta ** ((2 * j) / dim)));

// transformer_flux.py FluxPosEmbed.forward (likewise Flux2PosEmbed, WanRotaryPosEmbed,
// HunyuanVideoRotaryPosEmbed, QwenEmbedRope.rope_params, get_3d_rotary_pos_embed): one
// 1-D ladder per axis on that axis' ids, concatenated along the head.
const axesAngles = (dims, ids, tokens, t, theta) => dims.flatMap((d, a) => rope1d(d, ids[a * tokens + t], theta));

// embeddings.py apply_rotary_emb(use_real_unbind_dim=-1): x·cos + stack(−x_imag, x_real)·sin
// with cos/sin repeat_interleave'd: adjacent pairs.
function rotateAdjacent(x, angles) {
  const out = Array.from(x);
  angles.forEach((a, i) => {
    out[2 * i] = x[2 * i] * Math.cos(a) - x[2 * i + 1] * Math.sin(a);
    out[2 * i + 1] = x[2 * i + 1] * Math.cos(a) + x[2 * i] * Math.sin(a);
  });
  return out;
}

// transformers rotate_half with cos/sin = cat(angles, angles) over the first 2·angles dims.
function rotateHalf(x, angles) {
  const out = Array.from(x);
  const h = angles.length;
  angles.forEach((a, i) => {
    out[i] = x[i] * Math.cos(a) - x[i + h] * Math.sin(a);
    out[i + h] = x[i + h] * Math.cos(a) + x[i] * Math.sin(a);
  });
  return out;
}

// Rotates random x by `rope` at `positions` and checks every element within
// 4e-7·(|a| + |b|) of the reference rotation by anglesOf(t).
function checkApply(rope, positions, tokens, heads, anglesOf, what) {
  const dim = rope.headDim;
  const r = rope.rotaryDim;
  const half = rope.layout === 'half';
  const x = randomFloats(rng, tokens * heads * dim);
  const y = rope.apply(x.slice(), { heads, positions });
  let worst = 0;
  for (let t = 0; t < tokens; t++) {
    const angles = anglesOf(t);
    for (let h = 0; h < heads; h++) {
      const o = (t * heads + h) * dim;
      const row = x.subarray(o, o + dim);
      const ref = half ? rotateHalf(row, angles) : rotateAdjacent(row, angles);
      for (let j = 0; j < dim; j++) {
        if (j >= r) {
          assert.equal(y[o + j], row[j], `${what}: pass-through dim ${j}`);
          continue;
        }
        const partner = half ? (j < r / 2 ? j + r / 2 : j - r / 2) : j ^ 1;
        worst = Math.max(worst, Math.abs(y[o + j] - ref[j]) / (Math.abs(row[j]) + Math.abs(row[partner]) + 1e-30));
      }
    }
  }
  assert.ok(worst <= 4e-7, `${what}: worst relative error ${worst}`);
}

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: flux 1024x1024 (64x64 packed tokens) + 512 text tokens match FluxPosEmbed + apply_rotary_emb`, () => {
    const g = pe.axesPositions({ model: 'flux', height: 64, width: 64, textTokens: 512 });
    assert.equal(g.axes, 3);
    assert.equal(g.tokens, 512 + 4096);
    assert.ok(g.positions instanceof Int32Array);
    // pipeline_flux.py _prepare_latent_image_ids (0, row, col) after text_ids zeros.
    const ids = new Int32Array(3 * g.tokens);
    for (let i = 0; i < 64; i++) {
      for (let j = 0; j < 64; j++) {
        ids[g.tokens + 512 + i * 64 + j] = i;
        ids[2 * g.tokens + 512 + i * 64 + j] = j;
      }
    }
    assert.deepEqual(g.positions, ids);
    const rope = pe.rope({ headDim: 128, axes: 'flux' });
    assert.equal(rope.axes, 3);
    assert.equal(rope.axesName, 'flux');
    assert.equal(rope.layout, 'interleaved');
    assert.equal(rope.base, 10000);
    // Every 7th token of the 4608 (the reference is slow in JS), heads 2.
    const pick = Array.from({ length: Math.ceil(g.tokens / 7) }, (_, k) => 7 * k);
    const sub = Int32Array.from({ length: 3 * pick.length }, (_, i) => g.positions[Math.floor(i / pick.length) * g.tokens + pick[i % pick.length]]);
    checkApply(rope, sub, pick.length, 2, (t) => axesAngles([16, 56, 56], sub, pick.length, t, 10000), 'flux');
    rope.dispose();
  });

  test(`${name}: flux2 (4 axes, theta 2000) with text and two reference images matches Flux2PosEmbed and the pipeline ids`, () => {
    const g = pe.axesPositions({ model: 'flux2', height: 8, width: 12, textTokens: 5, references: [[4, 4], [6, 5]] });
    assert.equal(g.axes, 4);
    // pipeline_flux2.py _prepare_text_ids (0, 0, 0, l), _prepare_latent_ids (0, h, w, 0),
    // _prepare_image_ids t = 10 + 10·k.
    const ref = [];
    for (let l = 0; l < 5; l++) ref.push([0, 0, 0, l]);
    for (let i = 0; i < 8; i++) for (let j = 0; j < 12; j++) ref.push([0, i, j, 0]);
    [[4, 4], [6, 5]].forEach(([h, w], k) => { for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) ref.push([10 + 10 * k, i, j, 0]); });
    assert.equal(g.tokens, ref.length);
    for (let t = 0; t < ref.length; t++) for (let a = 0; a < 4; a++) assert.equal(g.positions[a * ref.length + t], ref[t][a]);
    const rope = pe.rope({ headDim: 128, axes: 'flux2' });
    assert.equal(rope.axes, 4);
    assert.equal(rope.base, 2000);
    checkApply(rope, g.positions, g.tokens, 2, (t) => axesAngles([32, 32, 32, 32], g.positions, g.tokens, t, 2000), 'flux2');
    // The merged row of one token equals cosSin's.
    const row = rope.row(Int32Array.of(10, 3, 2, 0));
    const cs = rope.cosSin({ positions: Int32Array.of(10, 3, 2, 0) });
    assert.deepEqual(Array.from(row.cos), Array.from(cs.cos).filter((_, j) => j % 2 === 0));
    rope.dispose();
  });

  test(`${name}: wan 81 frames at 480x832 (21 x 30 x 52 patches) match WanRotaryPosEmbed`, () => {
    const g = pe.axesPositions({ model: 'wan', frames: 21, height: 30, width: 52 });
    assert.equal(g.tokens, 21 * 30 * 52);
    const last = g.tokens - 1;
    assert.deepEqual([g.positions[last], g.positions[g.tokens + last], g.positions[2 * g.tokens + last]], [20, 29, 51]);
    const rope = pe.rope({ headDim: 128, axes: 'wan' });
    // transformer_wan.py: h = w = 2·(128 // 6) = 42, t = 44.
    const pick = Array.from({ length: 500 }, (_, k) => Math.floor((k * g.tokens) / 500));
    const sub = Int32Array.from({ length: 3 * pick.length }, (_, i) => g.positions[Math.floor(i / pick.length) * g.tokens + pick[i % pick.length]]);
    checkApply(rope, sub, pick.length, 1, (t) => axesAngles([44, 42, 42], sub, pick.length, t, 10000), 'wan');
    // The whole video in one call: its last token as that token alone.
    const x = randomFloats(rng, g.tokens * 128);
    const y = rope.apply(x.slice(), { positions: g.positions });
    const ys = rope.apply(x.slice(last * 128), { positions: Int32Array.of(g.positions[last], g.positions[g.tokens + last], g.positions[2 * g.tokens + last]) });
    assert.deepEqual(y.subarray(last * 128), ys.subarray(0, 128));
    rope.dispose();
  });

  test(`${name}: hunyuan-video, qwen-image and cogvideox presets match their diffusers ladders`, () => {
    const hv = pe.axesPositions({ model: 'hunyuan-video', frames: 3, height: 6, width: 10, textTokens: 4 });
    const rope = pe.rope({ headDim: 128, axes: 'hunyuan-video' });
    assert.equal(rope.base, 256);
    checkApply(rope, hv.positions, hv.tokens, 2, (t) => axesAngles([16, 56, 56], hv.positions, hv.tokens, t, 256), 'hunyuan-video');
    rope.dispose();
    // transformer_qwenimage.py QwenEmbedRope(scale_rope=True): rows −⌈h/2⌉ … ⌊h/2⌋ − 1,
    // text from max(h//2, w//2); Qwen-Image-Edit's reference image at frame index 1.
    const qi = pe.axesPositions({ model: 'qwen-image', height: 7, width: 10, textTokens: 3, references: [[4, 6]] });
    assert.deepEqual(Array.from(qi.positions.subarray(0, 4)), [5, 6, 7, 0]);
    assert.equal(qi.positions[qi.tokens + 3], -4);
    assert.equal(qi.positions[2 * qi.tokens + 3], -5);
    assert.equal(qi.positions[qi.tokens - 1], 1);
    const qr = pe.rope({ headDim: 128, axes: 'qwen-image' });
    checkApply(qr, qi.positions, qi.tokens, 1, (t) => axesAngles([16, 56, 56], qi.positions, qi.tokens, t, 10000), 'qwen-image');
    qr.dispose();
    // CogVideoX 1.0 at a non-base grid: get_resize_crop_region_for_grid + linspace, real.
    const cv = pe.axesPositions({ model: 'cogvideox', version: '1.0', frames: 2, height: 30, width: 30, baseHeight: 30, baseWidth: 45 });
    assert.ok(cv.positions instanceof Float64Array);
    // (30, 30) in a 30 x 45 base: resize 30 x 30, crop (0, 8) … (30, 38); columns
    // linspace(8, 38·29/30, 30).
    assert.equal(cv.positions[2 * cv.tokens + 1], 8 + (38 * 29 / 30 - 8) / 29);
    const cr = pe.rope({ headDim: 64, axes: 'cogvideox' });
    checkApply(cr, cv.positions, cv.tokens, 1, (t) => axesAngles([16, 24, 24], cv.positions, cv.tokens, t, 10000), 'cogvideox 1.0');
    // CogVideoX 1.5: get_3d_rotary_pos_embed(grid_type="slice"): arange frames, rows and
    // columns, a slice of the base grid (here 20 x 30 of 48 x 85), integers; text first at 0.
    const cs = pe.axesPositions({ model: 'cogvideox', version: '1.5', frames: 3, height: 20, width: 30, baseHeight: 48, baseWidth: 85, textTokens: 2 });
    assert.ok(cs.positions instanceof Int32Array);
    assert.equal(cs.tokens, 2 + 3 * 20 * 30);
    const at = (t) => [0, 1, 2].map((a) => cs.positions[a * cs.tokens + t]);
    assert.deepEqual(at(1), [0, 0, 0]);
    assert.deepEqual(at(2 + 20 * 30 + 31), [1, 1, 1]);
    assert.deepEqual(at(cs.tokens - 1), [2, 19, 29]);
    checkApply(cr, cs.positions, cs.tokens, 1, (t) => axesAngles([16, 24, 24], cs.positions, cs.tokens, t, 10000), 'cogvideox 1.5');
    cr.dispose();
  });

  test(`${name}: dinov3 224x224 matches DINOv3ViTRopePositionEmbedding (real positions, 2π, base 100, rotate_half)`, () => {
    const g = pe.axesPositions({ model: 'dinov3', height: 14, width: 14, prefixTokens: 5 });
    assert.ok(g.positions instanceof Float64Array);
    assert.equal(g.tokens, 201);
    // modeling_dinov3_vit.py get_patches_center_coordinates: 2·(arange(0.5, n) / n) − 1.
    assert.equal(g.positions[5], 2 * (0.5 / 14) - 1);
    assert.equal(g.positions[g.tokens + 6], 2 * (1.5 / 14) - 1);
    const rope = pe.rope({ headDim: 64, axes: 'dinov3' });
    assert.equal(rope.layout, 'half');
    assert.equal(rope.base, 100);
    // inv_freq = 1 / 100 ** arange(0, 1, 4 / 64); angles = 2π·coord·inv_freq, y rungs then x.
    const inv = Array.from({ length: 16 }, (_, k) => 1 / 100 ** (k * (4 / 64)));
    const anglesOf = (t) => [0, 1].flatMap((a) => inv.map((f) => 2 * Math.PI * g.positions[a * g.tokens + t] * f));
    checkApply(rope, g.positions, g.tokens, 6, anglesOf, 'dinov3');
    // Prefix tokens (position (0, 0)) come back unchanged.
    const x = randomFloats(rng, 64);
    assert.deepEqual(rope.apply(x.slice(), { positions: new Float64Array(2) }), x);
    rope.dispose();
  });

  test(`${name}: stable-audio and an explicit description; real integral positions = int positions bit for bit`, () => {
    const sa = pe.rope({ headDim: 64, axes: 'stable-audio' });
    assert.equal(sa.rotaryDim, 32);
    assert.equal(sa.axes, 1);
    checkApply(sa, Int32Array.from({ length: 50 }, (_, t) => t), 50, 2, (t) => rope1d(32, t, 10000), 'stable-audio');
    sa.dispose();
    // The flux preset written out: the same rotator.
    const custom = pe.rope({ headDim: 128, axes: { dims: [16, 56, 56], names: ['t', 'h', 'w'] }, layout: 'interleaved' });
    const flux = pe.rope({ headDim: 128, axes: 'flux' });
    assert.equal(custom.axesName, 'custom');
    assert.deepEqual(custom.invFreq, flux.invFreq);
    const g = pe.axesPositions({ model: 'flux', height: 5, width: 9, textTokens: 2 });
    const x = randomFloats(rng, g.tokens * 3 * 128);
    const a = flux.apply(x.slice(), { heads: 3, positions: g.positions });
    const b = custom.apply(x.slice(), { heads: 3, positions: Float64Array.from(g.positions) });
    assert.deepEqual(a, b);
    const c1 = flux.cosSin({ positions: g.positions });
    const c2 = flux.cosSin({ positions: Float64Array.from(g.positions) });
    assert.deepEqual(c1, c2);
    // applyQK with real positions = two applies.
    const q = x.slice(0, g.tokens * 2 * 128), k = x.slice(0, g.tokens * 128);
    const [q2, k2] = flux.applyQK(q.slice(), k.slice(), { qHeads: 2, kHeads: 1, positions: Float64Array.from(g.positions) });
    assert.deepEqual(q2, flux.apply(q.slice(), { heads: 2, positions: g.positions }));
    assert.deepEqual(k2, flux.apply(k.slice(), { heads: 1, positions: g.positions }));
    custom.dispose();
    flux.dispose();
  });

  test(`${name}: allegro: rotate_half inside each of three 32-dim chunks at (t/2.2, h/2, w/2) matches apply_rotary_emb_allegro`, () => {
    const g = pe.axesPositions({ model: 'allegro', frames: 3, height: 6, width: 8 });
    assert.ok(g.positions instanceof Float64Array);
    assert.equal(g.positions[48], 1 / 2.2);
    const rope = pe.rope({ headDim: 96, axes: 'allegro' });
    const x = randomFloats(rng, g.tokens * 2 * 96);
    const y = rope.apply(x.slice(), { heads: 2, positions: g.positions });
    // embeddings.py apply_rotary_emb_allegro: t, h, w = x.chunk(3); each x·cos + cat(−x2, x1)·sin.
    let worst = 0;
    for (let t = 0; t < g.tokens; t++) {
      for (let h = 0; h < 2; h++) {
        for (let c = 0; c < 3; c++) {
          const o = (t * 2 + h) * 96 + 32 * c;
          const row = x.subarray(o, o + 32);
          const ref = rotateHalf(row, rope1d(32, g.positions[c * g.tokens + t], 10000));
          for (let j = 0; j < 32; j++) {
            worst = Math.max(worst, Math.abs(y[o + j] - ref[j]) / (Math.abs(row[j]) + Math.abs(row[j ^ 16]) + 1e-30));
          }
        }
      }
    }
    assert.ok(worst <= 4e-7, `allegro: worst relative error ${worst}`);
    const back = rope.invert(y.slice(), { heads: 2, positions: g.positions });
    assertClose(back, x, 2e-6, 'allegro inverse');
    assertThrows(() => rope.apply(new Uint16Array(96), { positions: new Int32Array(3), dtype: 'bfloat16' }), RangeError, /float32 tensors only/);
    rope.dispose();
  });

  test(`${name}: sinusoidal2d matches get_2d_sincos_pos_embed (DiT, SD3 crop, PixArt interpolation)`, () => {
    // embeddings.py get_2d_sincos_pos_embed + _from_grid + get_1d_sincos_pos_embed_from_grid:
    // token i·W + j = [1d(D/2, x_j) | 1d(D/2, y_i)], 1d = [sin(p·ω) | cos(p·ω)],
    // ω_k = 1 / 10000 ** (k / (D/4)); PatchEmbed.cropped_pos_embed for maxSize.
    const reference = (dim, h, w, baseSize, interp, maxSize, extra) => {
      const sh = maxSize || h, sw = maxSize || w;
      const top = Math.floor((sh - h) / 2), left = Math.floor((sw - w) / 2);
      const q = dim / 4;
      const oneD = (p) => [...Array.from({ length: q }, (_, k) => Math.sin(p / 10000 ** (k / q))),
        ...Array.from({ length: q }, (_, k) => Math.cos(p / 10000 ** (k / q)))];
      const out = new Array(extra * dim).fill(0);
      for (let i = 0; i < h; i++) {
        for (let j = 0; j < w; j++) {
          out.push(...oneD((left + j) / (sw / baseSize) / interp), ...oneD((top + i) / (sh / baseSize) / interp));
        }
      }
      return out;
    };
    for (const [dim, h, w, baseSize, interp, maxSize, extra] of [
      [1152, 16, 16, 16, 1, 0, 0], // DiT-XL/2 256px
      [384, 24, 40, 64, 1, 96, 0], // SD3-style crop of a 96² table (small dim to keep it quick)
      [1152, 12, 20, 64, 2, 0, 1], // PixArt interpolation, a leading zero row
    ]) {
      const t = pe.sinusoidal2d({ dim, grid: [h, w], baseSize, interpolationScale: interp, maxSize, extraTokens: extra });
      assertClose(t, reference(dim, h, w, baseSize, interp, maxSize, extra), 1e-7, `sinusoidal2d ${dim} ${h}x${w}`);
    }
    // Into a tensor (no copy) or a Float32Array of exactly rows × dim floats.
    const fresh = pe.sinusoidal2d({ dim: 64, grid: [3, 5], extraTokens: 1 });
    const t = pe.tensor(16 * 64);
    assert.equal(pe.sinusoidal2d({ dim: 64, grid: [3, 5], extraTokens: 1, out: t }), t);
    assert.deepEqual(t.array, fresh);
    t.dispose();
    const reuse = new Float32Array(16 * 64).fill(7);
    assert.deepEqual(pe.sinusoidal2d({ dim: 64, grid: [3, 5], extraTokens: 1, out: reuse }), fresh);
    assertThrows(() => pe.sinusoidal2d({ dim: 64, grid: [3, 5], out: new Float32Array(16 * 64) }), RangeError, /out/);
    assertThrows(() => pe.sinusoidal2d({ dim: 6, grid: [2, 2] }), RangeError, /dim/);
    assertThrows(() => pe.sinusoidal2d({ dim: 8, grid: [2] }), RangeError, /grid/);
    assertThrows(() => pe.sinusoidal2d({ dim: 8, grid: [9, 2], maxSize: 8 }), RangeError, /maxSize/);
  });

  test(`${name}: bad axes and positions are refused by name, nothing written`, () => {
    assertThrows(() => pe.rope({ headDim: 64, axes: 'flux' }), RangeError, /dims must sum to rotaryDim 64/, /t 16 \+ h 56 \+ w 56 = 128/);
    assertThrows(() => pe.rope({ headDim: 128, axes: 'sd3' }), RangeError, /axes must be one of/);
    assertThrows(() => pe.rope({ headDim: 128, axes: { dims: [16, 55, 57] } }), RangeError, /axes\[1\]\.dims/);
    assertThrows(() => pe.rope({ headDim: 128, axes: { dims: [16, 55, 56] } }), RangeError, /axes\[1\]\.dims/, /even/);
    assertThrows(() => pe.rope({ headDim: 128, axes: { dims: [16, 56, 56], scales: [1, 1] } }), RangeError, /axes\.scales/);
    assertThrows(() => pe.rope({ headDim: 128, axes: { dims: [2, 2, 2, 2, 2] } }), RangeError, /1 to 4 bands/);
    assertThrows(() => pe.rope({ headDim: 128, axes: { dims: [16, 56, 58] } }), RangeError, /axes\.dims must sum to at most headDim/);
    assertThrows(() => pe.rope({ headDim: 128, axes: 'flux', layout: 'half' }), TypeError, /layout/);
    assertThrows(() => pe.rope({ headDim: 128, axes: 'flux', mrope: { section: [16, 24, 24] } }), TypeError, /mrope and axes/);
    assertThrows(() => pe.rope({ headDim: 128, axes: 'flux', scaling: { type: 'linear', factor: 2 } }), TypeError, /scaling/);
    const rope = pe.rope({ headDim: 128, axes: 'flux' });
    const x = new Float32Array(2 * 128).fill(1);
    assertThrows(() => rope.apply(x, { positions: new Int32Array(5), tokens: 2 }), RangeError, /positions/);
    assertThrows(() => rope.apply(x, { positions: Float64Array.of(0, 0, 0, 0, NaN, 0) }), RangeError, /positions\[4\]/);
    assertThrows(() => rope.apply(x, { start: 0, tokens: 2 }), RangeError, /not start/);
    assertThrows(() => rope.apply(new Uint16Array(256), { positions: new Float64Array(6), dtype: 'bfloat16' }), TypeError, /float32 tensors only/);
    assert.ok(x.every((v) => v === 1));
    rope.dispose();
    assertThrows(() => pe.axesPositions({ model: 'wan', height: 4, width: 4, textTokens: 2 }), RangeError, /textTokens/);
    assertThrows(() => pe.axesPositions({ model: 'cogvideox', height: 4, width: 4, version: '1.0' }), RangeError, /baseHeight/);
    assertThrows(() => pe.axesPositions({ model: 'flux', height: 4 }), TypeError, /height and width/);
    assertThrows(() => pe.axesPositions({ model: 'flux', height: 4, width: 4, references: [[1]] }), RangeError, /references\[0\]/);
    assertThrows(() => pe.axesPositions({ model: 'flux', height: 4, width: 4, extra: 1 }), TypeError, /extra/);
  });
}

test("README's 'Image and video models' Flux example runs as written and prints what it says", () => {
  const readme = readFileSync(`${repoRoot}README.md`, 'utf8');
  const block = /<!-- axes-example -->\s*```js\n([\s\S]*?)```\s*<!-- \/axes-example -->/.exec(readme);
  assert.ok(block, 'README.md has a ```js block between <!-- axes-example --> and <!-- /axes-example -->');
  const printed = /<!-- axes-output -->\s*```text\n([\s\S]*?)```/.exec(readme);
  assert.ok(printed, 'README.md shows the output in a ```text block after <!-- axes-output -->');
  const dir = mkdtempSync(join(tmpdir(), 'posenc-axes-example-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repoRoot, join(dir, 'node_modules', 'posenc'), 'dir');
    writeFileSync(join(dir, 'example.mjs'), block[1]);
    const out = execFileSync('node', ['example.mjs'], { cwd: dir, encoding: 'utf8' }).trim();
    assert.equal(out, printed[1].trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
