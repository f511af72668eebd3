// pe.modelFromConfig / pe.ropeFromConfig on the family fixtures of tests/fixtures/hf-configs/
// (sources in the README there), on both binaries: every layer's rotator against HF
// transformers' formulas evaluated here in float64 — θ, attention factor, layout, rotary dim
// and HF-shaped cos/sin at positions up to 131071 — the layer map (RoPE or none, attention,
// window, chunk, query scale), the refusals, and configs a hostile caller can build.
//
// The float64 references are ports of src/transformers/modeling_rope_utils.py's
// _compute_default_rope_parameters, _compute_llama3_parameters, _compute_yarn_parameters,
// _compute_longrope_parameters and _compute_proportional_rope_parameters, of
// HunYuanDenseV1RotaryEmbedding's NTK-α base, and of the cos/sin each family's rotary
// embedding returns (cat(freqs, freqs) for rotate_half, repeat_interleave for the interleaved
// families) times attention_scaling. The structure each fixture must map to (family, layout,
// head and rotary dims, base, rope type, layer pattern) is written out below by hand from the
// families' configuration_*.py / modeling_*.py, not derived from posenc.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { assertThrows, loadBoth, repoRoot } from './support.mjs';

const both = await loadBoth();
const FIXTURES = `${repoRoot}tests/fixtures/hf-configs/`;
const load = (name) => JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8'));
const textOf = (c) => c.text_config ?? c;

// ── HF's formulas in float64 ────────────────────────────────────────────────────────────

// _compute_default_rope_parameters: 1 / base^(arange(0, dim, 2) / dim).
const hfDefault = (dim, base) => Array.from({ length: dim / 2 }, (_, i) => 1 / base ** ((2 * i) / dim));

// _compute_llama3_parameters (equal low / high factors included: torch.where keeps the
// smoothed value only inside the band, so its 0/0 never reaches the result).
function hfLlama3(dim, base, { factor, low_freq_factor: low, high_freq_factor: high, original_max_position_embeddings: old }) {
  return hfDefault(dim, base).map((f) => {
    const wavelen = (2 * Math.PI) / f;
    const llama = wavelen > old / low ? f / factor : f;
    const medium = !(wavelen < old / high) && !(wavelen > old / low);
    if (!medium) return llama;
    const smooth = (old / wavelen - low) / (high - low);
    return ((1 - smooth) * llama) / factor + smooth * llama;
  });
}

// _compute_yarn_parameters → [θ, attention factor].
function hfYarn(dim, base, p) {
  const factor = p.factor;
  const original = p.original_max_position_embeddings;
  const getMscale = (scale, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
  let attention = p.attention_factor;
  if (attention === undefined || attention === null) {
    attention = p.mscale && p.mscale_all_dim ? getMscale(factor, p.mscale) / getMscale(factor, p.mscale_all_dim)
      : getMscale(factor);
  }
  const betaFast = p.beta_fast || 32;
  const betaSlow = p.beta_slow || 1;
  const correctionDim = (rot) => (dim * Math.log(original / (rot * 2 * Math.PI))) / (2 * Math.log(base));
  let low = correctionDim(betaFast);
  let high = correctionDim(betaSlow);
  if (p.truncate ?? true) {
    low = Math.floor(low);
    high = Math.ceil(high);
  }
  low = Math.max(low, 0);
  high = Math.min(high, dim - 1);
  if (low === high) high += 0.001;
  const inv = Array.from({ length: dim / 2 }, (_, i) => {
    const posFreq = base ** ((2 * i) / dim);
    const extrapolationFactor = 1 - Math.min(Math.max((i - low) / (high - low), 0), 1);
    return (1 / (factor * posFreq)) * (1 - extrapolationFactor) + (1 / posFreq) * extrapolationFactor;
  });
  return [inv, attention];
}

// _compute_longrope_parameters → [θ, attention factor] (factor absent: max / original).
function hfLongrope(dim, base, p, maxPositions, seqLen) {
  const original = p.original_max_position_embeddings;
  const factor = p.factor ?? maxPositions / original;
  const attention = p.attention_factor ?? (factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(original)));
  const ext = seqLen && seqLen > original ? p.long_factor : p.short_factor;
  return [Array.from({ length: dim / 2 }, (_, i) => 1 / (ext[i] * base ** ((2 * i) / dim))), attention];
}

// _compute_proportional_rope_parameters: the first int(p · head_dim // 2) rungs of the ladder
// over the whole head, zeros after, all / factor.
function hfProportional(headDim, base, p, factor = 1) {
  const angles = Math.floor((p * headDim) / 2);
  return Array.from({ length: headDim / 2 }, (_, i) => (i < angles ? 1 / base ** ((2 * i) / headDim) : 0) / factor);
}

// HunYuanDenseV1RotaryEmbedding: base · α^(d/(d−2)), then the default ladder over head_dim.
const hfAlpha = (dim, base, alpha) => hfDefault(dim, base * alpha ** (dim / (dim - 2)));

// The rotary embedding's (cos, sin) row at p: half → cat(freqs, freqs); interleaved →
// repeat_interleave(freqs, 2); times the attention factor.
function hfCosSin(theta, layout, p, f) {
  const n = theta.length;
  const cos = new Array(2 * n);
  const sin = new Array(2 * n);
  for (let i = 0; i < n; i++) {
    const [a, b] = layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + n];
    cos[a] = cos[b] = f * Math.cos(p * theta[i]);
    sin[a] = sin[b] = f * Math.sin(p * theta[i]);
  }
  return [cos, sin];
}

// ── what each fixture maps to ───────────────────────────────────────────────────────────

// [headDim, rotaryDim, base, layout, (θ, attention factor) from HF's formulas, mrope]
const rotary = (headDim, rotaryDim, base, layout, [theta, attention], mrope = null) =>
  ({ headDim, rotaryDim, base, layout, theta, attention, mrope });
const plain = (dim, base) => [hfDefault(dim, base), 1];
const ropeOf = (c) => { const t = textOf(c); return t.rope_scaling ?? t.rope_parameters; };

// The layer map: per layer [rope encoding name or null, attention, window, chunk, query scale].
const every = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const full = (n, e = 'e0') => every(n, () => [e, 'full', null, null, null]);

