// config_families.hpp — the model families rope_from_config knows: one row per family, the
// only place a family is named. The reader (config.cpp), its error messages and the README's
// conventions table (checked against these rows by tests/core/test_config_families.cpp) all
// read these rows.
//
// A row states only how the family differs from the defaults below (Llama's rules). Each value
// is what the family's transformers configuration_*.py / modeling_*.py (or the model's own
// remote code, named in `source`) computes; see the README table for the models that ship it.
#pragma once

#include "posenc/config.hpp"
#include "posenc/rotary.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace posenc::detail {

// head_dim of the attention: `key` when present, else `fallback` (the config class default),
// else hidden / heads (empty: the key is required). `full_key` overrides it on full-attention
// layers (Gemma 4).
struct head_rule {
  std::string_view key = "head_dim";  // "" = never read (the class derives it)
  std::string_view hidden = "hidden_size", heads = "num_attention_heads";
  int fallback = 0;
  std::string_view full_key{};
  int full_fallback = 0;
  int hidden_mult = 1;  // Zamba2: attention_head_dim = 2 · hidden_size // heads
};

// The rotary width: `dim_key` (absolute dims, GPT-J), else int(head_dim · factor) with factor
// from partial_rotary_factor, else `factor_alias`, else `factor_fallback`.
struct rotary_rule {
  std::string_view dim_key{};
  int dim_fallback = 0;
  std::string_view factor_alias{};
  double factor_fallback = 1.0;
  bool factor_fixed = false;     // no key read: the factor is the code's (ChatGLM: 1/2)
  bool default_full_head = false;  // the family's "default" rotary ignores partial_rotary_factor
  bool factor_forced = false;  // Bamba: __post_init__ overwrites a top-level factor (kwargs)
  // Mistral 4's MLA: the ladder spans int((nope_key + head) · factor) dims, which must be the
  // rotated qk_rope slice (the head); the factor defaults to head / (nope + head).
  std::string_view nope_key{};
  int nope_fallback = 0;
  bool factor_ignored = false;  // RecurrentGemma: the whole head, whatever partial_rotary_factor says
};

// The base θ: rope_theta (rope parameters or top level), else `alias`, else `fallback`.
struct base_rule {
  double fallback = 10000.0;      // the config class's default_theta
  std::string_view alias{};         // GPT-NeoX: rotary_emb_base
  bool fixed = false;             // GPT-J: 10000, no key read
  std::string_view ratio_key{};     // ChatGLM: base = 10000 · rope_ratio
  std::string_view local_key{};     // Gemma 3 (v4 layout): the sliding layers' base
  double local_fallback = 10000.0;
  std::string_view unread_key{};    // DBRX: attn_config.rope_theta, which transformers never reads
};

// Which decoder layers slide when the config has no `layer_types` list.
enum class sliding_rule : std::uint8_t {
  none,        // every layer full attention
  everywhere,  // every layer when sliding_window is set (MistralConfig)
  qwen,        // use_sliding_window and layer ≥ max_window_layers (Qwen2Config)
  period,      // every layer but each period-th (Gemma 2/3/4, Cohere2)
  nope,        // use_sliding_window on the no-RoPE layers (SmolLM3Config)
  always,      // every layer; sliding_window required, null refused (Privacy Filter's mask)
};

// Which layers use RoPE besides the no-RoPE lists: all, or only sliding-window ones.
enum class rope_where : std::uint8_t {
  all,
  sliding,             // Cohere2: full-attention layers have no RoPE
  sliding_if_window,   // EXAONE 4: the same, only when sliding_window is set
  nowhere,             // Nemotron-H: its attention layers have no positional encoding
};

// A position-dependent query scale, log(floor((p + offset) / floor) + 1) · scale + 1.
enum class query_rule : std::uint8_t {
  none,
  llama4,      // no-RoPE layers: floor_scale, attn_scale, offset 1 (attn_temperature_tuning)
  ministral3,  // every layer: original_max_position_embeddings, llama_4_scaling_beta, offset 0
  mistral4,    // the same, unconditional: both keys required (Mistral4Attention)
};

struct layer_rule {
  std::string_view count_key = "num_hidden_layers";
  sliding_rule sliding = sliding_rule::none;
  std::string_view period_key{};     // read when present ("sliding_window_pattern")
  int period = 0;
  bool first_full = false;         // MiMo-V2-Flash: layer 0 is full attention too
  bool period_from_first = false;  // GraniteSWA: full when i % period == 0
  bool last_full = false;          // Gemma 4 forces the last layer to full attention
  int window_fallback = 0;         // sliding_window's class default (0: the key is required)
  std::string_view window_half_key{};  // ModernBERT decoder: sliding_window = local_attention // 2
  std::string_view window_key{};       // RecurrentGemma: attention_window_size (= sliding_window)
  // RecurrentGemma: layer i is block_key[i % n] (default block_default); recurrent blocks are
  // linear (no attention), attention blocks slide.
  std::string_view block_key{};
  std::array<std::string_view, 3> block_default{};
  std::string_view unread_blocks{};  // RecurrentGemma: _block_types, which transformers does not read
  // Gemma 4: 'all' makes every layer bidirectional and sliding_window (w // 2) + 1.
  std::string_view bidirectional_key{};
  std::string_view theta_list{};   // GraniteSWA: layer_rope_theta, one θ per layer (0 = no RoPE)
  std::string_view rope_flags{};     // a 0/1 list, 1 = the layer uses RoPE (Llama 4, SmolLM3)
  int rope_interval = 0;           // its default: (i + 1) % no_rope_layer_interval != 0
  bool empty_flags_default = false;  // Llama 4: an empty list takes the default
  rope_where rope = rope_where::all;
  std::string_view cross_layers{};    // Mllama: cross_attention_layers (no RoPE)
  bool rope_layers_chunked = false;   // Llama 4: RoPE layers use chunked attention
  int chunk_fallback = 0;             // attention_chunk_size's class default
  bool scaling_full_only = false;     // OLMo 3: rope_scaling scales the full-attention layers only
  bool needs_layer_types = false;     // a pattern posenc does not derive: layer_types required
  std::string_view default_type{};    // layer_types' class default (GLM-MoE-DSA: deepseek_sparse_attention)
  // Hybrid models: layers that are not attention (Mamba, MoE / MLP blocks) and how they are listed.
  std::string_view attention_indices{};  // Bamba: attn_layer_indices (full; the rest Mamba)
  std::string_view block_pattern{};      // Nemotron-H: hybrid_override_pattern (M E * -); moe / mlp
  std::string_view list_alias{};         // Nemotron-H: layers_block_type (= layer_types)
  int linear_every = 0;         // MiniMax: layer i is linear attention when (i + 1) % n == 0
  bool legacy_types = false;    // remap_legacy_layer_types: mamba, attention
  std::string_view unread_list{};  // MiniMax: attn_type_list, which transformers does not read
  std::string_view rope_switch{};  // GraniteMoeHybrid: RoPE only if position_embedding_type == "rope"
  std::string_view rope_switch_value = "rope";  // ESM: "rotary"
  std::string_view rope_flag{};    // Zamba2: RoPE only if use_mem_rope is true
  bool null_theta_nope = false;    // OLMo Hybrid: rope_theta null → no rotary at all
  int full_every = 0;   // OLMo Hybrid: layer i is full attention when i % n == n - 1, else linear
  bool hybrid_full = false;  // Zamba2: a "hybrid" block runs full attention beside Mamba
  // Cohere Compass: one rope dict per layer type, each complete (rope_type, rope_theta), or
  // null: that type's layers run without RoPE.
  bool null_type_nope = false;
  // Cohere2-MoE: the first first_k_dense_replace layers (dense MLP) follow their own sliding
  // pattern and, when that pattern is 1, use RoPE although full attention (force_rope).
  bool dense_prefix = false;
  // Muse Glimmer: full when (n - 1 - i) % period == 0 (counted from the last layer); a
  // theta_list entry only switches RoPE on or off (the rotary's θ is rope_theta); without the
  // list, no RoPE where (n - 1 - i) % nope_from_last == 0.
  bool period_from_last = false;
  bool theta_flags = false;
  int nope_from_last = 0;
  // Step 3.5 / 3.7: rope_theta (number or list) and partial_rotary_factors are per-layer lists,
  // built into one rope dict per layer type from its first layer (Step3p7TextConfig).
  bool rope_lists = false;
  // MiniMax-M3: a 0/1 list (sparse_attention_config.sparse_attention_freq) giving layer_types
  // when the config has none: 1 = the family's second layer type, 0 = full_attention.
  std::string_view type_flags{};
  // A separate cross-attention without RoPE beside layer i's self-attention when
  // (i + adapter_offset) % step == 0: step = max(n // adapter_key, 1) when the key counts the
  // adapters (Evolla's aligner_num_add_layers, offset 1), else the key itself (IDEFICS's
  // cross_layer_interval, offset 0); adapter_fallback is the key's class default.
  std::string_view adapter_key{};
  int adapter_fallback = 0;
  bool adapter_count = false;
  int adapter_offset = 0;
  query_rule query = query_rule::none;
};

enum class mrope_rule : std::uint8_t {
  optional,     // mrope_section in the rope parameters, if any, gives contiguous sections
  required,     // Qwen2-VL / Qwen2.5-VL: read unconditionally
  interleaved,  // Qwen3-VL: always interleaved, section default [24, 20, 20]
  glm,          // GLM-4.1V / 4.5V / OCR / Image: contiguous, section default [8, 12, 12]
  hw,           // ERNIE 4.5 VL: section (h, w, t), default [22, 22, 20], h even / w odd rungs
};

// One layer type's rope parameters as the config class fills them when the config has no
// rope_parameters (Gemma4TextConfig, LagunaConfig, …: per-layer-type dicts, no v4 form).
struct type_default {
  std::string_view layer_type{};  // "" = unused slot
  std::string_view rope_type = "default";
  double theta = 10000.0;
  double partial = 0.0;  // partial_rotary_factor; 0 = the dict has none
  std::string_view theta_key{};  // ModernBERT decoder: the kwarg that sets its θ when present
};

// A layer type as the family's code names it, and posenc's layer type for it.
struct type_alias {
  std::string_view name{}, as{};
};

