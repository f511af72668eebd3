// pe.ropeFromConfig on every published config.json of tests/fixtures/hf-configs/, on both
// binaries: θ and the attention factor against HF transformers' formulas evaluated here in
// float64 (an independent port of src/transformers/modeling_rope_utils.py, functions named
// below), apply against a float64 rotation, refusals naming the config key, and configs a
// hostile caller can build (getters, Proxies, a polluted Object.prototype, cycles, subclasses).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Random, assertThrows, loadBoth, randomFloats, repoRoot } from './support.mjs';

const both = await loadBoth();
const FIXTURES = `${repoRoot}tests/fixtures/hf-configs/`;
const load = (name) => JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8'));

// ── HF transformers' formulas in float64 (modeling_rope_utils.py) ─────────────────────────

// _compute_default_rope_parameters: 1 / base^(arange(0, dim, 2) / dim).
const hfDefault = (dim, base) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));

// _compute_llama3_parameters.
function hfLlama3(dim, base, factor, low, high, oldContext) {
  const lowWavelen = oldContext / low;
  const highWavelen = oldContext / high;
  return hfDefault(dim, base).map((f) => {
    const wavelen = (2 * Math.PI) / f;
    const llama = wavelen > lowWavelen ? f / factor : f;
    const smooth = (oldContext / wavelen - low) / (high - low);
    const smoothed = ((1 - smooth) * llama) / factor + smooth * llama;
    const medium = !(wavelen < highWavelen) && !(wavelen > lowWavelen);
    return medium ? smoothed : llama;
  });
}

// _compute_yarn_parameters (truncate true): [invFreq, attentionFactor].
function hfYarn(dim, base, factor, original, betaFast, betaSlow, mscale, mscaleAllDim) {
  const getMscale = (scale, m) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
  const attention = mscale && mscaleAllDim ? getMscale(factor, mscale) / getMscale(factor, mscaleAllDim)
    : getMscale(factor, 1);
  const correctionDim = (rot) => (dim * Math.log(original / (rot * 2 * Math.PI))) / (2 * Math.log(base));
  const low = Math.max(Math.floor(correctionDim(betaFast)), 0);
  let high = Math.min(Math.ceil(correctionDim(betaSlow)), dim - 1);
  if (low === high) high += 0.001;
  const inv = Array.from({ length: dim / 2 }, (_, i) => {
    const posFreq = base ** ((2 * i) / dim);
    const ramp = Math.min(Math.max((i - low) / (high - low), 0), 1);
    const extrapolationFactor = 1 - ramp;
    return (1 / (factor * posFreq)) * (1 - extrapolationFactor) + (1 / posFreq) * extrapolationFactor;
  });
  return [inv, attention];
}

// _compute_longrope_parameters: [invFreq, attentionFactor]; factor = max / original.
function hfLongrope(dim, base, ext, maxPositions, original) {
  const factor = maxPositions / original;
  const attention = factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(original));
  return [Array.from({ length: dim / 2 }, (_, i) => 1 / (ext[i] * base ** ((2 * i) / dim))), attention];
}

// _compute_linear_scaling_rope_parameters: the default ladder / factor.
const hfLinear = (dim, base, factor) => hfDefault(dim, base).map((f) => f / factor);

