// config.cpp — rope_from_config: a Hugging Face config.json → rope_config (posenc/config.hpp).
//
// Each rule mirrors HF transformers (v5): modeling_rope_utils.py (RotaryEmbeddingConfigMixin
// `convert_rope_params_to_dict` / `standardize_rope_params`, `_compute_*_parameters`) and the
// families' configuration_*.py (GPTNeoXConfig `rotary_pct`/`rotary_emb_base`, Phi3Config "su"/"yarn"
// → longrope and its top-level original_max_position_embeddings, Gemma2Config/Gemma3TextConfig
// defaults and per-layer-type rope_parameters, DeepseekV3Config head_dim = qk_rope_head_dim and
// rope_interleave) and modeling_gptj.py (rotary_dim, base 10000, rotate_every_two); the
// multimodal ones from Qwen2VLConfig ("mrope" → "default"), modeling_qwen2_vl.py /
// modeling_qwen2_5_vl.py (apply_multimodal_rotary_pos_emb, the vision towers' head_dim),
// modeling_qwen3_vl.py (Qwen3VLTextRotaryEmbedding: apply_interleaved_mrope, section default
// [24, 20, 20]) and modeling_pixtral.py (PixtralRotaryEmbedding: head_dim, rope_theta).
#include "posenc/config.hpp"

#include "posenc/detail/check.hpp"
#include "posenc/multimodal.hpp"

#include "detail/axis_rows.hpp"

#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

namespace posenc {
namespace {

using kind = config_value::kind;
using detail::fail_argument;

enum class family { generic, gptj, neox, phi3, gemma2, gemma3, deepseek, qwen2vl, qwen3vl };

family family_of(std::string_view model_type) {
  if (model_type == "gptj" || model_type == "codegen") return family::gptj;
  if (model_type == "gpt_neox") return family::neox;
  if (model_type == "phi3") return family::phi3;
  if (model_type == "gemma2") return family::gemma2;
  if (model_type == "gemma3" || model_type == "gemma3_text") return family::gemma3;
  if (model_type == "deepseek_v2" || model_type == "deepseek_v3") return family::deepseek;
  if (model_type == "qwen2_vl" || model_type == "qwen2_5_vl" || model_type == "qwen2_vl_text" ||
      model_type == "qwen2_5_vl_text")
    return family::qwen2vl;
  if (model_type == "qwen3_vl" || model_type == "qwen3_vl_text" || model_type == "qwen3_vl_moe" ||
      model_type == "qwen3_vl_moe_text")
    return family::qwen3vl;
  return family::generic;
}

std::string_view kind_name(kind k) {
  switch (k) {
    case kind::null: return "null";
    case kind::boolean: return "a boolean";
    case kind::number: return "a number";
    case kind::string: return "a string";
    case kind::numbers: return "a list of numbers";
    case kind::object: return "an object";
    case kind::other: return "an unsupported value";
  }
  return "an unsupported value";
}

// Typed lookups of key paths; every error names the path. A JSON null reads as absent, as
// HF's `getattr(config, key, None)` and `dict.get(key)` do.
class reader {
public:
  explicit reader(const hf_config& config) : config_(config) {}

  const config_value* find(const std::string& path) const {
    const auto it = config_.find(path);
    if (it == config_.end() || it->second.type == kind::null) return nullptr;
    return &it->second;
  }
  bool has(const std::string& path) const { return find(path) != nullptr; }
  bool is_null(const std::string& path) const {
    const auto it = config_.find(path);
    return it != config_.end() && it->second.type == kind::null;
  }
  bool is_object(const std::string& path) const {
    const config_value* v = find(path);
    return v && v->type == kind::object;
  }