// A config class's single rope_parameters dict when the config has none (Mistral4Config).
struct class_rope {
  std::string_view rope_type{};  // "" = the class fills none
  double theta = 10000.0, factor = 0.0, original = 0.0, beta_fast = 0.0, beta_slow = 0.0;
  double mscale = 0.0, mscale_all_dim = 0.0, query_beta = 0.0;  // 0 = key absent
  double low_freq = 0.0, high_freq = 0.0;  // llama3's low_freq_factor / high_freq_factor
  bool truncate = true;  // yarn's truncate (false: written into the dict)
};

// How a bidirectional (encoder) layer's sliding window sees keys.
enum class encoder_window : std::uint8_t {
  symmetric,  // |i − j| ≤ sliding_window (create_bidirectional_sliding_window_mask)
  split,      // (w + 1) // 2 keys at or before i, w // 2 after (T5Gemma2's sliding_window_mask_function)
};

// Encoder-only and encoder-decoder models: where each stack's text config lives and how its
// layers attend. A row without it is a decoder.
struct stack_rule {
  bool encoder_only = false;          // Privacy Filter: one bidirectional stack
  std::string_view wrapper{};         // the encoder-decoder config's model_type
  std::string_view encoder{}, decoder{};  // the wrapper's key prefixes of each stack's text config
  std::array<std::string_view, 2> encoder_types{}, decoder_types{};  // sub-configs naming a stack
  std::string_view decoder_flag{};    // T5GemmaModuleConfig: is_decoder (default false) picks it
  encoder_window window = encoder_window::symmetric;
  cross_attention cross = cross_attention::none;  // on every decoder layer
  // DiffusionGemma: one text config runs both stacks (encoder == decoder prefix). The encoder
  // (the prompt) keeps the family's causal masks; the decoder (the canvas, at the positions
  // after the prompt) attends bidirectionally over the cached prompt keys and itself, which
  // on sliding layers is the last sliding_window - 1 cached keys: a rule per canvas block.
  bool causal_encoder = false;
  bool canvas_decoder = false;
};

// A vision tower's window attention (Qwen2.5-VL): the layers `full_key` lists attend the whole
// frame, the others windowed (attention_kind::windowed); the class defaults below when a key
// is absent. The window side in merged tokens is window_size // spatial_merge_size // patch_size.
struct vision_window_rule {
  std::string_view full_key{};        // "" = every layer full attention
  std::array<int, 4> full_default{};  // the list's class default
  int window_fallback = 0, merge_fallback = 0, patch_fallback = 0;
  // Muse Glimmer: layer_types (full_attention | window_attention), by default full when
  // (i + 1) % full_every == 0 or i is the last; windows of side_key patches (no merge).
  std::string_view types_key{};
  int full_every = 0;
  std::string_view side_key{};
  int side_fallback = 0;
};

// A boolean key whose `true` changes what the layer map would have to say in a way it cannot
// (RoFormer's rotary_value rotates the values too); refused, naming the key and why.
struct refused_flag {
  std::string_view key{}, why{};
};

// A compressed layer type (DeepSeek-V4): its layer_types name, posenc's attention kind, the
// class default of its compress_rates entry, the legacy top-level key folded into it, and the
// value of the legacy per-layer compress_ratios list that names it.
struct compressed_type {
  std::string_view name{};
  attention_kind kind = attention_kind::full;
  int rate = 0;
  std::string_view legacy_key{};
  int legacy_ratio = 0;
  bool indexer = false;  // its compressor runs the lightning indexer (part "indexer")
};

// DeepSeek-V4 (DeepseekV4Config.__post_init__): rope_parameters keyed by rope-type labels — the
// sliding layers rotate with `main` (rope_theta), the compressed ones with `compress`
// (theta_key; a flat rope_scaling / rope_parameters goes there, yarn with attention_factor 1) —
// over the trailing int(head_dim · partial_rotary_factor) dims (legacy rope_dim_key / head_dim);
// layer_types from the legacy per-layer ratios_key when absent, else two `first` layers then
// the second and first type alternating; every layer's output de-rotated.
struct compress_rule {
  std::string_view rates_key{};    // "" = not a compressed-attention family
  std::string_view ratios_key{};
  std::string_view sliding_name{};  // the plain sliding layers' type, legacy ratio 0
  std::array<compressed_type, 2> types{};
  std::string_view main_label{}, compress_label{};
  std::string_view theta_key{};
  double theta_fallback = 0.0;
  std::string_view rope_dim_key{};
};

struct family {
  std::string_view name{};    // what `family` options name
  std::string_view source{};  // the code its rules are read from
  std::string_view models{};  // models that ship it (README)
  std::array<std::string_view, 6> model_types{};
  rope_layout layout = rope_layout::half;
  std::string_view layout_flag{};  // DeepSeek: rope_interleave (true, the default, = interleaved)
  direction turn = direction::forward;  // nanochat: rotate_half = cat((x2, -x1)), −p·θ
  head_rule head{};
  rotary_rule rotary{};
  base_rule base{};
  std::string_view max_key = "max_position_embeddings";
  int max_fallback = 0;
  int original_fallback = 0;     // Phi-3: a top-level original_max_position_embeddings of 4096
  bool scalable = true;          // GPT-J, ChatGLM: no rope_scaling
  bool yarn_is_longrope = false;  // Phi-3 saved LongRoPE as "yarn"
  std::string_view long_context_key{};  // Zamba2: use_long_context sets max_position_embeddings 16384
  // Per-layer-type rope_parameters only (no v4 form): the class's dicts when the config has none.
  std::array<type_default, 2> rope_defaults{};
  // The only layer_types names its code accepts, each with the posenc layer type it is (Zaya:
  // "hybrid" full, "hybrid_sliding" sliding; MiniMax-M3: "minimax_m3_sparse" sparse); the
  // per-type rope_parameters use the same names.
  std::array<type_alias, 2> type_names{};
  bool theta_required = false;  // its rotary reads rope_parameters[type]["rope_theta"] (Zaya)
  class_rope rope_dict{};  // one dict for every layer, when the config has none
  std::string_view unread_dim_key{};  // MiniMax-M2: rotary_dim, which transformers does not read
  std::string_view no_rope_flag{};    // Falcon: alibi (true: ALiBi instead of RoPE)
  std::array<refused_flag, 2> refused_flags{};
  std::array<std::string_view, 4> ignored_keys{};  // rope keys its checkpoints carry, unread
  std::string_view alpha_key{};    // Hunyuan: rope "alpha" (dynamic NTK-α)
  mrope_rule mrope = mrope_rule::optional;
  std::string_view vision_dims{};  // vision tower head_dim numerator (Qwen2-VL: embed_dim)
  vision_window_rule vision_windows{};
  // The vision tower's 2-D rotary as an axes preset (posenc/axes.hpp): head_dim =
  // hidden_size // num_attention_heads, θ vision_config.rope_parameters.rope_theta.
  std::string_view vision_axes{};
  std::string_view indexer_dim{};  // DeepSeek-V3.2: index_head_dim
  rope_layout indexer_layout = rope_layout::half;  // its pairs (GLM-MoE-DSA: interleaved)
  int indexer_fallback = 0;            // index_head_dim's class default (0: required)
  std::string_view indexer_alias{};    // MiniMax-M3: sparse_attention_config.sparse_index_dim, which wins
  // MiniMax-M3: the indexer takes cos[..., :index_head_dim] of the layer's rotary, so it rotates
  // the same rotary dims (DeepSeek-V3.2: its whole qk_rope head).
  bool indexer_slices = false;
  // The wrapper builds its own text model from text_config whatever text_config.model_type
  // names (Granite4VisionModel: Granite4VisionTextModel(config.text_config)).
  bool own_text_model = false;
  compress_rule compress{};
  layer_rule layers{};
  stack_rule stacks{};
};

inline constexpr rotary_rule kFullHead{.default_full_head = true};

// Gemma4TextConfig.__post_init__'s default_rope_params.
inline constexpr std::array<type_default, 2> kGemma4Ropes = {{
    {.layer_type = "sliding_attention", .theta = 10000.0},
    {.layer_type = "full_attention", .rope_type = "proportional", .theta = 1000000.0,
     .partial = 0.25},
}};

// Qwen2.5-VL's vision windows (Qwen2_5_VLVisionConfig; Qwen2_5OmniVisionEncoderConfig repeats them).
inline constexpr vision_window_rule kQwen25VisionWindows{
    .full_key = "fullatt_block_indexes", .full_default = {7, 15, 23, 31}, .window_fallback = 112,
    .merge_fallback = 2, .patch_fallback = 14};

// Gemma4TextConfig's head dims and layer pattern (DiffusionGemmaTextConfig repeats them).
inline constexpr head_rule kGemma4Head{.fallback = 256, .full_key = "global_head_dim", .full_fallback = 512};
inline constexpr layer_rule kGemma4Layers{.sliding = sliding_rule::period, .period = 6, .last_full = true,
                                          .window_fallback = 512,
                                          .bidirectional_key = "use_bidirectional_attention"};

// ModernBertConfig / ModernBertDecoderConfig: per-type θ from the global / local kwargs, full
// attention when i % global_attn_every_n_layers == 0, sliding_window = local_attention // 2.
inline constexpr std::array<type_default, 2> kModernBertRopes = {{
    {.layer_type = "full_attention", .theta = 160000.0, .theta_key = "global_rope_theta"},
    {.layer_type = "sliding_attention", .theta = 10000.0, .theta_key = "local_rope_theta"},
}};
inline constexpr layer_rule kModernBertLayers{
    .sliding = sliding_rule::period, .period_key = "global_attn_every_n_layers", .period = 3,
    .period_from_first = true, .window_fallback = 128, .window_half_key = "local_attention"};

