// posenc/config.hpp — a rotator configuration from a Hugging Face config.json, as published.
//
// rope_from_config reads the fields HF transformers reads (v4 `rope_scaling` and v5
// `rope_parameters`, the configuration_*.py of each family and modeling_rope_utils.py's
// `standardize_rope_params` / `_compute_*_parameters`) and returns the rope_config those
// functions describe: head_dim, rotary_dim, base, the scaling and the layout. It computes
// nothing itself; the frequencies come from inverse_frequencies (posenc/frequencies.hpp), as
// for every other rotator, so θ and the attention factor are HF's formulas in double.
//
// The input is the JSON flattened to one entry per key path: nested objects become dotted
// paths ("rope_scaling.factor", "text_config.head_dim", "rope_parameters.full_attention.rope_type"),
// each object itself an entry of kind object. A binding fills it from the parsed JSON without
// interpreting anything.
#pragma once

#include "posenc/rotary.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posenc {

// One value of a flattened config.json.
struct config_value {
  // strings: an array whose elements are all strings; its elements are the entries
  // "path.0", "path.1", … (kind string) and `numbers` holds its length alone.
  enum class kind { null, boolean, number, string, numbers, object, other, strings };
  kind type = kind::null;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<double> numbers;  // an array whose elements are all numbers

  static config_value null_value() { return {}; }
  static config_value of(double v) { return {kind::number, false, v, {}, {}}; }
  static config_value of_bool(bool v) { return {kind::boolean, v, 0, {}, {}}; }
  static config_value of_text(std::string v) { return {kind::string, false, 0, std::move(v), {}}; }
  static config_value of_numbers(std::vector<double> v) {
    return {kind::numbers, false, 0, {}, std::move(v)};
  }
  static config_value object() { return {kind::object, false, 0, {}, {}}; }
  static config_value strings(std::size_t n) {
    return {kind::strings, false, 0, {}, {static_cast<double>(n)}};
  }
  // Anything else (arrays of strings or of objects, mixed arrays): kept so a key RoPE reads
  // can be refused by name rather than silently read as absent.
  static config_value other() { return {kind::other, false, 0, {}, {}}; }
};

// The flattened config: key path → value.
using hf_config = std::map<std::string, config_value>;

struct config_options {
  std::optional<rope_layout> layout;  // overrides the family's layout
  // The sequence length the rotator serves: longrope takes its long factors iff
  // seq_len > original_max_position_embeddings (decided once, here); dynamic NTK scales by
  // max(seq_len, max_position_embeddings). In [1, 2^31).
  std::optional<int> seq_len;
  // Models with one rotary per attention type (Gemma 3/4, v5 per-layer-type rope_parameters):
  // "full_attention" (the global rotary, the default), "sliding_attention" (the local one)
  // or "chunked_attention"; Zaya's "hybrid" / "hybrid_sliding" are the first two (for Zaya
  // only: another family refuses them naming layer_type). DeepSeek-V4 has no full attention:
  // "sliding_attention" ('main'), "compressed_sparse_attention" and "heavily_compressed_attention"
  // ('compress'); other families refuse the last two naming layer_type.
  std::string layer_type = "full_attention";
  // Which rotary of a multimodal config: "text" (the language model's, the default) or
  // "vision" (the vision tower's 2-D rotary, read from `vision_config`).
  std::string tower = "text";
  // A listed family's name (or model_type) whose rules read this config on purpose; empty:
  // the family of the config's model_type, and an unlisted model_type is refused.
  std::string family;
  // A decoder layer, in [0, layers): its layer type's rotary (rope_from_config refuses a
  // layer without RoPE naming `layer`; layer_rope_from_config returns nullopt).
  std::optional<int> layer;
  // "attention" (the default) or "indexer" (DeepSeek-V3.2's indexer: index_head_dim wide,
  // its first qk_rope_head_dim dims rotated in half layout, the same θ; MiniMax-M3's: the
  // layer's rotary dims of an index_head_dim head, cos[..., :index_head_dim]).
  std::string part = "attention";
  // Encoder-decoder models (T5Gemma, T5Gemma 2): "encoder" or "decoder", the stack whose text
  // config is read (required for the wrapper config; a sub-config names its own stack, which
  // this must then match). Empty: the config's only stack. Single-stack models accept their own
  // ("decoder" for decoder-only models, "encoder" for bidirectional encoders) and refuse the other.
  // DiffusionGemma runs one text_config as both stacks and requires it: "encoder" the prompt's
  // causal layers, "decoder" the canvas's bidirectional ones.
  std::string stack;
};