// What each fixture maps to: [headDim, rotaryDim, base, layout, θ, attention factor, extra].
const phi35 = load('phi-3.5-mini-instruct');
const phi4 = load('phi-4-mini-instruct');
const EXPECTED = {
  'deepseek-v3': [64, 64, 10000, 'interleaved', ...hfYarn(64, 10000, 40, 4096, 32, 1, 1, 1)],
  'gemma-2-2b': [256, 256, 10000, 'half', hfDefault(256, 10000), 1],
  'gemma-3-1b-it': [256, 256, 1e6, 'half', hfDefault(256, 1e6), 1],
  'gpt-j-6b': [256, 64, 10000, 'interleaved', hfDefault(64, 10000), 1],
  'llama-3.1-8b': [128, 128, 500000, 'half', hfLlama3(128, 500000, 8, 1, 4, 8192), 1],
  'llama-3.2-3b': [128, 128, 500000, 'half', hfLlama3(128, 500000, 32, 1, 4, 8192), 1],
  'mistral-7b-instruct-v0.3': [128, 128, 1e6, 'half', hfDefault(128, 1e6), 1],
  'phi-3.5-mini-instruct': [96, 96, 10000, 'half',
    ...hfLongrope(96, 10000, phi35.rope_scaling.short_factor, 131072, 4096)],
  'phi-4-mini-instruct': [128, 96, 10000, 'half',
    ...hfLongrope(96, 10000, phi4.rope_scaling.short_factor, 131072, 4096)],
  'qwen2.5-7b': [128, 128, 1e6, 'half', hfDefault(128, 1e6), 1],
  'qwen2.5-vl-7b-instruct': [128, 128, 1e6, 'half', hfDefault(128, 1e6), 1,
    { section: [16, 24, 24], interleaved: false }],
  'qwen3-vl-4b-instruct': [128, 128, 5e6, 'half', hfDefault(128, 5e6), 1,
    { section: [24, 20, 20], interleaved: true }],
  'redpajama-incite-3b': [80, 80, 10000, 'half', hfDefault(80, 10000), 1],
  'stablelm-3b-4e1t': [80, 20, 10000, 'half', hfDefault(20, 10000), 1],
};

function assertRotator(rope, [headDim, rotaryDim, base, layout, theta, attention, mrope], what) {
  assert.equal(rope.headDim, headDim, `${what}: headDim`);
  assert.equal(rope.rotaryDim, rotaryDim, `${what}: rotaryDim`);
  assert.equal(rope.base, base, `${what}: base`);
  assert.equal(rope.layout, layout, `${what}: layout`);
  assert.equal(rope.invFreq.length, theta.length, `${what}: θ count`);
  for (let i = 0; i < theta.length; i++) {
    const rel = Math.abs(rope.invFreq[i] - theta[i]) / theta[i];
    assert.ok(rel <= 1e-13, `${what}: θ_${i} = ${rope.invFreq[i]}, HF ${theta[i]} (rel ${rel})`);
  }
  assert.ok(Math.abs(rope.attentionFactor - attention) <= 1e-14 * attention,
    `${what}: attentionFactor ${rope.attentionFactor}, HF ${attention}`);
  assert.deepEqual(rope.mrope === null ? undefined : { ...rope.mrope, section: [...rope.mrope.section] }, mrope,
    `${what}: mrope`);
}

// HF's rotation in float64 (rotate_half, or GPT-J's rotate_every_two), times the factor.
function rotate64(x, { headDim, rotaryDim, layout, invFreq, attentionFactor: f }, heads, positions) {
  const out = Float64Array.from(x);
  const half = rotaryDim / 2;
  positions.forEach((p, t) => {
    for (let h = 0; h < heads; h++) {
      const row = (t * heads + h) * headDim;
      for (let i = 0; i < half; i++) {
        const [a, b] = layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + half];
        const c = Math.cos(p * invFreq[i]);
        const s = Math.sin(p * invFreq[i]);
        out[row + a] = f * (x[row + a] * c - x[row + b] * s);
        out[row + b] = f * (x[row + b] * c + x[row + a] * s);
      }
    }
  });
  return out;
}