const FAMILIES = {
  'aya-23-8b': { family: 'cohere', encodings: [rotary(128, 128, 10000, 'interleaved', plain(128, 10000))], layers: full(32) },
  'c4ai-command-r-v01': { family: 'cohere', encodings: [rotary(128, 128, 8e6, 'interleaved', plain(128, 8e6))], layers: full(40) },
  // modeling_chatglm.py: RotaryEmbedding(kv_channels // 2) over the first 64 of 128 dims.
  'chatglm3-6b': { family: 'chatglm', encodings: [rotary(128, 64, 10000, 'interleaved', plain(64, 10000))], layers: full(28) },
  'codellama-7b': { family: 'llama', encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6))], layers: full(32) },
  'deepseek-v2-lite': { family: 'deepseek',
    encodings: [rotary(64, 64, 10000, 'interleaved', hfYarn(64, 10000, load('deepseek-v2-lite').rope_scaling))], layers: full(27) },
  'deepseek-v3.2-exp.reconstructed': { family: 'deepseek_v32', encodings: [rotary(64, 64, 10000, 'interleaved', plain(64, 10000))],
    layers: full(61) },
  'devstral-small-2-24b-instruct': { family: 'ministral3',
    encodings: [rotary(128, 128, 1e8, 'half', hfYarn(128, 1e8, ropeOf(load('devstral-small-2-24b-instruct'))))],
    layers: every(40, () => ['e0', 'full', null, null, { floorScale: 8192, attnScale: 0.1, offset: 0 }]) },
  'ernie-4.5-0.3b-pt.reconstructed': { family: 'ernie4_5', encodings: [rotary(128, 128, 5e5, 'interleaved', plain(128, 5e5))],
    layers: full(18) },
  // Exaone4Attention: RoPE on sliding layers only when sliding_window is set.
  'exaone-4.0-32b': { family: 'exaone4',
    encodings: [rotary(128, 128, 1e6, 'half', [hfLlama3(128, 1e6, ropeOf(load('exaone-4.0-32b'))), 1])],
    layers: every(64, (i) => ((i + 1) % 4 ? ['e0', 'sliding', 4096, null, null] : [null, 'full', null, null, null])) },
  'gemma-2-9b': { family: 'gemma2', encodings: [rotary(256, 256, 10000, 'half', plain(256, 10000))],
    layers: every(42, (i) => ['e0', (i + 1) % 2 ? 'sliding' : 'full', (i + 1) % 2 ? 4096 : null, null, null]) },
  'gemma-2b': { family: 'gemma', encodings: [rotary(256, 256, 10000, 'half', plain(256, 10000))], layers: full(18) },
  // Gemma3TextConfig defaults: local θ 1e4 unscaled, global θ 1e6 with the linear ×8.
  'gemma-3-27b-it': { family: 'gemma3', encodings: [rotary(128, 128, 10000, 'half', plain(128, 10000)),
    rotary(128, 128, 1e6, 'half', [hfDefault(128, 1e6).map((v) => v / 8), 1])],
  layers: every(62, (i) => ((i + 1) % 6 ? ['e0', 'sliding', 1024, null, null] : ['e1', 'full', null, null, null])) },
  // Gemma 4: sliding layers 256 wide at 1e4; full layers global_head_dim 512, proportional.
  'gemma-4-e2b-it.reconstructed': { family: 'gemma4', encodings: [rotary(256, 256, 10000, 'half', plain(256, 10000)),
    rotary(512, 512, 1e6, 'half', [hfProportional(512, 1e6, 0.25), 1])],
  layers: every(30, (i) => ((i + 1) % 6 && i !== 29 ? ['e0', 'sliding', 512, null, null] : ['e1', 'full', null, null, null])) },
  'glm-4-9b-chat-hf.reconstructed': { family: 'glm', encodings: [rotary(128, 64, 10000, 'interleaved', plain(64, 10000))],
    layers: full(40) },
  'glm-4.5': { family: 'glm4_moe', encodings: [rotary(128, 64, 1e6, 'half', plain(64, 1e6))], layers: full(92) },
  'gpt-oss-120b': { family: 'gpt_oss', encodings: [rotary(64, 64, 150000, 'half', hfYarn(64, 150000, load('gpt-oss-120b').rope_scaling))],
    layers: every(36, (i) => ['e0', i % 2 ? 'full' : 'sliding', i % 2 ? null : 128, null, null]) },
  'hunyuan-7b-instruct.reconstructed': { family: 'hunyuan', encodings: [rotary(128, 128, 10000, 'half', plain(128, 10000))],
    layers: full(32) },
  'kimi-k2': { family: 'deepseek', encodings: [rotary(64, 64, 50000, 'interleaved', hfYarn(64, 50000, load('kimi-k2').rope_scaling))],
    layers: full(61) },
  'lfm2.5-vl-1.6b': { family: 'lfm2', encodings: [rotary(64, 64, 1e6, 'half', plain(64, 1e6))],
    layers: textOf(load('lfm2.5-vl-1.6b')).layer_types.map((t) => (t === 'conv' ? [null, 'conv', null, null, null]
      : ['e0', 'full', null, null, null])) },
  // Mllama: cross_attention_layers have no RoPE.
  'llama-3.2-90b-vision-instruct': { family: 'mllama',
    encodings: [rotary(128, 128, 5e5, 'half', [hfLlama3(128, 5e5, ropeOf(load('llama-3.2-90b-vision-instruct'))), 1])],
    layers: every(100, (i) => (i % 5 === 3 ? [null, 'cross', null, null, null] : ['e0', 'full', null, null, null])) },
  // Llama 4: NoPE every 4th layer (full attention, query temperature), chunked RoPE layers.
  'llama-4-scout-17b-16e.reconstructed': { family: 'llama4', encodings: [rotary(128, 128, 5e5, 'interleaved', plain(128, 5e5))],
    layers: every(48, (i) => ((i + 1) % 4 ? ['e0', 'chunked', null, 8192, null]
      : [null, 'full', null, null, { floorScale: 8192, attnScale: 0.1, offset: 1 }])) },
  'minicpm3-4b': { family: 'minicpm3',
    encodings: [rotary(32, 32, 10000, 'half', hfLongrope(32, 10000, load('minicpm3-4b').rope_scaling, 32768))], layers: full(62) },
  'ministral-3-3b-2512': { family: 'ministral3',
    encodings: [rotary(128, 128, 1e6, 'half', hfYarn(128, 1e6, ropeOf(load('ministral-3-3b-2512'))))],
    layers: every(26, () => ['e0', 'full', null, null, { floorScale: 16384, attnScale: 0.1, offset: 0 }]) },
  'mistral-nemo-base-2407': { family: 'mistral', encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6))], layers: full(40) },
  'mixtral-8x7b-v0.1': { family: 'mixtral', encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6))], layers: full(32) },
  'olmo-2-7b': { family: 'olmo2', encodings: [rotary(128, 128, 5e5, 'half', plain(128, 5e5))], layers: full(32) },
  // OLMo 3: yarn on the full-attention layers only.
  'olmo-3.1-32b-instruct': { family: 'olmo3', encodings: [rotary(128, 128, 5e5, 'half', plain(128, 5e5)),
    rotary(128, 128, 5e5, 'half', hfYarn(128, 5e5, load('olmo-3.1-32b-instruct').rope_scaling))],
  layers: every(64, (i) => ((i + 1) % 4 ? ['e0', 'sliding', 4096, null, null] : ['e1', 'full', null, null, null])) },
  'phi-1': { family: 'phi', encodings: [rotary(64, 32, 10000, 'half', plain(32, 10000))], layers: full(24) },
  'qwen1.5-moe-a2.7b': { family: 'qwen2', encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6))], layers: full(24) },
  'qwen3-0.6b': { family: 'qwen3', encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6))], layers: full(28) },
  'qwen3-30b-a3b': { family: 'qwen3', encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6))], layers: full(48) },
  // Qwen3.5: partial 0.25 of 256, interleaved M-RoPE [11, 11, 10], RoPE on full layers only.
  'qwen3.5-9b': { family: 'qwen3_next',
    encodings: [rotary(256, 64, 1e7, 'half', plain(64, 1e7), { section: [11, 11, 10], interleaved: true })],
    layers: every(32, (i) => ((i + 1) % 4 ? [null, 'linear', null, null, null] : ['e0', 'full', null, null, null])) },
  'smollm2-135m': { family: 'llama', encodings: [rotary(64, 64, 1e5, 'half', plain(64, 1e5))], layers: full(30) },
  'smollm3-3b': { family: 'smollm3', encodings: [rotary(128, 128, 5e6, 'half', plain(128, 5e6))],
    layers: every(36, (i) => [(i + 1) % 4 ? 'e0' : null, 'full', null, null, null]) },
  'stablelm-2-zephyr-1.6b': { family: 'stablelm', encodings: [rotary(64, 16, 10000, 'half', plain(16, 10000))], layers: full(24) },
  // Starcoder2Attention: sliding_window on every layer.
  // Gemma3nTextConfig: sliding except every 5th layer, global θ rope_theta, local rope_local_base_freq.
  'gemma-3n-e4b.reconstructed': { family: 'gemma3n', encodings: [rotary(256, 256, 10000, 'half', plain(256, 10000)),
    rotary(256, 256, 1e6, 'half', plain(256, 1e6))],
  layers: every(35, (i) => ((i + 1) % 5 ? ['e0', 'sliding', 512, null, null] : ['e1', 'full', null, null, null])) },
  // Gemma4TextConfig without rope_parameters: its default_rope_params, as transformers fills them.
  'gemma-4-e2b-it.class-defaults.reconstructed': { family: 'gemma4', encodings: [rotary(256, 256, 10000, 'half', plain(256, 10000)),
    rotary(512, 512, 1e6, 'half', [hfProportional(512, 1e6, 0.25), 1])],
  layers: every(30, (i) => ((i + 1) % 6 && i !== 29 ? ['e0', 'sliding', 512, null, null] : ['e1', 'full', null, null, null])) },
  'hy3-preview.reconstructed': { family: 'hy_v3', encodings: [rotary(128, 128, 11158840, 'half', plain(128, 11158840))], layers: full(80) },
  // AfmoeAttention: RoPE only on the local (sliding) layers; every 4th layer is global.
  'afmoe.reconstructed': { family: 'afmoe', encodings: [rotary(128, 128, 10000, 'half', plain(128, 10000))],
    layers: every(32, (i) => ((i + 1) % 4 ? ['e0', 'sliding', 1024, null, null] : [null, 'full', null, null, null])) },
  'minimax-m2.reconstructed': { family: 'minimax_m2', encodings: [rotary(128, 128, 5e6, 'half', plain(128, 5e6))], layers: full(62) },
  // LagunaConfig default_rope_params: full_attention θ 5e5 over int(128 · 0.5) dims.
  'laguna-xs.2.reconstructed': { family: 'laguna', encodings: [rotary(128, 64, 5e5, 'half', plain(64, 5e5))], layers: full(40) },
  'mellum2-12b-a2.5b-base.reconstructed': { family: 'mellum', encodings: [rotary(128, 128, 5e5, 'half', plain(128, 5e5))],
    layers: full(28) },
  // MiMoV2FlashConfig: full on layer 0 and every 6th, int(192 · 0.334) = 64 rotary dims at θ 5e6 / 1e4.
  'mimo-v2-flash.reconstructed': { family: 'mimo_v2_flash', encodings: [rotary(192, 64, 5e6, 'half', plain(64, 5e6)),
    rotary(192, 64, 10000, 'half', plain(64, 10000))],
  layers: every(48, (i) => (i === 0 || (i + 1) % 6 === 0 ? ['e0', 'full', null, null, null] : ['e1', 'sliding', 128, null, null])) },
  // ExaoneMoeAttention: as EXAONE 4, RoPE on the sliding layers only.
  'k-exaone-236b-a23b.reconstructed': { family: 'exaone4', encodings: [rotary(128, 128, 10000, 'half', plain(128, 10000))],
    layers: every(32, (i) => ((i + 1) % 4 ? ['e0', 'sliding', 4096, null, null] : [null, 'full', null, null, null])) },
  // FalconConfig.head_dim = hidden_size // num_attention_heads (a property: 4544 / 71 = 64).
  'falcon-7b-instruct': { family: 'falcon', encodings: [rotary(64, 64, 10000, 'half', plain(64, 10000))], layers: full(32) },
  'gpt-neox-japanese-2.7b.reconstructed': { family: 'gpt_neox_japanese', encodings: [rotary(80, 80, 10000, 'half', plain(80, 10000))],
    layers: full(32) },
  // GraniteSWAConfig: full when i % 4 == 0; layer_rope_theta defaults to rope_theta everywhere.
  'granite-swash-2b.reconstructed': { family: 'granite_swa', encodings: [rotary(128, 128, 10000, 'half', plain(128, 10000))],
    layers: every(24, (i) => (i % 4 ? ['e0', 'sliding', 128, null, null] : ['e0', 'full', null, null, null])) },
  // BambaConfig.layers_block_type: full attention at attn_layer_indices, Mamba elsewhere; its
  // partial_rotary_factor 0.5 (BambaRotaryEmbedding.compute_default_rope_parameters reads it).
  'bamba-9b.reconstructed': { family: 'bamba', encodings: [rotary(128, 64, 10000, 'half', plain(64, 10000))],
    layers: every(32, (i) => ([9, 18, 27].includes(i) ? ['e0', 'full', null, null, null] : [null, 'linear', null, null, null])) },
  // FalconH1Config: every layer "hybrid" (attention beside Mamba-2), whole-head rotary.
  'falcon-h1-7b-instruct.reconstructed': { family: 'falcon_h1', encodings: [rotary(128, 128, 10000, 'half', plain(128, 10000))],
    layers: full(44) },
  // NemotronHConfig._pattern_to_list (M Mamba, - MLP, * attention); NemotronHAttention: no rotary.
  'nemotron-h-8b-base-8k.reconstructed': { family: 'nemotron_h', encodings: [],
    layers: [...'M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-'].map((ch) =>
      [null, { M: 'linear', '-': 'none', '*': 'full' }[ch], null, null, null]) },
  // GraniteMoeHybridModel: rotary_emb only if position_embedding_type == "rope" (here "nope").
  'granite-4.0-h-350m.reconstructed': { family: 'granitemoehybrid', encodings: [],
    layers: every(32, (i) => [null, [10, 13, 17, 27].includes(i) ? 'full' : 'linear', null, null, null]) },
  // MiniMaxConfig: "full_attention" if (i + 1) % 2 else "linear_attention"; default_theta 1e6.
  'minimax-text-01-hf.reconstructed': { family: 'minimax', encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6))],
    layers: every(32, (i) => ((i + 1) % 2 ? ['e0', 'full', null, null, null] : [null, 'linear', null, null, null])) },
  // Qwen2_5OmniConfig.get_text_config(): thinker_config.text_config; Qwen2.5-VL's M-RoPE
  // (apply_multimodal_rotary_pos_emb, contiguous sections), default_theta 1e6, no sliding.
  'qwen2.5-omni-7b.reconstructed': { family: 'qwen2_5_omni',
    encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6), { section: [16, 24, 24], interleaved: false })], layers: full(28) },
  // Qwen3OmniMoeThinkerTextRotaryEmbedding: always interleaved M-RoPE; attention never slides.
  'qwen3-omni-30b-a3b-instruct.reconstructed': { family: 'qwen3_omni_moe',
    encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6), { section: [24, 20, 20], interleaved: true })], layers: full(48) },
  // DbrxConfig (attribute_map d_model / n_heads / n_layers / max_seq_len); θ from
  // rope_parameters, else default_theta 10000: DbrxRotaryEmbedding never reads attn_config.
  'dbrx.class-defaults.reconstructed': { family: 'dbrx', encodings: [rotary(128, 128, 10000, 'half', plain(128, 10000))],
    layers: full(24) },
  // Cohere2MoeConfig: every 4th layer full (no RoPE: Cohere2MoeAttention rotates sliding layers
  // and force_rope ones), repeat_interleave pairs.
  'command-a-plus.class-defaults.reconstructed': { family: 'cohere2_moe',
    encodings: [rotary(128, 128, 10000, 'interleaved', plain(128, 10000))],
    layers: every(40, (i) => ((i + 1) % 4 ? ['e0', 'sliding', 4096, null, null] : [null, 'full', null, null, null])) },
  // Glm4vTextRotaryEmbedding: int(128 · 0.5) dims, mrope_section chunks t, h, w in turn;
  // apply_rotary_pos_emb repeat_interleaves cos/sin (adjacent pairs).
  'glm-4.1v-9b-thinking.reconstructed': { family: 'glm4v',
    encodings: [rotary(128, 64, 10000, 'interleaved', plain(64, 10000), { section: [8, 12, 12], interleaved: false })],
    layers: full(40) },
  // Glm4vMoeTextRotaryEmbedding with rotate_half (half pairs over the 64 rotated dims).
  'glm-4.5v.reconstructed': { family: 'glm4v_moe',
    encodings: [rotary(128, 64, 10000, 'half', plain(64, 10000), { section: [8, 12, 12], interleaved: false })],
    layers: full(46) },
  'glm-ocr.reconstructed': { family: 'glm_ocr',
    encodings: [rotary(128, 128, 10000, 'interleaved', plain(128, 10000), { section: [16, 24, 24], interleaved: false })],
    layers: full(16) },
  'glm-image.reconstructed': { family: 'glm_image',
    encodings: [rotary(128, 64, 10000, 'half', plain(64, 10000), { section: [8, 12, 12], interleaved: false })],
    layers: full(40) },
  // Granite4VisionTextModel: every layer, whole head, default_theta 10000.
  'granite4-vision.class-defaults.reconstructed': { family: 'granite4_vision',
    encodings: [rotary(128, 128, 10000, 'half', plain(128, 10000))], layers: full(32) },
  // GlmMoeDsaConfig / AXK2Config: head_dim forced to qk_rope_head_dim, interleaved MLA rotary,
  // every layer deepseek_sparse_attention when the config lists none.
  'glm-5.class-defaults.reconstructed': { family: 'glm_moe_dsa', encodings: [rotary(64, 64, 10000, 'interleaved', plain(64, 10000))],
    layers: every(78, () => ['e0', 'sparse', null, null, null]) },
  'a.x-k2.class-defaults.reconstructed': { family: 'axk2', encodings: [rotary(32, 32, 10000, 'interleaved', plain(32, 10000))],
    layers: every(48, () => ['e0', 'sparse', null, null, null]) },
  // PaddleOCRRotaryEmbedding + apply_multimodal_rotary_pos_emb: Qwen2-VL's contiguous sections
  // (mrope_section · 2) over rotate_half pairs, the whole head, default_theta 5e5.
  'paddleocr-vl-1.5.reconstructed': { family: 'paddleocr_vl',
    encodings: [rotary(128, 128, 500000, 'half', plain(128, 500000), { section: [16, 24, 24], interleaved: false })],
    layers: full(18) },
  // Mistral4Config.__post_init__'s yarn dict (θ 1e4, ×128 from 8192, mscale 1 / 1): the ladder
  // spans int((64 + 64) · 64/128) = 64 dims, the qk_rope slice, interleaved (rope_interleave);
  // Mistral4Attention scales every query with llama_4_scaling_beta 0.1 from 8192.
  'mistral-small-4-119b.class-defaults.reconstructed': { family: 'mistral4',
    encodings: [rotary(64, 64, 10000, 'interleaved', hfYarn(64, 10000, { factor: 128, original_max_position_embeddings: 8192,
      beta_fast: 32, beta_slow: 1, mscale: 1, mscale_all_dim: 1 }))],
    layers: every(36, () => ['e0', 'full', null, null, { floorScale: 8192, attnScale: 0.1, offset: 0 }]) },
  // OlmoHybridConfig: full when i % 4 == 3, else linear; rope_theta null: no rotary_emb at all.
  'olmo-hybrid.class-defaults.reconstructed': { family: 'olmo_hybrid', encodings: [],
    layers: every(32, (i) => [null, i % 4 === 3 ? 'full' : 'linear', null, null, null]) },
  // Zamba2Config: head 2 · 3584 // 32 = 224, RoPE (use_mem_rope) in the hybrid blocks' attention.
  'zamba2-7b.reconstructed': { family: 'zamba2', encodings: [rotary(224, 224, 10000, 'half', plain(224, 10000))],
    layers: load('zamba2-7b.reconstructed').layers_block_type.map((t) => (t === 'hybrid' ? ['e0', 'full', null, null, null]
      : [null, 'linear', null, null, null])) },
  // ModernBertDecoderConfig: full when i % 3 == 0 (θ 160000), else sliding (θ 10000), window
  // local_attention // 2 = 64; head 768 / 12.
  'modernbert-decoder.class-defaults.reconstructed': { family: 'modernbert_decoder',
    encodings: [rotary(64, 64, 160000, 'half', plain(64, 160000)), rotary(64, 64, 10000, 'half', plain(64, 10000))],
    layers: every(22, (i) => (i % 3 ? ['e1', 'sliding', 64, null, null] : ['e0', 'full', null, null, null])) },
  // CohereCompassTextModel: rotary only for layer types whose rope dict is not None; interleaved
  // M-RoPE (Qwen3-VL's apply_interleaved_mrope), rotate_half pairs; head 16 // 4.
  'cohere-compass-tiny.reconstructed': { family: 'cohere_compass',
    encodings: [rotary(4, 4, 50000, 'half', plain(4, 50000), { section: [1, 1, 0], interleaved: true })],
    layers: [...every(3, () => ['e0', 'sliding', 8, null, null]), [null, 'full', null, null, null]] },
  // RecurrentGemmaConfig: (block_types * 100)[:26], attention every 3rd block with window 2048;
  // the rotary spans the whole 256-wide head although the file says partial_rotary_factor 0.5.
  'recurrentgemma-2b.reconstructed': { family: 'recurrent_gemma', encodings: [rotary(256, 256, 10000, 'half', plain(256, 10000))],
    layers: every(26, (i) => (i % 3 === 2 ? ['e0', 'sliding', 2048, null, null] : [null, 'linear', null, null, null])) },
  // Step3p7TextConfig: the 48-entry lists cut to 45 layers (num_nextn_predict_layers 3); each
  // layer type takes its first layer's rope_theta / partial_rotary_factors entry; rope_scaling
  // (llama3) updates the full_attention dict only; Step3p7RotaryEmbedding's int(128 · 0.5) = 64
  // dims, rotate_half over cos.shape[-1] dims.
  'step-3.7-flash.reconstructed': { family: 'step3p7',
    encodings: [rotary(128, 64, 5e6, 'half', [hfLlama3(64, 5e6, textOf(load('step-3.7-flash.reconstructed')).rope_scaling), 1]),
      rotary(128, 128, 10000, 'half', plain(128, 10000))],
    layers: every(45, (i) => (i % 4 ? ['e1', 'sliding', 512, null, null] : ['e0', 'full', null, null, null])) },
  // MuseGlimmerTextConfig defaults: full when (n - 1 - i) % 4 == 0 and NoPE there (layer_rope_theta
  // 0), sliding (2048) elsewhere with the one rotary at rope_parameters.rope_theta.
  'muse-glimmer-30b.reconstructed': { family: 'muse_glimmer', encodings: [rotary(128, 128, 5e5, 'half', plain(128, 5e5))],
    layers: every(52, (i) => ((51 - i) % 4 ? ['e0', 'sliding', 2048, null, null] : [null, 'full', null, null, null])) },
  'starcoder2-7b': { family: 'starcoder2', encodings: [rotary(128, 128, 1e6, 'half', plain(128, 1e6))],
    layers: every(32, () => ['e0', 'sliding', 4096, null, null]) },
  // NanoChatRotaryEmbedding over 768 / 6 = 128 dims; its rotate_half = cat((x2, -x1)): −p·θ.
  'nanochat.class-defaults.reconstructed': { family: 'nanochat',
    encodings: [{ ...rotary(128, 128, 10000, 'half', plain(128, 10000)), direction: 'inverse' }], layers: full(12) },
  // Ernie4_5_VLMoeTextRotaryEmbedding: 2560 / 20 = 128 dims, θ 500000, adjacent pairs,
  // mrope_section (h, w, t) default [22, 22, 20] = posenc's [t, h, w] [20, 22, 22], 'hw'.
  'ernie-4.5-vl-28b-a3b.class-defaults.reconstructed': { family: 'ernie4_5_vl_moe',
    encodings: [rotary(128, 128, 5e5, 'interleaved', plain(128, 5e5), { section: [20, 22, 22], interleaved: 'hw' })],
    layers: full(28) },
  // OpenAIPrivacyFilterConfig's class dict: yarn ×32, beta 32 / 1, truncate False, original 4096,
  // θ 150000; _apply_rotary_emb's (2i, 2i + 1) pairs; create_bidirectional_sliding_window_mask:
  // |i − j| ≤ 128 on every layer → window 129 at or before, lookahead 128.
  'openai-privacy-filter.class-defaults.reconstructed': { family: 'openai_privacy_filter',
    encodings: [rotary(64, 64, 150000, 'interleaved', hfYarn(64, 150000, { factor: 32, original_max_position_embeddings: 4096,
      beta_fast: 32, beta_slow: 1, truncate: false }))],
    layers: every(8, () => ['e0', 'sliding', 129, null, null]), stacks: every(8, () => [true, 128, null]) },
  // T5GemmaDecoder: Gemma 2's (i + 1) % 2 pattern, causal masks, a T5GemmaCrossAttention per layer.
  't5gemma-2b-2b.reconstructed': { family: 't5gemma', opts: { stack: 'decoder' },
    encodings: [rotary(256, 256, 10000, 'half', plain(256, 10000))],
    layers: every(26, (i) => ['e0', (i + 1) % 2 ? 'sliding' : 'full', (i + 1) % 2 ? 4096 : null, null, null]),
    stacks: every(26, () => [false, null, 'separate']) },
  // T5Gemma2Decoder: per-type rope_parameters (sliding default θ 1e4, full linear ×8 θ 1e6),
  // T5Gemma2MergedAttention (the encoder's unrotated keys in the self-attention's softmax).
  't5gemma-2-270m-270m.reconstructed': { family: 't5gemma2', opts: { stack: 'decoder' },
    encodings: [rotary(256, 256, 1e4, 'half', plain(256, 1e4)), rotary(256, 256, 1e6, 'half', [hfDefault(256, 1e6).map((f) => f / 8), 1])],
    layers: every(18, (i) => ((i + 1) % 6 ? ['e0', 'sliding', 512, null, null] : ['e1', 'full', null, null, null])),
    stacks: every(18, () => [false, null, 'merged']) },
  // ZayaConfig: every layer 'hybrid' (full attention, CCA q/k); ZayaRotaryEmbedding's default
  // ladder over int(128 · 0.5) = 64 dims at θ 5e6; apply_rotary_pos_emb's rotate_half on them.
  // MiniMaxM3VLTextConfig: sparse_attention_freq → 'minimax_m3_sparse' (indexer-selected
  // blocks) on layers 3…59; MiniMaxM3VLRotaryEmbedding over int(128 · 0.5) = 64 dims at θ 5e6.
  'minimax-m3.reconstructed': { family: 'minimax_m3', encodings: [rotary(128, 64, 5e6, 'half', plain(64, 5e6))],
    layers: every(60, (i) => ['e0', i < 3 ? 'full' : 'sparse', null, null, null]) },
  // MuseGlimmerAssistantConfig: every layer sliding_attention, bidirectional
  // (create_bidirectional_sliding_window_mask: |i − j| ≤ 2048 → 2049 at or before, 2048 after);
  // the whole 128-wide head at default_theta 5e5, each token at its own position.
  'muse-glimmer-30b-assistant.class-defaults.reconstructed': { family: 'muse_glimmer_assistant',
    encodings: [rotary(128, 128, 5e5, 'half', plain(128, 5e5))],
    layers: every(5, () => ['e0', 'sliding', 2049, null, null]), stacks: every(5, () => [true, 2048, null]) },
  // DeepseekV4Config.__post_init__ (no layer_types, no compress_ratios): two
  // heavily_compressed_attention layers, then compressed_sparse / heavily_compressed alternating,
  // each with the sliding_window 128 branch; all rotate with 'compress' — the rope_scaling (yarn,
  // factor 16, original 65536) at compress_rope_theta 160000 with attention_factor 1 — over
  // int(512 · 64 / 512) = 64 dims in adjacent pairs (apply_rotary_pos_emb's repeat_interleave).
  'deepseek-v4-flash.class-defaults.reconstructed': { family: 'deepseek_v4',
    encodings: [rotary(64, 64, 160000, 'interleaved',
      hfYarn(64, 160000, { factor: 16, original_max_position_embeddings: 65536, beta_fast: 32, beta_slow: 1, attention_factor: 1 }))],
    layers: every(43, (i) => ['e0', i < 2 || i % 2 === 0 ? 'heavily_compressed' : 'compressed_sparse', 128, null, null]) },
  'zaya1-8b.class-defaults.reconstructed': { family: 'zaya', encodings: [rotary(128, 64, 5e6, 'half', plain(64, 5e6))],
    layers: full(40) },
  // Text encoders (is_causal False, create_bidirectional_mask): every layer sees every key.
  // ModernBertConfig: layer i full when i % 3 == 0 (θ global_rope_theta 160000), else sliding (θ
  // local_rope_theta 10000) with sliding_window = local_attention // 2 = 64, and
  // create_bidirectional_sliding_window_mask's |i − j| ≤ 64 → window 65 at or before, lookahead 64.
  'modernbert-base.class-defaults.reconstructed': { family: 'modernbert',
    encodings: [rotary(64, 64, 160000, 'half', plain(64, 160000)), rotary(64, 64, 10000, 'half', plain(64, 10000))],
    layers: every(22, (i) => (i % 3 ? ['e1', 'sliding', 65, null, null] : ['e0', 'full', null, null, null])),
    stacks: every(22, (i) => [true, i % 3 ? 64 : null, null]) },
  // EuroBertRotaryEmbedding / NomicBertRotaryEmbedding / JinaEmbeddingsV3RotaryEmbedding: the
  // default ladder over head_dim or hidden / heads at the class's default_theta.
  'eurobert-210m.class-defaults.reconstructed': { family: 'eurobert', encodings: [rotary(64, 64, 10000, 'half', plain(64, 10000))],
    layers: full(12), stacks: every(12, () => [true, null, null]) },
  'nomic-embed-text-v1.5.class-defaults.reconstructed': { family: 'nomic_bert', encodings: [rotary(64, 64, 1000, 'half', plain(64, 1000))],
    layers: full(12), stacks: every(12, () => [true, null, null]) },
  'jina-embeddings-v3.class-defaults.reconstructed': { family: 'jina_embeddings_v3',
    encodings: [rotary(64, 64, 20000, 'half', plain(64, 20000))], layers: full(24), stacks: every(24, () => [true, null, null]) },
};

