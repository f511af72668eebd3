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

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace posenc {

// One value of a flattened config.json.
struct config_value {
  enum class kind { null, boolean, number, string, numbers, object, other };
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
  // Models with one rotary per attention type (Gemma 3, v5 per-layer-type rope_parameters):
  // "full_attention" (the global rotary, the default) or "sliding_attention" (the local one).
  std::string layer_type = "full_attention";
  // Which rotary of a multimodal config: "text" (the language model's, the default) or
  // "vision" (the vision tower's 2-D rotary, read from `vision_config`).
  std::string tower = "text";
};

// The rope_config (angles exact) HF's rotary embedding of this config uses. Rules, as HF:
//  - a nested `text_config` (multimodal configs) is read instead of the top level;
//  - rope parameters: `rope_scaling` (v4; wins when non-empty, as HF's conversion does) or
//    `rope_parameters` (v5), flat or per layer type; `rope_type`, else the legacy `type`, else
//    "default"; types default, linear, dynamic, yarn, llama3, longrope, and "su" (= longrope);
//    Phi-3's legacy "yarn" is longrope too;
//  - head_dim: `head_dim` (non-null), else hidden_size / num_attention_heads (integer
//    division); DeepSeek-V2/V3: qk_rope_head_dim; GPT-J/CodeGen: n_embd / n_head;
//  - rotary dim: int(head_dim · partial_rotary_factor) — the factor from the rope parameters
//    or the top level (GPT-NeoX: `rotary_pct`, default 0.25); GPT-J/CodeGen: `rotary_dim`;
//  - base: `rope_theta` of the rope parameters or the top level (GPT-NeoX:
//    `rotary_emb_base`), else the family default (10000; Gemma 3: 1e6 global, the
//    `rope_local_base_freq` or 1e4 for sliding layers; GPT-J/CodeGen: always 10000);
//  - original_max_position_embeddings (llama3, yarn, longrope): the top-level key when
//    present (Phi-3: default 4096), else the rope parameters' own, else
//    max_position_embeddings;
//  - family defaults of HF's config classes when keys are absent (Gemma 2: head_dim 256,
//    max_position_embeddings 8192; Gemma 3: head_dim 256, 131072; Phi-3: 4096);
//  - layout: interleaved for gptj, codegen, deepseek_v2 and deepseek_v3 (unless
//    `rope_interleave` is false), half otherwise; options.layout overrides;
//  - multimodal RoPE (axes, posenc/multimodal.hpp): `mrope_section` in the rope parameters
//    (any rope type; the legacy type "mrope" is "default", as Qwen2VLConfig maps it) gives
//    contiguous sections (Qwen2-VL, Qwen2.5-VL: apply_multimodal_rotary_pos_emb);
//    `mrope_interleaved: true` or a Qwen3-VL text model (qwen3_vl*, whose rotary always
//    interleaves, section default [24, 20, 20]) the interleaved ones (apply_interleaved_mrope);
//    Qwen2-VL / Qwen2.5-VL without mrope_section are refused (HF reads it unconditionally).
// With options.tower == "vision" the `vision_config` is read instead (the 2-D rotary of the
// vision tower; no scaling, half layout unless options.layout says otherwise):
//  - Qwen2-VL (model_type qwen2_vl): head_dim = vision_config.embed_dim / num_heads;
//    Qwen2.5-VL and Qwen3-VL (qwen2_5_vl, qwen3_vl, qwen3_vl_moe): hidden_size / num_heads;
//    base 10000 (VisionRotaryEmbedding's fixed theta) → axes vision_qwen2vl;
//  - Pixtral (vision_config.model_type pixtral, as in llava / mistral3 configs): head_dim,
//    else hidden_size / num_attention_heads; base rope_theta (or rope_parameters.rope_theta),
//    default 10000 → axes vision_pixtral;
//  - anything else: vision_config.model_type is named in the error.
// Unsupported or malformed input throws posenc::invalid_argument naming the config key
// (e.g. "rope_scaling.rope_type", "text_config.head_dim", "rope_scaling.mrope_section"): unknown rope types, keys the rope
// type does not take, wrong value types, non-integral sizes, a value given twice (top level
// and rope parameters) with different values, and every range error of the resulting
// frequencies (inverse_frequencies' checks, reported under the key the value came from).
rope_config rope_from_config(const hf_config& config, const config_options& options = {});

}  // namespace posenc