test("README's 'From a Hugging Face config' example runs as written and prints what it says", () => {
  const readme = readFileSync(`${repoRoot}README.md`, 'utf8');
  const block = /<!-- hf-example -->\s*```js\n([\s\S]*?)```\s*<!-- \/hf-example -->/.exec(readme);
  assert.ok(block, 'README.md has a ```js block between <!-- hf-example --> and <!-- /hf-example -->');
  const printed = /<!-- hf-output -->\s*```text\n([\s\S]*?)```/.exec(readme);
  assert.ok(printed, 'README.md shows the output in a ```text block after <!-- hf-output -->');
  // A project where 'posenc' is this repository (package.json exports), and the config it reads.
  const dir = mkdtempSync(join(tmpdir(), 'posenc-hf-example-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repoRoot, join(dir, 'node_modules', 'posenc'), 'dir');
    copyFileSync(`${FIXTURES}llama-3.1-8b.json`, join(dir, 'config.json'));
    writeFileSync(join(dir, 'example.mjs'), block[1]);
    const out = execFileSync('node', ['example.mjs'], { cwd: dir, encoding: 'utf8' }).trim();
    assert.equal(out, printed[1].trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every expectation names a fixture (config-families.test.mjs checks the rest)', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  for (const name of Object.keys(EXPECTED)) assert.ok(files.includes(name), name);
});

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: ropeFromConfig on every published config.json matches HF's θ and attention factor`, () => {
    for (const [file, want] of Object.entries(EXPECTED)) {
      const rope = pe.ropeFromConfig(load(file));
      assertRotator(rope, want, file);
      rope.dispose();
    }
    // longrope takes its long factors iff seqLen > original_max_position_embeddings (once).
    for (const seqLen of [4096, 4097, 131072]) {
      const factors = phi35.rope_scaling[seqLen > 4096 ? 'long_factor' : 'short_factor'];
      assertRotator(pe.ropeFromConfig(phi35, { seqLen }), [96, 96, 10000, 'half',
        ...hfLongrope(96, 10000, factors, 131072, 4096)], `phi-3.5 seqLen ${seqLen}`);
    }
    // Gemma 3's local rotary; a layout override.
    assertRotator(pe.ropeFromConfig(load('gemma-3-1b-it'), { layerType: 'sliding_attention' }),
      [256, 256, 10000, 'half', hfDefault(256, 10000), 1], 'gemma-3 sliding');
    assert.equal(pe.ropeFromConfig(load('llama-3.1-8b'), { layout: 'interleaved' }).layout, 'interleaved');
    // transformers v5 rope_parameters and a linear scaling.
    const v5 = load('mistral-7b-instruct-v0.3');
    delete v5.rope_theta;
    v5.rope_parameters = { rope_type: 'linear', factor: 4, rope_theta: 1e6 };
    assertRotator(pe.ropeFromConfig(v5), [128, 128, 1e6, 'half', hfLinear(128, 1e6, 4), 1], 'v5 linear');
  });

  test(`${name}: ropeFromConfig builds what pe.rope builds from the same options`, () => {
    const fromConfig = pe.ropeFromConfig(load('llama-3.1-8b'), { cacheLength: 64 });
    const direct = pe.rope({ headDim: 128, base: 500000, cacheLength: 64, scaling: { type: 'llama3', factor: 8,
      lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192, maxPositionEmbeddings: 131072 } });
    assert.deepEqual(fromConfig.invFreq, direct.invFreq);
    assert.equal(fromConfig.attentionFactor, direct.attentionFactor);
    assert.deepEqual(fromConfig.cosSin({ start: 60, tokens: 8 }), direct.cosSin({ start: 60, tokens: 8 }));
    // The M-RoPE text rotator and the vision tower's 2-D rotary are the pe.rope ones.
    const q = load('qwen2.5-vl-7b-instruct');
    const m = pe.ropeFromConfig(q);
    assert.deepEqual(m.invFreq, pe.rope({ headDim: 128, base: 1e6, mrope: { section: [16, 24, 24] } }).invFreq);
    const v = pe.ropeFromConfig(q, { tower: 'vision' });
    assert.equal(v.headDim, 80);
    assert.equal(v.vision2d, 'qwen2-vl');
    assert.deepEqual(v.invFreq, pe.rope({ headDim: 80, base: 10000, vision2d: 'qwen2-vl' }).invFreq);
    const v3 = pe.ropeFromConfig(load('qwen3-vl-4b-instruct'), { tower: 'vision' });
    assert.equal(v3.headDim, 64); // 1024 / 16
    const pixtral = pe.ropeFromConfig({ model_type: 'mistral3', text_config: { model_type: 'mistral', head_dim: 128 },
      vision_config: { model_type: 'pixtral', head_dim: 64, hidden_size: 1024, num_attention_heads: 16,
        rope_theta: 10000 } }, { tower: 'vision' });
    assert.equal(pixtral.vision2d, 'pixtral');
    assert.equal(pixtral.headDim, 64);
  });

  test(`${name}: modelFromConfig({ tower: 'vision' }) — Qwen2.5-VL's windowed blocks, Muse Glimmer refused by name`, () => {
    // Qwen2_5_VisionTransformerPretrainedModel.forward: `layer_num in fullatt_block_indexes` sees
    // its frame, other blocks their window of window_size // spatial_merge_size // patch_size merged
    // tokens (get_vision_window_index); Qwen2_5_VLVisionConfig's defaults when the keys are absent.
    const q = load('qwen2.5-vl-7b-instruct');
    const hfLayers = (vc, depth) => Array.from({ length: depth }, (_, i) => {
      const full = (vc.fullatt_block_indexes ?? [7, 15, 23, 31]).includes(i);
      const merge = vc.spatial_merge_size ?? 2;
      const side = Math.floor(Math.floor((vc.window_size ?? 112) / merge) / (vc.patch_size ?? 14));
      return [full ? 'full' : 'windowed', full ? null : { side, merge }, true];
    });
    const layersOf = (config) => {
      const m = pe.modelFromConfig(config, { tower: 'vision' });
      try {
        return m.layers.map((l) => [l.attention, l.patchWindow && { ...l.patchWindow }, l.bidirectional]);
      } finally {
        m.dispose();
      }
    };
    assert.deepEqual(layersOf(q), hfLayers(q.vision_config, 32));
    const edited = structuredClone(q);
    Object.assign(edited.vision_config, { depth: 5, fullatt_block_indexes: [1, 9], window_size: 56 });
    assert.deepEqual(layersOf(edited), hfLayers(edited.vision_config, 5));
    for (const key of ['fullatt_block_indexes', 'window_size', 'patch_size', 'spatial_merge_size']) delete edited.vision_config[key];
    assert.deepEqual(layersOf(edited), hfLayers(edited.vision_config, 5));
    edited.vision_config.window_size = 20; // 20 // 2 // 14 = 0: transformers divides by it
    assertThrows(() => pe.modelFromConfig(edited, { tower: 'vision' }), RangeError, /vision_config\.window_size = 20/);
    const q3 = pe.modelFromConfig(load('qwen3-vl-4b-instruct'), { tower: 'vision' });
    assert.ok(q3.layers.every((l) => l.attention === 'full' && l.patchWindow === null && l.bidirectional));
    q3.dispose();
    // Qwen2_5OmniVisionEncoder.forward (thinker_config.vision_config): the same rule, its class
    // defaults (fullatt 7, 15, 23, 31; merge 2) where the config leaves them out.
    const omni = load('qwen2.5-omni-7b.reconstructed');
    assert.deepEqual(layersOf(omni), hfLayers(omni.thinker_config.vision_config, 32));
    const omniEdited = structuredClone(omni);
    Object.assign(omniEdited.thinker_config.vision_config, { depth: 6, fullatt_block_indexes: [2], window_size: 84 });
    assert.deepEqual(layersOf(omniEdited), hfLayers(omniEdited.thinker_config.vision_config, 6));
    assert.deepEqual(layersOf(omni.thinker_config), hfLayers(omni.thinker_config.vision_config, 32));
    const ov = pe.ropeFromConfig(omni, { tower: 'vision' });
    assert.deepEqual([ov.headDim, ov.vision2d], [80, 'qwen2-vl']); // 1280 // 16
    assert.deepEqual(ov.invFreq, pe.rope({ headDim: 80, base: 10000, vision2d: 'qwen2-vl' }).invFreq);
    ov.dispose();
    // Qwen3OmniMoeVisionEncoder.forward: cu_seqlens on every block; 1152 // 16 = 72.
    const o3 = pe.modelFromConfig(load('qwen3-omni-30b-a3b-instruct.reconstructed'), { tower: 'vision' });
    assert.equal(o3.layers.length, 27);
    assert.ok(o3.layers.every((l) => l.attention === 'full' && l.patchWindow === null && l.bidirectional));
    assert.deepEqual([o3.encodings.e0.headDim, o3.encodings.e0.vision2d], [72, 'qwen2-vl']);
    o3.dispose();
    const bare = structuredClone(omni);
    delete bare.thinker_config.vision_config;
    assertThrows(() => pe.modelFromConfig(bare, { tower: 'vision' }), RangeError, /thinker_config\.vision_config is missing/);
  });

  test(`${name}: Muse Glimmer's vision tower — axes 'muse-glimmer' at (col + 1, row + 1), window_attention blocks`, () => {
    // convert_muse_glimmer_weights_to_hf.py build_config()'s MuseGlimmerVisionConfig.
    const muse = load('muse-glimmer-30b.reconstructed');
    muse.vision_config = { model_type: 'muse_glimmer_vision', hidden_size: 1536, num_hidden_layers: 50,
      num_attention_heads: 16, patch_size: 14, pos_emb_height: 32, pos_emb_width: 32, merge_size: 2,
      rope_parameters: { rope_type: 'default', rope_theta: 10000 } };
    const m = pe.modelFromConfig(muse, { tower: 'vision' });
    try {
      // MuseGlimmerVisionConfig.__post_init__: full when (i + 1) % 4 == 0 or the last layer.
      assert.deepEqual(m.layers.map((l) => [l.attention, l.patchWindow && { ...l.patchWindow }]),
        Array.from({ length: 50 }, (_, i) => ((i + 1) % 4 === 0 || i === 49 ? ['full', null]
          : ['windowed', { side: 32, merge: 1 }])));
      const rope = m.encodings.e0;
      assert.deepEqual([rope.headDim, rope.rotaryDim, rope.base, rope.layout, rope.axes, rope.axesName, rope.vision2d],
        [96, 96, 10000, 'half', 2, 'muse-glimmer', null]);
      // MuseGlimmerVisionRotaryEmbedding: inv_freq over head_dim // 2, freq = cat([w·f, h·f, w·f, h·f]);
      // position_ids = get_vision_position_ids(grid, 1).flip(-1) + 1.
      const { positions, tokens } = pe.axesPositions({ model: 'muse-glimmer', frames: 2, height: 3, width: 5 });
      const inv = Array.from({ length: 24 }, (_, j) => 1 / 10000 ** ((2 * j) / 48));
      const { cos, sin } = rope.cosSin({ positions });
      let t = 0;
      for (let f = 0; f < 2; f++) {
        for (let r = 0; r < 3; r++) {
          for (let c = 0; c < 5; c++, t++) {
            assert.deepEqual([positions[t], positions[tokens + t]], [c + 1, r + 1]);
            const half = [...inv.map((v) => (c + 1) * v), ...inv.map((v) => (r + 1) * v)];
            [...half, ...half].forEach((a, k) => {
              assert.ok(Math.abs(cos[t * 96 + k] - Math.cos(a)) < 3e-7 && Math.abs(sin[t * 96 + k] - Math.sin(a)) < 3e-7,
                `token ${t} column ${k}`);
            });
          }
        }
      }
    } finally {
      m.dispose();
    }
    muse.vision_config.rope_parameters.rope_type = 'linear';
    assertThrows(() => pe.modelFromConfig(muse, { tower: 'vision' }), RangeError,
      /vision_config\.rope_parameters\.rope_type = 'linear'/);
  });

  test(`${name}: apply of a config's rotator matches HF's rotation in float64`, () => {
    const rng = new Random(77);
    for (const file of ['llama-3.1-8b', 'gpt-j-6b', 'phi-3.5-mini-instruct']) {
      const rope = pe.ropeFromConfig(load(file));
      const heads = 3;
      const positions = [0, 1, 4095, 4096, 70000, 131071];
      const x = randomFloats(rng, positions.length * heads * rope.headDim);
      const want = rotate64(x, rope, heads, positions);
      const got = rope.apply(Float32Array.from(x), { tokens: positions.length, heads, positions });
      let worst = 0;
      for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
      assert.ok(worst <= 2e-6 * rope.attentionFactor, `${file}: max |error| ${worst}`);
    }
  });

  test(`${name}: ropeFromConfig refuses what it cannot map, naming the config key`, () => {
    const l31 = () => load('llama-3.1-8b');
    const edit = (f, base = l31()) => { f(base); return base; };
    const cases = [
      [edit((c) => { c.rope_scaling.rope_type = 'foo'; }), RangeError, /rope_scaling\.rope_type/],
      [edit((c) => { c.rope_scaling.factor = '8'; }), TypeError, /rope_scaling\.factor must be a number/],
      [edit((c) => { c.rope_scaling.factor = 0.5; }), RangeError, /rope_scaling\.factor/],
      [edit((c) => { c.rope_scaling.beta_fast = 3; }), RangeError, /rope_scaling\.beta_fast is not a parameter/],
      [edit((c) => { delete c.rope_scaling.low_freq_factor; }), RangeError, /rope_scaling\.low_freq_factor/],
      [edit((c) => { c.hidden_size = '4096'; }), TypeError, /hidden_size must be a number/],
      [edit((c) => { c.head_dim = 127.5; }), RangeError, /head_dim/],
      [edit((c) => { c.rope_theta = 1; }), RangeError, /rope_theta/],
      [edit((c) => { c.rope_scaling = 'llama3'; }), TypeError, /rope_scaling must be an object/],
      [edit((c) => { c.rope_scaling.mrope_section = [16, 24, 16]; }), RangeError, /rope_scaling\.mrope_section/],
      [edit((c) => { c.rope_scaling.short_factor = [1, 2]; }, load('phi-3.5-mini-instruct')), RangeError,
        /rope_scaling\.short_factor/],
      [edit((c) => { c['rope_scaling']['a.b'] = 1; }), RangeError, /rope_scaling\.a\u2024b is not a parameter/],
    ];
    for (const [config, type, pattern] of cases) assertThrows(() => pe.ropeFromConfig(config), type, pattern);
    assertThrows(() => pe.ropeFromConfig(l31(), { tower: 'vision' }), RangeError, /vision_config is missing/);
    assertThrows(() => pe.ropeFromConfig(l31(), { seqLen: 0 }), RangeError, /seqLen/);
    assertThrows(() => pe.ropeFromConfig(l31(), { seqLen: '4096' }), TypeError, /seqLen/);
    assertThrows(() => pe.ropeFromConfig(l31(), { layerType: 'global' }), RangeError, /layerType/);
    assertThrows(() => pe.ropeFromConfig(l31(), { cacheLength: -1 }), RangeError, /cacheLength/);
    assertThrows(() => pe.ropeFromConfig(l31(), { headDim: 64 }), TypeError, /unknown option 'headDim'/);
    for (const bad of [null, undefined, 3, 'config', [], () => {}, new Float64Array(2)]) {
      assertThrows(() => pe.ropeFromConfig(bad), TypeError, /config must be an object/);
    }
    // The module keeps working.
    assert.equal(pe.ropeFromConfig(l31()).rotaryDim, 128);
  });

  test(`${name}: ropeFromConfig reads a hostile config once, own enumerable keys only`, () => {
    // A getter is called once; a non-enumerable key is skipped.
    let reads = 0;
    const c = load('mistral-7b-instruct-v0.3');
    delete c.rope_theta;
    Object.defineProperty(c, 'rope_theta', { enumerable: true, get() { reads++; return 20000; } });
    Object.defineProperty(c, 'head_dim', { enumerable: false, value: 'not read' });
    assert.equal(pe.ropeFromConfig(c).base, 20000);
    assert.equal(reads, 1);

    // A Proxy sees one ownKeys and one getOwnPropertyDescriptor per key, and no get.
    const traps = { ownKeys: 0, gopd: 0, get: 0 };
    const proxy = new Proxy(load('llama-3.1-8b'), {
      ownKeys(t) { traps.ownKeys++; return Reflect.ownKeys(t); },
      getOwnPropertyDescriptor(t, k) { traps.gopd++; return Reflect.getOwnPropertyDescriptor(t, k); },
      get(t, k, r) { traps.get++; return Reflect.get(t, k, r); },
    });
    assertRotator(pe.ropeFromConfig(proxy), EXPECTED['llama-3.1-8b'], 'Proxy');
    assert.equal(traps.ownKeys, 1);
    assert.equal(traps.gopd, Object.keys(load('llama-3.1-8b')).length);
    assert.equal(traps.get, 0);
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    assertThrows(() => pe.ropeFromConfig(revoked), TypeError, /revoked Proxy/);
    assertThrows(() => pe.ropeFromConfig({ ...load('llama-3.1-8b'), rope_scaling: revoked }), TypeError,
      /rope_scaling' is a revoked Proxy/);

    // Inherited keys are never read: a polluted Object.prototype changes nothing.
    Object.prototype.rope_scaling = { rope_type: 'linear', factor: 8 }; // eslint-disable-line no-extend-native
    Object.prototype.head_dim = 64; // eslint-disable-line no-extend-native
    try {
      assertRotator(pe.ropeFromConfig(load('mistral-7b-instruct-v0.3')), EXPECTED['mistral-7b-instruct-v0.3'],
        'polluted Object.prototype');
    } finally {
      delete Object.prototype.rope_scaling;
      delete Object.prototype.head_dim;
    }

    // Subclassed objects: own fields count, prototype getters do not.
    class Config { get rope_theta() { return 3; } }
    class Llama extends Config {
      hidden_size = 4096;
      num_attention_heads = 32;
    }
    assertRotator(pe.ropeFromConfig(new Llama(), { family: 'llama' }), [128, 128, 10000, 'half',
      hfDefault(128, 10000), 1], 'subclass');
    // Without a model_type the family is not guessed.
    assertThrows(() => pe.ropeFromConfig(new Llama()), RangeError, /model_type is missing.*family: 'llama'/);

    // Cycles and absurd depth or size are refused naming the key path.
    const cyclic = load('llama-3.1-8b');
    cyclic.rope_scaling.self = cyclic.rope_scaling;
    assertThrows(() => pe.ropeFromConfig(cyclic), TypeError, /'rope_scaling\.self' contains itself/);
    let deep = {};
    const root = { hidden_size: 64, num_attention_heads: 1, deep };
    for (let i = 0; i < 40; i++) deep = deep.next = {};
    assertThrows(() => pe.ropeFromConfig(root), RangeError, /nested deeper than 32/);
    const big = { hidden_size: 64, num_attention_heads: 1, list: new Array(2 ** 21).fill(0) };
    assertThrows(() => pe.ropeFromConfig(big), RangeError, /config key 'list' holds 2097152 values/);
    const wide = { hidden_size: 64, num_attention_heads: 1 };
    for (let i = 0; i < 70000; i++) wide[`k${i}`] = i;
    assertThrows(() => pe.ropeFromConfig(wide), RangeError, /more than 65536 key paths/);

    // A shared (acyclic) object, unreadable values and keys RoPE never reads are fine.
    const shared = { a: 1 };
    const ok = { ...load('qwen2.5-7b'), x: shared, y: shared, f() {}, big: 10n, s: Symbol('s'),
      'dotted.key': { b: 1 }, list: ['a', 1] };
    assertRotator(pe.ropeFromConfig(ok), EXPECTED['qwen2.5-7b'], 'unread keys');

    // An option getter is read once; a re-entrant posenc call from a getter completes first.
    let optionReads = 0;
    const opts = { get seqLen() { optionReads++; pe.ropeFromConfig(load('gpt-j-6b')).dispose(); return 8192; } };
    assert.equal(pe.ropeFromConfig(load('phi-3.5-mini-instruct'), opts).rotaryDim, 96);
    assert.equal(optionReads, 1);
  });
}