  std::optional<double> number(const std::string& path) const {
    const config_value* v = typed(path, kind::number, "a number");
    if (!v) return std::nullopt;
    if (!std::isfinite(v->number)) fail_argument(path, " must be finite, got ", v->number);
    return v->number;
  }
  std::optional<int> integer(const std::string& path, int lo) const {
    const std::optional<double> v = number(path);
    if (!v) return std::nullopt;
    if (*v != std::floor(*v) || *v < lo || *v > 2147483647.0)
      fail_argument(path, " must be an integer in [", lo, ", 2147483647], got ", *v);
    return static_cast<int>(*v);
  }
  std::optional<std::string> text(const std::string& path) const {
    const config_value* v = typed(path, kind::string, "a string");
    return v ? std::optional<std::string>(v->text) : std::nullopt;
  }
  std::optional<bool> flag(const std::string& path) const {
    const config_value* v = typed(path, kind::boolean, "a boolean");
    return v ? std::optional<bool>(v->boolean) : std::nullopt;
  }
  std::optional<std::vector<double>> numbers(const std::string& path) const {
    const config_value* v = typed(path, kind::numbers, "a list of numbers");
    return v ? std::optional<std::vector<double>>(v->numbers) : std::nullopt;
  }

  // Names of the direct children of the object at `path` (nulls included: a key is a key).
  std::vector<std::string> children(const std::string& path) const {
    std::vector<std::string> out;
    const std::string lead = path + ".";
    for (auto it = config_.lower_bound(lead); it != config_.end(); ++it) {
      if (it->first.compare(0, lead.size(), lead) != 0) break;
      const std::string rest = it->first.substr(lead.size());
      if (rest.find('.') == std::string::npos) out.push_back(rest);
    }
    return out;
  }

private:
  const config_value* typed(const std::string& path, kind want, const char* what) const {
    const config_value* v = find(path);
    if (v && v->type != want)
      fail_argument(path, " must be ", what, ", got ", kind_name(v->type));
    return v;
  }

