// config_layers.cpp — the decoder's layer map of a config.json (posenc/config.hpp
// model_from_config, layer_rope_from_config, rope_from_config): which layers use RoPE, their
// attention type, and the rotaries they share, from `layer_types` or the family's layer rule
// (config_families.hpp), as the families' configuration_*.py derive them.
#include "config_reader.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>

namespace posenc {
namespace detail {
namespace {

// Decoder layers posenc lists at most (published models have under 200).
constexpr int kMaxLayers = 1 << 16;

// The attention of a layer_types entry, or nullopt for one posenc does not describe.
std::optional<attention_kind> attention_of(std::string_view t) {
  if (t == "full_attention") return attention_kind::full;
  if (t == "sliding_attention") return attention_kind::sliding;
  if (t == "chunked_attention") return attention_kind::chunked;
  if (t == "deepseek_sparse_attention") return attention_kind::sparse;
  if (t == "compressed_sparse_attention") return attention_kind::compressed_sparse;
  if (t == "heavily_compressed_attention") return attention_kind::heavily_compressed;
  if (t == "linear_attention") return attention_kind::linear;
  if (t == "conv") return attention_kind::conv;
  if (t == "cross_attention") return attention_kind::cross;
  if (t == "moe" || t == "mlp") return attention_kind::none;  // hybrid blocks (legacy_types)
  return std::nullopt;
}

// A listed layer type as the family's config class keeps it: remap_legacy_layer_types
// (mamba → linear_attention, attention → full_attention); MoE / MLP blocks only where the
// class accepts them (NemotronHConfig, the families with a block pattern). nullopt: a type posenc does not describe.
std::optional<std::string> canonical_type(const family& f, const std::string& t) {
  if (f.layers.legacy_types) {
    if (t == "mamba") return "linear_attention";
    if (t == "attention") return "full_attention";
  }
  if (f.layers.hybrid_full && t == "hybrid") return "full_attention";  // Zamba2's shared block
  const attention_kind kind = attention_of(t).value_or(attention_kind::none);
  const bool compressed = kind >= attention_kind::compressed_sparse;
  if (f.compress.rates_key.empty() ? compressed : !compressed && kind != attention_kind::sliding)
    return std::nullopt;  // DeepseekV4Config.validate_layer_type: its three types only
  if (!f.type_names[0].name.empty()) {  // ZayaModel's masks know its two names only
    for (const type_alias& a : f.type_names)
      if (t == a.name) return std::string(a.as);
    return std::nullopt;
  }
  if ((t == "moe" || t == "mlp") && f.layers.block_pattern.empty()) return std::nullopt;
  if (!attention_of(t)) return std::nullopt;
  return t;
}

// Why no layer of this config uses RoPE (Nemotron-H; GraniteMoeHybrid without
// position_embedding_type "rope"), or "" when its layers may.
std::string no_rope_reason(const text_context& c) {
  const layer_rule& rule = c.f.layers;
  if (rule.rope == rope_where::nowhere)
    return std::string(c.f.name) + " has no positional encoding (" + std::string(c.f.source) + ")";
  if (!rule.rope_flag.empty()) {  // Zamba2Model: rotary_emb only if use_mem_rope
    const std::string key = c.p + std::string(rule.rope_flag);
    if (c.r.flag(key).value_or(false)) return "";
    return key + " is not true: " + std::string(c.f.name) + " then applies no rotary (" +
           std::string(c.f.source) + ")";
  }
  if (rule.null_theta_nope) {  // OlmoHybridModel: rotary_emb only if rope_theta is not None
    const std::string scaling = c.p + "rope_scaling";
    const bool v4 = c.r.is_object(scaling) && !c.r.children(scaling).empty();
    const std::string own = (v4 ? scaling : c.p + "rope_parameters") + ".rope_theta";
    const std::string top = c.p + "rope_theta";
    if (c.r.is_null(own) || (!c.r.has(own) && c.r.is_null(top)))
      return (c.r.is_null(own) ? own : top) + " is null: " + std::string(c.f.name) +
             " then builds no rotary, as its released checkpoints do (" + std::string(c.f.source) + ")";
    return "";
  }
  if (rule.rope_switch.empty()) return "";
  const std::string key = c.p + std::string(rule.rope_switch);
  const std::string want(rule.rope_switch_value);
  if (c.r.text(key).value_or("") == want) return "";
  return key + " is not '" + want + "': " + std::string(c.f.name) + " then builds no rotary (" +
         std::string(c.f.source) + ")";
}

struct layer_plan {
  std::string type;  // full_attention | sliding_attention | chunked_attention
  bool rope = true;
  std::optional<layer_theta> theta;  // GraniteSWA: the layer's own θ
};

// NemotronHConfig._pattern_to_list: one character per layer.
std::optional<std::vector<std::string>> pattern_types(const text_context& c) {
  if (c.f.layers.block_pattern.empty()) return std::nullopt;
  const std::string key = c.p + std::string(c.f.layers.block_pattern);
  const std::optional<std::string> pattern = c.r.text(key);
  if (!pattern) return std::nullopt;
  if (pattern->empty() || pattern->size() > static_cast<std::size_t>(kMaxLayers))
    fail_argument(key, " must hold one character per layer (1 to ", kMaxLayers, ")");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < pattern->size(); ++i) {
    const char ch = (*pattern)[i];
    if (ch == 'M') out.emplace_back("linear_attention");
    else if (ch == 'E') out.emplace_back("moe");
    else if (ch == '*') out.emplace_back("full_attention");
    else if (ch == '-') out.emplace_back("mlp");
    else fail_argument(key, "[", i, "] = ", quoted(std::string(1, ch)), " is not a block "
                       "(M = Mamba, E = MoE, * = attention, - = MLP)");
  }
  return out;
}

int layer_count(const text_context& c) {
  const std::string key = c.p + std::string(c.f.layers.count_key);
  const auto n = c.r.integer(key, 1);
  if (!n) fail_argument(key, " is required to list the decoder layers");
  if (*n > kMaxLayers) fail_argument(key, " must be at most ", kMaxLayers, ", got ", *n);
  return *n;
}

// The 0/1 list of layers that use RoPE (Llama4TextConfig / SmolLM3Config no_rope_layers:
// despite the name, 1 = RoPE), or its default (i + 1) % no_rope_layer_interval != 0.
std::vector<bool> rope_flags(const text_context& c, int n) {
  std::vector<bool> out(static_cast<std::size_t>(n), true);
  const layer_rule& rule = c.f.layers;
  if (rule.rope_flags.empty()) return out;
  const std::string key = c.p + std::string(rule.rope_flags);
  const auto flags = c.r.numbers(key);
  if (!flags || (flags->empty() && rule.empty_flags_default)) {
    const std::string interval_key = c.p + "no_rope_layer_interval";
    const int interval = c.r.integer(interval_key, 1).value_or(rule.rope_interval);
    for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = (i + 1) % interval != 0;
    return out;
  }
  if (flags->size() < static_cast<std::size_t>(n))
    fail_argument(key, " must hold one 0/1 per layer (", n, "), got ", flags->size());
  for (int i = 0; i < n; ++i) {
    const double v = (*flags)[static_cast<std::size_t>(i)];
    if (v != 0.0 && v != 1.0) fail_argument(key, "[", i, "] must be 0 or 1, got ", v);
    out[static_cast<std::size_t>(i)] = v == 1.0;
  }
  return out;
}

// Cohere2MoeConfig: first_k_dense_replace (0 without), the dense prefix layers.
std::size_t dense_prefix_of(const text_context& c) {
  if (!c.f.layers.dense_prefix) return 0;
  return static_cast<std::size_t>(c.r.integer(c.p + "first_k_dense_replace", 0).value_or(0));
}

// Cohere2MoeConfig: prefix_dense_sliding_window_pattern (default 1).
int prefix_period_of(const text_context& c) {
  if (!c.f.layers.dense_prefix) return 1;
  return c.r.integer(c.p + "prefix_dense_sliding_window_pattern", 1).value_or(1);
}

// Cohere2MoeAttention.force_rope: a dense layer (mlp_layer_types, else i < first_k_dense_replace)
// uses RoPE when prefix_dense_sliding_window_pattern == 1.
std::vector<bool> forced_rope(const text_context& c, std::size_t n) {
  std::vector<bool> out(n, false);
  if (!c.f.layers.dense_prefix || prefix_period_of(c) != 1) return out;
  const std::string key = c.p + "mlp_layer_types";
  if (const auto listed = c.r.texts(key)) {
    if (listed->size() != n)
      fail_argument(key, " must hold one entry per layer (", n, "), got ", listed->size());
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& t = (*listed)[i];
      if (t != "dense" && t != "sparse")
        fail_argument(key, "[", i, "] must be 'dense' or 'sparse', got ", quoted(t));
      out[i] = t == "dense";
    }
  } else if (c.r.has(key)) {
    fail_argument(key, " must be a list of strings");
  } else {
    for (std::size_t i = 0; i < std::min(dense_prefix_of(c), n); ++i) out[i] = true;
  }
  return out;
}

// layer_types as the config class derives it when the config has no list.
std::vector<std::string> derived_types(const text_context& c, const std::vector<bool>& rope) {
  const reader& r = c.r;
  const layer_rule& rule = c.f.layers;
  const std::size_t n = rope.size();
  std::vector<std::string> out(n, rule.default_type.empty() ? "full_attention" : std::string(rule.default_type));
  if (!rule.attention_indices.empty()) {  // BambaConfig.layers_block_type
    const std::string key = c.p + std::string(rule.attention_indices);
    out.assign(n, "linear_attention");
    for (double v : r.numbers(key).value_or(std::vector<double>{})) {
      if (!(v >= 0 && v < static_cast<double>(n) && v == std::floor(v)))
        fail_argument(key, " must hold layer indices in [0, ", n - 1, "], got ", v);
      out[static_cast<std::size_t>(v)] = "full_attention";
    }
  }
  if (!rule.block_key.empty()) {  // RecurrentGemmaConfig.layers_block_type: (block_types * 100)[:n]
    const std::string key = c.p + std::string(rule.block_key);
    std::vector<std::string> blocks;
    if (const auto listed = r.texts(key)) blocks = *listed;
    else if (r.has(key)) fail_argument(key, " must be a list of strings");
    else for (std::string_view b : rule.block_default) blocks.emplace_back(b);
    const std::string unread = c.p + std::string(rule.unread_blocks);
    if (const auto other = rule.unread_blocks.empty() ? std::nullopt : r.texts(unread); other && *other != blocks)
      fail_argument(unread, " is not read by transformers (", c.f.source, " takes ", key,
                    r.has(key) ? "" : ", absent: recurrent, recurrent, attention", "): give ", key,
                    " to use its blocks, or remove ", unread);
    if (blocks.empty() || n > 100 * blocks.size())
      fail_argument(key, " must hold 1 to n blocks, repeated at most 100 times over the ", n, " layers");
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& b = blocks[i % blocks.size()];
      if (b != "recurrent" && b != "attention")
        fail_argument(key, "[", i % blocks.size(), "] = ", quoted(b), " must be 'recurrent' or 'attention'");
      out[i] = b == "attention" ? "sliding_attention" : "linear_attention";
    }
  }
  if (rule.full_every > 0) {  // OlmoHybridConfig: full when i % 4 == 3, else the last layer
    const auto k = static_cast<std::size_t>(rule.full_every);
    for (std::size_t i = 0; i < n; ++i) out[i] = i % k == k - 1 ? "full_attention" : "linear_attention";
    if (n < k) out.back() = "full_attention";
  }
  if (!rule.type_flags.empty())  // MiniMaxM3VLTextConfig: sparse_attention_freq → layer_types
    if (const auto flags = r.numbers(c.p + std::string(rule.type_flags))) {
      const std::string key = c.p + std::string(rule.type_flags);
      if (flags->size() != n)
        fail_argument(key, " must hold one entry per layer (", n, "), got ", flags->size());
      for (std::size_t i = 0; i < n; ++i) {
        const double v = (*flags)[i];
        if (v != 0.0 && v != 1.0) fail_argument(key, "[", i, "] must be 0 or 1, got ", v);
        out[i] = v != 0.0 ? std::string(c.f.type_names[1].as) : "full_attention";
      }
    }
  if (rule.linear_every > 0)  // MiniMaxConfig: "full_attention" if bool((i + 1) % 2)
    for (std::size_t i = 0; i < n; ++i)
      if ((i + 1) % static_cast<std::size_t>(rule.linear_every) == 0) out[i] = "linear_attention";
  const std::string window_key = c.p + "sliding_window";
  switch (rule.sliding) {
    case sliding_rule::none: break;
    case sliding_rule::everywhere:  // MistralAttention: sliding_window on every layer
      if (r.has(window_key) || (!r.is_null(window_key) && rule.window_fallback))
        out.assign(n, "sliding_attention");
      break;
    case sliding_rule::qwen: {  // Qwen2Config: use_sliding_window, layers ≥ max_window_layers
      if (!r.flag(c.p + "use_sliding_window").value_or(false) || r.is_null(window_key)) break;
      const std::string key = c.p + "max_window_layers";
      const auto from = r.integer(key, 0);
      if (!from) fail_argument(key, " is required with use_sliding_window");
      for (std::size_t i = static_cast<std::size_t>(*from); i < n; ++i) out[i] = "sliding_attention";
      break;
    }
    case sliding_rule::period: {  // (i + 1) % pattern ? sliding : full
      int period = rule.period;
      if (!rule.period_key.empty())
        period = r.integer(c.p + std::string(rule.period_key), 1).value_or(rule.period);
      const std::size_t shift = rule.period_from_first ? 0 : 1;  // GraniteSWA: i % period == 0
      const std::size_t k = std::min(dense_prefix_of(c), n);  // Cohere2-MoE: its own pattern
      const auto prefix = static_cast<std::size_t>(prefix_period_of(c));
      for (std::size_t i = 0; i < k; ++i)
        if ((i + 1) % prefix != 0) out[i] = "sliding_attention";
      for (std::size_t i = k; i < n; ++i)
        if ((i - k + shift) % static_cast<std::size_t>(period) != 0) out[i] = "sliding_attention";
      if (rule.period_from_last)  // MuseGlimmerTextConfig: full when (n - 1 - i) % 4 == 0
        for (std::size_t i = 0; i < n; ++i)
          out[i] = (n - 1 - i) % static_cast<std::size_t>(period) ? "sliding_attention" : "full_attention";
      if (rule.first_full && n > 0) out[0] = "full_attention";  // MiMoV2FlashConfig: i == 0
      break;
    }
    case sliding_rule::always:  // OpenAIPrivacyFilterModel: one sliding mask for every layer
      out.assign(n, "sliding_attention");
      break;
    case sliding_rule::nope:  // SmolLM3Config: sliding on no-RoPE layers
      if (!r.flag(c.p + "use_sliding_window").value_or(false) || !r.has(window_key)) break;
      for (std::size_t i = 0; i < n; ++i)
        if (!rope[i]) out[i] = "sliding_attention";
      break;
  }
  if (rule.rope_layers_chunked)  // Llama4TextConfig: "chunked_attention" if use_rope
    for (std::size_t i = 0; i < n; ++i) out[i] = rope[i] ? "chunked_attention" : "full_attention";
  return out;
}