// The fixtures tests/js/config.test.mjs checks rotator by rotator.
const ROTATOR_FIXTURES = ['deepseek-v3', 'gemma-2-2b', 'gemma-3-1b-it', 'gpt-j-6b', 'llama-3.1-8b', 'llama-3.2-3b',
  'mistral-7b-instruct-v0.3', 'phi-3.5-mini-instruct', 'phi-4-mini-instruct', 'qwen2.5-7b', 'qwen2.5-vl-7b-instruct',
  'qwen3-vl-4b-instruct', 'redpajama-incite-3b', 'stablelm-3b-4e1t'];

const POSITIONS = [0, 1, 2, 7, 100, 4095, 4096, 8191, 8192, 32767, 65536, 100000, 131071];

function assertEncoding(rope, want, what) {
  assert.equal(rope.headDim, want.headDim, `${what}: headDim`);
  assert.equal(rope.rotaryDim, want.rotaryDim, `${what}: rotaryDim`);
  assert.equal(rope.base, want.base, `${what}: base`);
  assert.equal(rope.layout, want.layout, `${what}: layout`);
  assert.equal(rope.direction, want.direction ?? 'forward', `${what}: direction`);
  assert.equal(rope.invFreq.length, want.theta.length, `${what}: θ count`);
  for (let i = 0; i < want.theta.length; i++) {
    const err = Math.abs(rope.invFreq[i] - want.theta[i]);
    assert.ok(err <= 1e-13 * want.theta[i] || (want.theta[i] === 0 && rope.invFreq[i] === 0),
      `${what}: θ_${i} = ${rope.invFreq[i]}, HF ${want.theta[i]}`);
  }
  assert.ok(Math.abs(rope.attentionFactor - want.attention) <= 1e-14 * want.attention,
    `${what}: attentionFactor ${rope.attentionFactor}, HF ${want.attention}`);
  const mrope = rope.mrope === null ? null : { section: [...rope.mrope.section], interleaved: rope.mrope.interleaved };
  assert.deepEqual(mrope, want.mrope, `${what}: mrope`);
  // HF-shaped cos/sin at positions up to 131071 (a text token's M-RoPE position on every axis).
  const all = [];
  for (let a = 0; a < rope.axes; a++) all.push(...POSITIONS);
  const { cos, sin } = rope.cosSin({ positions: all });
  const r = rope.rotaryDim;
  let worst = 0;
  POSITIONS.forEach((p, t) => {
    const [c, s] = hfCosSin(want.theta, want.layout, p, want.attention);
    for (let i = 0; i < r; i++) {
      worst = Math.max(worst, Math.abs(cos[t * r + i] - c[i]), Math.abs(sin[t * r + i] - s[i]));
    }
  });
  assert.ok(worst <= 4e-7 * want.attention, `${what}: cos/sin max |error| ${worst}`);
}

function assertModel(pe, name, want, opts = {}, config = load(name)) {
  const model = pe.modelFromConfig(config, opts);
  try {
    assert.equal(model.family, want.family, `${name}: family`);
    assert.equal(model.layers.length, want.layers.length, `${name}: layer count`);
    model.layers.forEach((l, i) => {
      const q = l.queryScale === null ? null : { floorScale: l.queryScale.floorScale, attnScale: l.queryScale.attnScale,
        offset: l.queryScale.offset };
      assert.deepEqual([l.rope, l.attention, l.window, l.chunk, q], want.layers[i], `${name}: layer ${i}`);
      assert.deepEqual([l.bidirectional, l.lookahead, l.crossAttention], want.stacks?.[i] ?? [false, null, null],
        `${name}: layer ${i} stack`);
      assert.equal(l.patchWindow, null, `${name}: layer ${i} patchWindow (a text layer)`);
      assert.equal(l.index, i);
    });
    const keys = Object.keys(model.encodings);
    assert.deepEqual(keys, want.encodings.map((_, i) => `e${i}`), `${name}: encodings`);
    keys.forEach((k, i) => assertEncoding(model.encodings[k], want.encodings[i], `${name} ${k}`));
  } finally {
    model.dispose();
  }
}

test('every fixture is checked by this file or by config.test.mjs', () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  assert.deepEqual(files, [...Object.keys(FAMILIES), ...ROTATOR_FIXTURES].sort());
  assert.ok(Object.keys(FAMILIES).length >= 30);
});