// The rope_config (angles exact) HF's rotary embedding of this config uses. Rules, as HF:
//  - a nested `text_config` (multimodal configs) is read instead of the top level;
//  - encoder-decoder configs (T5Gemma, T5Gemma 2): options.stack names the stack, whose text
//    config is read (`encoder` / `decoder`; T5Gemma 2's encoder `encoder.text_config`); a
//    stack's own config (t5_gemma_module by its is_decoder, t5gemma2_encoder / _text / _decoder)
//    is read as that stack;
//  - the family: the config's model_type (text_config's first) picks one row of posenc's
//    family table (core/src/config_families.hpp, the README's conventions table); an unlisted
//    or missing model_type is refused naming `model_type` unless options.family names the
//    family whose rules to take. The row gives the layout (and DeepSeek's `rope_interleave`
//    flag), the turn (rope_config::turn: nanochat's rotate_half turns by −p·θ), the head-dim rule (head_dim, else the config class default, else hidden_size /
//    num_attention_heads; DeepSeek qk_rope_head_dim; ChatGLM kv_channels; GPT-J n_embd /
//    n_head; Gemma 4's global_head_dim on full layers), the rotary-dim rule (int(head_dim ·
//    partial_rotary_factor) with the class default factor — GPT-NeoX rotary_pct 0.25, GLM 0.5,
//    StableLM 0.25, Qwen3-Next 0.25 —, GPT-J's rotary_dim, ChatGLM's fixed half, and the
//    families whose "default" rotary ignores the factor), the default base (default_theta;
//    GPT-J 10000 fixed; ChatGLM 10000 · rope_ratio; Gemma 3's rope_local_base_freq on sliding
//    layers), the class defaults of max_position_embeddings, and the per-layer pattern;
//  - rope parameters: `rope_scaling` (v4; wins when non-empty, as HF's conversion does) or
//    `rope_parameters` (v5), flat or per layer type; `rope_type`, else the legacy `type`, else
//    "default"; types default, linear, dynamic (Hunyuan: with alpha, NTK-α), yarn, llama3,
//    longrope, proportional, and "su" (= longrope); Phi-3's legacy "yarn" is longrope too.
//    Each type takes exactly the keys HF's validator lists; a family's rotary may carry keys
//    HF never reads (Hunyuan's yarn keys) — those are the only ones skipped;
//  - original_max_position_embeddings (llama3, yarn, longrope): the top-level key when
//    present (Phi-3: default 4096), else the rope parameters' own, else
//    max_position_embeddings;
//  - options.layer: the layer type that layer has (model_from_config's layer map);
//    options.part "indexer": DeepSeek-V3.2's indexer (index_head_dim, half layout);
//  - DeepSeek-V4 (DeepseekV4Config.__post_init__): legacy compress_ratios / compress_rate_csa /
//    compress_rate_hca / qk_rope_head_dim folded in (a null there is absent, as the class pops
//    them), rope_parameters keyed 'main' (sliding layers: rope_theta, default type) and
//    'compress' (compressed layers, their compressors and the indexer: compress_rope_theta, the
//    flat rope_scaling / rope_parameters, yarn's attention_factor 1 by default; a factor ≠ 1 is
//    refused, as the output's de-rotation then is not posenc's inverse); the rotator rotates the
//    trailing int(head_dim · partial_rotary_factor) dims, so its head_dim is that slice
//    (model_from_config's layer_info::slice places it; part "indexer": the same rotary on the
//    trailing slice of an index_head_dim head, compressed_sparse_attention layers only);
//  - multimodal RoPE (axes, posenc/multimodal.hpp): `mrope_section` in the rope parameters
//    (any rope type; the legacy type "mrope" is "default", as Qwen2VLConfig maps it) gives
//    contiguous sections (Qwen2-VL, Qwen2.5-VL: apply_multimodal_rotary_pos_emb);
//    `mrope_interleaved: true` or a Qwen3-VL text model (whose rotary always interleaves,
//    section default [24, 20, 20]) the interleaved ones (apply_interleaved_mrope);
//    Qwen2-VL / Qwen2.5-VL without mrope_section are refused (HF reads it unconditionally);
//    ERNIE 4.5 VL's (h, w, t) mrope_section (default [22, 22, 20], h = w, t ≥ 1) gives
//    mrope_hw with section (t, h, w) (Ernie4_5_VLMoeTextRotaryEmbedding);
// With options.tower == "vision" the `vision_config` is read instead (Qwen2.5-Omni / Qwen3-Omni:
// `thinker_config.vision_config`; the 2-D rotary of the vision tower; no scaling, half layout
// unless options.layout says otherwise):
//  - Qwen2-VL: head_dim = vision_config.embed_dim / num_heads; Qwen2.5-VL, Qwen3-VL,
//    Qwen2.5-Omni and Qwen3-Omni: hidden_size / num_heads (the family row's vision_dims);
//    base 10000 (VisionRotaryEmbedding's fixed theta) → axes vision_qwen2vl;
//  - Pixtral (vision_config.model_type pixtral, as in llava / mistral3 configs): head_dim,
//    else hidden_size / num_attention_heads; base rope_theta (or rope_parameters.rope_theta),
//    default 10000 → axes vision_pixtral;
//  - Muse Glimmer: hidden_size / num_attention_heads (a differing head_dim is refused),
//    rope_parameters.rope_theta (default 10000, rope type "default" only) → axes preset
//    "muse-glimmer" (posenc/axes.hpp: columns first, positions (col + 1, row + 1));
//  - anything else: vision_config.model_type is named in the error.
// Keys a family does not read are refused by name, as is a null where transformers needs a
// number (rope_theta, original_max_position_embeddings for llama3 / yarn / longrope,
// partial_rotary_factor, and every rope parameter HF reads without a None fallback). Caller
// strings in messages are quoted as a short escaped excerpt (at most 40 bytes).
// Unsupported or malformed input throws posenc::invalid_argument naming the config key
// (e.g. "rope_scaling.rope_type", "text_config.head_dim", "rope_scaling.mrope_section"): unknown rope types, keys the rope
// type does not take, wrong value types, non-integral sizes, a value given twice (top level
// and rope parameters) with different values, and every range error of the resulting
// frequencies (inverse_frequencies' checks, reported under the key the value came from).
rope_config rope_from_config(const hf_config& config, const config_options& options = {});