// Gemma4TextConfig.__post_init__: use_bidirectional_attention 'all' sets is_causal False, so
// create_causal_mask / create_sliding_window_causal_mask build bidirectional masks on every
// layer; 'vision' (or none) leaves text causal.
bool bidirectional_all(const text_context& c) {
  if (c.f.layers.bidirectional_key.empty()) return false;
  const std::string key = c.p + std::string(c.f.layers.bidirectional_key);
  const std::optional<std::string> v = c.r.text(key);
  if (v && *v != "all" && *v != "vision")
    fail_argument(key, " must be 'all', 'vision' or null, got ", quoted(*v));
  return v == "all";
}

std::vector<layer_plan> plan_layers(const text_context& c) {
  std::string list_key = c.p + "layer_types";  // NemotronHConfig: also layers_block_type
  if (!c.f.layers.list_alias.empty() && !c.r.has(list_key) &&
      c.r.has(c.p + std::string(c.f.layers.list_alias)))
    list_key = c.p + std::string(c.f.layers.list_alias);
  std::vector<std::string> types;
  if (!c.f.layers.unread_list.empty() && c.r.has(c.p + std::string(c.f.layers.unread_list)) &&
      !c.r.has(list_key))
    fail_argument(c.p, c.f.layers.unread_list, " is not read by transformers (", c.f.source,
                  " takes layer_types, else its own default pattern): give layer_types");
  const auto listed = c.r.texts(list_key);
  const auto pattern = listed ? std::nullopt : pattern_types(c);
  // NemotronHConfig: the layer list decides the layer count (num_hidden_layers is ignored).
  const int n = pattern ? static_cast<int>(pattern->size())
                : c.f.layers.block_pattern.empty() ? layer_count(c)
                : listed ? static_cast<int>(listed->size()) : layer_count(c);
  std::vector<bool> rope = rope_flags(c, n);
  if (listed) {
    if (listed->size() != static_cast<std::size_t>(n))
      fail_argument(list_key, " must hold one entry per layer (", n, "), got ", listed->size());
    for (std::size_t i = 0; i < listed->size(); ++i) {
      const auto t = canonical_type(c.f, (*listed)[i]);
      if (!t && !c.f.type_names[0].name.empty())
        fail_argument(list_key, "[", i, "] = ", quoted((*listed)[i]), " is not a layer type of ",
                      c.f.name, " (", c.f.type_names[0].name, ", ", c.f.type_names[1].name, ": ",
                      c.f.source, ")");
      if (!t)
        fail_argument(list_key, "[", i, "] = ", quoted((*listed)[i]), " is not a layer type "
                      "posenc describes for ", c.f.name, " (full_attention, sliding_attention, "
                      "chunked_attention, deepseek_sparse_attention, linear_attention, conv",
                      c.f.compress.rates_key.empty() ? "" : ", compressed_sparse_attention, "
                      "heavily_compressed_attention",
                      c.f.layers.legacy_types ? ", mamba, attention" : "",
                      c.f.layers.hybrid_full ? ", hybrid" : "",
                      c.f.layers.block_pattern.empty() ? ")" : ", moe, mlp)");
      types.push_back(*t);
    }
  } else if (pattern) {
    types = *pattern;
  } else if (c.r.has(list_key)) {
    fail_argument(list_key, " must be a list of strings");
  } else if (c.f.layers.needs_layer_types) {
    fail_argument(list_key, c.f.layers.block_pattern.empty() ? "" : " (or ",
                  c.f.layers.block_pattern, c.f.layers.block_pattern.empty() ? "" : ")",
                  " is required to list ", c.f.name, "'s layers (", c.f.source,
                  " derives them by a rule posenc does not follow)");
  } else {
    types = derived_types(c, rope);
  }
  if (c.f.layers.last_full) types.back() = "full_attention";  // Gemma4TextConfig forces it
  if (c.f.layers.full_every > 0) {  // OlmoHybridConfig.validate_architecture
    const auto count = [&](const char* t) { return std::count(types.begin(), types.end(), t); };
    if (count("linear_attention") == 0 || count("full_attention") == 0)
      fail_argument(list_key, " must hold at least one linear_attention and one full_attention "
                    "layer (", c.f.source, " rejects it otherwise)");
  }
  if (!c.f.layers.cross_layers.empty()) {  // MllamaTextConfig: cross_attention_layers
    const std::string key = c.p + std::string(c.f.layers.cross_layers);
    for (double v : c.r.numbers(key).value_or(std::vector<double>{})) {
      if (!(v >= 0 && v < n && v == std::floor(v)))
        fail_argument(key, " must hold layer indices in [0, ", n - 1, "], got ", v);
      types[static_cast<std::size_t>(v)] = "cross_attention";
    }
  }
  // Cohere2 / EXAONE 4: RoPE on the sliding-window layers only (EXAONE: if a window is set).
  const rope_where where = c.f.layers.rope;
  const bool sliding_only = where == rope_where::sliding ||
                            (where == rope_where::sliding_if_window && c.r.has(c.p + "sliding_window"));
  const bool no_rope = !no_rope_reason(c).empty();
  const std::vector<bool> forced = forced_rope(c, types.size());
  std::vector<layer_plan> out(types.size());
  const std::string theta_key = c.p + std::string(c.f.layers.theta_list);
  std::optional<std::vector<double>> thetas;
  if (!c.f.layers.theta_list.empty()) {
    if (c.r.has(theta_key) && c.r.find(theta_key)->type != config_value::kind::numbers)
      fail_argument(theta_key, " must be a list of numbers (one θ per layer, 0 = no RoPE)");
    thetas = c.r.numbers(theta_key);
    if (thetas && thetas->size() != out.size())
      fail_argument(theta_key, " must hold one θ per layer (", out.size(), "), got ", thetas->size());
  }
  const std::size_t nope_every = static_cast<std::size_t>(c.f.layers.nope_from_last);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const attention_kind a = *attention_of(types[i]);
    out[i].type = types[i];
    out[i].rope = !no_rope && rope[i] && is_self_attention(a) && a != attention_kind::windowed &&
                  (!sliding_only || a == attention_kind::sliding || forced[i]);
    if (!thetas && nope_every && (out.size() - 1 - i) % nope_every == 0)
      out[i].rope = false;  // MuseGlimmerTextConfig's default layer_rope_theta: 0 there
    if (c.f.layers.null_type_nope && c.r.is_null(c.p + "rope_parameters." + types[i]))
      out[i].rope = false;  // CohereCompassTextModel: no rotary where the type's dict is None
    if (!thetas) continue;
    const double t = (*thetas)[i];
    if (t == 0.0) out[i].rope = false;  // "theta == 0 => NoPE"
    else out[i].theta = layer_theta{t, theta_key + "[" + std::to_string(i) + "]"};
  }
  return out;
}

