// `posenc vectors` (wasm/bin/posenc.mjs, the package's bin): its JSON against HF transformers'
// formulas in float64 (_compute_llama3_parameters, _compute_longrope_parameters,
// _compute_proportional_rope_parameters and the rotary embeddings' cat / repeat_interleave
// cos, sin), its fixed key order, byte-identical output across runs and across the SIMD and
// scalar binaries, its errors, and that it runs from the files the packed tarball holds.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from './support.mjs';

const BIN = `${repoRoot}wasm/bin/posenc.mjs`;
const FIXTURES = `${repoRoot}tests/fixtures/hf-configs/`;
const fixture = (name) => `${FIXTURES}${name}.json`;
const load = (name) => JSON.parse(readFileSync(fixture(name), 'utf8'));

// A layer's compressed-attention fields when it has none (DeepSeek-V4's, below).
const PLAIN = { compressRate: null, ropeSlice: null, outputInverse: false, indexerSlice: null };
// A causal decoder layer's stack fields.
const CAUSAL = { bidirectional: false, lookahead: null, crossAttention: null, patchWindow: null, ...PLAIN };

function run(args, bin = BIN) {
  const r = spawnSync('node', [bin, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function vectors(name, ...extra) {
  const r = run(['vectors', fixture(name), ...extra]);
  assert.equal(r.code, 0, r.err);
  return r.out;
}

// HF's formulas in float64 (modeling_rope_utils.py).
const hfDefault = (dim, base) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));
function hfLlama3(dim, base, { factor, low_freq_factor: low, high_freq_factor: high, original_max_position_embeddings: old }) {
  return hfDefault(dim, base).map((f) => {
    const wavelen = (2 * Math.PI) / f;
    const llama = wavelen > old / low ? f / factor : f;
    if (wavelen < old / high || wavelen > old / low) return llama;
    const smooth = (old / wavelen - low) / (high - low);
    return ((1 - smooth) * llama) / factor + smooth * llama;
  });
}
const hfLongrope = (dim, base, ext) => Array.from({ length: dim / 2 }, (_, i) => 1 / (ext[i] * base ** ((2 * i) / dim)));
// _compute_yarn_parameters → [inv_freq, attention_factor]; truncate floors / ceils the ramp's ends.
function hfYarn(dim, base, { factor, original, betaFast, betaSlow, truncate }) {
  const attention = 0.1 * Math.log(factor) + 1;
  const correction = (r) => (dim * Math.log(original / (r * 2 * Math.PI))) / (2 * Math.log(base));
  let low = correction(betaFast);
  let high = correction(betaSlow);
  if (truncate) [low, high] = [Math.floor(low), Math.ceil(high)];
  [low, high] = [Math.max(low, 0), Math.min(high, dim - 1)];
  if (low === high) high += 0.001;
  const theta = Array.from({ length: dim / 2 }, (_, i) => {
    const extrapolation = 1 / base ** ((2 * i) / dim);
    const ramp = Math.min(Math.max((i - low) / (high - low), 0), 1);
    return (extrapolation / factor) * ramp + extrapolation * (1 - ramp);
  });
  return [theta, attention];
}
function hfProportional(headDim, base, p) {
  const angles = Math.floor((p * headDim) / 2);
  return Array.from({ length: headDim / 2 }, (_, i) => (i < angles ? 1 / base ** ((2 * i) / headDim) : 0));
}

function assertVectors(enc, theta, attention, positions) {
  assert.equal(enc.invFreq.length, theta.length);
  enc.invFreq.forEach((v, i) => assert.ok(Math.abs(v - theta[i]) <= 1e-13 * theta[i], `θ_${i} ${v} vs ${theta[i]}`));
  assert.ok(Math.abs(enc.attentionFactor - attention) <= 1e-14 * attention);
  const n = theta.length;
  positions.forEach((p, t) => {
    assert.equal(enc.cos[t].length, enc.rotaryDim);
    for (let i = 0; i < n; i++) {
      const [a, b] = enc.layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + n];
      const c = attention * Math.cos(p * theta[i]);
      const s = attention * Math.sin(p * theta[i]);
      for (const k of [a, b]) {
        assert.ok(Math.abs(enc.cos[t][k] - c) <= 4e-7 * attention, `cos[${p}][${k}]`);
        assert.ok(Math.abs(enc.sin[t][k] - s) <= 4e-7 * attention, `sin[${p}][${k}]`);
      }
      // float32 values, widened exactly.
      assert.equal(Math.fround(enc.cos[t][a]), enc.cos[t][a]);
    }
  });
}