// The rotary of decoder layer options.layer (required), or nullopt when that layer has no
// RoPE (Llama 4's and SmolLM3's no-RoPE layers, Cohere2's and EXAONE 4's full-attention
// layers, hybrid models' linear / conv / cross-attention blocks).
std::optional<rope_config> layer_rope_from_config(const hf_config& config,
                                                  const config_options& options);

// ── The whole decoder ──────────────────────────────────────────────────────────────────

// full, sliding (window), chunked (chunk) and sparse (indexer-selected keys: DeepSeek-V3.2's
// deepseek_sparse_attention, MiniMax-M3's minimax_m3_sparse) self-attention, which may or may not use RoPE; cross
// (Mllama's cross-attention to the image) has none. The rest are no attention, so no RoPE:
// linear (linear attention or Mamba, Qwen3-Next / Qwen3.5 / Bamba / MiniMax), conv (LFM2's
// convolution blocks), none (Nemotron-H's MoE / MLP blocks). windowed: a vision tower's 2-D
// window attention (patch_window), with RoPE.
// compressed_sparse and heavily_compressed (DeepSeek-V4's compressed_sparse_attention and
// heavily_compressed_attention): a sliding-window branch over the recent keys plus one compressed
// key per compress_rate tokens (compressed_sparse: those an indexer selects; heavily_compressed:
// all of them), both rotated.
enum class attention_kind {
  full, sliding, chunked, sparse, linear, conv, cross, none, windowed, compressed_sparse,
  heavily_compressed
};
// "full" | "sliding" | "chunked" | "sparse" | "linear" | "conv" | "cross" | "none" | "windowed"
// | "compressed_sparse" | "heavily_compressed"
std::string_view to_string(attention_kind kind) noexcept;