int window_of(const text_context& c) {
  if (!c.f.layers.window_half_key.empty()) {  // ModernBertDecoderConfig: local_attention // 2
    const std::string key = c.p + std::string(c.f.layers.window_half_key);
    if (c.r.is_null(key))
      fail_argument(key, " is null: ", c.f.source, " then gives the sliding layers no window "
                    "(sliding_window -1, or an error), which posenc's layer map does not describe");
    const int w = c.r.integer(key, 2).value_or(c.f.layers.window_fallback) / 2;
    return w;
  }
  const std::string key = c.p + std::string(c.f.layers.window_key.empty() ? "sliding_window"
                                                                         : c.f.layers.window_key);
  if (const auto w = c.r.integer(key, 1)) return *w;
  if (c.r.is_null(key) || !c.f.layers.window_fallback)
    fail_argument(key, " is required: the config has sliding-window layers");
  return c.f.layers.window_fallback;
}

int chunk_of(const text_context& c) {
  const std::string key = c.p + "attention_chunk_size";
  c.r.refuse_null(key, "the chunk of the chunked-attention layers");
  if (const auto v = c.r.integer(key, 1)) return *v;
  if (!c.f.layers.chunk_fallback) fail_argument(key, " is required: the config has chunked layers");
  return c.f.layers.chunk_fallback;
}