inline constexpr family kFamilies[] = {
    {.name = "llama", .source = "models/llama (LlamaConfig, modeling_llama.py)",
     .models = "Llama 2, Llama 3 / 3.1 / 3.2 / 3.3, Code Llama, TinyLlama, Vicuna",
     .model_types = {"llama"}, .rotary = kFullHead},
    {.name = "mistral", .source = "models/mistral (MistralConfig, MistralAttention)",
     .models = "Mistral 7B, Mistral Nemo, Mistral Small (text)", .model_types = {"mistral"},
     .rotary = kFullHead, .max_fallback = 131072,
     .layers = {.sliding = sliding_rule::everywhere, .window_fallback = 4096}},
    {.name = "mixtral", .source = "models/mixtral (MixtralConfig)",
     .models = "Mixtral 8x7B / 8x22B", .model_types = {"mixtral"}, .rotary = kFullHead,
     .base = {.fallback = 1000000.0}, .max_fallback = 131072,
     .layers = {.sliding = sliding_rule::everywhere}},
    {.name = "qwen2", .source = "models/qwen2, qwen2_moe (Qwen2Config, Qwen2MoeConfig)",
     .models = "Qwen1.5, Qwen1.5-MoE, Qwen2, Qwen2.5, Qwen2.5-Coder, QwQ",
     .model_types = {"qwen2", "qwen2_moe"}, .rotary = kFullHead, .max_fallback = 32768,
     .layers = {.sliding = sliding_rule::qwen, .window_fallback = 4096}},
    {.name = "qwen3", .source = "models/qwen3, qwen3_moe (Qwen3Config, Qwen3MoeConfig)",
     .models = "Qwen3, Qwen3 MoE, Qwen3-Coder", .model_types = {"qwen3", "qwen3_moe"},
     .head = {.fallback = 128}, .rotary = kFullHead, .max_fallback = 32768,
     .layers = {.sliding = sliding_rule::qwen, .window_fallback = 4096}},
    {.name = "gemma", .source = "models/gemma (GemmaConfig)", .models = "Gemma 1, CodeGemma",
     .model_types = {"gemma"}, .head = {.fallback = 256}, .rotary = kFullHead,
     .max_fallback = 8192},
    {.name = "gemma2", .source = "models/gemma2 (Gemma2Config)", .models = "Gemma 2",
     .model_types = {"gemma2"}, .head = {.fallback = 256}, .rotary = kFullHead,
     .max_fallback = 8192,
     .layers = {.sliding = sliding_rule::period, .period = 2, .window_fallback = 4096}},
    {.name = "gemma3", .source = "models/gemma3 (Gemma3TextConfig)",
     .models = "Gemma 3, MedGemma, ShieldGemma 2",
     .model_types = {"gemma3", "gemma3_text"}, .head = {.fallback = 256}, .rotary = kFullHead,
     .base = {.fallback = 1000000.0, .local_key = "rope_local_base_freq"},
     .max_fallback = 131072,
     .layers = {.sliding = sliding_rule::period, .period_key = "sliding_window_pattern",
                .period = 6, .window_fallback = 4096}},
    {.name = "gemma4",
     .source = "models/gemma4 (Gemma4TextConfig, Gemma4TextRotaryEmbedding)",
     .models = "Gemma 4", .model_types = {"gemma4", "gemma4_text"}, .head = kGemma4Head,
     .rotary = kFullHead, .max_fallback = 131072, .rope_defaults = kGemma4Ropes,
     .layers = kGemma4Layers},
    // DiffusionGemma: Gemma 4's text config and rotaries (a default-type partial factor other
    // than 1 makes its rotary's cos narrower than the head, which apply_rotary_pos_emb cannot
    // broadcast: refused as Gemma 4's is), run as a prompt encoder and a canvas decoder.
    {.name = "diffusion_gemma",
     .source = "models/diffusion_gemma (DiffusionGemmaTextConfig, DiffusionGemmaTextRotaryEmbedding, "
               "DiffusionGemmaEncoderTextAttention, DiffusionGemmaDecoderTextAttention, "
               "DiffusionGemmaDecoderModel.create_diffusion_decoder_attention_mask)",
     .models = "DiffusionGemma", .model_types = {"diffusion_gemma", "diffusion_gemma_text"},
     .head = kGemma4Head, .rotary = kFullHead, .max_fallback = 131072,
     .rope_defaults = kGemma4Ropes, .layers = kGemma4Layers,
     .stacks = {.wrapper = "diffusion_gemma", .encoder = "text_config.", .decoder = "text_config.",
                .causal_encoder = true, .canvas_decoder = true}},
    {.name = "gemma4_unified",
     .source = "models/gemma4_unified (Gemma4UnifiedTextConfig)", .models = "Gemma 4 Unified",
     .model_types = {"gemma4_unified", "gemma4_unified_text"},
     .head = {.fallback = 256, .full_key = "global_head_dim", .full_fallback = 512},
     .rotary = kFullHead, .max_fallback = 262144, .rope_defaults = kGemma4Ropes,
     .layers = {.sliding = sliding_rule::period, .period = 6, .last_full = true,
                .window_fallback = 1024, .bidirectional_key = "use_bidirectional_attention"}},
    {.name = "gemma3n", .source = "models/gemma3n (Gemma3nTextConfig, Gemma3nTextAttention)",
     .models = "Gemma 3n", .model_types = {"gemma3n", "gemma3n_text"}, .head = {.fallback = 256},
     .rotary = kFullHead, .base = {.fallback = 1000000.0, .local_key = "rope_local_base_freq"},
     .max_fallback = 32768,
     .layers = {.sliding = sliding_rule::period, .period = 5, .window_fallback = 512}},
    {.name = "cohere", .source = "models/cohere (CohereConfig, modeling_cohere.py)",
     .models = "Command R, Command R+, Aya 23, Aya Expanse", .model_types = {"cohere"},
     .layout = rope_layout::interleaved, .rotary = kFullHead, .base = {.fallback = 500000.0},
     .max_fallback = 8192},
    {.name = "cohere2", .source = "models/cohere2 (Cohere2Config, Cohere2Attention)",
     .models = "Command R7B, Command A", .model_types = {"cohere2"},
     .layout = rope_layout::interleaved, .rotary = kFullHead, .max_fallback = 8192,
     .layers = {.sliding = sliding_rule::period, .period_key = "sliding_window_pattern",
                .period = 4, .window_fallback = 4096, .rope = rope_where::sliding}},
    {.name = "glm", .source = "models/glm, models/glm4 (GlmConfig, Glm4Config)",
     .models = "GLM-4-9B (-hf), GLM-4-0414, GLM-Z1", .model_types = {"glm", "glm4"},
     .layout = rope_layout::interleaved, .head = {.fallback = 128},
     .rotary = {.factor_fallback = 0.5}, .max_fallback = 131072},
    {.name = "chatglm", .source = "THUDM remote code modeling_chatglm.py (RotaryEmbedding)",
     .models = "ChatGLM2, ChatGLM3, GLM-4-9B (remote code)", .model_types = {"chatglm"},
     .layout = rope_layout::interleaved, .head = {.key = "kv_channels", .fallback = 128},
     .rotary = {.factor_fallback = 0.5, .factor_fixed = true},
     .base = {.fixed = true, .ratio_key = "rope_ratio"}, .max_key = "seq_length",
     .max_fallback = 2048, .scalable = false, .layers = {.count_key = "num_layers"}},
    {.name = "ernie4_5", .source = "models/ernie4_5, models/ernie4_5_moe (Ernie4_5Config)",
     .models = "ERNIE 4.5", .model_types = {"ernie4_5", "ernie4_5_moe"},
     .layout = rope_layout::interleaved, .rotary = kFullHead,
     .base = {.fallback = 500000.0}, .max_fallback = 131072},
    {.name = "deepseek", .source = "models/deepseek_v2, deepseek_v3 (DeepseekV3Config)",
     .models = "DeepSeek-V2, DeepSeek-V3, DeepSeek-R1, Kimi K2",
     .model_types = {"deepseek_v2", "deepseek_v3", "kimi_k2"},
     .layout = rope_layout::interleaved, .layout_flag = "rope_interleave",
     .head = {.key = "qk_rope_head_dim", .fallback = 64}},
    {.name = "deepseek_v32", .source = "models/deepseek_v32 (the reference inference/model.py)",
     .models = "DeepSeek-V3.2", .model_types = {"deepseek_v32"},
     .layout = rope_layout::interleaved, .layout_flag = "rope_interleave",
     .head = {.key = "qk_rope_head_dim", .fallback = 64}, .indexer_dim = "index_head_dim"},
    {.name = "glm_moe_dsa",
     .source = "models/glm_moe_dsa (GlmMoeDsaConfig, GlmMoeDsaIndexer, apply_rotary_pos_emb_interleave)",
     .models = "GLM-5", .model_types = {"glm_moe_dsa"}, .layout = rope_layout::interleaved,
     .head = {.key = "qk_rope_head_dim", .fallback = 64}, .max_fallback = 202752,
     .indexer_dim = "index_head_dim", .indexer_layout = rope_layout::interleaved,
     .layers = {.default_type = "deepseek_sparse_attention"}},
    {.name = "axk2", .source = "models/axk2 (AXK2Config, AXK2Indexer, apply_rotary_pos_emb_interleave)",
     .models = "A.X K2", .model_types = {"axk2"}, .layout = rope_layout::interleaved,
     .head = {.key = "qk_rope_head_dim", .fallback = 32}, .max_fallback = 131072,
     .indexer_dim = "index_head_dim", .layers = {.default_type = "deepseek_sparse_attention"}},
    // DeepSeek-V4: interleaved pairs on the trailing 64 of 512 dims; sliding layers with 'main',
    // compressed layers, their compressors and the indexer with 'compress' (yarn, factor 1).
    {.name = "deepseek_v4",
     .source = "models/deepseek_v4 (DeepseekV4Config.__post_init__, DeepseekV4RotaryEmbedding, "
               "apply_rotary_pos_emb, DeepseekV4Attention, DeepseekV4HCACompressor, "
               "DeepseekV4CSACompressor, DeepseekV4Indexer)",
     .models = "DeepSeek-V4-Flash, DeepSeek-V4-Pro", .model_types = {"deepseek_v4"},
     .layout = rope_layout::interleaved, .head = {.fallback = 512},
     .rotary = {.factor_fallback = 0.125}, .max_fallback = 1048576,
     .indexer_dim = "index_head_dim", .indexer_layout = rope_layout::interleaved,
     .indexer_fallback = 128,
     .compress = {.rates_key = "compress_rates", .ratios_key = "compress_ratios",
                  .sliding_name = "sliding_attention",
                  .types = {{{.name = "compressed_sparse_attention",
                              .kind = attention_kind::compressed_sparse, .rate = 4,
                              .legacy_key = "compress_rate_csa", .legacy_ratio = 4, .indexer = true},
                             {.name = "heavily_compressed_attention",
                              .kind = attention_kind::heavily_compressed, .rate = 128,
                              .legacy_key = "compress_rate_hca", .legacy_ratio = 128}}},
                  .main_label = "main", .compress_label = "compress",
                  .theta_key = "compress_rope_theta", .theta_fallback = 160000.0,
                  .rope_dim_key = "qk_rope_head_dim"},
     .layers = {.window_fallback = 128}},
    {.name = "deepseek_mla", .source = "models/glm4_moe_lite, youtu, axk1 (DeepSeek-V3's MLA)",
     .models = "GLM-4.7-Flash, Youtu-LLM, A.X K1",
     .model_types = {"glm4_moe_lite", "youtu", "axk1"},
     .layout = rope_layout::interleaved, .layout_flag = "rope_interleave",
     .head = {.key = "qk_rope_head_dim", .hidden = "", .heads = ""}},
    {.name = "mistral4", .source = "models/mistral4 (Mistral4Config, Mistral4Attention)",
     .models = "Mistral Small 4", .model_types = {"mistral4"},
     .layout = rope_layout::interleaved, .layout_flag = "rope_interleave",
     .head = {.key = "qk_rope_head_dim", .fallback = 64},
     .rotary = {.nope_key = "qk_nope_head_dim", .nope_fallback = 64}, .max_fallback = 1048576,
     .rope_dict = {.rope_type = "yarn", .factor = 128.0, .original = 8192.0, .beta_fast = 32.0,
                   .beta_slow = 1.0, .mscale = 1.0, .mscale_all_dim = 1.0, .query_beta = 0.1},
     .ignored_keys = {"max_position_embeddings"},
     .layers = {.query = query_rule::mistral4}},
    {.name = "longcat_flash", .source = "models/longcat_flash (LongcatFlashConfig)",
     .models = "LongCat-Flash", .model_types = {"longcat_flash"},
     .layout = rope_layout::interleaved, .head = {.key = "qk_rope_head_dim", .fallback = 64},
     .base = {.fallback = 10000000.0}, .max_fallback = 131072},
    {.name = "llama4", .source = "models/llama4 (Llama4TextConfig, Llama4TextAttention)",
     .models = "Llama 4 Scout, Llama 4 Maverick", .model_types = {"llama4", "llama4_text"},
     .layout = rope_layout::interleaved, .head = {.fallback = 128}, .rotary = kFullHead,
     .base = {.fallback = 500000.0}, .max_fallback = 131072,
     .layers = {.rope_flags = "no_rope_layers", .rope_interval = 4,
                .empty_flags_default = true, .rope_layers_chunked = true,
                .chunk_fallback = 8192, .query = query_rule::llama4}},
    {.name = "smollm3", .source = "models/smollm3 (SmolLM3Config)", .models = "SmolLM3",
     .model_types = {"smollm3"}, .rotary = kFullHead, .base = {.fallback = 2000000.0},
     .layers = {.sliding = sliding_rule::nope, .rope_flags = "no_rope_layers",
                .rope_interval = 4}},
    {.name = "hunyuan", .source = "models/hunyuan_v1_dense, hunyuan_v1_moe (DynamicNTKAlpha)",
     .models = "Hunyuan-7B, Hunyuan-A13B", .model_types = {"hunyuan_v1_dense", "hunyuan_v1_moe"},
     .rotary = kFullHead,
     .ignored_keys = {"beta_fast", "beta_slow", "mscale", "mscale_all_dim"}, .alpha_key = "alpha"},
    {.name = "ministral3", .source = "models/ministral3 (Ministral3Config, get_llama_4_attn_scale)",
     .models = "Ministral 3, Devstral 2, Mistral Small 3.2 / Magistral (ministral3 text)",
     .model_types = {"ministral3"}, .head = {.fallback = 128}, .rotary = kFullHead,
     .base = {.fallback = 1000000.0}, .max_fallback = 262144,
     .layers = {.sliding = sliding_rule::everywhere, .query = query_rule::ministral3}},
    {.name = "olmo2", .source = "models/olmo, models/olmo2 (Olmo2Config)",
     .models = "OLMo, OLMo 2", .model_types = {"olmo", "olmo2"}, .rotary = kFullHead,
     .max_fallback = 2048},
    {.name = "olmo3", .source = "models/olmo3 (Olmo3Config)", .models = "OLMo 3, OLMo 3.1",
     .model_types = {"olmo3"}, .rotary = kFullHead, .base = {.fallback = 500000.0},
     .max_fallback = 2048,
     .layers = {.sliding = sliding_rule::period, .period = 4, .window_fallback = 4096,
                .scaling_full_only = true}},
    {.name = "exaone4",
     .source = "models/exaone4, exaone_moe, exaone4_5 (Exaone4Config, ExaoneMoeConfig, *Attention; "
               "Exaone4_5_Config maps its text_config to exaone4)",
     .models = "EXAONE 4.0, K-EXAONE (exaone_moe), EXAONE 4.5 (language model)",
     .model_types = {"exaone4", "exaone_moe", "exaone4_5", "exaone4_5_text"},
     .rotary = kFullHead,
     .max_fallback = 2048,
     .layers = {.sliding = sliding_rule::period, .period_key = "sliding_window_pattern",
                .period = 4, .window_fallback = 4096, .rope = rope_where::sliding_if_window}},
    {.name = "gpt_oss", .source = "models/gpt_oss (GptOssConfig, _apply_rotary_emb)",
     .models = "gpt-oss-20b, gpt-oss-120b", .model_types = {"gpt_oss"},
     .head = {.fallback = 64}, .rotary = kFullHead, .base = {.fallback = 150000.0},
     .max_fallback = 131072,
     .layers = {.sliding = sliding_rule::period, .period = 2, .window_fallback = 128}},
    {.name = "glm4_moe", .source = "models/glm4_moe (Glm4MoeConfig, rotate_half)",
     .models = "GLM-4.5, GLM-4.6, GLM-4.5-Air", .model_types = {"glm4_moe"},
     .rotary = {.factor_fallback = 0.5}, .max_fallback = 131072},
    {.name = "mllama", .source = "models/mllama (MllamaTextConfig, MllamaTextSelfAttention)",
     .models = "Llama 3.2 Vision (11B, 90B)", .model_types = {"mllama", "mllama_text_model"},
     .rotary = kFullHead, .base = {.fallback = 500000.0}, .max_fallback = 131072,
     .layers = {.cross_layers = "cross_attention_layers"}},
    {.name = "minicpm3", .source = "models/minicpm3 (MiniCPM3Config, rotate_half)",
     .models = "MiniCPM3-4B", .model_types = {"minicpm3"},
     .head = {.key = "qk_rope_head_dim", .hidden = "", .heads = ""}, .max_fallback = 32768},
    {.name = "starcoder2", .source = "models/starcoder2 (Starcoder2Config)",
     .models = "StarCoder2 3B / 7B / 15B", .model_types = {"starcoder2"}, .rotary = kFullHead,
     .max_fallback = 4096, .layers = {.sliding = sliding_rule::everywhere}},
    {.name = "qwen3_next",
     .source = "models/qwen3_next, qwen3_5 (Qwen3NextConfig, Qwen3_5TextConfig)",
     .models = "Qwen3-Next, Qwen3.5", .model_types = {"qwen3_next", "qwen3_5", "qwen3_5_text",
                                                       "qwen3_5_moe", "qwen3_5_moe_text"},
     .head = {.fallback = 256}, .rotary = {.factor_fallback = 0.25}, .max_fallback = 32768,
     .layers = {.needs_layer_types = true}},
    {.name = "lfm2", .source = "models/lfm2, lfm2_moe (Lfm2Config)",
     .models = "LFM2, LFM2.5, LFM2-VL (text)", .model_types = {"lfm2", "lfm2_moe"},
     .rotary = kFullHead, .base = {.fallback = 1000000.0}, .max_fallback = 128000,
     .layers = {.needs_layer_types = true}},
    {.name = "apertus", .source = "models/apertus (ApertusConfig)", .models = "Apertus 8B / 70B",
     .model_types = {"apertus"}, .rotary = kFullHead, .base = {.fallback = 12000000.0},
     .max_fallback = 65536},
    {.name = "arcee", .source = "models/arcee (ArceeConfig)", .models = "Arcee AFM-4.5B",
     .model_types = {"arcee"}, .rotary = kFullHead, .max_fallback = 4096},
    {.name = "aria_text", .source = "models/aria_text (AriaTextConfig)",
     .models = "Aria (text model)", .model_types = {"aria_text"}, .rotary = kFullHead,
     .max_fallback = 2048},
    {.name = "bitnet", .source = "models/bitnet (BitNetConfig)", .models = "BitNet b1.58 2B4T",
     .model_types = {"bitnet"}, .rotary = kFullHead, .base = {.fallback = 500000.0},
     .max_fallback = 2048},
    {.name = "cosmos3_edge_text", .source = "models/cosmos3_edge_text (Cosmos3EdgeTextConfig)",
     .models = "Cosmos 3 Edge (text model)", .model_types = {"cosmos3_edge_text"},
     .head = {.fallback = 128}, .rotary = kFullHead, .base = {.fallback = 100000000.0},
     .max_fallback = 131072},
    {.name = "deepseek_ocr2_text", .source = "models/deepseek_ocr2_text (DeepseekOcr2TextConfig)",
     .models = "DeepSeek-OCR 2 (text model)", .model_types = {"deepseek_ocr2_text"},
     .rotary = kFullHead, .max_fallback = 2048},
    {.name = "diffllama", .source = "models/diffllama (DiffLlamaConfig)", .models = "DiffLlama",
     .model_types = {"diffllama"}, .rotary = kFullHead, .max_fallback = 2048},
    {.name = "doge", .source = "models/doge (DogeConfig)", .models = "Doge",
     .model_types = {"doge"}, .rotary = kFullHead, .max_fallback = 2048},
    {.name = "emu3_text_model", .source = "models/emu3_text_model (Emu3TextConfig)",
     .models = "Emu3 (text model)", .model_types = {"emu3_text_model"}, .rotary = kFullHead,
     .base = {.fallback = 1000000.0}, .max_fallback = 9216},
    {.name = "flex_olmo", .source = "models/flex_olmo (FlexOlmoConfig)", .models = "FlexOlmo",
     .model_types = {"flex_olmo"}, .rotary = kFullHead, .base = {.fallback = 500000.0},
     .max_fallback = 4096},
    {.name = "granite", .source = "models/granite (GraniteConfig)", .models = "Granite 3.x",
     .model_types = {"granite"}, .rotary = kFullHead, .max_fallback = 2048},
    {.name = "granitemoe", .source = "models/granitemoe (GraniteMoeConfig)",
     .models = "Granite 3.x MoE", .model_types = {"granitemoe"}, .rotary = kFullHead,
     .max_fallback = 2048},
    {.name = "granitemoeshared", .source = "models/granitemoeshared (GraniteMoeSharedConfig)",
     .models = "Granite MoE with shared experts", .model_types = {"granitemoeshared"},
     .rotary = kFullHead, .max_fallback = 2048},
    {.name = "hyperclovax", .source = "models/hyperclovax (HyperCLOVAXConfig)",
     .models = "HyperCLOVA X SEED", .model_types = {"hyperclovax"}, .rotary = kFullHead,
     .max_fallback = 2048},
    {.name = "jais2", .source = "models/jais2 (Jais2Config)", .models = "Jais 2",
     .model_types = {"jais2"}, .rotary = kFullHead, .max_fallback = 8192},
    {.name = "jetmoe", .source = "models/jetmoe (JetMoeConfig)", .models = "JetMoE-8B",
     .model_types = {"jetmoe"}, .rotary = kFullHead, .max_fallback = 4096},
    {.name = "olmoe", .source = "models/olmoe (OlmoeConfig)", .models = "OLMoE",
     .model_types = {"olmoe"}, .rotary = kFullHead, .max_fallback = 4096},
    {.name = "phi4_multimodal", .source = "models/phi4_multimodal (Phi4MultimodalConfig)",
     .models = "Phi-4-multimodal (text model)", .model_types = {"phi4_multimodal"},
     .max_fallback = 131072},
    {.name = "phimoe", .source = "models/phimoe (PhimoeConfig)", .models = "Phi-3.5-MoE",
     .model_types = {"phimoe"}, .rotary = kFullHead, .base = {.fallback = 1000000.0},
     .max_fallback = 131072},
    {.name = "seed_oss", .source = "models/seed_oss (SeedOssConfig)", .models = "Seed-OSS-36B",
     .model_types = {"seed_oss"}, .head = {.fallback = 128}, .rotary = kFullHead,
     .max_fallback = 524288},
    {.name = "solar_open", .source = "models/solar_open (SolarOpenConfig)", .models = "Solar Open",
     .model_types = {"solar_open"}, .head = {.fallback = 128}, .base = {.fallback = 1000000.0},
     .max_fallback = 131072},
    {.name = "voxtral_realtime_text",
     .source = "models/voxtral_realtime_text (VoxtralRealtimeTextConfig)",
     .models = "Voxtral Realtime (text model)", .model_types = {"voxtral_realtime_text"},
     .rotary = kFullHead, .max_fallback = 131072},
    {.name = "persimmon", .source = "models/persimmon (PersimmonConfig)",
     .models = "Persimmon-8B, Fuyu (text model)", .model_types = {"persimmon"},
     .rotary = {.factor_fallback = 0.5}, .max_fallback = 16384},
    {.name = "nemotron", .source = "models/nemotron (NemotronConfig)",
     .models = "Nemotron-4, Minitron", .model_types = {"nemotron"},
     .rotary = {.factor_fallback = 0.5}, .max_fallback = 4096},
    {.name = "helium", .source = "models/helium (HeliumConfig)", .models = "Helium-1",
     .model_types = {"helium"}, .layout = rope_layout::interleaved, .head = {.fallback = 128},
     .rotary = kFullHead, .base = {.fallback = 100000.0}, .max_fallback = 4096},
    {.name = "vaultgemma", .source = "models/vaultgemma (VaultGemmaConfig)", .models = "VaultGemma",
     .model_types = {"vaultgemma"}, .head = {.fallback = 256}, .rotary = kFullHead,
     .max_fallback = 8192, .layers = {.sliding = sliding_rule::period, .period = 2,
     .window_fallback = 4096}},
    {.name = "ministral", .source = "models/ministral (MinistralConfig)",
     .models = "Ministral-8B-Instruct-2410", .model_types = {"ministral"}, .rotary = kFullHead,
     .max_fallback = 131072, .layers = {.window_fallback = 4096, .needs_layer_types = true}},
    {.name = "dots1", .source = "models/dots1 (Dots1Config)", .models = "dots.llm1",
     .model_types = {"dots1"}, .rotary = kFullHead, .max_fallback = 2048,
     .layers = {.window_fallback = 4096, .needs_layer_types = true}},
    {.name = "cwm", .source = "models/cwm (CwmConfig)", .models = "Code World Model (CWM)",
     .model_types = {"cwm"}, .head = {.fallback = 128}, .rotary = kFullHead,
     .base = {.fallback = 1000000.0}, .max_fallback = 131072,
     .layers = {.window_fallback = 8192, .needs_layer_types = true}},
    {.name = "phi3", .source = "models/phi3 (Phi3Config)",
     .models = "Phi-3, Phi-3.5, Phi-4-mini", .model_types = {"phi3"}, .max_fallback = 4096,
     .original_fallback = 4096, .yarn_is_longrope = true},
    {.name = "phi", .source = "models/phi (PhiConfig)", .models = "Phi-1, Phi-1.5, Phi-2",
     .model_types = {"phi"}, .rotary = {.factor_fallback = 0.5}, .max_fallback = 2048},
    {.name = "gpt_neox", .source = "models/gpt_neox (GPTNeoXConfig)",
     .models = "GPT-NeoX-20B, Pythia, RedPajama-INCITE", .model_types = {"gpt_neox"},
     .rotary = {.factor_alias = "rotary_pct", .factor_fallback = 0.25},
     .base = {.alias = "rotary_emb_base"}, .max_fallback = 2048},
    {.name = "stablelm", .source = "models/stablelm (StableLmConfig)",
     .models = "StableLM 2, StableLM-3B-4E1T", .model_types = {"stablelm"},
     .rotary = {.factor_fallback = 0.25}, .max_fallback = 4096},
    {.name = "gptj", .source = "models/gptj, models/codegen (modeling_gptj.py)",
     .models = "GPT-J-6B, CodeGen", .model_types = {"gptj", "codegen"},
     .layout = rope_layout::interleaved, .head = {.key = "", .hidden = "n_embd", .heads = "n_head"},
     .rotary = {.dim_key = "rotary_dim", .dim_fallback = 64}, .base = {.fixed = true},
     .max_key = "n_positions", .max_fallback = 2048, .scalable = false,
     .layers = {.count_key = "n_layer"}},
    {.name = "hy_v3", .source = "models/hy_v3 (HYV3Config, modeling_hy_v3.py)",
     .models = "Hunyuan (hy_v3)", .model_types = {"hy_v3"}, .head = {.fallback = 128},
     .rotary = kFullHead, .base = {.fallback = 11158840.0}, .max_fallback = 131072},
    {.name = "afmoe", .source = "models/afmoe (AfmoeConfig, AfmoeAttention)",
     .models = "Arcee Trinity (afmoe)", .model_types = {"afmoe"}, .head = {.fallback = 128},
     .rotary = kFullHead, .max_fallback = 16384,
     .layers = {.sliding = sliding_rule::period, .period_key = "global_attn_every_n_layers",
                .period = 4, .window_fallback = 1024, .rope = rope_where::sliding}},
    {.name = "minimax_m2", .source = "models/minimax_m2 (MiniMaxM2Config, MiniMaxM2RotaryEmbedding)",
     .models = "MiniMax-M2, MiniMax-M2.1", .model_types = {"minimax_m2"}, .head = {.fallback = 128},
     .base = {.fallback = 5000000.0}, .max_fallback = 196608, .unread_dim_key = "rotary_dim"},
    {.name = "laguna", .source = "models/laguna (LagunaConfig, LagunaRotaryEmbedding)",
     .models = "Laguna", .model_types = {"laguna"}, .head = {.fallback = 128},
     .max_fallback = 131072,
     .rope_defaults = {{{.layer_type = "full_attention", .theta = 500000.0, .partial = 0.5},
                        {.layer_type = "sliding_attention", .theta = 10000.0, .partial = 1.0}}},
     .layers = {.window_fallback = 512}},
    {.name = "mellum", .source = "models/mellum (MellumConfig, MellumRotaryEmbedding)",
     .models = "Mellum", .model_types = {"mellum"}, .head = {.fallback = 128},
     .rotary = kFullHead, .max_fallback = 131072,
     .rope_defaults = {{{.layer_type = "full_attention", .theta = 500000.0},
                        {.layer_type = "sliding_attention", .theta = 10000.0}}},
     .layers = {.window_fallback = 1024}},
    {.name = "modernbert_decoder",
     .source = "models/modernbert_decoder (ModernBertDecoderConfig, ModernBertDecoderAttention)",
     .models = "ModernBERT decoder, Ettin decoders", .model_types = {"modernbert-decoder"},
     .head = {.key = ""}, .rotary = kFullHead, .max_fallback = 8192,
     .rope_defaults = kModernBertRopes, .layers = kModernBertLayers},
    {.name = "mimo_v2_flash",
     .source = "models/mimo_v2_flash (MiMoV2FlashConfig, MiMoV2FlashRotaryEmbedding)",
     .models = "MiMo-V2-Flash", .model_types = {"mimo_v2_flash"}, .head = {.fallback = 192},
     .rotary = {.factor_fallback = 0.334}, .max_fallback = 131072,
     .rope_defaults = {{{.layer_type = "full_attention", .theta = 5000000.0, .partial = 0.334},
                        {.layer_type = "sliding_attention", .theta = 10000.0, .partial = 0.334}}},
     .layers = {.sliding = sliding_rule::period, .period = 6, .first_full = true,
                .window_fallback = 128}},
    {.name = "granite_swa",
     .source = "models/granite_swa, granitemoe_swa (GraniteSWAConfig, GraniteSWAModel.rotary_embs)",
     .models = "Granite SWA, Granite MoE SWA", .model_types = {"granite_swa", "granitemoe_swa"},
     .rotary = kFullHead, .max_fallback = 8192,
     .layers = {.sliding = sliding_rule::period, .period = 4, .period_from_first = true,
                .window_fallback = 128, .theta_list = "layer_rope_theta"}},
    {.name = "muse_glimmer",
     .source = "models/muse_glimmer (MuseGlimmerTextConfig, MuseGlimmerTextModel: layer_rope_theta[i] ? rotary : NoPE; "
               "MuseGlimmerVisionConfig, MuseGlimmerVisionRotaryEmbedding, MuseGlimmerVisionModel.forward)",
     .models = "Muse Glimmer (language model)", .model_types = {"muse_glimmer", "muse_glimmer_text"},
     .head = {.fallback = 128}, .rotary = kFullHead, .max_fallback = 131072,
     .vision_windows = {.types_key = "layer_types", .full_every = 4, .side_key = "pos_emb_height",
                        .side_fallback = 32},
     .vision_axes = "muse-glimmer",
     .layers = {.sliding = sliding_rule::period, .period = 4, .window_fallback = 2048,
                .theta_list = "layer_rope_theta", .period_from_last = true, .theta_flags = true,
                .nope_from_last = 4}},
    {.name = "step3p7",
     .source = "models/step3p7 (Step3p7TextConfig.__post_init__, Step3p7RotaryEmbedding)",
     .models = "Step 3.5 Flash, Step 3.7 Flash", .model_types = {"step3p5", "step3p7"},
     .head = {.fallback = 128}, .max_fallback = 128000, .layers = {.rope_lists = true}},
    {.name = "falcon", .source = "models/falcon (FalconConfig, FalconAttention)",
     .models = "Falcon-7B / 40B / 180B, Falcon 2", .model_types = {"falcon"},
     .head = {.key = ""}, .rotary = kFullHead, .max_fallback = 2048, .no_rope_flag = "alibi"},
    {.name = "gpt_neox_japanese",
     .source = "models/gpt_neox_japanese (GPTNeoXJapaneseConfig, GPTNeoXJapaneseAttention)",
     .models = "GPT-NeoX-Japanese", .model_types = {"gpt_neox_japanese"},
     .rotary = {.factor_alias = "rotary_pct", .default_full_head = true},
     .base = {.alias = "rotary_emb_base"}, .max_fallback = 2048},
    {.name = "bamba", .source = "models/bamba (BambaConfig, BambaRotaryEmbedding)",
     .models = "Bamba-9B", .model_types = {"bamba"},
     .rotary = {.factor_fallback = 0.5, .factor_forced = true}, .max_fallback = 262144,
     .layers = {.attention_indices = "attn_layer_indices"}},
    {.name = "falcon_h1", .source = "models/falcon_h1 (FalconH1Config, FalconH1RotaryEmbedding)",
     .models = "Falcon-H1", .model_types = {"falcon_h1"}, .rotary = kFullHead,
     .max_fallback = 8192},
    {.name = "nemotron_h", .source = "models/nemotron_h (NemotronHConfig, NemotronHAttention)",
     .models = "Nemotron-H, NVIDIA Nemotron Nano 2", .model_types = {"nemotron_h"},
     .head = {.fallback = 128}, .rotary = kFullHead, .max_fallback = 4096,
     .layers = {.rope = rope_where::nowhere, .needs_layer_types = true,
                .block_pattern = "hybrid_override_pattern", .list_alias = "layers_block_type",
                .legacy_types = true}},
    {.name = "granitemoehybrid",
     .source = "models/granitemoehybrid (GraniteMoeHybridConfig, GraniteMoeHybridModel)",
     .models = "Granite 4.0 (-H, hybrid)", .model_types = {"granitemoehybrid"},
     .rotary = kFullHead, .max_fallback = 2048,
     .layers = {.linear_every = 1, .legacy_types = true,  // no layer_types: every layer Mamba
                .rope_switch = "position_embedding_type"}},
    {.name = "recurrent_gemma",
     .source = "models/recurrent_gemma (RecurrentGemmaConfig, RecurrentGemmaRotaryEmbedding)",
     .models = "RecurrentGemma (Griffin) 2B / 9B", .model_types = {"recurrent_gemma"},
     .head = {.key = ""}, .rotary = {.factor_ignored = true}, .max_fallback = 8192,
     .scalable = false,
     .layers = {.window_fallback = 2048, .window_key = "attention_window_size",
                .block_key = "block_types", .block_default = {"recurrent", "recurrent", "attention"},
                .unread_blocks = "_block_types"}},
    {.name = "olmo_hybrid",
     .source = "models/olmo_hybrid (OlmoHybridConfig, OlmoHybridModel.rotary_emb)",
     .models = "OLMo Hybrid", .model_types = {"olmo_hybrid"}, .rotary = kFullHead,
     .max_fallback = 65536,
     .layers = {.legacy_types = true, .null_theta_nope = true, .full_every = 4}},
    {.name = "zamba2", .source = "models/zamba2 (Zamba2Config, Zamba2Attention)",
     .models = "Zamba2", .model_types = {"zamba2"}, .head = {.key = "", .hidden_mult = 2},
     .rotary = kFullHead, .max_fallback = 4096, .long_context_key = "use_long_context",
     .layers = {.needs_layer_types = true, .list_alias = "layers_block_type",
                .legacy_types = true, .rope_flag = "use_mem_rope", .hybrid_full = true}},
    {.name = "minimax", .source = "models/minimax (MiniMaxConfig, MiniMaxRotaryEmbedding)",
     .models = "MiniMax-Text-01 (-hf)", .model_types = {"minimax"}, .rotary = kFullHead,
     .base = {.fallback = 1000000.0}, .max_fallback = 131072, .unread_dim_key = "rotary_dim",
     .layers = {.linear_every = 2, .unread_list = "attn_type_list"}},
    {.name = "dbrx", .source = "models/dbrx (DbrxConfig, DbrxRotaryEmbedding)",
     .models = "DBRX Base, DBRX Instruct", .model_types = {"dbrx"},
     .head = {.hidden = "d_model", .heads = "n_heads"}, .rotary = kFullHead,
     .base = {.unread_key = "attn_config.rope_theta"}, .max_key = "max_seq_len",
     .max_fallback = 2048, .layers = {.count_key = "n_layers"}},
    // Encoder-only and encoder-decoder models (stacks).
    {.name = "openai_privacy_filter",
     .source = "models/openai_privacy_filter (OpenAIPrivacyFilterConfig, _apply_rotary_emb, "
               "create_bidirectional_sliding_window_mask)",
     .models = "OpenAI Privacy Filter", .model_types = {"openai_privacy_filter"},
     .layout = rope_layout::interleaved, .head = {.fallback = 64}, .rotary = kFullHead,
     .base = {.fallback = 150000.0}, .max_fallback = 131072,
     .rope_dict = {.rope_type = "yarn", .theta = 150000.0, .factor = 32.0, .original = 4096.0,
                   .beta_fast = 32.0, .beta_slow = 1.0, .truncate = false},
     .layers = {.sliding = sliding_rule::always, .window_fallback = 128},
     .stacks = {.encoder_only = true}},
    // Text encoders: one bidirectional stack, every layer sees the whole sequence (or its
    // symmetric window), positions 0 … n − 1 from the first token.
    {.name = "modernbert",
     .source = "models/modernbert (ModernBertConfig, ModernBertAttention, "
               "create_bidirectional_sliding_window_mask)",
     .models = "ModernBERT, Ettin encoders, Granite Embedding R2", .model_types = {"modernbert"},
     .head = {.key = ""}, .rotary = kFullHead, .max_fallback = 8192,
     .rope_defaults = kModernBertRopes, .layers = kModernBertLayers,
     .stacks = {.encoder_only = true}},
    {.name = "eurobert", .source = "models/eurobert (EuroBertConfig, EuroBertAttention)",
     .models = "EuroBERT", .model_types = {"eurobert"}, .rotary = kFullHead, .max_fallback = 8192,
     .stacks = {.encoder_only = true}},
    {.name = "nomic_bert", .source = "models/nomic_bert (NomicBertConfig, NomicBertAttention)",
     .models = "nomic-embed-text v1.5", .model_types = {"nomic_bert"}, .rotary = kFullHead,
     .base = {.fallback = 1000.0}, .max_fallback = 2048, .stacks = {.encoder_only = true}},
    {.name = "jina_embeddings_v3",
     .source = "models/jina_embeddings_v3 (JinaEmbeddingsV3Config, JinaEmbeddingsV3Attention)",
     .models = "jina-embeddings-v3", .model_types = {"jina_embeddings_v3"}, .rotary = kFullHead,
     .base = {.fallback = 20000.0}, .max_fallback = 8194, .stacks = {.encoder_only = true}},
    {.name = "chameleon", .source = "models/chameleon (ChameleonConfig, ChameleonAttention)",
     .models = "Chameleon", .model_types = {"chameleon"}, .head = {.key = ""}, .rotary = kFullHead,
     .max_fallback = 4096},
    {.name = "evolla",
     .source = "models/evolla (EvollaConfig, EvollaDecoderLayer, EvollaSequenceAlignerCrossAttention)",
     .models = "Evolla (language model)", .model_types = {"evolla"}, .rotary = kFullHead,
     .base = {.fallback = 500000.0}, .max_fallback = 8192,
     .layers = {.adapter_key = "aligner_num_add_layers", .adapter_fallback = 8,
                .adapter_count = true, .adapter_offset = 1}},
    {.name = "idefics",
     .source = "models/idefics (IdeficsConfig, IdeficsEmbedding, IdeficsAttention, "
               "IdeficsModel.forward)",
     .models = "IDEFICS", .model_types = {"idefics"}, .head = {.key = ""}, .rotary = kFullHead,
     .base = {.fixed = true}, .max_fallback = 2048, .scalable = false,
     .layers = {.adapter_key = "cross_layer_interval", .adapter_fallback = 1}},
    {.name = "csm", .source = "models/csm (CsmConfig, CsmRotaryEmbedding, CsmBackboneModel)",
     .models = "Sesame CSM (backbone)", .model_types = {"csm"}, .rotary = kFullHead,
     .base = {.fallback = 500000.0}, .max_fallback = 2048},
    {.name = "csm_depth_decoder",
     .source = "models/csm (CsmDepthDecoderConfig, CsmRotaryEmbedding, CsmDepthDecoderModel)",
     .models = "Sesame CSM (depth decoder: a position per codebook)",
     .model_types = {"csm_depth_decoder_model"}, .rotary = kFullHead,
     .base = {.fallback = 500000.0}, .max_fallback = 33},
    {.name = "higgs_audio_v2",
     .source = "models/higgs_audio_v2 (HiggsAudioV2Config, HiggsAudioV2RotaryEmbedding)",
     .models = "Higgs Audio v2", .model_types = {"higgs_audio_v2"}, .head = {.fallback = 128},
     .rotary = kFullHead, .base = {.fallback = 500000.0}, .max_fallback = 2048,
     .rope_dict = {.rope_type = "llama3", .theta = 500000.0, .factor = 32.0, .original = 1024.0,
                   .low_freq = 0.125, .high_freq = 0.5}},
    {.name = "esm", .source = "models/esm (EsmConfig, EsmRotaryEmbedding, EsmSelfAttention)",
     .models = "ESM-2", .model_types = {"esm"}, .head = {.key = ""}, .rotary = kFullHead,
     .max_fallback = 1026, .scalable = false,
     .refused_flags = {{{"is_decoder", "EsmSelfAttention is then causal; posenc reads esm as the "
                                      "encoder its checkpoints are"}}},
     .layers = {.rope_switch = "position_embedding_type", .rope_switch_value = "rotary"},
     .stacks = {.encoder_only = true}},
    {.name = "roformer",
     .source = "models/roformer (RoFormerSinusoidalPositionalEmbedding, "
               "RoFormerSelfAttention.apply_rotary_position_embeddings)",
     .models = "RoFormer", .model_types = {"roformer"}, .layout = rope_layout::interleaved,
     .head = {.key = ""}, .rotary = kFullHead, .base = {.fixed = true}, .max_fallback = 1536,
     .scalable = false,
     .refused_flags = {{{"rotary_value", "apply_rotary_position_embeddings rotates the values "
                                         "too, which posenc's layer map does not describe"},
                        {"is_decoder", "RoFormerSelfAttention is then causal; posenc reads "
                                       "roformer as the encoder its checkpoints are"}}},
     .stacks = {.encoder_only = true}},
    {.name = "t5gemma",
     .source = "models/t5gemma (T5GemmaConfig, T5GemmaModuleConfig, T5GemmaEncoder, "
               "T5GemmaDecoder, T5GemmaCrossAttention)",
     .models = "T5Gemma (encoder-decoder Gemma 2)", .model_types = {"t5gemma", "t5_gemma_module"},
     .head = {.fallback = 256}, .rotary = kFullHead, .max_fallback = 8192,
     .layers = {.sliding = sliding_rule::period, .period = 2, .window_fallback = 4096},
     .stacks = {.wrapper = "t5gemma", .encoder = "encoder.", .decoder = "decoder.",
                .decoder_flag = "is_decoder", .cross = cross_attention::separate}},
    {.name = "dia",
     .source = "models/dia (DiaConfig, DiaEncoderConfig, DiaDecoderConfig, DiaRotaryEmbedding, "
               "DiaSelfAttention, DiaCrossAttention)",
     .models = "Dia (text-to-speech)", .model_types = {"dia", "dia_encoder", "dia_decoder"},
     .head = {.fallback = 128}, .rotary = kFullHead,
     .stacks = {.wrapper = "dia", .encoder = "encoder_config.", .decoder = "decoder_config.",
                .encoder_types = {"dia_encoder"}, .decoder_types = {"dia_decoder"},
                .cross = cross_attention::separate}},
    {.name = "t5gemma2",
     .source = "models/t5gemma2 (T5Gemma2TextConfig, T5Gemma2DecoderConfig, T5Gemma2TextEncoder, "
               "T5Gemma2MergedAttention, sliding_window_mask_function)",
     .models = "T5Gemma 2 (encoder-decoder Gemma 3)",
     .model_types = {"t5gemma2", "t5gemma2_text", "t5gemma2_encoder", "t5gemma2_decoder"},
     .head = {.fallback = 256}, .rotary = kFullHead,
     .base = {.fallback = 1000000.0, .local_key = "rope_local_base_freq"}, .max_fallback = 131072,
     .layers = {.sliding = sliding_rule::period, .period_key = "sliding_window_pattern",
                .period = 6, .window_fallback = 4096},
     .stacks = {.wrapper = "t5gemma2", .encoder = "encoder.text_config.", .decoder = "decoder.",
                .encoder_types = {"t5gemma2_encoder", "t5gemma2_text"},
                .decoder_types = {"t5gemma2_decoder"}, .window = encoder_window::split,
                .cross = cross_attention::merged}},
    {.name = "cohere2_moe", .source = "models/cohere2_moe (Cohere2MoeConfig, Cohere2MoeAttention)",
     .models = "Command A MoE (cohere2_moe)", .model_types = {"cohere2_moe"},
     .layout = rope_layout::interleaved, .head = {.fallback = 128}, .rotary = kFullHead,
     .max_fallback = 8192,
     .layers = {.sliding = sliding_rule::period, .period_key = "sliding_window_pattern",
                .period = 4, .window_fallback = 4096, .rope = rope_where::sliding,
                .dense_prefix = true}},
    {.name = "cohere_compass",
     .source = "models/cohere_compass (CohereCompassTextConfig, CohereCompassRotaryEmbedding)",
     .models = "North Micro (Cohere Compass)", .model_types = {"cohere_compass", "cohere_compass_text"},
     .head = {.key = ""}, .rotary = kFullHead, .max_fallback = 8192,
     .mrope = mrope_rule::interleaved,
     .layers = {.window_fallback = 4096, .null_type_nope = true}},
    {.name = "qwen2_vl", .source = "models/qwen2_vl (Qwen2VLConfig, Qwen2VisionTransformer)",
     .models = "Qwen2-VL", .model_types = {"qwen2_vl", "qwen2_vl_text"}, .rotary = kFullHead,
     .base = {.fallback = 1000000.0}, .mrope = mrope_rule::required, .vision_dims = "embed_dim"},
    {.name = "qwen2_5_vl",
     .source = "models/qwen2_5_vl (Qwen2_5_VLConfig; Qwen2_5_VisionTransformerPretrainedModel.forward, "
               "vision_utils.get_vision_window_index)",
     .models = "Qwen2.5-VL", .model_types = {"qwen2_5_vl", "qwen2_5_vl_text"},
     .rotary = kFullHead, .base = {.fallback = 1000000.0}, .mrope = mrope_rule::required,
     .vision_dims = "hidden_size", .vision_windows = kQwen25VisionWindows},
    {.name = "qwen2_5_omni",
     .source = "models/qwen2_5_omni (Qwen2_5OmniTextConfig, Qwen2_5OmniRotaryEmbedding; "
               "Qwen2_5OmniVisionEncoderConfig, Qwen2_5OmniVisionEncoder.forward, "
               "vision_utils.get_vision_window_index)",
     .models = "Qwen2.5-Omni (thinker)",
     .model_types = {"qwen2_5_omni", "qwen2_5_omni_thinker", "qwen2_5_omni_text"},
     .rotary = kFullHead, .base = {.fallback = 1000000.0}, .max_fallback = 32768,
     .mrope = mrope_rule::required, .vision_dims = "hidden_size",
     .vision_windows = kQwen25VisionWindows,
     .layers = {.sliding = sliding_rule::qwen, .window_fallback = 32768}},
    {.name = "qwen3_omni_moe",
     .source = "models/qwen3_omni_moe (Qwen3OmniMoeTextConfig, Qwen3OmniMoeThinkerTextRotaryEmbedding; "
               "Qwen3OmniMoeVisionEncoder.forward: every block full attention)",
     .models = "Qwen3-Omni (thinker)",
     .model_types = {"qwen3_omni_moe", "qwen3_omni_moe_thinker", "qwen3_omni_moe_text"},
     .rotary = kFullHead, .base = {.fallback = 1000000.0}, .max_fallback = 32768,
     .ignored_keys = {"interleaved"}, .mrope = mrope_rule::interleaved, .vision_dims = "hidden_size"},
    {.name = "paddleocr_vl",
     .source = "models/paddleocr_vl (PaddleOCRTextConfig, PaddleOCRRotaryEmbedding, apply_multimodal_rotary_pos_emb)",
     .models = "PaddleOCR-VL, PaddleOCR-VL-1.5", .model_types = {"paddleocr_vl", "paddleocr_vl_text"},
     .head = {.fallback = 128}, .rotary = kFullHead, .base = {.fallback = 500000.0},
     .max_fallback = 131072, .mrope = mrope_rule::required},
    {.name = "qwen3_omni_moe_talker",
     .source = "models/qwen3_omni_moe (Qwen3OmniMoeTalkerTextConfig, Qwen3OmniMoeTalkerRotaryEmbedding = the thinker's)",
     .models = "Qwen3-Omni (talker)",
     .model_types = {"qwen3_omni_moe_talker", "qwen3_omni_moe_talker_text"}, .rotary = kFullHead,
     .max_fallback = 32768, .ignored_keys = {"interleaved"}, .mrope = mrope_rule::interleaved},
    {.name = "qwen3_vl", .source = "models/qwen3_vl, qwen3_vl_moe (Qwen3VLTextRotaryEmbedding)",
     .models = "Qwen3-VL", .model_types = {"qwen3_vl", "qwen3_vl_text", "qwen3_vl_moe",
                                           "qwen3_vl_moe_text"},
     .head = {.fallback = 128}, .rotary = kFullHead, .base = {.fallback = 500000.0},
     .max_fallback = 128000, .mrope = mrope_rule::interleaved,
     .vision_dims = "hidden_size"},
    {.name = "glm4v",
     .source = "models/glm4v (Glm4vTextConfig, Glm4vTextRotaryEmbedding.apply_mrope, apply_rotary_pos_emb)",
     .models = "GLM-4.1V-Thinking", .model_types = {"glm4v", "glm4v_text"},
     .layout = rope_layout::interleaved, .max_fallback = 32768, .mrope = mrope_rule::glm},
    {.name = "glm_ocr",
     .source = "models/glm_ocr (GlmOcrTextConfig, GlmOcrTextRotaryEmbedding.apply_mrope, apply_rotary_pos_emb)",
     .models = "GLM-OCR", .model_types = {"glm_ocr", "glm_ocr_text"},
     .layout = rope_layout::interleaved, .max_fallback = 131072, .mrope = mrope_rule::glm},
    {.name = "glm4v_moe",
     .source = "models/glm4v_moe (Glm4vMoeTextConfig, Glm4vMoeTextRotaryEmbedding.apply_mrope, rotate_half)",
     .models = "GLM-4.5V", .model_types = {"glm4v_moe", "glm4v_moe_text"},
     .rotary = {.factor_fallback = 0.5}, .max_fallback = 65536, .mrope = mrope_rule::glm},
    {.name = "glm_image",
     .source = "models/glm_image (GlmImageTextConfig, GlmImageTextRotaryEmbedding.apply_mrope, rotate_half)",
     .models = "GLM-Image (autoregressive model)", .model_types = {"glm_image", "glm_image_text"},
     .max_fallback = 131072, .mrope = mrope_rule::glm},
    {.name = "granite4_vision",
     .source = "models/granite4_vision (Granite4VisionTextConfig, Granite4VisionTextRotaryEmbedding)",
     .models = "Granite 4 Vision (language model)",
     .model_types = {"granite4_vision", "granite4_vision_text"}, .rotary = kFullHead,
     .max_fallback = 2048, .own_text_model = true},
    {.name = "nanochat",
     .source = "models/nanochat (NanoChatConfig, NanoChatRotaryEmbedding, rotate_half = cat((x2, -x1)); "
               "RoPE before a weightless QK RMSNorm)",
     .models = "nanochat (karpathy/nanochat)", .model_types = {"nanochat"},
     .turn = direction::inverse, .rotary = kFullHead, .max_fallback = 2048},
    {.name = "ernie4_5_vl_moe",
     .source = "models/ernie4_5_vl_moe (Ernie4_5_VLMoeTextConfig, Ernie4_5_VLMoeTextRotaryEmbedding: "
               "inv_freq_3d, recomposition_to_3d; rotate_half_text)",
     .models = "ERNIE 4.5 VL (ERNIE-4.5-VL-28B-A3B)",
     .model_types = {"ernie4_5_vl_moe", "ernie4_5_vl_moe_text"},
     .layout = rope_layout::interleaved, .rotary = kFullHead, .base = {.fallback = 500000.0},
     .max_fallback = 131072, .scalable = false, .mrope = mrope_rule::hw},
    // MiniMax-M3: partial rotate_half over int(head_dim · partial_rotary_factor) dims; its
    // sparse layers' lightning indexer rotates with the first index_head_dim columns of the
    // same cos/sin.
    {.name = "minimax_m3",
     .source = "models/minimax_m3_vl (MiniMaxM3VLTextConfig, MiniMaxM3VLRotaryEmbedding, "
               "MiniMaxM3VLAttention, MiniMaxM3VLIndexer)",
     .models = "MiniMax-M3 (language model)", .model_types = {"minimax_m3_vl", "minimax_m3_vl_text"},
     .head = {.fallback = 128}, .base = {.fallback = 5000000.0}, .max_fallback = 524288,
     .type_names = {{{"full_attention", "full_attention"},
                     {"minimax_m3_sparse", "deepseek_sparse_attention"}}},
     .unread_dim_key = "rotary_dim", .indexer_dim = "index_head_dim", .indexer_fallback = 128,
     .indexer_alias = "sparse_attention_config.sparse_index_dim", .indexer_slices = true,
     .layers = {.type_flags = "sparse_attention_config.sparse_attention_freq"}},
    // Muse Glimmer's draft model: one bidirectional stack over the main model's context and
    // its own block; every token rotates at its own position (keys at all of position_ids,
    // queries at the block's, the last q_len), so it is ordinary RoPE at those positions.
    {.name = "muse_glimmer_assistant",
     .source = "models/muse_glimmer_assistant (MuseGlimmerAssistantConfig, "
               "MuseGlimmerAssistantRotaryEmbedding, apply_rotary_pos_emb: keys at the context's "
               "and block's positions, queries at the block's; create_bidirectional_sliding_window_mask)",
     .models = "Muse Glimmer assistant (draft model)", .model_types = {"muse_glimmer_assistant"},
     .head = {.fallback = 128}, .rotary = kFullHead, .base = {.fallback = 500000.0},
     .max_fallback = 131072,
     .layers = {.sliding = sliding_rule::always, .window_fallback = 2048},
     .stacks = {.encoder_only = true}},
    // Zaya: CCA mixes q and k by a causal convolution before RoPE; the rotation itself is
    // GLM's partial rotate_half over the first int(head_dim · partial_rotary_factor) dims.
    {.name = "zaya",
     .source = "models/zaya (ZayaConfig, ZayaRotaryEmbedding, apply_rotary_pos_emb, ZayaAttention)",
     .models = "ZAYA1", .model_types = {"zaya"}, .head = {.fallback = 128},
     .max_fallback = 131072,
     .rope_defaults = {{{.layer_type = "hybrid", .theta = 5000000.0, .partial = 0.5},
                        {.layer_type = "hybrid_sliding", .theta = 10000.0, .partial = 0.5}}},
     .type_names = {{{"hybrid", "full_attention"}, {"hybrid_sliding", "sliding_attention"}}},
     .theta_required = true},
};