// Self-attention (which may use RoPE): every kind but linear, conv, cross, none.
constexpr bool is_self_attention(attention_kind kind) noexcept {
  return kind <= attention_kind::sparse || kind == attention_kind::windowed ||
         kind >= attention_kind::compressed_sparse;
}

// A position-dependent query scale: q is multiplied by
//     scale(p) = log(floor((p + offset) / floor_scale) + 1) · attn_scale + 1
// at absolute position p. Llama 4's no-RoPE layers (Llama4TextAttention,
// attn_temperature_tuning): floor_scale, attn_scale, offset 1; Ministral 3's every layer
// (get_llama_4_attn_scale): original_max_position_embeddings, llama_4_scaling_beta, offset 0.
struct query_scale {
  double floor_scale = 8192.0;  // finite, > 0
  double attn_scale = 0.1;      // finite
  double offset = 1.0;          // 0 or 1
};

// scale(p) in double for p in [0, 2^53] (else posenc::invalid_argument naming `position`);
// within 2 ulp of the formula evaluated in long double (one floor, one log, one fma).
double query_scale_at(const query_scale& q, std::int64_t position);

// A decoder layer's cross-attention to the encoder's output (encoder-decoder models), which
// carries no RoPE on the encoder's keys. separate: a second attention after the self-attention,
// neither queries nor keys rotated (T5GemmaCrossAttention); merged: the encoder's keys joined
// to the self-attention's keys in one softmax, the queries rotated as for self-attention
// (T5Gemma2MergedAttention).
enum class cross_attention { none, separate, merged };
// "none" | "separate" | "merged"
std::string_view to_string(cross_attention kind) noexcept;

// A vision tower's window attention (transformers' get_vision_window_index): each frame's grid
// of merged tokens (merge × merge patches, kept adjacent) is cut from its top-left corner into
// side × side windows (partial at the right and bottom edges, side · merge patches a side);
// the tokens, their rotary positions with them, are reordered window by window (row-major
// inside each window and across windows), and a windowed layer attends within each window only.
// The model restores the patch order after the last layer.
struct patch_window {
  int side = 0;   // window side in merged tokens (Qwen2.5-VL: window_size // spatial_merge_size // patch_size)
  int merge = 1;  // a merged token's side in patches (spatial_merge_size)
};

// Where a layer's rotary sits in its heads when it does not start at dim 0 (DeepSeek-V4 lays each
// head out as [nope | rope]): the encoding, whose head_dim is the rotated slice, rotates dims
// [offset, offset + encoding.head_dim) of each `head`-wide head and leaves the rest. A port applies
// it at x + offset with the head stride `head` (and the token stride heads · head).
struct rope_slice {
  int head = 0;    // the attention head's width (DeepSeek-V4: head_dim; its indexer: index_head_dim)
  int offset = 0;  // head − the slice: the trailing int(head_dim · partial_rotary_factor) dims
};

// The compressed keys of a compressed layer (DeepSeek-V4's HCA / CSA compressors): compressed
// key w sums tokens [w·rate, (w + 1)·rate) and is rotated at position w·rate; the query at
// position p sees the compressed keys w < (p + 1) // rate.
struct compressed_keys {
  int rate = 0;  // compress_rates[layer type], ≥ 1
};

// The number of compressed keys the query at `position` sees, (position + 1) // rate, for
// position in [0, 2^53) and rate ≥ 1 (else posenc::invalid_argument naming `position` or
// `rate`); exact (integer arithmetic).
std::int64_t compressed_keys_seen(const compressed_keys& keys, std::int64_t position);
// The position compressed key `index` is rotated at, index · rate, for index ≥ 0 and
// index · rate ≤ 2^53 (else posenc::invalid_argument naming `index`); exact.
std::int64_t compressed_key_position(const compressed_keys& keys, std::int64_t index);