// Ministral 3 (get_llama_4_attn_scale): every layer, β = llama_4_scaling_beta and the
// floor original_max_position_embeddings of the rope parameters.
std::optional<query_scale> ministral_scale(const text_context& c) {
  const std::string dict = c.r.is_object(c.p + "rope_parameters") ? c.p + "rope_parameters"
                                                                   : c.p + "rope_scaling";
  const std::string beta_key = dict + ".llama_4_scaling_beta";
  const std::string floor_key = dict + ".original_max_position_embeddings";
  c.r.refuse_null(beta_key, "the query scale's beta");
  const auto beta = c.r.number(beta_key);
  if (!beta) return std::nullopt;  // rope_parameters.get("llama_4_scaling_beta") is None
  const auto floor = c.r.integer(floor_key, 1);
  if (!floor) fail_argument(floor_key, " is required with ", beta_key);
  return query_scale{static_cast<double>(*floor), *beta, 0.0};
}

// Mistral 4 (Mistral4Attention): get_llama_4_attn_scale on every layer, unconditionally, with
// the rope parameters' llama_4_scaling_beta and original_max_position_embeddings as
// standardize_rope_params leaves them (yarn / llama3 / longrope: a top-level value wins, else
// max_position_embeddings fills it).
query_scale mistral4_scale(const text_context& c) {
  const std::string dict = c.r.is_object(c.p + "rope_parameters") ? c.p + "rope_parameters"
                                                                   : c.p + "rope_scaling";
  const std::string beta_key = dict + ".llama_4_scaling_beta";
  c.r.refuse_null(beta_key, "the query scale's beta");
  const auto beta = c.r.number(beta_key);
  if (!beta)
    fail_argument(beta_key, " is required: ", c.f.source, " scales every query by 1 + beta · "
                  "log(1 + floor(p / original_max_position_embeddings)) and has no default");
  const std::string type = c.r.text(dict + ".rope_type").value_or(c.r.text(dict + ".type").value_or("default"));
  const bool standardized = type == "yarn" || type == "llama3" || type == "longrope";
  std::string floor_key = dict + ".original_max_position_embeddings";
  std::optional<int> floor;
  if (standardized && c.r.has(c.p + "original_max_position_embeddings")) {
    floor_key = c.p + "original_max_position_embeddings";
  }
  c.r.refuse_null(floor_key, "the query scale's floor");
  floor = c.r.integer(floor_key, 1);
  if (!floor && standardized) {
    floor_key = c.p + std::string(c.f.max_key);
    floor = c.r.integer(floor_key, 1);
    if (!floor) floor = c.f.max_fallback;
  }
  if (!floor) fail_argument(floor_key, " is required: the query scale's floor");
  return query_scale{static_cast<double>(*floor), *beta, 0.0};
}