  const hf_config& config_;
};

// One value that may come from several keys (the rope parameters and the top level): the
// first present wins; two present with different values are refused by name.
struct sourced {
  std::optional<double> value;
  std::string key;
};

sourced first_number(const reader& r, const std::vector<std::string>& keys) {
  sourced out;
  for (const std::string& key : keys) {
    const std::optional<double> v = r.number(key);
    if (!v) continue;
    if (out.value && *out.value != *v)
      fail_argument(key, " = ", *v, " contradicts ", out.key, " = ", *out.value);
    if (!out.value) out = {v, key};
  }
  return out;
}

// Where the rope parameters of the requested layer type live: `dict` is the path of the
// object holding rope_type, factor, … ("" when the config has none).
struct rope_source {
  std::string dict;
  bool sliding_local = false;  // Gemma 3's local rotary from the top-level keys (v4 layout)
};

bool has_keys(const reader& r, const std::string& path) {
  return r.is_object(path) && !r.children(path).empty();
}

bool nested(const reader& r, const std::string& dict) {
  return r.is_object(dict + ".full_attention") || r.is_object(dict + ".sliding_attention");
}

rope_source find_rope(const reader& r, const std::string& p, family fam,
                      const std::string& layer_type) {
  const std::string scaling = p + "rope_scaling", parameters = p + "rope_parameters";
  if (r.has(scaling) && !r.is_object(scaling))
    fail_argument(scaling, " must be an object or null");
  if (r.has(parameters) && !r.is_object(parameters))
    fail_argument(parameters, " must be an object or null");
  const bool sliding = layer_type == "sliding_attention";
  // v5 per-layer-type parameters: the requested type's own dict.
  if (r.is_object(parameters) && nested(r, parameters)) {
    for (const std::string& child : r.children(parameters))
      if (child != "full_attention" && child != "sliding_attention")
        fail_argument(parameters, ".", child, " is not a layer type (full_attention, "
                      "sliding_attention)");
    // Gemma 3: a v4 rope_scaling still updates the global one (Gemma3TextConfig).
    if (fam == family::gemma3 && !sliding && has_keys(r, scaling)) return {scaling};
    const std::string own = parameters + "." + layer_type;
    if (r.is_object(own)) return {own};
    if (fam == family::gemma3) return {"", sliding};  // HF's default {"rope_type": "default"}
    fail_argument(own, " is missing: the config has per-layer-type rope_parameters");
  }
  // Gemma 3, v4 layout: rope_scaling and rope_theta are the global rotary's; the local one is
  // the default type at rope_local_base_freq.
  if (fam == family::gemma3 && sliding) return {"", true};
  // HF: `rope_parameters = rope_scaling or rope_parameters`.
  if (has_keys(r, scaling)) return {scaling};
  if (r.is_object(parameters)) return {parameters};
  return {};
}

// The rope types and the keys each takes (HF `_validate_*_rope_parameters`), besides
// rope_type, type, rope_theta and partial_rotary_factor, which every type takes.
struct rope_type_keys {
  std::string_view name;
  scaling_type type;
  std::array<std::string_view, 8> keys;
};

constexpr std::array<rope_type_keys, 6> kRopeTypes = {{
    {"default", scaling_type::none, {}},
    {"linear", scaling_type::linear, {"factor"}},
    {"dynamic", scaling_type::dynamic, {"factor"}},
    {"yarn", scaling_type::yarn,
     {"factor", "original_max_position_embeddings", "attention_factor", "beta_fast",
      "beta_slow", "mscale", "mscale_all_dim", "truncate"}},
    {"llama3", scaling_type::llama3,
     {"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"}},
    {"longrope", scaling_type::longrope,
     {"short_factor", "long_factor", "factor", "attention_factor",
      "original_max_position_embeddings"}},
}};

const rope_type_keys& rope_type_of(const reader& r, const std::string& dict, family fam,
                                   std::string& type_key) {
  std::string name = "default";
  type_key = dict.empty() ? "rope_scaling.rope_type" : dict + ".rope_type";
  if (!dict.empty()) {
    const auto rope_type = r.text(dict + ".rope_type"), legacy = r.text(dict + ".type");
    if (rope_type && legacy && *rope_type != *legacy)
      fail_argument(dict, ".rope_type = ", detail::quoted(*rope_type), " contradicts ", dict, ".type = ",
                    detail::quoted(*legacy));
    if (!rope_type && legacy) type_key = dict + ".type";
    if (rope_type || legacy) name = rope_type ? *rope_type : *legacy;
  }
  // "su" is LongRoPE's first name; Phi-3 also saved it as "yarn" (Phi3Config maps both);
  // "mrope" is Qwen2-VL's name for the default ladder with sections (Qwen2VLConfig).
  std::string mapped = name == "su" || (fam == family::phi3 && name == "yarn")
                           ? std::string("longrope") : name;
  if (mapped == "mrope") mapped = "default";
  for (const rope_type_keys& t : kRopeTypes)
    if (t.name == mapped) return t;
  fail_argument(type_key, " must be one of default, linear, dynamic, yarn, llama3, longrope "
                "(or su, mrope), got ", detail::quoted(name));
}

void check_keys(const reader& r, const std::string& dict, const rope_type_keys& t) {
  if (dict.empty()) return;
  for (const std::string& key : r.children(dict)) {
    if (key == "rope_type" || key == "type" || key == "rope_theta" ||
        key == "partial_rotary_factor" || key == "mrope_section" || key == "mrope_interleaved")
      continue;
    bool known = false;
    for (std::string_view k : t.keys) known = known || (!k.empty() && k == key);
    if (!known)
      fail_argument(detail::key_text(dict + "." + key), " is not a parameter of rope type '", std::string(t.name),
                    "' (posenc reads exactly the keys HF transformers reads)");
  }
}

// head_dim as HF's rotary embedding reads it.
std::pair<int, std::string> head_dim_of(const reader& r, const std::string& p, family fam) {
  if (fam == family::deepseek) {
    const std::string key = p + "qk_rope_head_dim";
    return {r.integer(key, 1).value_or(64), key};  // DeepseekV3Config: head_dim = qk_rope_head_dim
  }
  const std::string key = p + "head_dim";
  if (const auto v = r.integer(key, 1)) return {*v, key};
  if (fam == family::gemma2 || fam == family::gemma3) return {256, key};  // class default
  const bool gptj = fam == family::gptj;
  const std::string hidden = p + (gptj ? "n_embd" : "hidden_size");
  const std::string heads = p + (gptj ? "n_head" : "num_attention_heads");
  const auto h = r.integer(hidden, 1);
  const auto n = r.integer(heads, 1);
  if (!h || !n)
    fail_argument(!h ? hidden : heads, " is required (head_dim = ", hidden, " / ", heads,
                  " when the config has no head_dim)");
  return {*h / *n, hidden + " / " + heads};
}

// The rotary dim: GPT-J's rotary_dim, else int(head_dim · partial_rotary_factor).
std::pair<int, std::string> rotary_dim_of(const reader& r, const std::string& p,
                                          const std::string& dict, family fam, int head_dim) {
  if (fam == family::gptj) {
    const std::string key = p + "rotary_dim";
    if (r.is_null(key))
      fail_argument(key, " is null: GPT-J then rotates n_embd dims of each head_dim row, which "
                    "HF transformers cannot run either");
    return {r.integer(key, 2).value_or(64), key};  // absent: GPTJConfig's default 64
  }
  std::vector<std::string> keys;
  if (!dict.empty()) keys.push_back(dict + ".partial_rotary_factor");
  keys.push_back(p + "partial_rotary_factor");
  if (fam == family::neox) keys.push_back(p + "rotary_pct");
  const sourced f = first_number(r, keys);
  const double factor = f.value.value_or(fam == family::neox ? 0.25 : 1.0);
  const std::string key = f.value ? f.key : p + "partial_rotary_factor";
  if (!(factor > 0.0 && factor <= 1.0))
    fail_argument(key, " must be in (0, 1], got ", factor);
  return {static_cast<int>(head_dim * factor), key};  // HF: int(head_dim * partial_rotary_factor)
}

double base_of(const reader& r, const std::string& p, const rope_source& src, family fam,
               std::string& key) {
  if (fam == family::gptj) {  // modeling_gptj: create_sinusoidal_positions uses 10000
    key = "rope_theta";
    return 10000.0;
  }
  if (src.sliding_local) {  // Gemma 3's local rotary
    key = p + "rope_local_base_freq";
    return r.number(key).value_or(10000.0);
  }
  std::vector<std::string> keys;
  if (!src.dict.empty()) keys.push_back(src.dict + ".rope_theta");
  keys.push_back(p + "rope_theta");
  if (fam == family::neox) keys.push_back(p + "rotary_emb_base");
  const sourced s = first_number(r, keys);
  key = s.value ? s.key : p + "rope_theta";
  if (s.value) return *s.value;
  return fam == family::gemma3 ? 1000000.0 : 10000.0;  // HF default_theta
}

// Maps the core's argument names ("scaling.factor", "mrope.section") to the config keys
// they came from.
struct field_key {
  std::string field, key;
};

[[noreturn]] void rethrow_named(const std::string& what, const std::vector<field_key>& names) {
  std::string msg = what;
  const std::string lead = "posenc: ";
  if (msg.compare(0, lead.size(), lead) == 0) msg.erase(0, lead.size());
  for (const field_key& f : names) {
    const std::string& from = f.field;
    for (std::size_t at = msg.find(from); at != std::string::npos; at = msg.find(from, at)) {
      const std::size_t end = at + from.size();
      const bool whole = end == msg.size() || !(std::isalnum(static_cast<unsigned char>(msg[end])) || msg[end] == '_');
      if (whole) {
        msg.replace(at, from.size(), f.key);
        at += f.key.size();
      } else {
        at = end;
      }
    }
  }
  fail_argument(msg);
}

// The multimodal sections of the rope parameters at `dict` (Qwen2VLConfig / Qwen3VLTextConfig
// keep them there): none, contiguous or interleaved. `key` receives the section's config key.
rope_axes axes_of(const reader& r, const std::string& dict, family fam, std::string& key) {
  key = (dict.empty() ? std::string("rope_scaling") : dict) + ".mrope_section";
  const std::string flag_key = (dict.empty() ? std::string("rope_scaling") : dict) +
                               ".mrope_interleaved";
  const std::optional<bool> flag = dict.empty() ? std::nullopt : r.flag(flag_key);
  std::optional<std::vector<double>> section = dict.empty() ? std::nullopt : r.numbers(key);
  if (!section) {
    if (fam == family::qwen3vl) section = std::vector<double>{24, 20, 20};  // HF's default
    else if (fam == family::qwen2vl)
      fail_argument(key, " is required for Qwen2-VL / Qwen2.5-VL (HF reads it unconditionally)");
    else if (flag)
      fail_argument(key, " is required with ", flag_key);
    else
      return {};
  }
  if (section->size() != 3)
    fail_argument(key, " must hold 3 values (t, h, w), got ", section->size());
  rope_axes out;
  for (std::size_t a = 0; a < 3; ++a) {
    const double v = (*section)[a];
    if (!(v >= 0 && v <= 65536 && v == std::floor(v)))
      fail_argument(key, "[", a, "] must be an integer in [0, 65536], got ", v);
    out.section[a] = static_cast<int>(v);
  }
  // Qwen3-VL's rotary interleaves whatever the flag says (Qwen3VLTextRotaryEmbedding).
  const bool interleaved = fam == family::qwen3vl || flag.value_or(false);
  out.kind = interleaved ? rope_axes_kind::mrope_interleaved : rope_axes_kind::mrope;
  return out;
}

// head_dim of a vision tower: `dims` / `heads` (integer division, as HF's attention does).
std::pair<int, std::string> vision_head_dim(const reader& r, const std::string& dims,
                                            const std::string& heads) {
  const auto h = r.integer(dims, 1);
  const auto n = r.integer(heads, 1);
  if (!h || !n) fail_argument(!h ? dims : heads, " is required (head_dim = ", dims, " / ", heads, ")");
  return {*h / *n, dims + " / " + heads};
}

// The vision tower's 2-D rotary (config_options::tower "vision").
rope_config vision_from_config(const reader& r, const config_options& options) {
  const std::string v = "vision_config";
  if (r.has(v) && !r.is_object(v)) fail_argument(v, " must be an object");
  if (!r.is_object(v)) fail_argument(v, " is missing: tower 'vision' reads the vision tower's config");
  const std::string top = r.text("model_type").value_or("");
  const std::string own = r.text(v + ".model_type").value_or("");
  rope_config out;
  std::string head_key, base_key = "vision_config.rope_theta";
  if (own == "pixtral" || (own.empty() && top == "pixtral")) {
    // PixtralVisionConfig: head_dim, else hidden_size // num_attention_heads; rope_theta.
    if (const auto d = r.integer(v + ".head_dim", 1)) {
      out.head_dim = *d;
      head_key = v + ".head_dim";
    } else {
      std::tie(out.head_dim, head_key) =
          vision_head_dim(r, v + ".hidden_size", v + ".num_attention_heads");
    }
    const sourced theta = first_number(r, {v + ".rope_parameters.rope_theta", v + ".rope_theta"});
    if (theta.value) base_key = theta.key;
    out.base = theta.value.value_or(10000.0);
    out.axes.kind = rope_axes_kind::vision_pixtral;
  } else if (family_of(top) == family::qwen2vl || family_of(top) == family::qwen3vl ||
             (top.empty() && (family_of(own) == family::qwen2vl || family_of(own) == family::qwen3vl))) {
    // Qwen2VisionTransformer: embed_dim // num_heads; Qwen2.5-VL / Qwen3-VL: hidden_size // num_heads.
    const bool qwen2 = top == "qwen2_vl" || (top.empty() && own == "qwen2_vl");
    std::tie(out.head_dim, head_key) =
        vision_head_dim(r, v + (qwen2 ? ".embed_dim" : ".hidden_size"), v + ".num_heads");
    out.base = 10000.0;  // VisionRotaryEmbedding(head_dim // 2), theta fixed
    base_key = "theta";
    out.axes.kind = rope_axes_kind::vision_qwen2vl;
  } else {
    fail_argument(own.empty() ? std::string("model_type") : v + ".model_type", " = ",
                  detail::quoted(own.empty() ? top : own), " has no vision rotary posenc knows (Qwen2-VL, "
                  "Qwen2.5-VL, Qwen3-VL, Pixtral)");
  }
  if (out.head_dim < 4 || out.head_dim > max_dim || out.head_dim % 4 != 0)
    fail_argument(head_key, " gives head_dim ", out.head_dim, ": a 2-D rotary needs a multiple "
                  "of 4 in [4, ", max_dim, "]");
  if (!(out.base > 1.0)) fail_argument(base_key, " must be > 1, got ", out.base);
  out.rotary_dim = out.head_dim;
  out.layout = options.layout.value_or(rope_layout::half);  // HF's rotate_half
  return out;
}

}  // namespace

rope_config rope_from_config(const hf_config& config, const config_options& options) {
  if (options.layer_type != "full_attention" && options.layer_type != "sliding_attention")
    fail_argument("layer_type must be 'full_attention' or 'sliding_attention', got ",
                  detail::quoted(options.layer_type));
  if (options.seq_len) detail::check_range("seq_len", *options.seq_len, 1, INT_MAX);
  if (options.tower != "text" && options.tower != "vision")
    fail_argument("tower must be 'text' or 'vision', got ", detail::quoted(options.tower));
  const reader r(config);
  if (options.tower == "vision") return vision_from_config(r, options);
  if (r.has("text_config") && !r.is_object("text_config"))
    fail_argument("text_config must be an object or null");
  const std::string p = r.is_object("text_config") ? "text_config." : "";
  const std::optional<std::string> model_type =
      r.text(p + "model_type") ? r.text(p + "model_type") : r.text("model_type");
  const family fam = family_of(model_type.value_or(""));

  const rope_source src = find_rope(r, p, fam, options.layer_type);
  if (fam == family::gptj && !src.dict.empty())
    fail_argument(src.dict, " is not supported for GPT-J: its rotary has no scaling");
  std::string type_key;
  const rope_type_keys& type = rope_type_of(r, src.dict, fam, type_key);
  check_keys(r, src.dict, type);

  const auto [head_dim, head_key] = head_dim_of(r, p, fam);
  if (head_dim < 2 || head_dim > max_dim)
    fail_argument(head_key, " gives head_dim ", head_dim, ", outside [2, ", max_dim, "]");
  const auto [rotary_dim, rotary_key] = rotary_dim_of(r, p, src.dict, fam, head_dim);
  if (rotary_dim < 2 || rotary_dim % 2 != 0 || rotary_dim > head_dim)
    fail_argument(rotary_key, " gives rotary dim ", rotary_dim, " for head_dim ", head_dim,
                  ": it must be even, in [2, head_dim]");
  std::string base_key;
  const double base = base_of(r, p, src, fam, base_key);

  const std::string d = src.dict.empty() ? std::string("rope_scaling") : src.dict;
  auto in_dict = [&](const char* field) { return d + "." + field; };
  scaling s;
  s.type = type.type;
  std::vector<field_key> names = {{"scaling.type", type_key}, {"scaling.seq_len", "seq_len"}};
  const std::string max_key = p + (fam == family::gptj ? "n_positions" : "max_position_embeddings");
  s.max_position_embeddings = r.integer(max_key, 1);
  if (!s.max_position_embeddings) {  // the config classes' defaults
    if (fam == family::gemma2) s.max_position_embeddings = 8192;
    if (fam == family::gemma3) s.max_position_embeddings = 131072;
    if (fam == family::phi3) s.max_position_embeddings = 4096;
    if (fam == family::neox || fam == family::gptj) s.max_position_embeddings = 2048;
  }
  names.push_back({"scaling.max_position_embeddings", max_key});
  if (s.type != scaling_type::none) {
    s.factor = r.number(in_dict("factor"));
    names.push_back({"scaling.factor", in_dict("factor")});
    // standardize_rope_params: a top-level original_max_position_embeddings wins (Phi-3
    // saves it there; Phi3Config defaults it to 4096), else the dict's, else (in
    // inverse_frequencies) max_position_embeddings.
    const std::string top_original = p + "original_max_position_embeddings";
    std::string original_key = top_original;
    s.original_max_position_embeddings = r.integer(top_original, 1);
    if (!s.original_max_position_embeddings && fam == family::phi3)
      s.original_max_position_embeddings = 4096;
    if (!s.original_max_position_embeddings) {
      original_key = in_dict("original_max_position_embeddings");
      s.original_max_position_embeddings = r.integer(original_key, 1);
    }
    names.push_back({"scaling.original_max_position_embeddings", original_key});
    s.seq_len = options.seq_len;
    s.attention_factor = r.number(in_dict("attention_factor"));
    names.push_back({"scaling.attention_factor", in_dict("attention_factor")});
    if (const auto v = r.number(in_dict("beta_fast"))) s.beta_fast = *v;
    if (const auto v = r.number(in_dict("beta_slow"))) s.beta_slow = *v;
    s.mscale = r.number(in_dict("mscale"));
    s.mscale_all_dim = r.number(in_dict("mscale_all_dim"));
    if (const auto v = r.flag(in_dict("truncate"))) s.truncate = *v;
    for (const char* f : {"beta_fast", "beta_slow", "mscale_all_dim", "mscale",
                          "low_freq_factor", "high_freq_factor", "short_factor", "long_factor"})
      names.push_back({std::string("scaling.") + f, in_dict(f)});
    if (s.type == scaling_type::llama3) {  // HF requires both (KeyError otherwise)
      for (const char* f : {"low_freq_factor", "high_freq_factor"})
        if (!r.has(in_dict(f))) fail_argument(in_dict(f), " is required for rope type 'llama3'");
      s.low_freq_factor = *r.number(in_dict("low_freq_factor"));
      s.high_freq_factor = *r.number(in_dict("high_freq_factor"));
    }
    if (s.type == scaling_type::longrope) {
      for (const char* f : {"short_factor", "long_factor"})
        if (!r.has(in_dict(f))) fail_argument(in_dict(f), " is required for rope type 'longrope'");
      s.short_factor = *r.numbers(in_dict("short_factor"));
      s.long_factor = *r.numbers(in_dict("long_factor"));
    }
  } else {
    s.seq_len = options.seq_len;
  }

  rope_layout layout = rope_layout::half;
  if (fam == family::gptj) layout = rope_layout::interleaved;
  if (fam == family::deepseek)  // DeepseekV3Config: rope_interleave, default true
    layout = r.flag(p + "rope_interleave").value_or(true) ? rope_layout::interleaved
                                                          : rope_layout::half;
  if (options.layout) layout = *options.layout;

  if (!(base > 1.0)) fail_argument(base_key, " must be > 1, got ", base);
  std::string section_key;
  const rope_axes axes = axes_of(r, src.dict, fam, section_key);
  names.push_back({"mrope.section", section_key});
  try {
    (void)detail::make_axis_ladder(axes, rotary_dim, base, s);  // every range check, first
  } catch (const invalid_argument& e) {
    rethrow_named(e.what(), names);
  }
  rope_config out;
  out.head_dim = head_dim;
  out.rotary_dim = rotary_dim;
  out.base = base;
  out.layout = layout;
  out.scaling = std::move(s);
  out.axes = axes;
  return out;
}

}  // namespace posenc