constexpr std::span<const family> families() { return kFamilies; }

// The family's name of a posenc layer type in layer_types and rope_parameters (Zaya:
// full_attention is "hybrid"); posenc's own name for the others.
constexpr std::string_view type_name(const family& f, std::string_view canonical) {
  for (const type_alias& a : f.type_names)
    if (!a.name.empty() && a.as == canonical) return a.name;
  return canonical;
}

// model_types whose text attention uses RoPE in a way posenc cannot express yet: refused
// naming what is missing and the way forward, never read with another family's rules.
struct refusal {
  std::array<std::string_view, 8> model_types{};
  std::string_view source{};
  std::string_view why{};
};

inline constexpr refusal kRefusals[] = {
    {{"hunyuan_vl", "hunyuan_vl_text"},
     "models/hunyuan_vl (HunYuanVLRotaryEmbedding, apply_multimodal_rotary_pos_emb)",
     "with mrope_section (XD-RoPE, 3 or 4 axes) it splits cat(freqs, freqs) by 2 · section, so "
     "the two dims of a rotate_half pair can take angles of different axes: not a rotation "
     "posenc's kernel performs (each pair turns by one angle)"},
    {{"blt", "blt_local_encoder", "blt_local_decoder", "blt_global_transformer", "blt_patcher"},
     "models/blt (BltModel, BltRotaryEmbedding, BltLocalEncoder, BltGlobalTransformer, "
     "BltLocalDecoder, BltPatcher)",
     "four transformers in one model: the patcher over bytes, the local encoder over bytes, the "
     "global transformer over patches and the local decoder over bytes, each with its own "
     "rotary (adjacent pairs: repeat_interleave and a pairwise rotate_half) and its own "
     "positions, joined by cross-attention between byte and patch positions; posenc's layer "
     "map describes one stack of one model"},
    {{"moshi", "kyutai_speech_to_text"},
     "models/moshi, kyutai_speech_to_text (MoshiModel.forward, KyutaiSpeechToTextModel.forward; "
     "cache_utils.get_layer_types_and_kwargs)",
     "create_causal_mask gives every layer full causal attention while DynamicCache(config) "
     "keeps each layer's last sliding_window - 1 keys (sliding_window is set, so every cache "
     "layer is a sliding one): a prompt is attended in full, the tokens after it through the "
     "window; posenc's layer map gives a layer one attention rule"},
    {{"hrm_text"}, "models/hrm_text (HrmTextConfig, HrmTextModel.forward)",
     "with prefix_lm (the default) the tokens whose token_type_ids are 1 attend each other both "
     "ways and the rest causally (create_causal_mask with block_sequence_ids), and the H / L "
     "stacks rerun their layers H_cycles · (L_cycles + 1) times: posenc's layer map has no "
     "prefix-LM attention and no repeated layers"},
    {{"video_llama_3"}, "models/video_llama_3 (VideoLlama3Config: AutoModel of text_config)",
     "its language model is whatever text_config.model_type names (Qwen2 in the released "
     "checkpoints); this config names none: give text_config.model_type"},
};