// Llama 4: attn_temperature_tuning (default true) on the no-RoPE layers.
std::optional<query_scale> query_scale_of(const text_context& c) {
  if (c.f.layers.query == query_rule::ministral3) return ministral_scale(c);
  if (c.f.layers.query == query_rule::mistral4) return mistral4_scale(c);
  if (c.f.layers.query != query_rule::llama4) return std::nullopt;
  const std::string key = c.p + "attn_temperature_tuning";
  bool on = true;
  if (const config_value* v = c.r.find(key)) {
    if (v->type == config_value::kind::boolean) on = v->boolean;
    else if (v->type == config_value::kind::number) on = v->number != 0.0;  // Python truthiness
    else fail_argument(key, " must be a boolean or a number, got ", kind_name(v->type));
  }
  if (!on) return std::nullopt;
  query_scale q{};
  for (const char* k : {"floor_scale", "attn_scale"}) c.r.refuse_null(c.p + k, "the query scale");
  q.floor_scale = c.r.number(c.p + "floor_scale").value_or(q.floor_scale);
  q.attn_scale = c.r.number(c.p + "attn_scale").value_or(q.attn_scale);
  if (!(q.floor_scale > 0.0)) fail_argument(c.p + "floor_scale must be > 0, got ", q.floor_scale);
  return q;
}

// Two rotaries are the same encoding when every number that defines them is.
bool same_rope(const rope_config& a, const rope_config& b) {
  const scaling& s = a.scaling;
  const scaling& t = b.scaling;
  auto bits = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return a.head_dim == b.head_dim && a.rotary_dim == b.rotary_dim && bits(a.base, b.base) &&
         a.layout == b.layout && a.turn == b.turn && a.angles == b.angles && a.axes.kind == b.axes.kind &&
         a.axes.section == b.axes.section && s.type == t.type && s.factor == t.factor &&
         s.original_max_position_embeddings == t.original_max_position_embeddings &&
         s.max_position_embeddings == t.max_position_embeddings && s.seq_len == t.seq_len &&
         s.attention_factor == t.attention_factor && bits(s.beta_fast, t.beta_fast) &&
         bits(s.beta_slow, t.beta_slow) && s.mscale == t.mscale &&
         s.mscale_all_dim == t.mscale_all_dim && s.truncate == t.truncate &&
         bits(s.low_freq_factor, t.low_freq_factor) &&
         bits(s.high_freq_factor, t.high_freq_factor) && s.short_factor == t.short_factor &&
         s.long_factor == t.long_factor && s.partial_rotary_factor == t.partial_rotary_factor &&
         s.alpha == t.alpha;
}

// A family's own name for a layer type posenc reads as full / sliding (Zaya's "hybrid",
// "hybrid_sliding"), or nullptr.
const type_alias* layer_type_alias(std::string_view t) {
  for (const family& f : families())
    for (const type_alias& a : f.type_names)
      if (!a.name.empty() && a.name == t && a.name != a.as &&
          (a.as == "full_attention" || a.as == "sliding_attention"))
        return &a;
  return nullptr;
}

// options.layer_type as this family reads it: its own name (Zaya's "hybrid") is posenc's type.
std::string layer_type_of(const text_context& c, const std::string& t) {
  const bool compressed = attention_of(t).value_or(attention_kind::none) >= attention_kind::compressed_sparse;
  if (compressed && c.f.compress.rates_key.empty())
    fail_argument("layer_type ", quoted(t), " is not a layer type of ", c.f.name,
                  " (full_attention, sliding_attention or chunked_attention)");
  if (!layer_type_alias(t)) return t;
  for (const type_alias& a : c.f.type_names)
    if (a.name == t) return std::string(a.as);
  fail_argument("layer_type ", quoted(t), " is not a layer type of ", c.f.name,
                " (full_attention, sliding_attention or chunked_attention)");
}