// Families read from their configuration class alone (no fixture): a config with only the
// shape keys takes the class's default θ and rotary width — [model_type, layout, rotary dims of
// a 128-wide head, default_theta] as each configuration_*.py / modeling_*.py states them.
const CLASS_DEFAULTS = [
  ['apertus', 'half', 128, 12e6], ['arcee', 'half', 128, 1e4], ['aria_text', 'half', 128, 1e4],
  ['bitnet', 'half', 128, 5e5], ['cosmos3_edge_text', 'half', 128, 1e8], ['deepseek_ocr2_text', 'half', 128, 1e4],
  ['diffllama', 'half', 128, 1e4], ['doge', 'half', 128, 1e4], ['emu3_text_model', 'half', 128, 1e6],
  ['flex_olmo', 'half', 128, 5e5], ['granite', 'half', 128, 1e4], ['granitemoe', 'half', 128, 1e4],
  ['granitemoeshared', 'half', 128, 1e4], ['hyperclovax', 'half', 128, 1e4], ['jais2', 'half', 128, 1e4],
  ['jetmoe', 'half', 128, 1e4], ['olmoe', 'half', 128, 1e4], ['phi4_multimodal', 'half', 128, 1e4],
  ['phimoe', 'half', 128, 1e6], ['seed_oss', 'half', 128, 1e4], ['solar_open', 'half', 128, 1e6],
  ['voxtral_realtime_text', 'half', 128, 1e4], ['persimmon', 'half', 64, 1e4], ['nemotron', 'half', 64, 1e4],
  ['helium', 'interleaved', 128, 1e5], ['vaultgemma', 'half', 128, 1e4], ['cohere', 'interleaved', 128, 5e5],
  ['ernie4_5', 'interleaved', 128, 5e5], ['glm4', 'interleaved', 64, 1e4], ['smollm3', 'half', 128, 2e6],
  ['gpt_oss', 'half', 128, 150000], ['olmo3', 'half', 128, 5e5], ['lfm2', 'half', 128, 1e6],
  ['ministral', 'half', 128, 1e4], ['dots1', 'half', 128, 1e4], ['cwm', 'half', 128, 1e6],
  ['chameleon', 'half', 128, 1e4], ['evolla', 'half', 128, 5e5], ['roformer', 'interleaved', 128, 1e4],
  ['csm', 'half', 128, 5e5], ['csm_depth_decoder_model', 'half', 128, 5e5],
];