test('vectors: the documented keys, in order, and HF\'s θ and cos/sin (Llama 3.1, llama3)', () => {
  const doc = JSON.parse(vectors('llama-3.1-8b'));
  assert.deepEqual(Object.keys(doc), ['posenc', 'modelType', 'family', 'positions', 'layers', 'encodings']);
  assert.equal(doc.posenc, JSON.parse(readFileSync(`${repoRoot}package.json`, 'utf8')).version);
  assert.deepEqual([doc.modelType, doc.family], ['llama', 'llama']);
  assert.deepEqual(doc.positions, [0, 1, 4095, 131071]);
  assert.equal(doc.layers.length, 32);
  assert.deepEqual(Object.keys(doc.layers[0]), ['index', 'rope', 'attention', 'window', 'chunk', 'queryScale',
    'bidirectional', 'lookahead', 'crossAttention', 'patchWindow', 'compressRate', 'ropeSlice', 'outputInverse',
    'indexerSlice']);
  assert.deepEqual(doc.layers[5], { index: 5, rope: 'e0', attention: 'full', window: null, chunk: null, queryScale: null,
    ...CAUSAL });
  const enc = doc.encodings.e0;
  assert.deepEqual(Object.keys(enc), ['headDim', 'rotaryDim', 'layout', 'direction', 'base', 'scaling', 'mrope',
    'vision2d', 'axes', 'attentionFactor', 'invFreq', 'cos', 'sin']);
  assert.equal(enc.direction, 'forward');
  const p = load('llama-3.1-8b').rope_scaling;
  assert.deepEqual(enc.scaling, { type: 'llama3', factor: 8, originalMaxPositionEmbeddings: 8192,
    maxPositionEmbeddings: 131072, betaFast: 32, betaSlow: 1, truncate: true, lowFreqFactor: 1, highFreqFactor: 4 });
  assertVectors(enc, hfLlama3(128, 500000, p), 1, doc.positions);
});

test('vectors: byte-identical across runs and across the SIMD and scalar binaries', () => {
  for (const name of ['llama-3.1-8b', 'gemma-4-e2b-it.reconstructed', 'phi-3.5-mini-instruct', 'qwen3.5-9b']) {
    const simd = vectors(name, '--simd', '--positions', '0,1,2,4095,4096,65535,131071');
    const scalar = vectors(name, '--scalar', '--positions', '0,1,2,4095,4096,65535,131071');
    assert.equal(simd, scalar, `${name}: SIMD and scalar differ`);
    assert.equal(vectors(name, '--scalar', '--positions', '0,1,2,4095,4096,65535,131071'), scalar, `${name}: runs differ`);
  }
});

test('vectors: Gemma 4 — a proportional layer, no-RoPE layers of Llama 4, --out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-vectors-'));
  try {
    const out = join(dir, 'g4.json');
    const r = run(['vectors', fixture('gemma-4-e2b-it.reconstructed'), '--positions', '0,7,131071', '--out', out]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, '');
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(doc.layers[5], { index: 5, rope: 'e1', attention: 'full', window: null, chunk: null, queryScale: null,
      ...CAUSAL });
    assert.equal(doc.layers[0].window, 512);
    const global = doc.encodings.e1;
    assert.deepEqual([global.headDim, global.rotaryDim, global.scaling.type, global.scaling.partialRotaryFactor],
      [512, 512, 'proportional', 0.25]);
    assertVectors(global, hfProportional(512, 1e6, 0.25), 1, doc.positions);
    assert.equal(global.cos[2][100], 1); // a zero-frequency pair: cos 1, sin 0 at every position
    assert.equal(global.sin[2][100], 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const scout = JSON.parse(vectors('llama-4-scout-17b-16e.reconstructed', '--positions', '0'));
  assert.deepEqual(scout.layers[3], { index: 3, rope: null, attention: 'full', window: null, chunk: null,
    queryScale: { floorScale: 8192, attnScale: 0.1, offset: 1 }, ...CAUSAL });
  assert.equal(scout.layers[0].chunk, 8192);
});