void check_options(const config_options& options) {
  const std::string& t = options.layer_type;
  if (t != "full_attention" && t != "sliding_attention" && t != "chunked_attention" &&
      t != "compressed_sparse_attention" && t != "heavily_compressed_attention" &&
      !layer_type_alias(t))
    fail_argument("layer_type must be 'full_attention', 'sliding_attention' or "
                  "'chunked_attention' (Zaya: 'hybrid', 'hybrid_sliding'; DeepSeek-V4: "
                  "'compressed_sparse_attention', 'heavily_compressed_attention'), got ", quoted(t));
  if (options.seq_len) check_range("seq_len", *options.seq_len, 1, INT_MAX);
  if (options.tower != "text" && options.tower != "vision")
    fail_argument("tower must be 'text' or 'vision', got ", quoted(options.tower));
  if (options.part != "attention" && options.part != "indexer")
    fail_argument("part must be 'attention' or 'indexer', got ", quoted(options.part));
  if (options.part == "indexer" && options.tower == "vision")
    fail_argument("part 'indexer' is a text-model part; tower must be 'text'");
  if (!options.stack.empty() && options.stack != "encoder" && options.stack != "decoder")
    fail_argument("stack must be 'encoder' or 'decoder', got ", quoted(options.stack));
  if (!options.stack.empty() && options.tower == "vision")
    fail_argument("stack names a text model's stack; tower must be 'text' (a vision tower has one)");
}

// An encoder layer's window as HF's bidirectional mask applies sliding_window w: keys at or
// before the query (0 ≤ i − j < window) and after it (0 < j − i ≤ lookahead).
// A cross-attention without RoPE beside layer i's self-attention (layer_rule::adapter_key):
// EvollaDecoderLayer's sequence aligner when (i + 1) % max(n // aligner_num_add_layers, 1) == 0,
// IdeficsModel's gated cross-attention block when i % cross_layer_interval == 0.
bool adapter_at(const text_context& c, int i, int n) {
  const layer_rule& rule = c.f.layers;
  if (rule.adapter_key.empty()) return false;
  const std::string key = c.p + std::string(rule.adapter_key);
  if (c.r.is_null(key)) fail_argument(key, " is null: ", c.f.source, " divides by it");
  const int k = c.r.integer(key, 1).value_or(rule.adapter_fallback);
  const int step = rule.adapter_count ? std::max(n / k, 1) : k;
  return (i + rule.adapter_offset) % step == 0;
}

std::pair<int, int> encoder_window_of(const text_context& c, int w) {
  if (c.f.stacks.window == encoder_window::split)  // sliding_window_mask_function(is_causal=False)
    return {(w + 1) / 2, w / 2};
  if (w == INT_MAX) fail_argument(c.p, "sliding_window must be below ", INT_MAX, ", got ", w);
  return {w + 1, w};  // create_bidirectional_sliding_window_mask: |i − j| ≤ w
}

// Mistral4Config / HiggsAudioV2Config.__post_init__: `if self.rope_parameters is None:
// self.rope_parameters = {…}`.
hf_config with_class_rope(const hf_config& config, const class_rope& d, const std::string& key) {
  hf_config out = config;
  out[key] = config_value::object();
  out[key + ".rope_type"] = config_value::of_text(std::string(d.rope_type));
  const std::pair<const char*, double> values[] = {
      {"rope_theta", d.theta}, {"factor", d.factor}, {"original_max_position_embeddings", d.original},
      {"beta_fast", d.beta_fast}, {"beta_slow", d.beta_slow}, {"mscale", d.mscale},
      {"mscale_all_dim", d.mscale_all_dim}, {"llama_4_scaling_beta", d.query_beta},
      {"low_freq_factor", d.low_freq}, {"high_freq_factor", d.high_freq}};
  for (const auto& [name, v] : values)
    if (v != 0.0) out[key + "." + name] = config_value::of(v);
  if (!d.truncate) out[key + ".truncate"] = config_value::of_bool(false);
  return out;
}

// ModernBertDecoderConfig.convert_rope_params_to_dict: the per-type dicts (given, else
// {"rope_type": "default"}), each updated with a v4 rope_scaling, then θ set by default from
// global_rope_theta / local_rope_theta (else default_theta).
hf_config with_keyed_ropes(const hf_config& config, const text_context& c, const std::string& key) {
  const reader& r = c.r;
  const std::string scaling = c.p + "rope_scaling";
  if (r.has(scaling) && !r.is_object(scaling)) fail_argument(scaling, " must be an object or null");
  if (r.has(key) && !r.is_object(key)) fail_argument(key, " must be an object or null");
  hf_config out = config;
  if (!r.is_object(key)) out[key] = config_value::object();
  const std::string lead = scaling + ".";
  for (const type_default& d : c.f.rope_defaults) {
    const std::string dict = key + "." + std::string(d.layer_type);
    if (r.has(dict) && !r.is_object(dict)) fail_argument(dict, " must be an object or null");
    if (!r.is_object(dict)) {
      if (r.is_object(key) && r.is_object(scaling))
        fail_argument(dict, " is missing: transformers updates it with ", scaling, " (", c.f.source,
                      " raises a KeyError)");
      out[dict] = config_value::object();
      out[dict + ".rope_type"] = config_value::of_text(std::string(d.rope_type));
    }
    for (auto it = config.lower_bound(lead); it != config.end() && it->first.starts_with(lead); ++it)
      out[dict + "." + it->first.substr(lead.size())] = it->second;  // dict.update(rope_scaling)
    const std::string theta_key = c.p + std::string(d.theta_key), own = dict + ".rope_theta";
    r.refuse_null(theta_key, "the θ of the " + std::string(d.layer_type) + " layers");
    const std::optional<double> given = r.number(theta_key);
    const config_value* has = out.contains(own) ? &out.at(own) : nullptr;
    if (!has) out[own] = config_value::of(given.value_or(d.theta));  // setdefault
    else if (given && (has->type != config_value::kind::number || has->number != *given))
      fail_argument(theta_key, " = ", *given, " is not read by ", c.f.name, ": ", own, " is set, and "
                    "transformers keeps it (", c.f.source, "): remove one of them");
  }
  for (auto it = out.lower_bound(scaling); it != out.end() && it->first.starts_with(scaling);)
    it = (it->first == scaling || it->first.starts_with(lead)) ? out.erase(it) : std::next(it);
  return out;
}