constexpr const refusal* refusal_of(std::string_view model_type) {
  for (const refusal& r : kRefusals)
    for (std::string_view t : r.model_types)
      if (!t.empty() && t == model_type) return &r;
  return nullptr;
}

// The table's own invariants (tests/core/test_config_families.cpp checks them): names and
// model_types unique, every row with a source and its models, period rules with a period.
constexpr bool table_is_consistent() {
  const std::span<const family> all = kFamilies;
  for (std::size_t a = 0; a < all.size(); ++a) {
    const family& f = all[a];
    if (f.name.empty() || f.source.empty() || f.models.empty() || f.model_types[0].empty())
      return false;
    if (f.layers.sliding == sliding_rule::period && f.layers.period < 1) return false;
    if (f.layers.rope_flags.empty() != (f.layers.rope_interval == 0)) return false;
    if (f.stacks.wrapper.empty() != f.stacks.decoder.empty()) return false;
    for (std::size_t b = a + 1; b < all.size(); ++b)
      if (f.name == all[b].name) return false;
    for (std::string_view t : f.model_types)
      if (!t.empty() && refusal_of(t)) return false;
    for (std::size_t i = 0; i < f.model_types.size(); ++i) {
      const std::string_view t = f.model_types[i];
      if (t.empty()) continue;
      for (std::size_t b = a; b < all.size(); ++b)
        for (std::size_t j = (b == a ? i + 1 : 0); j < all[b].model_types.size(); ++j)
          if (t == all[b].model_types[j]) return false;
    }
  }
  return true;
}

}  // namespace posenc::detail