test('vectors: per-layer rope lists (Step 3.7) and NoPE layers (Muse Glimmer), identical on both binaries', () => {
  const args = ['--positions', '0,1,4095,131071'];
  const step = vectors('step-3.7-flash.reconstructed', '--simd', ...args);
  assert.equal(vectors('step-3.7-flash.reconstructed', '--scalar', ...args), step);
  const doc = JSON.parse(step);
  assert.equal(doc.layers.length, 45);
  assert.deepEqual(doc.layers[4], { index: 4, rope: 'e0', attention: 'full', window: null, chunk: null, queryScale: null, bidirectional: false, lookahead: null, crossAttention: null, patchWindow: null, ...PLAIN });
  assert.deepEqual(doc.layers[5], { index: 5, rope: 'e1', attention: 'sliding', window: 512, chunk: null, queryScale: null, bidirectional: false, lookahead: null, crossAttention: null, patchWindow: null, ...PLAIN });
  // Step3p7TextConfig: full layers int(128 · 0.5) dims at 5e6 with the llama3 rope_scaling; sliding unscaled.
  assertVectors(doc.encodings.e0, hfLlama3(64, 5e6, load('step-3.7-flash.reconstructed').text_config.rope_scaling), 1, doc.positions);
  assertVectors(doc.encodings.e1, hfDefault(128, 1e4), 1, doc.positions);
  const muse = vectors('muse-glimmer-30b.reconstructed', '--simd', ...args);
  assert.equal(vectors('muse-glimmer-30b.reconstructed', '--scalar', ...args), muse);
  const m = JSON.parse(muse);
  assert.deepEqual(m.layers[51], { index: 51, rope: null, attention: 'full', window: null, chunk: null, queryScale: null, bidirectional: false, lookahead: null, crossAttention: null, patchWindow: null, ...PLAIN });
  assert.deepEqual(m.layers[50], { index: 50, rope: 'e0', attention: 'sliding', window: 2048, chunk: null, queryScale: null, bidirectional: false, lookahead: null, crossAttention: null, patchWindow: null, ...PLAIN });
  assertVectors(m.encodings.e0, hfDefault(128, 5e5), 1, m.positions);
});

test('vectors: --seq-len on both sides of Phi-3.5\'s original context picks short or long factors', () => {
  const phi = load('phi-3.5-mini-instruct');
  const attention = Math.sqrt(1 + Math.log(131072 / 4096) / Math.log(4096));
  for (const [seqLen, key] of [[4096, 'short_factor'], [4097, 'long_factor']]) {
    const doc = JSON.parse(vectors('phi-3.5-mini-instruct', '--seq-len', String(seqLen)));
    assertVectors(doc.encodings.e0, hfLongrope(96, 10000, phi.rope_scaling[key]), attention, doc.positions);
  }
});

test('vectors: nanochat says direction inverse over its own cos/sin; ERNIE 4.5 VL its hw sections', () => {
  // NanoChatRotaryEmbedding returns cos/sin(p·θ) of cat(freqs, freqs); its rotate_half =
  // cat((x2, -x1)) turns them by −p·θ, which the document states as direction 'inverse'.
  const nano = JSON.parse(vectors('nanochat.class-defaults.reconstructed'));
  assert.deepEqual([nano.family, nano.layers.length], ['nanochat', 12]);
  const e = nano.encodings.e0;
  assert.deepEqual([e.headDim, e.rotaryDim, e.layout, e.direction, e.base], [128, 128, 'half', 'inverse', 10000]);
  assertVectors(e, hfDefault(128, 10000), 1, nano.positions);
  // Ernie4_5_VLMoeTextRotaryEmbedding at text positions (t = h = w): the plain adjacent-pair ladder.
  const ernie = JSON.parse(vectors('ernie-4.5-vl-28b-a3b.class-defaults.reconstructed'));
  const v = ernie.encodings.e0;
  assert.deepEqual([ernie.family, v.layout, v.direction, v.base], ['ernie4_5_vl_moe', 'interleaved', 'forward', 500000]);
  assert.deepEqual(v.mrope, { section: [20, 22, 22], interleaved: 'hw' });
  assertVectors(v, hfDefault(128, 500000), 1, ernie.positions);
});