// The config as a class with per-layer-type defaults completes it (Gemma4TextConfig,
// LagunaConfig, …: `if self.rope_parameters is None: self.rope_parameters = default_rope_params`);
// nullopt when nothing is added.
std::optional<hf_config> with_class_ropes(const hf_config& config, const config_options& options) {
  if (options.tower == "vision") return std::nullopt;
  const reader r(config);
  const text_context c = text_context_of(r, options);
  const std::string key = c.p + "rope_parameters";
  if (c.f.layers.rope_lists) return with_rope_lists(config, c);
  if (!c.f.compress.rates_key.empty()) return with_compressed(config, c);
  if (!c.f.rope_dict.rope_type.empty() && !r.has(key) && !r.has(c.p + "rope_scaling"))
    return with_class_rope(config, c.f.rope_dict, key);
  if (!c.f.rope_defaults[0].theta_key.empty()) return with_keyed_ropes(config, c, key);
  if (c.f.rope_defaults[0].layer_type.empty() || r.has(key)) return std::nullopt;
  hf_config out = config;
  out[key] = config_value::object();
  for (const type_default& d : c.f.rope_defaults) {
    if (d.layer_type.empty()) continue;
    const std::string dict = key + "." + std::string(d.layer_type);
    out[dict] = config_value::object();
    out[dict + ".rope_type"] = config_value::of_text(std::string(d.rope_type));
    out[dict + ".rope_theta"] = config_value::of(d.theta);
    if (d.partial > 0.0) out[dict + ".partial_rotary_factor"] = config_value::of(d.partial);
  }
  return out;
}

// DiffusionGemmaDecoderModel's sliding layers: each canvas query sees the last
// sliding_window - 1 cached prompt keys (DynamicSlidingWindowLayer) and the whole canvas,
// bounds set by the block, not the query (flash attention further cuts |i - j| < sliding_window).
std::string canvas_refusal(const text_context& c, std::size_t layer) {
  return c.p + "layer_types[" + std::to_string(layer) + "] is sliding_attention on " +
         std::string(c.f.name) + "'s decoder stack, whose sliding layers attend the last " +
         "sliding_window - 1 cached prompt keys and the whole canvas (" + std::string(c.f.source) +
         "): a bound per canvas block, not per query, which posenc's layer records do not describe. "
         "Pass stack 'encoder' for the prompt encoder's layers, or read a decoder layer's rotary "
         "with rope_from_config({ stack: 'decoder', layer }) (the same as the encoder's, at the "
         "canvas positions after the prompt)";
}

// DeepSeek-V4's layer record: every layer's sliding branch (sliding_window), the compressed
// layers' rate, the rotary on the trailing slice of the head (and of the indexer's), the output
// de-rotated (DeepseekV4Attention.forward: apply_rotary_pos_emb(attn_output, cos, -sin)).
void place_compressed(const text_context& c, const std::string& type, layer_info& info) {
  const compress_rule& rule = c.f.compress;
  info.window = window_of(c);
  const int head = c.r.integer(c.p + "head_dim", 1).value_or(c.f.head.fallback);
  const double factor = *c.r.number(c.p + "rope_parameters." + std::string(
      type == rule.sliding_name ? rule.main_label : rule.compress_label) + ".partial_rotary_factor");
  const int rotated = static_cast<int>(head * factor);
  info.slice = rope_slice{.head = head, .offset = head - rotated};
  info.output_inverse = true;
  for (const compressed_type& t : rule.types) {
    if (type != t.name) continue;
    info.compressed = compressed_keys{
        *c.r.integer(c.p + std::string(rule.rates_key) + "." + std::string(t.name), 1)};
    if (t.indexer) {
      const int index_head = indexer_dim_of(c).first;
      info.indexer = rope_slice{.head = index_head, .offset = index_head - rotated};
    }
  }
}

const layer_plan& plan_of(const std::vector<layer_plan>& plan, int layer, const std::string& stack) {
  if (layer < 0 || static_cast<std::size_t>(layer) >= plan.size())
    fail_argument("layer must be in [0, ", plan.size() - 1, "] (the ", stack, "'s layers), got ", layer);
  return plan[static_cast<std::size_t>(layer)];
}

}  // namespace
}  // namespace detail

std::string_view to_string(attention_kind kind) noexcept {
  switch (kind) {
    case attention_kind::full: return "full";
    case attention_kind::sliding: return "sliding";
    case attention_kind::chunked: return "chunked";
    case attention_kind::sparse: return "sparse";
    case attention_kind::linear: return "linear";
    case attention_kind::conv: return "conv";
    case attention_kind::cross: return "cross";
    case attention_kind::none: return "none";
    case attention_kind::windowed: return "windowed";
    case attention_kind::compressed_sparse: return "compressed_sparse";
    case attention_kind::heavily_compressed: return "heavily_compressed";
  }
  return "full";
}

std::string_view to_string(cross_attention kind) noexcept {
  switch (kind) {
    case cross_attention::none: return "none";
    case cross_attention::separate: return "separate";
    case cross_attention::merged: return "merged";
  }
  return "none";
}

std::int64_t compressed_keys_seen(const compressed_keys& keys, std::int64_t position) {
  if (keys.rate < 1) detail::fail_argument("rate must be ≥ 1, got ", keys.rate);
  if (position < 0 || position >= max_position)
    detail::fail_argument("position must be in [0, ", max_position - 1, "], got ", position);
  return (position + 1) / keys.rate;  // (position_ids + 1) // compress_rate
}

std::int64_t compressed_key_position(const compressed_keys& keys, std::int64_t index) {
  if (keys.rate < 1) detail::fail_argument("rate must be ≥ 1, got ", keys.rate);
  if (index < 0 || index > max_position / keys.rate)
    detail::fail_argument("index must be in [0, ", max_position / keys.rate, "], got ", index);
  return index * keys.rate;  // positions * compress_rate + first_window_position
}

double query_scale_at(const query_scale& q, std::int64_t position) {
  if (position < 0 || position > max_position)
    detail::fail_argument("position must be in [0, ", max_position, "], got ", position);
  if (!(q.floor_scale > 0.0) || !std::isfinite(q.floor_scale))
    detail::fail_argument("floor_scale must be a finite number > 0, got ", q.floor_scale);
  if (!std::isfinite(q.attn_scale))
    detail::fail_argument("attn_scale must be finite, got ", q.attn_scale);
  if (q.offset != 0.0 && q.offset != 1.0)
    detail::fail_argument("offset must be 0 or 1, got ", q.offset);
  const double steps = std::floor((static_cast<double>(position) + q.offset) / q.floor_scale);
  return std::fma(std::log1p(steps), q.attn_scale, 1.0);
}