for (const [name, pe] of Object.entries(both)) {
  test(`${name}: families read from their config class alone take its default θ, layout and rotary width`, () => {
    for (const [modelType, layout, rotaryDim, base] of CLASS_DEFAULTS) {
      const c = { model_type: modelType, hidden_size: 4096, num_attention_heads: 32, head_dim: 128, num_hidden_layers: 4 };
      const rope = pe.ropeFromConfig(c);
      assertEncoding(rope, rotary(128, rotaryDim, base, layout, plain(rotaryDim, base)), modelType);
      rope.dispose();
    }
    // DeepSeek-V3's MLA in other families: the qk_rope_head_dim slice, rope_interleave (default true).
    const mla = (c) => { const r = pe.ropeFromConfig(c); const out = [r.headDim, r.rotaryDim, r.layout, r.base]; r.dispose(); return out; };
    assert.deepEqual(mla({ model_type: 'longcat_flash' }), [64, 64, 'interleaved', 1e7]);
    assert.deepEqual(mla({ model_type: 'youtu', qk_rope_head_dim: 32 }), [32, 32, 'interleaved', 1e4]);
    assert.deepEqual(mla({ model_type: 'glm4_moe_lite', qk_rope_head_dim: 64, rope_interleave: false }), [64, 64, 'half', 1e4]);
    assertThrows(() => pe.ropeFromConfig({ model_type: 'axk1' }), RangeError, /qk_rope_head_dim is required for deepseek_mla/);
  });

  test(`${name}: modelFromConfig maps every family fixture as transformers does (θ, factor, layout, cos/sin, layers)`, () => {
    for (const [file, want] of Object.entries(FAMILIES)) assertModel(pe, file, want, want.opts);
  });

  test(`${name}: README's modelFromConfig example runs on the Llama 4 and Gemma 4 fixtures and shows their values`, () => {
    const readme = readFileSync(`${repoRoot}README.md`, 'utf8');
    const block = /<!-- model-example -->\s*```js\n([\s\S]*?)```/.exec(readme);
    assert.ok(block, 'README.md has a ```js block after <!-- model-example -->');
    const run = new Function('pe', 'llama4Config', 'gemma4Config',
      `${block[1]}\nreturn { scout, gemma4, global, scale: pe.queryScale(scout.layers[3].queryScale, [0, 8191, 131071]) };`);
    const { scout, gemma4, global, scale } = run(pe, load('llama-4-scout-17b-16e.reconstructed'), load('gemma-4-e2b-it.reconstructed'));
    assert.deepEqual({ ...scout.layers[2] }, { index: 2, rope: 'e0', attention: 'chunked', window: null, chunk: 8192, queryScale: null,
      bidirectional: false, lookahead: null, crossAttention: null, patchWindow: null, compressRate: null, ropeSlice: null,
      outputInverse: false, indexerSlice: null });
    assert.deepEqual([scout.layers[3].rope, { ...scout.layers[3].queryScale }], [null, { floorScale: 8192, attnScale: 0.1, offset: 1 }]);
    assert.deepEqual(Array.from(scale, (v) => v.toFixed(4)), ['1.0000', '1.0693', '1.2833']);
    assert.deepEqual([global.headDim, global.rotaryDim, global.invFreq.length, global.invFreq[64]], [512, 512, 256, 0]);
    assert.equal(gemma4.scaling.e1.type, 'proportional');
    scout.dispose();
    gemma4.dispose();
  });

  test(`${name}: Evolla's aligners and IDEFICS's gated blocks are cross-attentions without RoPE beside RoPE layers`, () => {
    // EvollaDecoderLayer: an adapter when (i + 1) % max(num_hidden_layers // aligner_num_add_layers, 1) == 0.
    for (const [n, k] of [[32, undefined], [32, 5], [6, 8]]) {
      const c = { model_type: 'evolla', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: n,
        ...(k === undefined ? {} : { aligner_num_add_layers: k }) };
      const step = Math.max(Math.floor(n / (k ?? 8)), 1);
      assertModel(pe, `evolla ${n} / ${k}`, { family: 'evolla', encodings: [rotary(128, 128, 5e5, 'half', plain(128, 5e5))],
        layers: full(n), stacks: every(n, (i) => [false, null, (i + 1) % step ? null : 'separate']) }, {}, c);
    }
    assertThrows(() => pe.modelFromConfig({ model_type: 'evolla', hidden_size: 4096, num_attention_heads: 32,
      num_hidden_layers: 4, aligner_num_add_layers: null }), RangeError, /aligner_num_add_layers is null/);
    // IdeficsModel.forward: a gated cross-attention block before layer i when i % cross_layer_interval == 0.
    const idefics = { model_type: 'idefics', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 8, cross_layer_interval: 4 };
    assertModel(pe, 'idefics', { family: 'idefics', encodings: [rotary(128, 128, 10000, 'half', plain(128, 10000))],
      layers: full(8), stacks: every(8, (i) => [false, null, i % 4 ? null : 'separate']) }, {}, idefics);
    assertThrows(() => pe.modelFromConfig({ model_type: 'hrm_text', hidden_size: 1536, num_attention_heads: 12 }),
      RangeError, /model_type = 'hrm_text' is refused: with prefix_lm/);
  });

  test(`${name}: ESM rotates only with position_embedding_type 'rotary'; RoFormer's flags are refused by name`, () => {
    // EsmModel: rotary_embeddings only when position_embedding_type == "rotary" (default "absolute").
    const esm = { model_type: 'esm', hidden_size: 320, num_attention_heads: 20, num_hidden_layers: 6 };
    assertThrows(() => pe.ropeFromConfig(esm), RangeError, /position_embedding_type is not 'rotary'/);
    const absolute = pe.modelFromConfig(esm);
    assert.deepEqual(absolute.layers.map((l) => l.rope), Array(6).fill(null));
    absolute.dispose();
    assertModel(pe, 'esm rotary', { family: 'esm', encodings: [rotary(16, 16, 10000, 'half', plain(16, 10000))],
      layers: full(6), stacks: every(6, () => [true, null, null]) }, {}, { ...esm, position_embedding_type: 'rotary' });
    assertThrows(() => pe.modelFromConfig({ ...esm, position_embedding_type: 'rotary', is_decoder: true }), RangeError,
      /is_decoder = true: EsmSelfAttention is then causal/);
    const ro = { model_type: 'roformer', hidden_size: 768, num_attention_heads: 12, num_hidden_layers: 2 };
    assertThrows(() => pe.ropeFromConfig({ ...ro, rotary_value: true }), RangeError, /rotary_value = true: .*rotates the values too/);
    assertThrows(() => pe.ropeFromConfig({ ...ro, rotary_value: 1 }), TypeError, /rotary_value must be a boolean/);
  });

  test(`${name}: Dia: a bidirectional encoder, a causal decoder with a cross-attention without RoPE`, () => {
    // DiaConfig's encoder_config / decoder_config; DiaSelfAttention is_causal False / True; DiaCrossAttention unrotated.
    const stack = (t, hidden, layers) => ({ model_type: t, hidden_size: hidden, num_attention_heads: 16, num_hidden_layers: layers });
    const dia = { model_type: 'dia', encoder_config: stack('dia_encoder', 1024, 3), decoder_config: stack('dia_decoder', 2048, 4) };
    assertThrows(() => pe.modelFromConfig(dia), RangeError, /stack is required/);
    const enc = [rotary(128, 128, 10000, 'half', plain(128, 10000))];
    assertModel(pe, 'dia encoder', { family: 'dia', encodings: enc, layers: full(3), stacks: every(3, () => [true, null, null]) },
      { stack: 'encoder' }, dia);
    assertModel(pe, 'dia decoder', { family: 'dia', encodings: enc, layers: full(4), stacks: every(4, () => [false, null, 'separate']) },
      { stack: 'decoder' }, dia);
  });

  test(`${name}: Higgs Audio v2 takes its class's llama3 dict when the config has none`, () => {
    // HiggsAudioV2Config.__post_init__: llama3, factor 32, low / high 0.125 / 0.5, original 1024, θ 500000.
    const rope = pe.ropeFromConfig({ model_type: 'higgs_audio_v2', hidden_size: 3072, num_attention_heads: 24 });
    assertEncoding(rope, rotary(128, 128, 5e5, 'half', [hfLlama3(128, 5e5, { factor: 32, low_freq_factor: 0.125,
      high_freq_factor: 0.5, original_max_position_embeddings: 1024 }), 1]), 'higgs_audio_v2 class dict');
    rope.dispose();
  });

  test(`${name}: long-tail families: class-default rope dicts, unread keys and refusals are named`, () => {
    // Gemma4TextConfig's convert_rope_params_to_dict reads no top-level rope keys.
    const g4 = load('gemma-4-e2b-it.class-defaults.reconstructed');
    for (const key of ['rope_theta', 'rope_scaling', 'partial_rotary_factor']) {
      const c = { ...g4, text_config: { ...g4.text_config, [key]: key === 'rope_scaling' ? { rope_type: 'linear', factor: 2 } : 0.5 } };
      assertThrows(() => pe.modelFromConfig(c), RangeError, new RegExp(`text_config\\.${key}( = 0\\.5)? is not read by gemma4`));
    }
    // MiMo-V2-Flash's published file repeats the class's values at the top level (rope_theta 5e6,
    // partial_rotary_factor 0.334, its own swa_rope_theta): transformers ignores them; they agree.
    const hub = { ...load('mimo-v2-flash.reconstructed'), rope_theta: 5000000, partial_rotary_factor: 0.334, swa_rope_theta: 10000 };
    assertModel(pe, 'mimo-v2-flash.reconstructed', FAMILIES['mimo-v2-flash.reconstructed'], {}, hub);
    assertThrows(() => pe.modelFromConfig({ ...hub, rope_theta: 1e6 }), RangeError,
      /rope_theta = 1000000 is not read by mimo_v2_flash .*rope_parameters\.full_attention\.rope_theta = 5000000/);
    // use_bidirectional_attention 'all': Gemma4TextConfig sets is_causal False (every mask
    // bidirectional, |i − j| ≤ w') and sliding_window w' = (512 // 2) + 1 = 257.
    const both = { ...g4, text_config: { ...g4.text_config, use_bidirectional_attention: 'all' } };
    const g4want = FAMILIES['gemma-4-e2b-it.class-defaults.reconstructed'];
    assertModel(pe, 'gemma 4 all', { ...g4want,
      layers: g4want.layers.map(([e, kind]) => [e, kind, kind === 'sliding' ? 258 : null, null, null]),
      stacks: g4want.layers.map(([, kind]) => [true, kind === 'sliding' ? 257 : null, null]) }, {}, both);
    const local = pe.ropeFromConfig(both, { layerType: 'sliding_attention' });
    assertEncoding(local, FAMILIES['gemma-4-e2b-it.class-defaults.reconstructed'].encodings[0], 'gemma 4 bidirectional sliding');
    local.dispose();
    const flat = { ...g4, text_config: { ...g4.text_config, rope_parameters: { rope_type: 'default', rope_theta: 1e4 } } };
    assertThrows(() => pe.ropeFromConfig(flat), RangeError, /rope_parameters must hold one object per layer type/);
    // MiniMax-M2's rotary_dim: transformers rotates int(head_dim · partial_rotary_factor) and ignores it.
    const m2 = load('minimax-m2.reconstructed');
    assertThrows(() => pe.ropeFromConfig({ ...m2, rotary_dim: 64 }), RangeError, /rotary_dim is not read by transformers/);
    const agreed = pe.ropeFromConfig({ ...m2, rotary_dim: 64, partial_rotary_factor: 0.5 });
    assertEncoding(agreed, rotary(128, 64, 5e6, 'half', plain(64, 5e6)), 'minimax_m2 rotary_dim 64 with partial 0.5');
    agreed.dispose();
    // FalconAttention applies RoPE only when alibi is false.
    assertThrows(() => pe.modelFromConfig({ ...load('falcon-7b-instruct'), alibi: true }), RangeError, /alibi = true: this falcon uses ALiBi/);
    // GraniteSWAModel.rotary_embs: one rotary per θ of layer_rope_theta, 0 = no RoPE.
    const thetas = [0, 1e4, 1e4, 1e4, 5e5, 1e4, 0, 1e4, ...Array(16).fill(1e4)];
    const swa = { ...load('granite-swash-2b.reconstructed'), layer_rope_theta: thetas };
    const model = pe.modelFromConfig(swa);
    try {
      assert.deepEqual(model.layers.slice(0, 8).map((l) => l.rope), [null, 'e0', 'e0', 'e0', 'e1', 'e0', null, 'e0']);
      assertEncoding(model.encodings.e1, rotary(128, 128, 5e5, 'half', plain(128, 5e5)), 'granite_swa layer 4');
    } finally {
      model.dispose();
    }
    assert.equal(pe.ropeFromConfig(swa, { layer: 6 }), null);
    assertThrows(() => pe.ropeFromConfig(swa), RangeError, /layer_rope_theta gives each layer its own θ/);
    // Hybrid models: layers that are no attention have no rotary; the keys that list them.
    const granite = load('granite-4.0-h-350m.reconstructed');
    assertThrows(() => pe.ropeFromConfig(granite), RangeError, /position_embedding_type is not 'rope'/);
    assert.equal(pe.ropeFromConfig(granite, { layer: 10 }), null);
    const roped = pe.ropeFromConfig({ ...granite, position_embedding_type: 'rope' }, { layer: 10 });
    assertEncoding(roped, rotary(64, 64, 10000, 'half', plain(64, 10000)), 'granitemoehybrid rope');
    roped.dispose();
    assert.equal(pe.ropeFromConfig({ ...granite, position_embedding_type: 'rope' }, { layer: 0 }), null);
    assertThrows(() => pe.modelFromConfig({ ...granite, layer_types: ['mamba', 'moe', ...granite.layer_types.slice(2)] }),
      RangeError, /layer_types\[1\] = 'moe' is not a layer type posenc describes for granitemoehybrid/);
    const nemotron = load('nemotron-h-8b-base-8k.reconstructed');
    assertThrows(() => pe.ropeFromConfig(nemotron), RangeError, /nemotron_h has no positional encoding/);
    assert.equal(pe.ropeFromConfig(nemotron, { layer: 7 }), null);
    assertThrows(() => pe.modelFromConfig({ ...nemotron, hybrid_override_pattern: 'M*X' }), RangeError,
      /hybrid_override_pattern\[2\] = 'X' is not a block/);
    const byList = pe.modelFromConfig({ ...nemotron, hybrid_override_pattern: undefined, layers_block_type: ['mamba', 'moe', 'attention'] });
    try {
      assert.deepEqual(byList.layers.map((l) => l.attention), ['linear', 'none', 'full']);
    } finally {
      byList.dispose();
    }
    assertThrows(() => pe.modelFromConfig({ ...load('bamba-9b.reconstructed'), attn_layer_indices: [32] }), RangeError,
      /attn_layer_indices must hold layer indices in \[0, 31\], got 32/);
    assertThrows(() => pe.ropeFromConfig({ ...load('bamba-9b.reconstructed'), partial_rotary_factor: 1 }), RangeError,
      /partial_rotary_factor = 1 is not read by bamba/);
    const bambaDict = pe.ropeFromConfig({ ...load('bamba-9b.reconstructed'), rope_parameters: { rope_type: 'default', rope_theta: 1e4, partial_rotary_factor: 0.25 } });
    assert.equal(bambaDict.rotaryDim, 32);
    bambaDict.dispose();
    const minimax = load('minimax-text-01-hf.reconstructed');
    assertThrows(() => pe.modelFromConfig({ ...minimax, attn_type_list: [0, 1] }), RangeError,
      /attn_type_list is not read by transformers/);
    assertThrows(() => pe.ropeFromConfig({ ...minimax, rotary_dim: 64 }), RangeError, /rotary_dim is not read by transformers/);
    // Qwen-Omni: the language model is thinker_config.text_config (get_text_config()).
    assertThrows(() => pe.ropeFromConfig({ model_type: 'qwen2_5_omni', thinker_config: { model_type: 'qwen2_5_omni_thinker' } }),
      TypeError, /thinker_config.text_config must be an object/);
    // The talker (Qwen3OmniMoeTalkerModel) rotates with the thinker's rotary class: interleaved
    // M-RoPE, section default [24, 20, 20], over its own text_config (default_theta 10000).
    const talker = pe.ropeFromConfig({ model_type: 'qwen3_omni_moe_talker',
      text_config: { model_type: 'qwen3_omni_moe_talker_text', hidden_size: 1024, num_attention_heads: 16, head_dim: 128 } });
    assertEncoding(talker, rotary(128, 128, 10000, 'half', plain(128, 10000), { section: [24, 20, 20], interleaved: true }), 'talker');
    talker.dispose();
    // DBRX: published files put θ in attn_config.rope_theta, which transformers does not read.
    const dbrx = load('dbrx.class-defaults.reconstructed');
    assertThrows(() => pe.ropeFromConfig({ ...dbrx, attn_config: { kv_n_heads: 8, rope_theta: 500000 } }), RangeError,
      /attn_config.rope_theta = 500000 is not read by transformers .*so the model runs at θ = 10000/);
    const dbrxSaid = pe.ropeFromConfig({ ...dbrx, attn_config: { rope_theta: 500000 }, rope_parameters: { rope_type: 'default', rope_theta: 500000 } });
    assertEncoding(dbrxSaid, rotary(128, 128, 500000, 'half', plain(128, 500000)), 'dbrx rope_parameters');
    dbrxSaid.dispose();
    // Cohere2-MoE: dense prefix layers (first_k_dense_replace) are full attention with RoPE
    // (force_rope, prefix_dense_sliding_window_pattern 1); mlp_layer_types names them when listed.
    const cmd = load('command-a-plus.class-defaults.reconstructed');
    const prefixed = pe.modelFromConfig({ ...cmd, first_k_dense_replace: 3 });
    try {
      assert.deepEqual(prefixed.layers.slice(0, 8).map((l) => [l.rope, l.attention]), [['e0', 'full'], ['e0', 'full'],
        ['e0', 'full'], ['e0', 'sliding'], ['e0', 'sliding'], ['e0', 'sliding'], [null, 'full'], ['e0', 'sliding']]);
    } finally {
      prefixed.dispose();
    }
    assertThrows(() => pe.modelFromConfig({ ...cmd, mlp_layer_types: ['dense', 'moe', ...Array(38).fill('sparse')] }), RangeError,
      /mlp_layer_types\[1\] must be 'dense' or 'sparse', got 'moe'/);
    // Mechanisms posenc lacks: refused by name with the reason, { family } still opts in.
    // NanoChat's apply_rotary_pos_emb with its rotate_half = cat((x2, -x1)) — q·cos +
    // rotate_half(q)·sin — is its family's rotator applied (direction 'inverse'), and equals
    // Llama's rotator inverted.
    const nano = pe.ropeFromConfig({ model_type: 'nanochat', hidden_size: 64, num_attention_heads: 2 });
    const llama = pe.ropeFromConfig({ model_type: 'nanochat', hidden_size: 64, num_attention_heads: 2 }, { family: 'llama' });
    try {
      const d = 32, half = d / 2, positions = [0, 1, 7, 4095, 131071];
      const x = Float64Array.from({ length: positions.length * d }, (_, i) => Math.sin(0.37 * i + 0.1));
      const y = nano.apply(new Float32Array(x), { heads: 1, positions });
      assert.deepEqual(llama.invert(new Float32Array(x), { heads: 1, positions }), y);
      const theta = hfDefault(d, 10000);
      positions.forEach((p, t) => {
        for (let i = 0; i < half; i++) {
          const a = p * theta[i], x1 = x[t * d + i], x2 = x[t * d + i + half];
          const want1 = x1 * Math.cos(a) + x2 * Math.sin(a), want2 = x2 * Math.cos(a) - x1 * Math.sin(a);
          assert.ok(Math.abs(y[t * d + i] - want1) < 2e-6 && Math.abs(y[t * d + i + half] - want2) < 2e-6, `nanochat p ${p} i ${i}`);
        }
      });
    } finally {
      nano.dispose();
      llama.dispose();
    }
    const opted = pe.ropeFromConfig({ model_type: 'nanochat', hidden_size: 768, num_attention_heads: 6 }, { family: 'llama' });
    assert.equal(opted.headDim, 128);
    opted.dispose();
  });

  test(`${name}: DeepSeek-V4 — compress rates, the trailing rope slice, the output de-rotation, the indexer`, () => {
    // DeepseekV4Attention: q and kv rotated on x[..., -64:] of 512-wide heads; the output's rope
    // slice rotated back by (cos, -sin) at the query positions; the CSA compressor's indexer the
    // same 'compress' rotary on x[..., -64:] of index_head_dim 128.
    const v4 = load('deepseek-v4-flash.class-defaults.reconstructed');
    const model = pe.modelFromConfig(v4);
    try {
      model.layers.forEach((l, i) => {
        const hca = i < 2 || i % 2 === 0;
        assert.equal(l.compressRate, hca ? 128 : 4, `layer ${i} compressRate`);
        assert.deepEqual({ ...l.ropeSlice }, { head: 512, offset: 448 }, `layer ${i} ropeSlice`);
        assert.equal(l.outputInverse, true);
        assert.deepEqual(l.indexerSlice === null ? null : { ...l.indexerSlice }, hca ? null : { head: 128, offset: 64 });
        assert.ok(Object.isFrozen(l.ropeSlice) && Object.getPrototypeOf(l.ropeSlice) === null);
      });
      // Applied as the record says — at x.subarray(448), headStride 512 — the slice turns by HF's
      // interleaved rotation and the 448 nope dims stay; inverse at the same positions restores it.
      const rope = model.encodings.e0;
      const heads = 2, d = 512, positions = [0, 5, 4095, 131071];
      const x = Float32Array.from({ length: positions.length * heads * d }, (_, i) => Math.sin(0.11 * i + 0.3));
      const y = new Float32Array(x);
      rope.apply(y.subarray(448), { heads, positions, headStride: d, tokenStride: heads * d });
      const theta = hfYarn(64, 160000, { factor: 16, original_max_position_embeddings: 65536, beta_fast: 32, beta_slow: 1 })[0];
      positions.forEach((p, t) => {
        for (let h = 0; h < heads; h++) {
          const at = (t * heads + h) * d;
          for (let i = 0; i < 448; i++) assert.equal(y[at + i], x[at + i]);
          for (let k = 0; k < 32; k++) {
            const a = p * theta[k], x1 = x[at + 448 + 2 * k], x2 = x[at + 449 + 2 * k];
            assert.ok(Math.abs(y[at + 448 + 2 * k] - (x1 * Math.cos(a) - x2 * Math.sin(a))) < 2e-6, `p ${p} pair ${k}`);
            assert.ok(Math.abs(y[at + 449 + 2 * k] - (x2 * Math.cos(a) + x1 * Math.sin(a))) < 2e-6, `p ${p} pair ${k}`);
          }
        }
      });
      rope.apply(y.subarray(448), { heads, positions, headStride: d, tokenStride: heads * d, inverse: true });
      for (let i = 0; i < x.length; i++) assert.ok(Math.abs(y[i] - x[i]) < 4e-6, `round trip ${i}`);
    } finally {
      model.dispose();
    }
    // DeepseekV4HCACompressor / DeepseekV4Indexer: causal_threshold = (position_ids + 1) // compress_rate.
    const ps = [0, 2, 3, 4, 7, 127, 128, 131071, 2 ** 53 - 1];
    for (const rate of [1, 4, 128]) {
      assert.deepEqual(Array.from(pe.compressedKeys(rate, ps)), ps.map((p) => Number((BigInt(p) + 1n) / BigInt(rate))), `rate ${rate}`);
    }
    assertThrows(() => pe.compressedKeys(0, [1]), RangeError, /compressRate must be an integer in \[1, /);
    assertThrows(() => pe.compressedKeys(4, [-1]), RangeError, /positions\[0\] must be an integer in \[0, /);
    assertThrows(() => pe.compressedKeys(4, [2 ** 53]), RangeError, /positions\[0\]/);
    const indexer = pe.ropeFromConfig(v4, { layer: 3, part: 'indexer' });
    assertEncoding(indexer, rotary(64, 64, 160000, 'interleaved',
      hfYarn(64, 160000, { factor: 16, original_max_position_embeddings: 65536, beta_fast: 32, beta_slow: 1, attention_factor: 1 })), 'v4 indexer');
    indexer.dispose();
    assertThrows(() => pe.ropeFromConfig(v4, { layer: 2, part: 'indexer' }), RangeError,
      /part 'indexer': only deepseek_v4's compressed_sparse_attention layers have an indexer/);
    assertThrows(() => pe.ropeFromConfig(v4), RangeError, /layerType 'full_attention' is not a layer type of deepseek_v4/);
    assertThrows(() => pe.ropeFromConfig(load('deepseek-v3'), { layerType: 'compressed_sparse_attention' }), RangeError,
      /layerType 'compressed_sparse_attention' is not a layer type of deepseek/);
    // Legacy keys, folded as __post_init__ does: compress_ratios (cut to num_hidden_layers),
    // compress_rate_csa, qk_rope_head_dim → partial_rotary_factor; 'main' on the sliding layers.
    const legacy = { ...v4, num_hidden_layers: 3, compress_ratios: [0, 4, 128, 0], compress_rate_csa: 8, qk_rope_head_dim: 32 };
    const m3 = pe.modelFromConfig(legacy);
    try {
      assert.deepEqual(m3.layers.map((l) => [l.rope, l.attention, l.window, l.compressRate, l.ropeSlice.offset]),
        [['e0', 'sliding', 128, null, 480], ['e1', 'compressed_sparse', 128, 8, 480], ['e1', 'heavily_compressed', 128, 128, 480]]);
      assertEncoding(m3.encodings.e0, rotary(32, 32, 10000, 'interleaved', plain(32, 10000)), 'v4 main');
      assertEncoding(m3.encodings.e1, rotary(32, 32, 160000, 'interleaved',
        hfYarn(32, 160000, { factor: 16, original_max_position_embeddings: 65536, beta_fast: 32, beta_slow: 1, attention_factor: 1 })), 'v4 compress');
    } finally {
      m3.dispose();
    }
    const main = pe.ropeFromConfig(legacy, { layerType: 'sliding_attention' });
    assertEncoding(main, rotary(32, 32, 10000, 'interleaved', plain(32, 10000)), 'v4 layerType sliding_attention');
    main.dispose();
    // Nulls and bad values, named.
    assertThrows(() => pe.modelFromConfig({ ...legacy, compress_rope_theta: null }), RangeError, /compress_rope_theta is null/);
    assertThrows(() => pe.modelFromConfig({ ...legacy, compress_ratios: [0, 4, 64] }), RangeError, /compress_ratios\[2\] = 64 is not a ratio/);
    assertThrows(() => pe.modelFromConfig({ ...legacy, partial_rotary_factor: 0.5 }), RangeError, /qk_rope_head_dim = 32 is not read by deepseek_v4/);
    assertThrows(() => pe.modelFromConfig({ ...legacy, rope_scaling: { ...legacy.rope_scaling, attention_factor: 1.5 } }), RangeError,
      /rope_parameters\.compress\.attention_factor must be 1 for deepseek_v4/);
  });

  test(`${name}: MiniMax-M3's indexer rotates cos[..., :index_head_dim], the layer's rotary dims`, () => {
    const m3 = load('minimax-m3.reconstructed');
    const indexer = pe.ropeFromConfig(m3, { part: 'indexer' });
    try {
      assertEncoding(indexer, rotary(128, 64, 5e6, 'half', plain(64, 5e6)), 'minimax_m3 indexer');
    } finally {
      indexer.dispose();
    }
    const sparse = m3.text_config.sparse_attention_config;
    const narrow = { ...m3, text_config: { ...m3.text_config, sparse_attention_config: { ...sparse, sparse_index_dim: 32 } } };
    assertThrows(() => pe.ropeFromConfig(narrow, { part: 'indexer' }), RangeError,
      /text_config\.sparse_attention_config\.sparse_index_dim = 32 is narrower than the 64 rotated dims/);
  });

  test(`${name}: Zaya's 'hybrid_sliding' layers slide with their own rope dict; other type names are refused`, () => {
    // ZayaAttention: sliding_window on 'hybrid_sliding' layers; ZayaRotaryEmbedding(layer_type).
    const zaya = { ...load('zaya1-8b.class-defaults.reconstructed'), num_hidden_layers: 4, sliding_window: 4096,
      layer_types: ['hybrid', 'hybrid_sliding', 'hybrid_sliding', 'hybrid'],
      rope_parameters: { hybrid: { rope_type: 'default', rope_theta: 5e6, partial_rotary_factor: 0.5 },
        hybrid_sliding: { rope_type: 'default', rope_theta: 1e5, partial_rotary_factor: 0.25 } } };
    assertModel(pe, 'zaya sliding', { family: 'zaya',
      encodings: [rotary(128, 64, 5e6, 'half', plain(64, 5e6)), rotary(128, 32, 1e5, 'half', plain(32, 1e5))],
      layers: every(4, (i) => (i === 1 || i === 2 ? ['e1', 'sliding', 4096, null, null] : ['e0', 'full', null, null, null])) },
    {}, zaya);
    for (const layerType of ['sliding_attention', 'hybrid_sliding']) {
      const local = pe.ropeFromConfig(zaya, { layerType });
      try {
        assertEncoding(local, rotary(128, 32, 1e5, 'half', plain(32, 1e5)), `zaya ${layerType}`);
      } finally {
        local.dispose();
      }
    }
    assertThrows(() => pe.ropeFromConfig(load('codellama-7b'), { layerType: 'hybrid' }), RangeError,
      /layerType 'hybrid' is not a layer type of llama/);
    assertThrows(() => pe.modelFromConfig({ ...zaya, layer_types: ['hybrid', 'sliding_attention', 'hybrid', 'hybrid'] }),
      RangeError, /layer_types\[1\] = 'sliding_attention' is not a layer type of zaya \(hybrid, hybrid_sliding/);
    assertThrows(() => pe.modelFromConfig({ ...zaya, sliding_window: null }), RangeError, /sliding_window is required/);
    assertThrows(() => pe.modelFromConfig({ ...zaya, rope_parameters: { hybrid: { rope_type: 'default' },
      hybrid_sliding: zaya.rope_parameters.hybrid_sliding } }), RangeError, /rope_parameters\.hybrid\.rope_theta is required/);
  });

  test(`${name}: per-layer rope lists (Step 3.7) and RoPE switches (Muse Glimmer) follow their classes`, () => {
    const step = load('step-3.7-flash.reconstructed');
    const text = step.text_config;
    const withText = (t) => ({ ...step, text_config: { ...text, ...t } });
    // One layer: its type's rotary (Step3p7RotaryEmbedding(layer_type)); the MTP entries are cut.
    const full = pe.ropeFromConfig(step, { layer: 44 });
    assertEncoding(full, FAMILIES['step-3.7-flash.reconstructed'].encodings[0], 'step3p7 layer 44');
    full.dispose();
    assertThrows(() => pe.ropeFromConfig(step, { layer: 45 }), RangeError, /layer must be in \[0, 44\]/);
    // Layers of one type that disagree: transformers takes the first one's, the model's own code each layer's.
    const thetas = [...text.rope_theta];
    thetas[6] = 20000;
    assertThrows(() => pe.modelFromConfig(withText({ rope_theta: thetas })), RangeError,
      /text_config\.rope_theta\[6\] = 20000 differs from the first sliding_attention layer's 10000/);
    assertThrows(() => pe.modelFromConfig(withText({ partial_rotary_factors: text.partial_rotary_factors.slice(0, 40) })), RangeError,
      /partial_rotary_factors must hold one value per layer \(45, or 48 with the num_nextn_predict_layers MTP entries\), got 40/);
    assertThrows(() => pe.modelFromConfig(withText({ yarn_only_types: ['full_attention', 'sliding_attention'] })), RangeError,
      /yarn_only_types is not read by transformers/);
    assertThrows(() => pe.modelFromConfig(withText({ partial_rotary_factor: 0.5 })), RangeError,
      /partial_rotary_factor is not read by step3p7/);
    assertThrows(() => pe.modelFromConfig(withText({ rope_theta: text.rope_theta.map((t) => (t === 10000 ? 1 : t)) })), RangeError,
      /rope_theta\[1\] must be a finite number > 1, got 1/);
    // A scalar rope_theta is every layer's (Step3p7TextConfig: [rope_theta] * n).
    const scalar = pe.modelFromConfig(withText({ rope_theta: 1e6, partial_rotary_factors: undefined, rope_scaling: undefined }));
    try {
      assert.deepEqual(Object.keys(scalar.encodings), ['e0']);
      assertEncoding(scalar.encodings.e0, rotary(128, 128, 1e6, 'half', plain(128, 1e6)), 'step3p7 scalar θ');
    } finally {
      scalar.dispose();
    }
    // Muse Glimmer: a saved layer_rope_theta switches RoPE per layer; another θ is refused by name.
    const muse = load('muse-glimmer-30b.reconstructed');
    const list = every(52, (i) => ((51 - i) % 4 ? 5e5 : 0));
    list[0] = 0;
    const saved = pe.modelFromConfig({ ...muse, text_config: { ...muse.text_config, layer_rope_theta: list } });
    try {
      assert.deepEqual(saved.layers.slice(0, 4).map((l) => l.rope), [null, 'e0', 'e0', null]);
      assert.deepEqual(Object.keys(saved.encodings), ['e0']);
    } finally {
      saved.dispose();
    }
    list[1] = 1e4;
    assertThrows(() => pe.modelFromConfig({ ...muse, text_config: { ...muse.text_config, layer_rope_theta: list } }), RangeError,
      /text_config\.layer_rope_theta\[1\] = 10000 is not the θ transformers rotates with/);
    assert.equal(pe.ropeFromConfig(muse, { layer: 51 }), null);
    const one = pe.ropeFromConfig(muse);
    assertEncoding(one, FAMILIES['muse-glimmer-30b.reconstructed'].encodings[0], 'muse_glimmer');
    one.dispose();
  });

  test(`${name}: Mistral 4, OLMo Hybrid and Zamba2 follow their classes; what transformers cannot run is named`, () => {
    const m4 = load('mistral-small-4-119b.class-defaults.reconstructed');
    const yarn = { rope_type: 'yarn', rope_theta: 1e4, factor: 16, original_max_position_embeddings: 16384,
      llama_4_scaling_beta: 0.2 };
    const given = pe.modelFromConfig({ ...m4, rope_parameters: yarn });
    try {
      assertEncoding(given.encodings.e0, rotary(64, 64, 1e4, 'interleaved', hfYarn(64, 1e4, yarn)), 'mistral4 rope_parameters');
      assert.deepEqual({ ...given.layers[5].queryScale }, { floorScale: 16384, attnScale: 0.2, offset: 0 });
    } finally {
      given.dispose();
    }
    // A v4 rope_scaling replaces the class's dict and its partial_rotary_factor: 128 dims ≠ the slice.
    assertThrows(() => pe.ropeFromConfig({ ...m4, rope_scaling: yarn }), RangeError,
      /rope_scaling.partial_rotary_factor gives mistral4's ladder 128 dims .*give partial_rotary_factor = 64 \/ 128 in rope_scaling/);
    const halved = pe.ropeFromConfig({ ...m4, rope_scaling: { ...yarn, partial_rotary_factor: 0.5 }, rope_interleave: false });
    assertEncoding(halved, rotary(64, 64, 1e4, 'half', hfYarn(64, 1e4, yarn)), 'mistral4 rope_scaling with 0.5');
    halved.dispose();
    assertThrows(() => pe.ropeFromConfig({ ...m4, rope_parameters: { rope_type: 'default', rope_theta: 1e4 } }), RangeError,
      /rope_parameters.rope_type gives mistral4's ladder 128 dims \(rope type 'default' spans the whole head_dim = qk_nope_head_dim \+ qk_rope_head_dim = 128\)/);
    const noBeta = { ...yarn };
    delete noBeta.llama_4_scaling_beta;
    assertThrows(() => pe.modelFromConfig({ ...m4, rope_parameters: noBeta }), RangeError,
      /rope_parameters.llama_4_scaling_beta is required/);
    // OLMo Hybrid: a θ (not null) builds the rotary, on the full-attention layers only.
    const olmo = load('olmo-hybrid.class-defaults.reconstructed');
    assertThrows(() => pe.ropeFromConfig(olmo), RangeError, /rope_theta is null: olmo_hybrid then builds no rotary/);
    const roped = pe.modelFromConfig({ ...olmo, rope_theta: 5e5 });
    try {
      assert.deepEqual(roped.layers.slice(0, 4).map((l) => l.rope), [null, null, null, 'e0']);
      assertEncoding(roped.encodings.e0, rotary(128, 128, 5e5, 'half', plain(128, 5e5)), 'olmo_hybrid θ 5e5');
    } finally {
      roped.dispose();
    }
    // Without any θ key, convert_rope_params_to_dict fills default_theta 10000: RoPE.
    const plainOlmo = { ...olmo };
    delete plainOlmo.rope_theta;
    const dflt = pe.ropeFromConfig(plainOlmo, { layer: 3 });
    assertEncoding(dflt, rotary(128, 128, 1e4, 'half', plain(128, 1e4)), 'olmo_hybrid default θ');
    dflt.dispose();
    assertThrows(() => pe.modelFromConfig({ ...olmo, layer_types: Array(32).fill('full_attention') }), RangeError,
      /layer_types must hold at least one linear_attention and one full_attention layer/);
    // Zamba2: no use_mem_rope, no rotary; layers_block_type is required (no derived pattern).
    const zamba = load('zamba2-7b.reconstructed');
    assertThrows(() => pe.ropeFromConfig({ ...zamba, use_mem_rope: false }), RangeError, /use_mem_rope is not true/);
    assert.equal(pe.ropeFromConfig({ ...zamba, use_mem_rope: false }, { layer: 6 }), null);
    const unlisted = { ...zamba };
    delete unlisted.layers_block_type;
    assertThrows(() => pe.modelFromConfig(unlisted), RangeError, /layer_types is required to list zamba2's layers/);
    // RecurrentGemma: _block_types is not read; a different pattern there is refused by name.
    const griffin = load('recurrentgemma-2b.reconstructed');
    assertThrows(() => pe.modelFromConfig({ ...griffin, _block_types: ['attention'] }), RangeError,
      /_block_types is not read by transformers/);
    const blocks = pe.modelFromConfig({ ...griffin, block_types: ['attention'], _block_types: ['attention'] });
    try {
      assert.ok(blocks.layers.every((l) => l.rope === 'e0' && l.attention === 'sliding'));
    } finally {
      blocks.dispose();
    }
    // Cohere Compass: a null per-type dict means no RoPE there; a dict must name rope_type and rope_theta.
    const compass = load('cohere-compass-tiny.reconstructed');
    assertThrows(() => pe.ropeFromConfig(compass), RangeError,
      /text_config.rope_parameters.full_attention is null: cohere_compass's full_attention layers have no RoPE/);
    assert.equal(pe.ropeFromConfig(compass, { layer: 3 }), null);
    const typeless = structuredClone(compass);
    delete typeless.text_config.rope_parameters.sliding_attention.rope_type;
    assertThrows(() => pe.modelFromConfig(typeless), RangeError,
      /text_config.rope_parameters.sliding_attention.rope_type is required/);
    const flat = structuredClone(compass);
    flat.text_config.rope_parameters = { rope_type: 'default', rope_theta: 1e4 };
    assertThrows(() => pe.modelFromConfig(flat), RangeError, /rope_parameters must hold one object \(or null\) per layer type/);
  });

  test(`${name}: encoder-decoder stacks: the encoder attends both ways as HF's masks do; sub-configs name their stack`, () => {
    // T5GemmaEncoder: create_bidirectional_sliding_window_mask (|i − j| ≤ 4096); T5Gemma2TextEncoder:
    // sliding_window_mask_function(512, is_causal=False): 256 at or before, 256 after.
    const t5 = load('t5gemma-2b-2b.reconstructed');
    const t52 = load('t5gemma-2-270m-270m.reconstructed');
    const decoder1 = FAMILIES['t5gemma-2b-2b.reconstructed'];
    assertModel(pe, 't5gemma-2b-2b.reconstructed', { ...decoder1,
      layers: every(26, (i) => ['e0', (i + 1) % 2 ? 'sliding' : 'full', (i + 1) % 2 ? 4097 : null, null, null]),
      stacks: every(26, (i) => [true, (i + 1) % 2 ? 4096 : null, null]) }, { stack: 'encoder' });
    const decoder2 = FAMILIES['t5gemma-2-270m-270m.reconstructed'];
    const encoder2 = { ...decoder2,
      layers: every(18, (i) => ((i + 1) % 6 ? ['e0', 'sliding', 256, null, null] : ['e1', 'full', null, null, null])),
      stacks: every(18, (i) => [true, (i + 1) % 6 ? 256 : null, null]) };
    assertModel(pe, 't5gemma-2-270m-270m.reconstructed', encoder2, { stack: 'encoder' });
    // A stack's own config is that stack; naming the other one is refused.
    assertModel(pe, 't5gemma2 encoder', encoder2, {}, t52.encoder);
    assertModel(pe, 't5gemma2 encoder text', encoder2, { stack: 'encoder' }, t52.encoder.text_config);
    assertModel(pe, 't5gemma2 decoder', decoder2, {}, t52.decoder);
    assertModel(pe, 't5gemma decoder', decoder1, {}, t5.decoder);
    assertThrows(() => pe.modelFromConfig(t52.encoder, { stack: 'decoder' }), RangeError,
      /stack 'decoder' contradicts model_type 't5gemma2_text': this config is t5gemma2's encoder/);
    assertThrows(() => pe.ropeFromConfig(t5.encoder, { stack: 'decoder' }), RangeError,
      /stack 'decoder' contradicts is_decoder = false|stack 'decoder' contradicts is_decoder absent/);
    assertThrows(() => pe.modelFromConfig(t5), RangeError, /stack is required: 't5gemma' is an encoder-decoder config/);
    assertThrows(() => pe.ropeFromConfig(load('gemma-2-9b'), { stack: 'encoder' }), RangeError,
      /stack 'encoder': gemma2 has only a decoder/);
    assertThrows(() => pe.ropeFromConfig(load('openai-privacy-filter.class-defaults.reconstructed'), { stack: 'decoder' }),
      RangeError, /openai_privacy_filter has only an encoder/);
    // ropeFromConfig({ stack, layer }) reads the stack's layer.
    const r = pe.ropeFromConfig(t52, { stack: 'encoder', layer: 5 });
    assertEncoding(r, decoder2.encodings[1], 't5gemma2 encoder layer 5');
    r.dispose();
  });

  test(`${name}: DiffusionGemma: a causal prompt encoder and a bidirectional canvas decoder from one text config`, () => {
    // DiffusionGemmaTextConfig's defaults are Gemma4TextConfig's (the class-defaults fixture's
    // keys under diffusion_gemma / diffusion_gemma_text). DiffusionGemmaEncoderTextAttention:
    // is_causal unless use_bidirectional_attention 'all'; DiffusionGemmaDecoderTextAttention:
    // is_causal False over the cached prompt keys and the canvas.
    const g4 = load('gemma-4-e2b-it.class-defaults.reconstructed');
    const dg = { ...g4, model_type: 'diffusion_gemma', text_config: { ...g4.text_config, model_type: 'diffusion_gemma_text' } };
    const g4want = FAMILIES['gemma-4-e2b-it.class-defaults.reconstructed'];
    assertModel(pe, 'diffusion_gemma encoder', { ...g4want, family: 'diffusion_gemma' }, { stack: 'encoder' }, dg);
    const all = { ...dg, text_config: { ...dg.text_config, use_bidirectional_attention: 'all' } };
    assertModel(pe, 'diffusion_gemma encoder all', { ...g4want, family: 'diffusion_gemma',
      layers: g4want.layers.map(([e, kind]) => [e, kind, kind === 'sliding' ? 258 : null, null, null]),
      stacks: g4want.layers.map(([, kind]) => [true, kind === 'sliding' ? 257 : null, null]) }, { stack: 'encoder' }, all);
    assertThrows(() => pe.modelFromConfig(dg), RangeError, /stack is required: 'diffusion_gemma_text' runs one text config as two stacks/);
    assertThrows(() => pe.modelFromConfig(dg, { stack: 'decoder' }), RangeError,
      /text_config\.layer_types\[0\] is sliding_attention on diffusion_gemma's decoder stack, whose sliding layers attend the last sliding_window - 1 cached prompt keys/);
    const fullOnly = { ...dg, text_config: { ...dg.text_config, num_hidden_layers: 3, layer_types: every(3, () => 'full_attention') } };
    assertModel(pe, 'diffusion_gemma decoder', { family: 'diffusion_gemma', encodings: [g4want.encodings[1]],
      layers: every(3, () => ['e0', 'full', null, null, null]), stacks: every(3, () => [true, null, null]) }, { stack: 'decoder' }, fullOnly);
    const r = pe.ropeFromConfig(dg, { stack: 'decoder', layer: 0 });
    assertEncoding(r, g4want.encodings[0], 'diffusion_gemma decoder layer 0');
    r.dispose();
  });

  test(`${name}: the stack option is read once, own properties only; a bad one is refused by name`, () => {
    const t5 = load('t5gemma-2b-2b.reconstructed');
    for (const [stack, kind, re] of [[3, TypeError, /stack must be a string, got 3|stack/], ['both', RangeError,
      /stack must be 'encoder' or 'decoder', got the string 'both'/], ['x'.repeat(1e5), RangeError, /stack must be 'encoder' or 'decoder'/],
    [null, TypeError, /stack/]]) {
      assertThrows(() => pe.ropeFromConfig(t5, { stack }), kind, re);
      assertThrows(() => pe.modelFromConfig(t5, { stack }), kind, re);
    }
    let reads = 0;
    const getter = { get stack() { reads += 1; return reads === 1 ? 'encoder' : 'decoder'; } };
    const m = pe.modelFromConfig(t5, getter);
    assert.equal(reads, 1);
    assert.equal(m.layers[0].bidirectional, true);
    m.dispose();
    // Inherited: not an option (the wrapper then needs one).
    assertThrows(() => pe.modelFromConfig(t5, Object.create({ stack: 'encoder' })), RangeError, /stack is required/);
    Object.prototype.stack = 'encoder'; // eslint-disable-line no-extend-native
    try {
      assertThrows(() => pe.modelFromConfig(t5, {}), RangeError, /stack is required/);
      const d = pe.modelFromConfig(t5, { stack: 'decoder' });
      assert.equal(d.layers[0].crossAttention, 'separate');
      assert.equal(Object.getPrototypeOf(d.layers[0]), null);
      d.dispose();
    } finally {
      delete Object.prototype.stack;
    }
    const proxy = new Proxy({ stack: 'encoder' }, {});
    const p = pe.ropeFromConfig(t5, proxy);
    assert.equal(p.base, 10000);
    p.dispose();
  });

  test(`${name}: ropeFromConfig({ layer }) is the layer's encoding, null without RoPE`, () => {
    const scout = load('llama-4-scout-17b-16e.reconstructed');
    assert.equal(pe.ropeFromConfig(scout, { layer: 3 }), null);
    const l0 = pe.ropeFromConfig(scout, { layer: 0 });
    assertEncoding(l0, FAMILIES['llama-4-scout-17b-16e.reconstructed'].encodings[0], 'llama 4 layer 0');
    l0.dispose();
    const g4 = load('gemma-4-e2b-it.reconstructed');
    const global = pe.ropeFromConfig(g4, { layer: 5 });
    assertEncoding(global, FAMILIES['gemma-4-e2b-it.reconstructed'].encodings[1], 'gemma 4 layer 5');
    global.dispose();
    assert.equal(pe.ropeFromConfig(load('exaone-4.0-32b'), { layer: 3 }), null);
    assert.equal(pe.ropeFromConfig(load('qwen3.5-9b'), { layer: 0 }), null);
    assertThrows(() => pe.ropeFromConfig(scout, { layer: 48 }), RangeError, /layer must be in \[0, 47\]/);
    assertThrows(() => pe.ropeFromConfig(scout, { layer: -1 }), RangeError, /layer/);
  });

  test(`${name}: sliding windows come from the class defaults when the key is absent`, () => {
    // MistralConfig: sliding_window 4096 on every layer unless the config says null.
    const m = load('mistral-nemo-base-2407');
    delete m.sliding_window;
    const model = pe.modelFromConfig(m);
    assert.deepEqual(model.layers.map((l) => [l.attention, l.window]), every(40, () => ['sliding', 4096]));
    model.dispose();
    // Qwen3.5 and LFM2 derive their hybrid pattern by rules posenc does not follow: the list is required.
    const q35 = load('qwen3.5-9b');
    delete q35.text_config.layer_types;
    assertThrows(() => pe.modelFromConfig(q35), RangeError, /text_config\.layer_types is required/);
    pe.ropeFromConfig(q35).dispose(); // the rotator itself needs no layer map
    // MixtralConfig: none.
    const x = load('mixtral-8x7b-v0.1');
    delete x.sliding_window;
    const mx = pe.modelFromConfig(x);
    assert.ok(mx.layers.every((l) => l.attention === 'full'));
    mx.dispose();
    // Qwen2Config: use_sliding_window turns layers ≥ max_window_layers to sliding.
    const q = load('qwen1.5-moe-a2.7b');
    q.use_sliding_window = true;
    const qm = pe.modelFromConfig(q);
    assert.deepEqual(qm.layers.map((l) => l.attention), every(24, (i) => (i >= 21 ? 'sliding' : 'full')));
    assert.equal(qm.layers[23].window, 32768);
    qm.dispose();
  });

  test(`${name}: DeepSeek-V3.2's indexer rotates half-layout pairs of its 128-wide head`, () => {
    const c = load('deepseek-v3.2-exp.reconstructed');
    const ix = pe.ropeFromConfig(c, { part: 'indexer' });
    assertEncoding(ix, rotary(128, 64, 10000, 'half', plain(64, 10000)), 'indexer');
    ix.dispose();
    // transformers v5 saves its layer_types: every layer deepseek_sparse_attention, with RoPE.
    c.layer_types = Array(61).fill('deepseek_sparse_attention');
    const m = pe.modelFromConfig(c);
    assert.ok(m.layers.every((l) => l.attention === 'sparse' && l.rope === 'e0'));
    m.dispose();
    assertThrows(() => pe.ropeFromConfig(load('kimi-k2'), { part: 'indexer' }), RangeError, /part 'indexer'.*deepseek has none/);
    // GlmMoeDsaIndexer rotates its first qk_rope_head_dim dims with apply_rotary_pos_emb_interleave
    // (adjacent pairs); AXK2Indexer with apply_rotary_pos_emb (rotate_half), as DeepSeek-V3.2.
    for (const [file, rope, layout] of [['glm-5.class-defaults.reconstructed', 64, 'interleaved'],
      ['a.x-k2.class-defaults.reconstructed', 32, 'half']]) {
      const g = pe.ropeFromConfig(load(file), { part: 'indexer' });
      assertEncoding(g, rotary(128, rope, 10000, layout, plain(rope, 10000)), `${file} indexer`);
      g.dispose();
    }
  });

  test(`${name}: GLM's M-RoPE (t, h, w) follows Glm4vTextRotaryEmbedding.apply_mrope in each layout`, () => {
    // HF: freqs[a][k] = p_a·θ_k; apply_mrope gives chunk i of mrope_section axis i % 3; emb =
    // cat(freqs, freqs); glm4v's apply_rotary_pos_emb takes cos[..., :r/2].repeat_interleave(2)
    // and rotates adjacent pairs (rotate_half_llm), glm4v_moe's rotate_half the halves.
    const tokens = [[0, 0, 0], [5, 7, 2], [131071, 40, 96], [4096, 8191, 1]];
    for (const [file, section] of [['glm-4.1v-9b-thinking.reconstructed', [8, 12, 12]],
      ['glm-4.5v.reconstructed', [8, 12, 12]], ['glm-ocr.reconstructed', [16, 24, 24]]]) {
      const rope = pe.ropeFromConfig(load(file));
      try {
        const r = rope.rotaryDim;
        const n = r / 2;
        const theta = hfDefault(r, 10000);
        const axis = section.flatMap((s, i) => Array(s).fill(i % 3));
        const positions = [0, 1, 2].flatMap((a) => tokens.map((t) => t[a]));
        const { cos, sin } = rope.cosSin({ positions });
        const heads = 1;
        const x = Float32Array.from({ length: tokens.length * rope.headDim }, (_, i) => Math.sin(i * 0.37) + 0.1);
        const y = rope.apply(Float32Array.from(x), { heads, positions });
        let worstCs = 0;
        let worstX = 0;
        tokens.forEach((p, t) => {
          for (let k = 0; k < n; k++) {
            const angle = p[axis[k]] * theta[k];
            const [a, b] = rope.layout === 'interleaved' ? [2 * k, 2 * k + 1] : [k, k + n];
            for (const i of [a, b]) {
              worstCs = Math.max(worstCs, Math.abs(cos[t * r + i] - Math.cos(angle)), Math.abs(sin[t * r + i] - Math.sin(angle)));
            }
            const o = t * rope.headDim;
            const [x1, x2] = [x[o + a], x[o + b]];
            const want1 = x1 * Math.cos(angle) - x2 * Math.sin(angle);
            const want2 = x2 * Math.cos(angle) + x1 * Math.sin(angle);
            worstX = Math.max(worstX, Math.abs(y[o + a] - want1), Math.abs(y[o + b] - want2));
          }
          for (let i = r; i < rope.headDim; i++) assert.equal(y[t * rope.headDim + i], x[t * rope.headDim + i]);
        });
        assert.ok(worstCs <= 4e-7, `${file}: cos/sin max |error| ${worstCs}`);
        assert.ok(worstX <= 2e-6, `${file}: rotated max |error| ${worstX}`);
      } finally {
        rope.dispose();
      }
    }
    // transformers' apply_mrope cycles any chunk count; posenc maps three and names the key.
    const two = load('glm-4.1v-9b-thinking.reconstructed');
    two.text_config.rope_parameters.mrope_section = [16, 16];
    assertThrows(() => pe.ropeFromConfig(two), RangeError, /text_config\.rope_parameters\.mrope_section must hold 3 values/);
    // Granite4VisionModel builds its own text model whatever text_config.model_type says;
    // Exaone4_5_Config maps 'exaone4_5_text' to exaone4.
    const granite = load('granite4-vision.class-defaults.reconstructed');
    granite.text_config.model_type = 'granitemoehybrid';
    const g = pe.modelFromConfig(granite);
    try {
      assert.equal(g.family, 'granite4_vision');
      assert.ok(g.layers.every((l) => l.rope === 'e0' && l.attention === 'full'));
    } finally {
      g.dispose();
    }
    const exaone = { model_type: 'exaone4_5', text_config: { ...load('exaone-4.0-32b'), model_type: 'exaone4_5_text' } };
    const e = pe.modelFromConfig(exaone);
    try {
      assert.equal(e.family, 'exaone4');
      assert.equal(e.layers[3].rope, null);  // EXAONE 4's global NoPE layers
      assert.equal(e.layers[0].window, 4096);
    } finally {
      e.dispose();
    }
  });

  test(`${name}: Llama 4's published equal llama3 factors take transformers' result`, () => {
    // Llama-4-Scout's rope_scaling as published (factor 16, low = high = 1, original 8192),
    // added to the reconstructed file (which carries the class defaults only).
    const c = load('llama-4-scout-17b-16e.reconstructed');
    const p = { factor: 16, high_freq_factor: 1, low_freq_factor: 1, original_max_position_embeddings: 8192, rope_type: 'llama3' };
    c.text_config.rope_scaling = p;
    const rope = pe.ropeFromConfig(c);
    assertEncoding(rope, rotary(128, 128, 5e5, 'interleaved', [hfLlama3(128, 5e5, p), 1]), 'llama 4 llama3');
    rope.dispose();
    // The query temperature of its no-RoPE layers, log(floor((p + 1) / 8192) + 1) · 0.1 + 1.
    const positions = [0, 8190, 8191, 8192, 16383, 131071, 2 ** 40];
    const got = pe.queryScale({ floorScale: 8192, attnScale: 0.1, offset: 1 }, positions);
    positions.forEach((q, i) => {
      const want = Math.log(Math.floor((q + 1) / 8192) + 1) * 0.1 + 1;
      assert.ok(Math.abs(got[i] - want) <= 4e-16 * want, `scale(${q}) = ${got[i]}, HF ${want}`);
    });
    assertThrows(() => pe.queryScale({ floorScale: 8192, attnScale: 0.1 }, [-1]), RangeError, /positions\[0\]/);
    assertThrows(() => pe.queryScale({ floorScale: 0, attnScale: 0.1 }, [1]), RangeError, /floor_scale/);
  });

  test(`${name}: dynamic NTK-α (Hunyuan) and proportional RoPE as pe.rope scaling types`, () => {
    // Hunyuan-7B-Instruct's published rope_scaling form (dynamic with alpha and unread yarn keys).
    const c = load('hunyuan-7b-instruct.reconstructed');
    c.head_dim = 128;
    c.rope_scaling = { alpha: 1000, beta_fast: 32, beta_slow: 1, factor: 1, mscale: 1, mscale_all_dim: 1, type: 'dynamic' };
    const h = pe.ropeFromConfig(c, { seqLen: 2048 });
    assertEncoding(h, rotary(128, 128, 10000, 'half', [hfAlpha(128, 10000, 1000), 1]), 'hunyuan α');
    h.dispose();
    // Past max_position_embeddings transformers' dynamic_rope_update drops alpha: refused.
    assertThrows(() => pe.ropeFromConfig(c, { seqLen: 2049 }), RangeError, /seqLen = 2049 exceeds max_position_embeddings/);
    const direct = pe.rope({ headDim: 128, base: 10000, scaling: { type: 'dynamic', alpha: 1000 } });
    assertEncoding(direct, rotary(128, 128, 10000, 'half', [hfAlpha(128, 10000, 1000), 1]), 'pe.rope α');
    direct.dispose();
    const prop = pe.rope({ headDim: 512, base: 1e6, scaling: { type: 'proportional', partialRotaryFactor: 0.25 } });
    assertEncoding(prop, rotary(512, 512, 1e6, 'half', [hfProportional(512, 1e6, 0.25), 1]), 'pe.rope proportional');
    // Its zero-frequency pairs pass unchanged: dims 64…255 and 320…511 of every row.
    const x = Float32Array.from({ length: 512 }, (_, i) => Math.sin(i + 1));
    const y = prop.apply(Float32Array.from(x), { tokens: 1, heads: 1, positions: [131071] });
    for (let i = 64; i < 256; i++) {
      assert.equal(y[i], x[i]);
      assert.equal(y[i + 256], x[i + 256]);
    }
    assert.notEqual(y[1], x[1]);
    prop.dispose();
    // alpha is Hunyuan's: another family's dynamic rope refuses the key.
    const l = load('codellama-7b');
    l.rope_scaling = { type: 'dynamic', factor: 2, alpha: 10 };
    assertThrows(() => pe.ropeFromConfig(l), RangeError, /rope_scaling\.alpha is not a parameter/);
  });

  test(`${name}: an unlisted model_type is refused by name, { family } reads it on purpose`, () => {
    const c = load('codellama-7b');
    c.model_type = 'my_llama';
    assertThrows(() => pe.ropeFromConfig(c), RangeError,
      /model_type = 'my_llama' is not a family posenc knows.*\{ family: 'llama' \}/);
    assertThrows(() => pe.modelFromConfig(c), RangeError, /model_type = 'my_llama'/);
    const rope = pe.ropeFromConfig(c, { family: 'llama' });
    assertEncoding(rope, FAMILIES['codellama-7b'].encodings[0], 'family llama');
    rope.dispose();
    assertThrows(() => pe.ropeFromConfig(c, { family: 'lama' }), RangeError, /family 'lama' is not a listed family/);
    assertThrows(() => pe.ropeFromConfig(c, { family: 'x'.repeat(65) }), RangeError, /family must name/);
    // Huge option strings are described by their length, never echoed.
    for (const opts of [{ layout: 'x'.repeat(1e5) }, { part: 'y'.repeat(1e5) }, { layerType: '\n'.repeat(1e5) },
      { family: 'f'.repeat(1e5) }]) {
      try {
        pe.ropeFromConfig(c, opts);
        assert.fail('accepted');
      } catch (e) {
        // 40 code points at most, each escape up to 10 characters (\u{XXXXXX}), and the size.
        assert.ok(e instanceof RangeError && e.message.length < 600 && !e.message.includes('\n'), e.message.slice(0, 700));
      }
    }
    // A huge model_type is quoted as a short escaped excerpt.
    c.model_type = `${'\u0000\'\n'.repeat(3)}${'a'.repeat(1e6)}`;
    assertThrows(() => pe.ropeFromConfig(c), RangeError, /model_type = '\\u\{00\}\\'\\n/, /1000009 bytes\)/);
    try {
      pe.ropeFromConfig(c);
    } catch (e) {
      // The caller's megabyte shows as 40 bytes; the rest is posenc's list of families.
      assert.ok(e.message.length < 2000 && !e.message.includes('a'.repeat(41)), `message of ${e.message.length} characters`);
    }
  });

  test(`${name}: nulls where transformers needs a number are refused naming the key`, () => {
    const cases = [
      ['codellama-7b', (c) => { c.rope_theta = null; }, /rope_theta is null/],
      ['llama-3.2-90b-vision-instruct', (c) => { c.text_config.rope_scaling.original_max_position_embeddings = null; },
        /text_config\.rope_scaling\.original_max_position_embeddings is null/],
      ['llama-3.2-90b-vision-instruct', (c) => { c.text_config.original_max_position_embeddings = null; },
        /text_config\.original_max_position_embeddings is null/],
      ['llama-3.2-90b-vision-instruct', (c) => { c.text_config.rope_scaling.factor = null; },
        /rope_scaling\.factor is null/],
      ['glm-4.5', (c) => { c.partial_rotary_factor = null; }, /partial_rotary_factor is null/],
      ['gemma-4-e2b-it.reconstructed', (c) => { c.text_config.rope_parameters.full_attention.rope_theta = null; },
        /rope_parameters\.full_attention\.rope_theta is null/],
      ['llama-4-scout-17b-16e.reconstructed', (c) => { c.text_config.attention_chunk_size = null; },
        /attention_chunk_size is null/, 'model'],
      ['llama-4-scout-17b-16e.reconstructed', (c) => { c.text_config.no_rope_layers = [1, 2]; },
        /no_rope_layers must hold one 0\/1 per layer/, 'model'],
      ['gemma-2-9b', (c) => { c.layer_types = Array(42).fill('global'); }, /layer_types\[0\] = 'global'/, 'model'],
      ['gemma-2-9b', (c) => { c.layer_types = ['full_attention']; }, /layer_types must hold one entry per layer/, 'model'],
      ['chatglm3-6b', (c) => { c.partial_rotary_factor = 0.5; }, /partial_rotary_factor is not read by chatglm/],
      ['codellama-7b', (c) => { c.partial_rotary_factor = 0.5; }, /partial_rotary_factor = 0.5 is not read by llama's default/],
      ['gpt-oss-120b', (c) => { c.rope_scaling.rope_type = 'x'.repeat(5000); }, /rope_type must be one of .* got 'x{40}…' \(5000 bytes\)/],
    ];
    for (const [file, edit, pattern, api] of cases) {
      const c = load(file);
      edit(c);
      assertThrows(() => (api === 'model' ? pe.modelFromConfig(c) : pe.ropeFromConfig(c)), RangeError, pattern);
    }
    // A huge or control-character key is quoted as a short escaped excerpt.
    const k2 = load('kimi-k2');
    k2.rope_scaling[`\u0007${'k'.repeat(100000)}`] = 1;
    assertThrows(() => pe.ropeFromConfig(k2), RangeError, /rope_scaling\.'\\u\{07\}k{39}…' \(100001 bytes\) is not a parameter/);
    const deep = load('kimi-k2');
    deep[`${'q'.repeat(200)}\n`] = { self: null };
    deep[`${'q'.repeat(200)}\n`].self = deep[`${'q'.repeat(200)}\n`];
    assertThrows(() => pe.ropeFromConfig(deep), TypeError, /config key 'q{40}…' \(206 characters\) contains itself/);
    // A null the class reads as absent is fine (yarn's mscale: `.get(...)` then `if mscale`).
    const k = load('kimi-k2');
    k.rope_scaling.mscale = null;
    pe.ropeFromConfig(k).dispose();
  });

  test(`${name}: a polluted Object.prototype cannot see or change the records the reader builds`, () => {
    const seen = [];
    const names = ['scaling', 'mrope', 'vision2d', 'headDim', 'rotaryDim', 'base', 'layout', 'type', 'factor',
      'shortFactor', 'longFactor', 'section', 'interleaved', 'cacheLength', 'rope', 'queryScale', 'compressRate',
      'ropeSlice', 'offset', 'head', 'outputInverse', 'indexerSlice'];
    const saved = names.map((k) => [k, Object.getOwnPropertyDescriptor(Object.prototype, k)]);
    for (const k of names) {
      Object.defineProperty(Object.prototype, k, { // eslint-disable-line no-extend-native
        configurable: true,
        set(v) { seen.push(k); },
        get() { seen.push(`get ${k}`); return undefined; },
      });
    }
    let l31;
    let q3;
    let phi;
    let scout;
    let v4;
    try {
      v4 = pe.modelFromConfig(load('deepseek-v4-flash.class-defaults.reconstructed'));
      l31 = pe.ropeFromConfig(load('llama-3.1-8b'));
      q3 = pe.ropeFromConfig(load('qwen3-vl-4b-instruct'));
      phi = pe.ropeFromConfig(load('phi-3.5-mini-instruct'), { seqLen: 131072 });
      scout = pe.modelFromConfig(load('llama-4-scout-17b-16e.reconstructed'));
    } finally {
      for (const [k, d] of saved) {
        if (d === undefined) delete Object.prototype[k];
        else Object.defineProperty(Object.prototype, k, d);
      }
    }
    assert.deepEqual(seen, []);
    const l31cfg = load('llama-3.1-8b').rope_scaling;
    assertEncoding(l31, rotary(128, 128, 500000, 'half', [hfLlama3(128, 500000, l31cfg), 1]), 'llama 3.1, polluted');
    assert.deepEqual([...q3.mrope.section], [24, 20, 20]);
    const phiCfg = load('phi-3.5-mini-instruct');
    assertEncoding(phi, rotary(96, 96, 10000, 'half', hfLongrope(96, 10000, { ...phiCfg.rope_scaling,
      original_max_position_embeddings: 4096 }, 131072, 131072)), 'phi-3.5 long, polluted');
    assert.equal(scout.layers[3].rope, null);
    assert.equal(scout.layers[3].queryScale.floorScale, 8192);
    scout.dispose();
    assert.deepEqual([v4.layers[3].compressRate, v4.layers[3].ropeSlice.offset, v4.layers[3].indexerSlice.head], [4, 448, 128]);
    v4.dispose();
    for (const r of [l31, q3, phi]) r.dispose();
  });

  test(`${name}: a Proxy that lists a key twice or lies is read once per key, as published`, () => {
    const target = load('gpt-oss-120b');
    let traps = 0;
    const dup = new Proxy(target, {
      ownKeys(t) { traps++; const k = Reflect.ownKeys(t); return [...k, 'rope_theta']; },
    });
    assertThrows(() => pe.modelFromConfig(dup), TypeError, /config: its own keys cannot be listed/);
    const lying = new Proxy(target, {
      ownKeys(t) { return [...Reflect.ownKeys(t), 'absent_key']; },
      getOwnPropertyDescriptor(t, k) { return k === 'absent_key' ? undefined : Reflect.getOwnPropertyDescriptor(t, k); },
    });
    assertModel(pe, 'gpt-oss-120b', FAMILIES['gpt-oss-120b']);
    const m = pe.modelFromConfig(lying);
    assert.equal(m.family, 'gpt_oss');
    m.dispose();
    assert.ok(traps <= 1);
  });
}