test('vectors: --tower vision and --family', () => {
  const out = vectors('qwen2.5-vl-7b-instruct', '--tower', 'vision', '--positions', '0,5', '--simd');
  assert.equal(vectors('qwen2.5-vl-7b-instruct', '--tower', 'vision', '--positions', '0,5', '--scalar'), out);
  const doc = JSON.parse(out);
  assert.equal(doc.encodings.e0.vision2d, 'qwen2-vl');
  assert.equal(doc.encodings.e0.headDim, 80);
  assert.equal(doc.layers.length, 32);
  // Qwen2_5_VisionTransformerPretrainedModel.forward: blocks in fullatt_block_indexes [7, 15, 23, 31]
  // see the frame, the others windows of window_size // spatial_merge_size // patch_size =
  // 112 // 2 // 14 merged tokens (get_vision_window_index); is_causal = False.
  const vc = load('qwen2.5-vl-7b-instruct').vision_config;
  const side = Math.floor(Math.floor(vc.window_size / vc.spatial_merge_size) / vc.patch_size);
  for (const l of doc.layers) {
    const full = vc.fullatt_block_indexes.includes(l.index);
    assert.deepEqual(l, { index: l.index, rope: 'e0', attention: full ? 'full' : 'windowed', window: null, chunk: null,
      queryScale: null, bidirectional: true, lookahead: null, crossAttention: null,
      patchWindow: full ? null : { side, merge: vc.spatial_merge_size }, ...PLAIN }, `layer ${l.index}`);
  }
  assert.equal(side, 4);
  // Qwen2.5-Omni: thinker_config.vision_config, Qwen2_5OmniVisionEncoder's windows with its class
  // defaults (fullatt 7, 15, 23, 31; spatial_merge_size 2); θ_j = 10000^(−2j/40) per axis.
  const omniOut = vectors('qwen2.5-omni-7b.reconstructed', '--tower', 'vision', '--positions', '0,5', '--simd');
  assert.equal(vectors('qwen2.5-omni-7b.reconstructed', '--tower', 'vision', '--positions', '0,5', '--scalar'), omniOut);
  const omni = JSON.parse(omniOut);
  assert.deepEqual([omni.modelType, omni.encodings.e0.vision2d, omni.encodings.e0.headDim],
    ['qwen2_5_omni_vision_encoder', 'qwen2-vl', 80]);
  assert.deepEqual(omni.layers.map((l) => [l.attention, l.patchWindow, l.bidirectional]),
    Array.from({ length: 32 }, (_, i) => ([7, 15, 23, 31].includes(i) ? ['full', null, true] : ['windowed', { side: 4, merge: 2 }, true])));
  const omniInv = omni.encodings.e0.invFreq; // Qwen2_5_VisionRotaryEmbedding(40): rows, then columns
  assert.equal(omniInv.length, 40);
  omniInv.forEach((f, k) => assert.ok(Math.abs(f - 1 / 10000 ** ((2 * (k % 20)) / 40)) <= 1e-15, `θ_${k} ${f}`));
  const omni3 = JSON.parse(vectors('qwen3-omni-30b-a3b-instruct.reconstructed', '--tower', 'vision', '--positions', '0,5'));
  assert.deepEqual([omni3.encodings.e0.headDim, omni3.layers.length, omni3.layers.every((l) => l.attention === 'full')],
    [72, 27, true]); // Qwen3OmniMoeVisionEncoder: 1152 // 16, every block full
  const museDir = mkdtempSync(join(tmpdir(), 'posenc-vectors-'));
  try {
    // Muse Glimmer (build_config()'s vision_config): axes 'muse-glimmer', 32 × 32-patch windows.
    const muse = load('muse-glimmer-30b.reconstructed');
    muse.vision_config = { model_type: 'muse_glimmer_vision', hidden_size: 1536, num_hidden_layers: 50,
      num_attention_heads: 16, patch_size: 14, pos_emb_height: 32, pos_emb_width: 32,
      rope_parameters: { rope_type: 'default', rope_theta: 10000 } };
    const file = join(museDir, 'muse.json');
    execFileSync('node', ['-e', `require('fs').writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(JSON.stringify(muse))})`]);
    const simd = run(['vectors', file, '--tower', 'vision', '--positions', '1,7', '--simd']);
    assert.equal(simd.code, 0, simd.err);
    assert.equal(run(['vectors', file, '--tower', 'vision', '--positions', '1,7', '--scalar']).out, simd.out);
    const m = JSON.parse(simd.out);
    assert.deepEqual([m.layers[0].attention, m.layers[0].patchWindow, m.layers[3].attention, m.layers[49].attention],
      ['windowed', { side: 32, merge: 1 }, 'full', 'full']);
    const e = m.encodings.e0;
    assert.deepEqual([e.headDim, e.axes, e.vision2d, e.base], [96, 'muse-glimmer', null, 10000]);
    // At (p, p) on both axes: cat([p·f, p·f, p·f, p·f]) with f over head_dim // 2 (MuseGlimmerVisionRotaryEmbedding).
    const inv = Array.from({ length: 24 }, (_, j) => 1 / 10000 ** ((2 * j) / 48));
    m.positions.forEach((p, i) => e.cos[i].forEach((v, k) => assert.ok(Math.abs(v - Math.cos(p * inv[k % 24])) < 3e-7)));
  } finally {
    rmSync(museDir, { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(tmpdir(), 'posenc-vectors-'));
  try {
    const c = load('codellama-7b');
    c.model_type = 'my_llama';
    const file = join(dir, 'c.json');
    execFileSync('node', ['-e', `require('fs').writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(JSON.stringify(c))})`]);
    const refused = run(['vectors', file]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /model_type = 'my_llama' is not a family posenc knows/);
    const r = run(['vectors', file, '--family', 'llama', '--positions', '3']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).family, 'llama');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('vectors: --stack — OpenAI Privacy Filter\'s bidirectional yarn, T5Gemma 2\'s encoder and decoder', () => {
  // OpenAIPrivacyFilterConfig's class dict (yarn, truncate False) at θ 150000, pairs (2i, 2i + 1);
  // |i − j| ≤ 128 (create_bidirectional_sliding_window_mask).
  const pf = JSON.parse(vectors('openai-privacy-filter.class-defaults.reconstructed', '--positions', '0,1,4095,131071'));
  assert.deepEqual(pf.layers[7], { index: 7, rope: 'e0', attention: 'sliding', window: 129, chunk: null, queryScale: null,
    bidirectional: true, lookahead: 128, crossAttention: null, patchWindow: null, ...PLAIN });
  const [theta, attention] = hfYarn(64, 150000, { factor: 32, original: 4096, betaFast: 32, betaSlow: 1, truncate: false });
  assert.equal(pf.encodings.e0.layout, 'interleaved');
  assertVectors(pf.encodings.e0, theta, attention, pf.positions);
  // T5Gemma 2 (T5Gemma2TextEncoder's split window 512 → 256 before, 256 after; merged cross-attention).
  const name = 't5gemma-2-270m-270m.reconstructed';
  const enc = JSON.parse(vectors(name, '--stack', 'encoder', '--positions', '0,5,32767'));
  const dec = JSON.parse(vectors(name, '--stack', 'decoder', '--positions', '0,5,32767'));
  assert.deepEqual(enc.layers[0], { index: 0, rope: 'e0', attention: 'sliding', window: 256, chunk: null, queryScale: null,
    bidirectional: true, lookahead: 256, crossAttention: null, patchWindow: null, ...PLAIN });
  assert.deepEqual(dec.layers[5], { index: 5, rope: 'e1', attention: 'full', window: null, chunk: null, queryScale: null,
    bidirectional: false, lookahead: null, crossAttention: 'merged', patchWindow: null, ...PLAIN });
  for (const doc of [enc, dec]) {
    assertVectors(doc.encodings.e0, hfDefault(256, 1e4), 1, doc.positions);
    assertVectors(doc.encodings.e1, hfDefault(256, 1e6).map((f) => f / 8), 1, doc.positions); // linear ×8
  }
  assert.equal(vectors(name, '--stack', 'decoder', '--scalar'), vectors(name, '--stack', 'decoder', '--simd'));
  const missing = run(['vectors', fixture(name)]);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /stack is required: 't5gemma2' is an encoder-decoder config/);
  const bad = run(['vectors', fixture(name), '--stack', 'middle']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /stack must be 'encoder' or 'decoder', got the string 'middle'/);
});

test('vectors: DiffusionGemma needs --stack; its encoder is causal, a decoder with sliding layers is refused', () => {
  // DiffusionGemmaTextConfig's defaults are Gemma4TextConfig's: the class-defaults fixture re-typed.
  const g4 = JSON.parse(readFileSync(fixture('gemma-4-e2b-it.class-defaults.reconstructed'), 'utf8'));
  const dg = { ...g4, model_type: 'diffusion_gemma', text_config: { ...g4.text_config, model_type: 'diffusion_gemma_text' } };
  const dir = mkdtempSync(join(tmpdir(), 'posenc-vectors-'));
  try {
    const file = join(dir, 'diffusion-gemma.json');
    execFileSync('node', ['-e', `require('fs').writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(JSON.stringify(dg))})`]);
    const missing = run(['vectors', file]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /stack is required: 'diffusion_gemma_text' runs one text config as two stacks/);
    const encoder = run(['vectors', file, '--stack', 'encoder', '--positions', '0,7']);
    assert.equal(encoder.code, 0, encoder.err);
    const doc = JSON.parse(encoder.out);
    assert.equal(doc.family, 'diffusion_gemma');
    assert.ok(doc.layers.every((l) => !l.bidirectional && l.window === (l.attention === 'sliding' ? 512 : null)));
    const decoder = run(['vectors', file, '--stack', 'decoder']);
    assert.equal(decoder.code, 1);
    assert.match(decoder.err, /text_config\.layer_types\[0\] is sliding_attention on diffusion_gemma's decoder stack/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('vectors: DeepSeek-V4 — compressed layers, the trailing rope slice, \'main\' and \'compress\' encodings', () => {
  // DeepseekV4Config.__post_init__ with the legacy compress_ratios [0, 4, 128] (the MTP entry cut):
  // 'main' = default at rope_theta 10000, 'compress' = the rope_scaling yarn at compress_rope_theta
  // 160000 with attention_factor 1, both over the trailing int(512 · 64 / 512) = 64 dims, pairs
  // (2i, 2i + 1) (apply_rotary_pos_emb's repeat_interleave); the output de-rotated (cos, -sin).
  const dir = mkdtempSync(join(tmpdir(), 'posenc-v4-'));
  try {
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ ...load('deepseek-v4-flash.class-defaults.reconstructed'), num_hidden_layers: 3,
      compress_ratios: [0, 4, 128, 0] }));
    const args = ['vectors', file, '--positions', '0,1,127,128,4095,65535,131071'];
    const r = run(args);
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(r.out);
    const slice = { ropeSlice: { head: 512, offset: 448 }, outputInverse: true };
    assert.deepEqual(doc.layers, [
      { index: 0, rope: 'e0', attention: 'sliding', window: 128, chunk: null, queryScale: null, ...CAUSAL,
        ...slice },
      { index: 1, rope: 'e1', attention: 'compressed_sparse', window: 128, chunk: null, queryScale: null, ...CAUSAL,
        compressRate: 4, ...slice, indexerSlice: { head: 128, offset: 64 } },
      { index: 2, rope: 'e1', attention: 'heavily_compressed', window: 128, chunk: null, queryScale: null, ...CAUSAL,
        compressRate: 128, ...slice }]);
    for (const e of Object.values(doc.encodings)) assert.deepEqual([e.headDim, e.rotaryDim, e.layout], [64, 64, 'interleaved']);
    assertVectors(doc.encodings.e0, hfDefault(64, 10000), 1, doc.positions);
    const [theta] = hfYarn(64, 160000, { factor: 16, original: 65536, betaFast: 32, betaSlow: 1, truncate: true });
    assertVectors(doc.encodings.e1, theta, 1, doc.positions);
    assert.equal(doc.encodings.e1.scaling.type, 'yarn');
    assert.equal(run([...args, '--scalar']).out, run([...args, '--simd']).out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('vectors: bad arguments exit 2 with the usage, a bad config exits 1 naming the key', () => {
  for (const args of [[], ['vector'], ['vectors'], ['vectors', fixture('llama-3.1-8b'), '--positions', '1,x'],
    ['vectors', fixture('llama-3.1-8b'), '--positions', '-1'], ['vectors', fixture('llama-3.1-8b'), '--seq-len'],
    ['vectors', fixture('llama-3.1-8b'), '--frobnicate'], ['vectors', 'a.json', 'b.json']]) {
    const r = run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /usage: posenc vectors/);
  }
  const missing = run(['vectors', '/nonexistent/config.json']);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /ENOENT/);
  const tower = run(['vectors', fixture('llama-3.1-8b'), '--tower', 'audio']);
  assert.equal(tower.code, 1);
  assert.match(tower.err, /tower/);
});

test('vectors runs from the files the packed tarball holds', () => {
  const listing = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'],
    { cwd: repoRoot, encoding: 'utf8' }));
  const files = listing[0].files.map((f) => f.path);
  assert.ok(files.includes('wasm/bin/posenc.mjs'));
  const pkg = JSON.parse(readFileSync(`${repoRoot}package.json`, 'utf8'));
  assert.equal(pkg.bin.posenc, './wasm/bin/posenc.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'posenc-packed-'));
  try {
    for (const f of files) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      cpSync(`${repoRoot}${f}`, join(dir, f));
    }
    const packed = run(['vectors', fixture('llama-3.1-8b')], join(dir, 'wasm/bin/posenc.mjs'));
    assert.equal(packed.code, 0, packed.err);
    assert.equal(packed.out, vectors('llama-3.1-8b'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