rope_config rope_from_config(const hf_config& config, const config_options& options) {
  detail::check_options(options);
  const std::optional<hf_config> completed = detail::with_class_ropes(config, options);
  const detail::reader r(completed ? *completed : config);
  if (options.tower == "vision") return detail::vision_rope(r, options);
  const detail::text_context c = detail::text_context_of(r, options);
  if (const std::string why = detail::no_rope_reason(c); !why.empty())
    detail::fail_argument(why, ": no layer uses RoPE (model_from_config lists its layers)");
  if (!options.layer) {
    const std::string key = c.p + std::string(c.f.layers.theta_list);
    if (!c.f.layers.theta_list.empty() && r.has(key) && !c.f.layers.theta_flags)
      detail::fail_argument(key, " gives each layer its own θ: pass layer (a decoder layer "
                            "index) to read one");
    if (c.f.layers.theta_flags)  // Muse Glimmer: one rotary; every entry must agree with it
      for (const detail::layer_plan& l : detail::plan_layers(c))
        if (l.theta) (void)detail::text_rope(c, l.type, options, l.theta);
    return detail::text_rope(c, detail::layer_type_of(c, options.layer_type), options);
  }
  const auto plan = detail::plan_layers(c);
  const detail::layer_plan& l = detail::plan_of(plan, *options.layer, c.stack);
  if (!l.rope)
    detail::fail_argument("layer ", *options.layer, " has no RoPE (", l.type, " in ", c.f.name,
                          "): layer_rope_from_config returns nullopt for it");
  return detail::text_rope(c, l.type, options, l.theta);
}

std::optional<rope_config> layer_rope_from_config(const hf_config& config,
                                                  const config_options& options) {
  detail::check_options(options);
  if (!options.layer) detail::fail_argument("layer is required (a decoder layer index)");
  const std::optional<hf_config> completed = detail::with_class_ropes(config, options);
  const detail::reader r(completed ? *completed : config);
  if (options.tower == "vision") {
    const int n = detail::vision_layer_count(r);
    if (*options.layer < 0 || *options.layer >= n)
      detail::fail_argument("layer must be in [0, ", n - 1, "] (the vision tower's layers), got ",
                            *options.layer);
    return detail::vision_rope(r, options);
  }
  const detail::text_context c = detail::text_context_of(r, options);
  const auto plan = detail::plan_layers(c);
  const detail::layer_plan& l = detail::plan_of(plan, *options.layer, c.stack);
  if (!l.rope) return std::nullopt;
  return detail::text_rope(c, l.type, options, l.theta);
}

model_info model_from_config(const hf_config& config, const config_options& options) {
  detail::check_options(options);
  const std::optional<hf_config> completed = detail::with_class_ropes(config, options);
  const detail::reader r(completed ? *completed : config);
  model_info out;
  if (options.tower == "vision") {
    out.model_type = r.text(detail::vision_key(r) + ".model_type").value_or(r.text("model_type").value_or(""));
    out.family = "vision";
    out.encodings.push_back(detail::vision_rope(r, options));
    out.layers = detail::vision_layers(r);
    return out;
  }
  const detail::text_context c = detail::text_context_of(r, options);
  out.model_type = c.model_type;
  out.family = std::string(c.f.name);
  const auto plan = detail::plan_layers(c);
  std::vector<std::pair<std::string, std::size_t>> by_type;  // layer type (and θ) → encoding
  const std::optional<query_scale> scale = detail::query_scale_of(c);
  const bool both_ways = detail::bidirectional_all(c);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const detail::layer_plan& l = plan[i];
    layer_info info{.index = static_cast<int>(i), .attention = *detail::attention_of(l.type)};
    const detail::stack_rule& st = c.f.stacks;
    if (st.canvas_decoder && c.stack == "decoder" && info.attention == attention_kind::sliding)
      detail::fail_argument(detail::canvas_refusal(c, i));
    info.bidirectional = (c.stack == "encoder" && !st.causal_encoder) || both_ways ||
                         (c.stack == "decoder" && st.canvas_decoder);
    if (c.stack == "decoder") info.cross = c.f.stacks.cross;
    if (detail::adapter_at(c, info.index, static_cast<int>(plan.size())))
      info.cross = cross_attention::separate;
    if (info.attention == attention_kind::sliding) {  // 'all': sliding_window = (w // 2) + 1
      const int w = both_ways ? detail::window_of(c) / 2 + 1 : detail::window_of(c);
      info.window = w;
      if (info.bidirectional) std::tie(info.window, info.lookahead) = detail::encoder_window_of(c, w);
    }
    if (info.attention == attention_kind::chunked) info.chunk = detail::chunk_of(c);
    if (!c.f.compress.rates_key.empty()) detail::place_compressed(c, l.type, info);
    if (l.rope) {
      const std::string key = l.theta ? l.type + "@" + l.theta->key : l.type;
      auto known = by_type.begin();
      while (known != by_type.end() && known->first != key) ++known;
      if (known == by_type.end()) {
        rope_config rope = detail::text_rope(c, l.type, options, l.theta);
        std::size_t at = 0;
        while (at < out.encodings.size() && !detail::same_rope(out.encodings[at], rope)) ++at;
        if (at == out.encodings.size()) out.encodings.push_back(std::move(rope));
        known = by_type.insert(by_type.end(), {key, at});
      }
      info.rope = known->second;
    }
    // Llama 4 scales the queries of its no-RoPE layers, Ministral 3 of every layer.
    const bool every = c.f.layers.query == detail::query_rule::ministral3 ||
                       c.f.layers.query == detail::query_rule::mistral4;
    if (every || (!l.rope && info.attention <= attention_kind::sparse))  // no compressed kind has a scale
      info.query_scale = scale;
    out.layers.push_back(info);
  }
  return out;
}

}  // namespace posenc