// Which keys j a query at i sees (HF's mask functions): causal layers j ≤ i, bidirectional
// layers every j; a sliding layer further limits them to i − window < j (and, bidirectional,
// j ≤ i + lookahead).
struct layer_info {
  int index = 0;
  std::optional<std::size_t> rope{};  // index into model_info::encodings; nullopt: no RoPE
  attention_kind attention = attention_kind::full;
  std::optional<int> window{};  // sliding: keys at or before i seen, 0 ≤ i − j < window
  std::optional<int> chunk{};   // chunked: the chunk (attention_chunk_size)
  std::optional<posenc::query_scale> query_scale{};  // Llama 4 (no-RoPE layers), Ministral 3
  bool bidirectional = false;      // an encoder layer: keys after the query are seen too
  std::optional<int> lookahead{};  // bidirectional sliding: keys after i seen, 0 < j − i ≤ lookahead
  cross_attention cross = cross_attention::none;  // a decoder layer's attention to the encoder
  std::optional<posenc::patch_window> patches{};  // windowed: the windows
  // compressed_sparse / heavily_compressed: its compressed keys (rotated with this layer's rope).
  std::optional<posenc::compressed_keys> compressed{};
  std::optional<rope_slice> slice{};  // the rotary's place in the head; nullopt: dims [0, rotary_dim)
  // The attention output's rope slice is rotated back at the query positions (DeepSeek-V4: K = V,
  // so V carried the keys' rotation): rope_apply(…, inverse) there, with the same slice.
  bool output_inverse = false;
  // compressed_sparse: the indexer's queries and compressed keys rotate with this layer's rope at
  // this slice of its index_head_dim-wide heads (rope_from_config's part "indexer").
  std::optional<rope_slice> indexer{};
};

struct model_info {
  std::string model_type;  // the text model's model_type as the config says it
  std::string family;      // the family whose rules read it
  std::vector<layer_info> layers;
  std::vector<rope_config> encodings;  // distinct rotaries; identical layers share one
};

// Every decoder layer of the config (options.tower "vision": the vision tower's layers, all
// one 2-D rotary, bidirectional within each frame (image); Qwen2.5-VL's and Qwen2.5-Omni's
// layers windowed but for vision_config.fullatt_block_indexes (default 7, 15, 23, 31), windows
// of window_size (default 112) // spatial_merge_size (2) // patch_size (14) merged tokens:
// Qwen2_5_VisionTransformerPretrainedModel.forward, Qwen2_5OmniVisionEncoder.forward; Muse Glimmer's vision_config.layer_types, window_attention
// over pos_emb_height patches, merge 1): which layers use RoPE, with which rotary, and their attention pattern,
// from `layer_types` when the config lists it, else the family's rule (Gemma 2/3/4, Cohere2,
// OLMo 3, EXAONE 4 and gpt-oss periods, Mistral's and StarCoder2's sliding_window, Qwen2's
// use_sliding_window / max_window_layers, Llama 4 and SmolLM3 no_rope_layers, Llama 4
// chunked attention, Mllama's cross_attention_layers; encoder stacks bidirectional, with
// the window HF's bidirectional mask applies: |i − j| ≤ sliding_window (window
// sliding_window + 1, lookahead sliding_window: create_bidirectional_sliding_window_mask) or
// T5Gemma 2's split ((w + 1) // 2 at or before, w // 2 after: sliding_window_mask_function);
// decoder stacks of encoder-decoder models note their cross-attention; DiffusionGemma's
// encoder is causal and its decoder bidirectional over the cached prompt keys and the canvas
// (DiffusionGemmaDecoderTextAttention), whose sliding layers' prompt keys are bounded per canvas
// block, not per query: refused naming layer_types[i]; Gemma 4's
// use_bidirectional_attention 'all' makes every layer bidirectional, sliding ones with
// sliding_window (w // 2) + 1 in that rule, as Gemma4TextConfig.__post_init__ sets it). options.layer and
// options.layer_type are ignored. Throws as rope_from_config does, naming the config key
// (num_hidden_layers, layer_types[i], no_rope_layers, sliding_window, …).
model_info model_from_config(const hf_config& config, const config_options& options = {});

}  // namespace posenc
