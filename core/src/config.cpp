// config.cpp — one rotator from a Hugging Face config.json (posenc/config.hpp): the reader of
// the rope parameters, read with the family rules of config_families.hpp.
//
// Each rule mirrors HF transformers (v5): modeling_rope_utils.py (`convert_rope_params_to_dict`,
// `standardize_rope_params`, `_compute_*_parameters`, the `_validate_*` key lists) and the
// families' configuration_*.py / modeling_*.py named in each family row; the multimodal ones
// from Qwen2VLConfig ("mrope" → "default"), modeling_qwen2_vl.py / modeling_qwen2_5_vl.py /
// modeling_qwen3_vl.py and modeling_pixtral.py.
#include "config_reader.hpp"
#include "posenc/axes.hpp"

#include "posenc/multimodal.hpp"

#include "detail/axis_rows.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

namespace posenc {
namespace detail {

std::string_view kind_name(config_value::kind k) {
  using kind = config_value::kind;
  switch (k) {
    case kind::null: return "null";
    case kind::boolean: return "a boolean";
    case kind::number: return "a number";
    case kind::string: return "a string";
    case kind::numbers: return "a list of numbers";
    case kind::strings: return "a list of strings";
    case kind::object: return "an object";
    case kind::other: return "an unsupported value";
  }
  return "an unsupported value";
}

std::vector<std::string> reader::children(const std::string& path) const {
  std::vector<std::string> out;
  const std::string lead = path + ".";
  for (auto it = config_.lower_bound(lead); it != config_.end(); ++it) {
    if (it->first.compare(0, lead.size(), lead) != 0) break;
    const std::string rest = it->first.substr(lead.size());
    if (rest.find('.') == std::string::npos) out.push_back(rest);
  }
  return out;
}

std::optional<std::vector<std::string>> reader::texts(const std::string& path) const {
  const config_value* v = typed(path, kind::strings, "a list of strings");
  if (!v) return std::nullopt;
  std::vector<std::string> out(v->numbers.empty() ? 0 : static_cast<std::size_t>(v->numbers[0]));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::string key = path + "." + std::string(message_part(i).view());
    const config_value* e = find(key);
    if (!e || e->type != kind::string) fail_argument(key, " must be a string");
    out[i] = e->text;
  }
  return out;
}

namespace {

using kind = config_value::kind;

// ── families ───────────────────────────────────────────────────────────────────────────

const family* family_named(std::string_view name) {
  for (const family& f : families()) {
    if (f.name == name) return &f;
    for (std::string_view t : f.model_types)
      if (!t.empty() && t == name) return &f;
  }
  return nullptr;
}

std::string family_names() {
  std::string out;
  for (const family& f : families()) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

// ── where the rope parameters live ─────────────────────────────────────────────────────

// `dict` is the path of the object holding rope_type, factor, … ("" when the config has none).
struct rope_source {
  std::string dict;
  bool sliding_local = false;  // Gemma 3's local rotary from the top-level keys (v4 layout)
  bool unscaled = false;       // OLMo 3's sliding layers: the dict's theta, no scaling
};

constexpr std::array<std::string_view, 3> kLayerTypes = {"full_attention", "sliding_attention",
                                                          "chunked_attention"};

bool is_layer_type(const family& f, std::string_view s) {
  for (std::string_view t : kLayerTypes)
    if (s == type_name(f, t)) return true;
  return false;
}

// The layer types a family's per-type rope_parameters may name, for messages.
std::string layer_type_list(const family& f) {
  if (!f.type_names[0].name.empty())
    return std::string(f.type_names[0].name) + ", " + std::string(f.type_names[1].name);
  return "full_attention, sliding_attention, chunked_attention";
}

bool has_keys(const reader& r, const std::string& path) {
  return r.is_object(path) && !r.children(path).empty();
}

bool nested(const family& f, const reader& r, const std::string& dict) {
  for (std::string_view t : kLayerTypes)
    if (r.is_object(dict + "." + std::string(type_name(f, t)))) return true;
  return false;
}

// A top-level key transformers does not read must equal the value it uses instead (`used`,
// else `fallback`); a disagreement is refused naming both.
void unread_agrees(const text_context& c, const std::string& key, const std::string& used,
                   std::optional<double> fallback) {
  const std::optional<double> v = c.r.number(key);
  if (!v) return;
  const std::optional<double> u = c.r.has(used) ? c.r.number(used) : fallback;
  if (u && *u == *v) return;
  if (!u)
    fail_argument(key, " = ", *v, " is not read by ", c.f.name, " (", c.f.source, " reads "
                  "only the per-layer-type rope_parameters): remove it, or say it in ", used);
  fail_argument(key, " = ", *v, " is not read by ", c.f.name, " (", c.f.source, " reads only "
                "the per-layer-type rope_parameters, where ", used, " = ", *u, "): remove it, "
                "or say it in ", used);
}

// DeepSeek-V4: the sliding layers' dict is `main`, the compressed layers' `compress` (the
// config as with_compressed completed it).
rope_source labelled_rope(const text_context& c, const std::string& layer_type) {
  const compress_rule& rule = c.f.compress;
  if (layer_type == rule.sliding_name)
    return {c.p + "rope_parameters." + std::string(rule.main_label)};
  for (const compressed_type& t : rule.types)
    if (layer_type == t.name) return {c.p + "rope_parameters." + std::string(rule.compress_label)};
  fail_argument("layer_type ", quoted(layer_type), " is not a layer type of ", c.f.name, " (",
                rule.sliding_name, " with '", rule.main_label, "', ", rule.types[0].name, " and ",
                rule.types[1].name, " with '", rule.compress_label, "': ", c.f.source,
                "); pass layerType or layer");
}

rope_source find_rope(const text_context& c, const std::string& layer_type) {
  const reader& r = c.r;
  if (!c.f.compress.rates_key.empty()) return labelled_rope(c, layer_type);
  const std::string scaling = c.p + "rope_scaling", parameters = c.p + "rope_parameters";
  if (r.has(scaling) && !r.is_object(scaling))
    fail_argument(scaling, " must be an object or null");
  if (r.has(parameters) && !r.is_object(parameters))
    fail_argument(parameters, " must be an object or null");
  const bool local = !c.f.base.local_key.empty();
  const bool sliding = layer_type == "sliding_attention";
  const bool typed_only = !c.f.rope_defaults[0].layer_type.empty();
  if (typed_only) {  // convert_rope_params_to_dict returns kwargs: the per-type dicts decide
    if (has_keys(r, scaling))
      fail_argument(scaling, " is not read by ", c.f.name, " (", c.f.source, " reads only the "
                    "per-layer-type rope_parameters): move it into rope_parameters.<layer type>");
    // Published files may repeat the dicts' values at the top level (MiMo-V2-Flash): accepted
    // when they agree with what transformers uses, refused when they do not.
    const std::string own = parameters + "." + std::string(type_name(c.f, layer_type));
    unread_agrees(c, c.p + "rope_theta",
                  parameters + "." + std::string(type_name(c.f, "full_attention")) + ".rope_theta",
                  std::nullopt);
    unread_agrees(c, c.p + "partial_rotary_factor", own + ".partial_rotary_factor",
                  c.f.rotary.factor_fallback);
  }
  if (r.is_object(parameters) && nested(c.f, r, parameters)) {  // v5 per-layer-type parameters
    for (const std::string& child : r.children(parameters))
      if (!is_layer_type(c.f, child))
        fail_argument(parameters, ".", key_text(child), " is not a layer type of ", c.f.name,
                      " (", layer_type_list(c.f), ")");
    // Gemma 3: a v4 rope_scaling still updates the global one (Gemma3TextConfig).
    if (local && !sliding && has_keys(r, scaling)) return {scaling};
    const std::string own = parameters + "." + std::string(type_name(c.f, layer_type));
    if (c.f.layers.null_type_nope && r.is_null(own))
      fail_argument(own, " is null: ", c.f.name, "'s ", layer_type, " layers have no RoPE (",
                    c.f.source, ")");
    if (r.is_object(own) && c.f.theta_required && !r.has(own + ".rope_theta"))
      fail_argument(own, ".rope_theta is required: ", c.f.source, " reads it with [] (a KeyError "
                    "in transformers)");
    if (r.is_object(own) && c.f.layers.null_type_nope)  // its rotary indexes both keys
      for (const char* k : {"rope_type", "rope_theta"})
        if (!r.has(own + "." + k))
          fail_argument(own, ".", k, " is required: ", c.f.source, " reads it with [] (a KeyError "
                        "in transformers)");
    if (r.is_object(own)) return {own};
    if (local) return {"", sliding};  // HF's default {"rope_type": "default"}
    fail_argument(own, " is missing: the config has per-layer-type rope_parameters");
  }
  if (c.f.layers.null_type_nope)
    fail_argument(parameters, " must hold one object (or null) per layer type: ", c.f.source,
                  " reads rope_parameters[layer_type]");
  if (typed_only)
    fail_argument(parameters, " must hold one object per layer type (", c.f.name,
                  " has no other form; without the key the config class's defaults apply)");
  // Gemma 3, v4 layout: rope_scaling and rope_theta are the global rotary's; the local one is
  // the default type at rope_local_base_freq.
  if (local && sliding) return {"", true};
  // OLMo 3: the v4 rope_scaling goes to full_attention only; sliding layers keep rope_theta.
  if (c.f.layers.scaling_full_only && sliding) {
    if (has_keys(r, scaling)) return {"", false, true};
    if (r.is_object(parameters)) return {parameters, false, true};
  }
  if (has_keys(r, scaling)) return {scaling};  // HF: `rope_scaling or rope_parameters`
  if (r.is_object(parameters)) return {parameters};
  return {};
}

// ── rope types and the keys each takes ─────────────────────────────────────────────────

// HF `_validate_*_rope_parameters`: required and optional keys, besides rope_type, type,
// rope_theta, partial_rotary_factor, mrope_section and mrope_interleaved, which every type
// takes; `nullable`: the keys HF reads with `.get(…)` and a None fallback.
struct rope_type_keys {
  std::string_view name;
  scaling_type type;
  std::array<std::string_view, 3> required;
  std::array<std::string_view, 8> optional;
  std::array<std::string_view, 6> nullable;
  bool needs_original = false;  // standardize_rope_params' llama3 / yarn / longrope
};

constexpr rope_type_keys kRopeTypes[] = {
    {"default", scaling_type::none, {}, {}, {}},
    {"linear", scaling_type::linear, {"factor"}, {}, {}},
    {"dynamic", scaling_type::dynamic, {}, {"factor"}, {}},
    {"yarn", scaling_type::yarn, {},
     {"factor", "original_max_position_embeddings", "attention_factor", "beta_fast",
      "beta_slow", "mscale", "mscale_all_dim", "truncate"},
     {"factor", "attention_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim"}, true},
    {"llama3", scaling_type::llama3, {"factor", "low_freq_factor", "high_freq_factor"},
     {"original_max_position_embeddings"}, {}, true},
    {"longrope", scaling_type::longrope, {"short_factor", "long_factor"},
     {"factor", "attention_factor", "original_max_position_embeddings"},
     {"factor", "attention_factor"}, true},
    {"proportional", scaling_type::proportional, {}, {"factor"}, {}},
};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& keys, std::string_view key) {
  for (std::string_view k : keys)
    if (!k.empty() && k == key) return true;
  return false;
}

const rope_type_keys& rope_type_of(const text_context& c, const std::string& dict,
                                   std::string& type_key) {
  const reader& r = c.r;
  std::string name = "default";
  type_key = dict.empty() ? c.p + "rope_scaling.rope_type" : dict + ".rope_type";
  if (!dict.empty()) {
    const auto rope_type = r.text(dict + ".rope_type"), legacy = r.text(dict + ".type");
    if (rope_type && legacy && *rope_type != *legacy)
      fail_argument(dict, ".rope_type = ", quoted(*rope_type), " contradicts ", dict,
                    ".type = ", quoted(*legacy));
    if (!rope_type && legacy) type_key = dict + ".type";
    if (rope_type || legacy) name = rope_type ? *rope_type : *legacy;
  }
  // "su" is LongRoPE's first name; Phi-3 also saved it as "yarn" (Phi3Config maps both);
  // "mrope" is Qwen2-VL's name for the default ladder with sections (Qwen2VLConfig).
  std::string mapped = name == "su" || (c.f.yarn_is_longrope && name == "yarn")
                           ? std::string("longrope") : name;
  if (mapped == "mrope") mapped = "default";
  for (const rope_type_keys& t : kRopeTypes)
    if (t.name == mapped) {
      if (t.type != scaling_type::none && !c.f.scalable)
        fail_argument(type_key, " = ", quoted(name), ": ", c.f.name,
                      "'s rotary has no scaling (", c.f.source, ")");
      return t;
    }
  fail_argument(type_key, " must be one of default, linear, dynamic, yarn, llama3, longrope, "
                "proportional (or su, mrope), got ", quoted(name));
}

void check_keys(const text_context& c, const std::string& dict, const rope_type_keys& t) {
  if (dict.empty()) return;
  const reader& r = c.r;
  for (const std::string& key : r.children(dict)) {
    const std::string path = dict + "." + key;
    if (key == "rope_type" || key == "type" || key == "mrope_section" ||
        key == "mrope_interleaved")
      continue;
    if (key == "rope_theta" || key == "partial_rotary_factor") {
      r.refuse_null(path, "modeling_rope_utils reads it for every rope type");
      continue;
    }
    if (listed(c.f.ignored_keys, key)) continue;  // carried by the checkpoints, never read
    if (key == "llama_4_scaling_beta" &&
        (c.f.layers.query == query_rule::ministral3 || c.f.layers.query == query_rule::mistral4))
      continue;
    const bool alpha = key == c.f.alpha_key && t.type == scaling_type::dynamic;
    if (!alpha && !listed(t.required, key) && !listed(t.optional, key))
      fail_argument(dict, ".", key_text(key), " is not a parameter of rope type '", t.name, "' for ", c.f.name,
                    " (posenc reads exactly the keys HF transformers reads)");
    if (!listed(t.nullable, key))
      r.refuse_null(path, std::string("rope type '") + std::string(t.name) + "'");
  }
  for (std::string_view key : t.required)
    if (!key.empty() && !r.has(dict + "." + std::string(key)))
      fail_argument(dict, ".", key, " is required for rope type '", t.name, "'");
}

// ── head_dim, rotary dim, base ─────────────────────────────────────────────────────────

std::pair<int, std::string> head_dim_of(const text_context& c, const std::string& layer_type) {
  const reader& r = c.r;
  const head_rule& h = c.f.head;
  if (layer_type == "full_attention" && !h.full_key.empty()) {
    const std::string key = c.p + std::string(h.full_key);
    return {r.integer(key, 1).value_or(h.full_fallback), key};
  }
  if (!h.key.empty()) {
    const std::string key = c.p + std::string(h.key);
    if (const auto v = r.integer(key, 1)) return {*v, key};
    if (h.fallback) return {h.fallback, key};
    if (h.hidden.empty())  // MLA: the rope slice has no other source
      fail_argument(key, " is required for ", c.f.name, " (", c.f.source, ")");
  }
  const std::string hidden = c.p + std::string(h.hidden), heads = c.p + std::string(h.heads);
  const auto n_hidden = r.integer(hidden, 1);
  const auto n_heads = r.integer(heads, 1);
  if (!n_hidden || !n_heads)
    fail_argument(!n_hidden ? hidden : heads, " is required (head_dim = ", hidden, " / ", heads,
                  h.key.empty() ? std::string(" for ") + std::string(c.f.name)
                                : " when the config has no " + std::string(h.key), ")");
  if (h.hidden_mult != 1)  // Zamba2Config: attention_head_dim = 2 * hidden_size // heads
    return {h.hidden_mult * *n_hidden / *n_heads,
            std::to_string(h.hidden_mult) + " · " + hidden + " / " + heads};
  return {*n_hidden / *n_heads, hidden + " / " + heads};
}

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

// partial_rotary_factor from the rope parameters or the top level (GPT-NeoX: rotary_pct).
sourced partial_factor(const text_context& c, const std::string& dict) {
  std::vector<std::string> keys;
  if (!dict.empty()) keys.push_back(dict + ".partial_rotary_factor");
  const std::string top = c.p + "partial_rotary_factor";
  if (c.f.rotary.factor_forced) {  // BambaConfig: kwargs["partial_rotary_factor"] = 0.5
    const auto v = c.r.number(top);
    if (v && *v != c.f.rotary.factor_fallback)
      fail_argument(top, " = ", *v, " is not read by ", c.f.name, " (", c.f.source, " replaces "
                    "it with ", c.f.rotary.factor_fallback, "): remove it, or say it in ",
                    dict.empty() ? c.p + "rope_parameters" : dict, ".partial_rotary_factor");
  } else if (c.f.rope_defaults[0].layer_type.empty()) {  // per-type-only classes never read it
    keys.push_back(top);
  }
  if (!c.f.rotary.factor_alias.empty()) keys.push_back(c.p + std::string(c.f.rotary.factor_alias));
  c.r.refuse_null(c.p + "partial_rotary_factor", "int(head_dim * partial_rotary_factor)");
  sourced f = first_number(c.r, keys);
  if (f.value && !(*f.value > 0.0 && *f.value <= 1.0))
    fail_argument(f.key, " must be in (0, 1], got ", *f.value);
  return f;
}

// Mistral 4: the ladder spans int(head_dim · partial_rotary_factor) dims of HF's head_dim =
// qk_nope + qk_rope (the default type: all of it), and attention rotates the qk_rope slice
// with it; any other width is a shape transformers cannot multiply.
std::pair<int, std::string> mla_rotary_dim(const text_context& c, const std::string& dict,
                                           const rope_type_keys& t, int rope_dim) {
  const reader& r = c.r;
  const rotary_rule& rule = c.f.rotary;
  const std::string nope_key = c.p + std::string(rule.nope_key);
  const int nope = r.integer(nope_key, 0).value_or(rule.nope_fallback);
  const int full = nope + rope_dim;  // Mistral4Config.__post_init__: self.head_dim
  // __post_init__ setdefaults the factor into rope_parameters; a v4 rope_scaling replaces that
  // dict (convert_rope_params_to_dict), so there the top-level key or 1.0 applies.
  const bool scaling = dict == c.p + "rope_scaling";
  const std::string top = c.p + "partial_rotary_factor";
  const std::string own = dict.empty() ? c.p + "rope_parameters.partial_rotary_factor"
                                       : dict + ".partial_rotary_factor";
  r.refuse_null(top, "int(head_dim * partial_rotary_factor)");
  std::string key = own;
  std::optional<double> given = dict.empty() ? std::nullopt : r.number(own);
  if (!given && scaling && r.has(top)) {
    given = r.number(top);
    key = top;
  }
  if (t.type == scaling_type::none) key = dict.empty() ? c.p + "rope_parameters.rope_type" : dict + ".rope_type";
  const double factor = given.value_or(scaling ? 1.0 : static_cast<double>(rope_dim) / full);
  if (!(factor > 0.0 && factor <= 1.0)) fail_argument(key, " must be in (0, 1], got ", factor);
  const int dims = t.type == scaling_type::none ? full : static_cast<int>(full * factor);
  if (dims != rope_dim)
    fail_argument(key, " gives ", c.f.name, "'s ladder ", dims, " dims (",
                  t.type == scaling_type::none ? "rope type 'default' spans the whole head_dim = "
                                               : "int(head_dim · partial_rotary_factor), head_dim = ",
                  nope_key, " + ", c.p, c.f.head.key, " = ", full, "), but attention rotates the ",
                  c.p, c.f.head.key, " = ", rope_dim, " slice (", c.f.source, "): transformers "
                  "cannot multiply these shapes; give partial_rotary_factor = ", rope_dim, " / ",
                  full, " in ", dict.empty() ? c.p + "rope_parameters" : dict);
  return {rope_dim, c.p + std::string(c.f.head.key)};
}

// The rotary dim (rotated width) of a layer with `head_dim` and rope type `t`.
std::pair<int, std::string> rotary_dim_of(const text_context& c, const std::string& dict,
                                          const rope_type_keys& t, int head_dim,
                                          std::optional<double>& proportion) {
  const reader& r = c.r;
  const rotary_rule& rule = c.f.rotary;
  if (!rule.dim_key.empty()) {  // GPT-J: absolute dims
    const std::string key = c.p + std::string(rule.dim_key);
    if (r.is_null(key))
      fail_argument(key, " is null: ", c.f.name, " then rotates n_embd dims of each head_dim "
                    "row, which HF transformers cannot run either");
    return {r.integer(key, 2).value_or(rule.dim_fallback), key};
  }
  if (!rule.nope_key.empty()) return mla_rotary_dim(c, dict, t, head_dim);
  // RecurrentGemma: compute_default_rope_parameters spans head_dim and apply_rotary_pos_emb
  // rotates cos.shape[-1] = head_dim dims; the class's partial_rotary_factor 0.5 is never read.
  if (rule.factor_ignored) return {head_dim, c.p + "head_dim"};
  const sourced f = partial_factor(c, dict);
  if (!c.f.unread_dim_key.empty()) {  // MiniMax-M2: its own code rotates rotary_dim dims
    const std::string key = c.p + std::string(c.f.unread_dim_key);
    const auto dims = r.integer(key, 1);
    const int hf = static_cast<int>(head_dim * f.value.value_or(rule.factor_fallback));
    if ((dims || r.is_null(key)) && (!f.value || !dims || *dims != hf))
      fail_argument(key, " is not read by transformers (", c.f.source, " rotates int(head_dim · "
                    "partial_rotary_factor) = ", hf, " dims), while the model's own code rotates ",
                    key, ": give partial_rotary_factor = ", key, " / head_dim to rotate ", key,
                    " dims, or remove ", key, " to follow transformers");
  }
  if (rule.factor_fixed && f.value)
    fail_argument(f.key, " is not read by ", c.f.name, ": its rotary width is fixed by ",
                  c.f.source);
  if (t.type == scaling_type::proportional) {  // the whole head; the factor is the ladder's
    proportion = f.value;
    return {head_dim, c.p + "head_dim"};
  }
  if (t.type == scaling_type::none && rule.default_full_head) {
    if (f.value && *f.value != 1.0)
      fail_argument(f.key, " = ", *f.value, " is not read by ", c.f.name, "'s default rotary "
                    "(transformers rotates the whole head; ", c.f.source, ")");
    return {head_dim, c.p + "head_dim"};
  }
  const double factor = f.value.value_or(rule.factor_fallback);
  const std::string key = f.value ? f.key : c.p + "partial_rotary_factor";
  return {static_cast<int>(head_dim * factor), key};  // HF: int(head_dim * partial_rotary_factor)
}

double base_of(const text_context& c, const rope_source& src, std::string& key) {
  const reader& r = c.r;
  const base_rule& b = c.f.base;
  if (b.fixed) {  // GPT-J: create_sinusoidal_positions(…, 10000); ChatGLM: 10000 · rope_ratio
    for (const std::string& k : {c.p + "rope_theta", src.dict + ".rope_theta"})
      if (r.has(k)) fail_argument(k, " is not read by ", c.f.name, " (", c.f.source, ")");
    key = "the base of " + std::string(c.f.source);
    if (b.ratio_key.empty()) return 10000.0;
    key = c.p + std::string(b.ratio_key);
    return 10000.0 * r.number(key).value_or(1.0);
  }
  if (src.sliding_local) {  // Gemma 3's local rotary
    key = c.p + std::string(b.local_key);
    r.refuse_null(key, "the sliding layers' base");
    return r.number(key).value_or(b.local_fallback);
  }
  std::vector<std::string> keys;
  if (!src.dict.empty()) keys.push_back(src.dict + ".rope_theta");
  if (c.f.rope_defaults[0].layer_type.empty())  // per-type-only classes never read it (find_rope)
    keys.push_back(c.p + "rope_theta");
  if (!b.alias.empty()) keys.push_back(c.p + std::string(b.alias));
  for (const std::string& k : keys) r.refuse_null(k, "the base of the ladder");
  const sourced s = first_number(r, keys);
  key = s.value ? s.key : c.p + "rope_theta";
  const double base = s.value.value_or(b.fallback);  // HF default_theta
  const std::string unread = c.p + std::string(b.unread_key);
  if (const auto v = b.unread_key.empty() ? std::nullopt : r.number(unread); v && *v != base)
    fail_argument(unread, " = ", *v, " is not read by transformers (", c.f.source, " takes ",
                  key, s.value ? "" : ", absent: its default", " = ", base, "), so the model runs "
                  "at θ = ", base, ": give rope_parameters.rope_theta = ", *v, " to run the "
                  "checkpoint's θ, or remove ", unread, " to follow transformers");
  return base;
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
      const bool whole = end == msg.size() ||
                         !(std::isalnum(static_cast<unsigned char>(msg[end])) || msg[end] == '_');
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

// ERNIE 4.5 VL's mrope_section (h, w, t) as posenc's (t, h, w) sections. Its rotary stacks
// the h and w rungs (torch.stack needs h == w) and slices inv_freq[:-t] (t = 0 would empty it).
rope_axes hw_axes(const std::array<int, 3>& hwt, const std::string& key) {
  if (hwt[0] != hwt[1] || hwt[2] < 1)
    fail_argument(key, " = [", hwt[0], ", ", hwt[1], ", ", hwt[2], "] is (h, w, t) for ERNIE 4.5 "
                  "VL, whose rotary needs h == w and t >= 1 (transformers fails otherwise)");
  rope_axes out;
  out.kind = rope_axes_kind::mrope_hw;
  out.section = {hwt[2], hwt[0], hwt[1]};
  return out;
}

// The multimodal sections of the rope parameters at `dict`: none, contiguous or interleaved.
rope_axes axes_of(const text_context& c, const std::string& dict, std::string& key) {
  const reader& r = c.r;
  const std::string d = dict.empty() ? c.p + "rope_scaling" : dict;
  key = d + ".mrope_section";
  const std::string flag_key = d + ".mrope_interleaved";
  const std::optional<bool> flag = dict.empty() ? std::nullopt : r.flag(flag_key);
  std::optional<std::vector<double>> section = dict.empty() ? std::nullopt : r.numbers(key);
  if (!section) {
    if (c.f.mrope == mrope_rule::interleaved) section = std::vector<double>{24, 20, 20};
    else if (c.f.mrope == mrope_rule::glm) section = std::vector<double>{8, 12, 12};
    else if (c.f.mrope == mrope_rule::hw) section = std::vector<double>{22, 22, 20};
    else if (c.f.mrope == mrope_rule::required)
      fail_argument(key, " is required for ", c.f.name, " (HF reads it unconditionally)");
    else if (flag)
      fail_argument(key, " is required with ", flag_key);
    else
      return {};
  }
  // GLM's apply_mrope takes any count (chunk i on axis i % 3); posenc maps the three of
  // every released checkpoint, where it is Qwen2-VL's contiguous M-RoPE.
  if (section->size() != 3)
    fail_argument(key, " must hold 3 values (t, h, w), got ", section->size(),
                  c.f.mrope == mrope_rule::glm ? " (transformers' apply_mrope cycles more or fewer "
                  "chunks over t, h, w; posenc maps exactly three)" : "");
  rope_axes out;
  for (std::size_t a = 0; a < 3; ++a) {
    const double v = (*section)[a];
    if (!(v >= 0 && v <= 65536 && v == std::floor(v)))
      fail_argument(key, "[", a, "] must be an integer in [0, 65536], got ", v);
    out.section[a] = static_cast<int>(v);
  }
  const bool flagged = flag.value_or(false);
  if ((c.f.mrope == mrope_rule::glm || c.f.mrope == mrope_rule::hw) && flagged)
    fail_argument(flag_key, " = true is not read by ", c.f.name, " (", c.f.source,
                  "): its sections are fixed by its code; remove it");
  if (c.f.mrope == mrope_rule::hw) return hw_axes(out.section, key);
  const bool interleaved = c.f.mrope == mrope_rule::interleaved || flagged;
  out.kind = interleaved ? rope_axes_kind::mrope_interleaved : rope_axes_kind::mrope;
  return out;
}

// The scaling block HF's `_compute_*_parameters` reads, with the config keys it came from.
scaling scaling_of(const text_context& c, const std::string& dict, const rope_type_keys& t,
                   const config_options& options, std::vector<field_key>& names) {
  const reader& r = c.r;
  const std::string d = dict.empty() ? c.p + "rope_scaling" : dict;
  auto in_dict = [&](const char* field) { return d + "." + field; };
  scaling s;
  s.type = t.type;
  s.seq_len = options.seq_len;
  const std::string max_key = c.p + std::string(c.f.max_key);
  s.max_position_embeddings = r.integer(max_key, 1);
  if (!s.max_position_embeddings && c.f.max_fallback) s.max_position_embeddings = c.f.max_fallback;
  const std::string long_key = c.p + std::string(c.f.long_context_key);
  if (!c.f.long_context_key.empty() && r.flag(long_key).value_or(false))
    s.max_position_embeddings = 16384;  // Zamba2Config.__post_init__ overrides the key
  names.push_back({"scaling.max_position_embeddings", max_key});
  if (s.type == scaling_type::none) return s;
  s.factor = r.number(in_dict("factor"));
  if (!c.f.alpha_key.empty()) s.alpha = r.number(in_dict("alpha"));
  s.attention_factor = r.number(in_dict("attention_factor"));
  if (const auto v = r.number(in_dict("beta_fast"))) s.beta_fast = *v;
  if (const auto v = r.number(in_dict("beta_slow"))) s.beta_slow = *v;
  s.mscale = r.number(in_dict("mscale"));
  s.mscale_all_dim = r.number(in_dict("mscale_all_dim"));
  if (const auto v = r.flag(in_dict("truncate"))) s.truncate = *v;
  for (const char* f : {"factor", "alpha", "attention_factor", "beta_fast", "beta_slow",
                        "mscale_all_dim", "mscale", "low_freq_factor", "high_freq_factor",
                        "short_factor", "long_factor"})
    names.push_back({std::string("scaling.") + f, in_dict(f)});
  if (t.needs_original) {
    // standardize_rope_params: a top-level original_max_position_embeddings wins (Phi-3
    // saves it there; Phi3Config defaults it to 4096), else the dict's, else (in
    // inverse_frequencies) max_position_embeddings.
    std::string key = c.p + "original_max_position_embeddings";
    r.refuse_null(key, "the pre-extension context of rope type '" + std::string(t.name) + "'");
    s.original_max_position_embeddings = r.integer(key, 1);
    if (!s.original_max_position_embeddings && c.f.original_fallback)
      s.original_max_position_embeddings = c.f.original_fallback;
    if (!s.original_max_position_embeddings) {
      key = in_dict("original_max_position_embeddings");
      s.original_max_position_embeddings = r.integer(key, 1);
    }
    names.push_back({"scaling.original_max_position_embeddings", key});
  }
  if (s.type == scaling_type::llama3) {
    s.low_freq_factor = *r.number(in_dict("low_freq_factor"));
    s.high_freq_factor = *r.number(in_dict("high_freq_factor"));
  }
  if (s.type == scaling_type::longrope) {
    s.short_factor = *r.numbers(in_dict("short_factor"));
    s.long_factor = *r.numbers(in_dict("long_factor"));
  }
  return s;
}

}  // namespace

namespace {

// The stack a config's text model belongs to (stack_rule), and for an encoder-decoder
// config the prefix of the stack options.stack names.
void resolve_stack(text_context& c, const config_options& options) {
  const stack_rule& s = c.f.stacks;
  const std::string& want = options.stack;
  const std::string name(c.f.name), source(c.f.source);
  if (s.wrapper.empty()) {
    const std::string own = s.encoder_only ? "encoder" : "decoder";
    if (!want.empty() && want != own)
      fail_argument("stack ", quoted(want), ": ", name, " has only ", s.encoder_only ? "an encoder (bidirectional, " :
                    "a decoder (", source, "); pass stack '", own, "' or none");
    c.stack = own;
    return;
  }
  if (s.encoder == s.decoder) {  // DiffusionGemma: one text config, both stacks
    if (want.empty())
      fail_argument("stack is required: ", quoted(c.model_type), " runs one text config as two "
                    "stacks (", source, "); pass stack 'encoder' (the prompt's layers) or "
                    "'decoder' (the canvas's)");
    if (c.model_type == s.wrapper && c.p.empty())
      fail_argument("text_config must be an object: ", name, " reads its text model from it (",
                    source, ")");
    c.stack = want;
    return;
  }
  const bool wrapper = c.model_type == s.wrapper ||
                       (!options.family.empty() && (c.r.has("encoder") || c.r.has("decoder")));
  if (wrapper) {
    if (want.empty())
      fail_argument("stack is required: ", quoted(c.model_type), " is an encoder-decoder config (",
                    source, "); pass stack 'encoder' (", s.encoder, "…) or 'decoder' (", s.decoder, "…)");
    const std::string root(want == "encoder" ? s.encoder : s.decoder);
    for (std::size_t dot = root.find('.'); dot != std::string::npos; dot = root.find('.', dot + 1)) {
      const std::string path = root.substr(0, dot);
      if (c.r.has(path) && !c.r.is_object(path))
        fail_argument(path, " must be an object or null (absent: the config class's defaults)");
    }
    c.p = root;
    c.stack = want;
    return;
  }
  std::string own;
  for (std::string_view t : s.encoder_types)
    if (!t.empty() && t == c.model_type) own = "encoder";
  for (std::string_view t : s.decoder_types)
    if (!t.empty() && t == c.model_type) own = "decoder";
  std::string why = "model_type " + std::string(quoted(c.model_type));
  if (own.empty() && !s.decoder_flag.empty()) {  // T5GemmaModuleConfig.is_decoder, default false
    const std::string key = c.p + std::string(s.decoder_flag);
    own = c.r.flag(key).value_or(false) ? "decoder" : "encoder";
    why = key + (c.r.has(key) ? (own == "decoder" ? " = true" : " = false") : " absent (false)");
  }
  if (own.empty()) {
    if (want.empty())
      fail_argument("stack is required: ", name, "'s rules read an encoder or a decoder config, and ",
                    why, " names neither; pass stack 'encoder' or 'decoder'");
    own = want;
  }
  if (!want.empty() && want != own)
    fail_argument("stack ", quoted(want), " contradicts ", why, ": this config is ", name, "'s ", own,
                  " (", source, "); pass stack '", own, "' or none");
  c.stack = own;
}

}  // namespace

text_context text_context_of(const reader& r, const config_options& options) {
  if (r.has("text_config") && !r.is_object("text_config"))
    fail_argument("text_config must be an object or null");
  std::string p = r.is_object("text_config") ? "text_config." : "";
  if (p.empty() && r.has("thinker_config")) {  // Qwen2.5-Omni / Qwen3-Omni: get_text_config()
    if (!r.is_object("thinker_config.text_config"))
      fail_argument("thinker_config.text_config must be an object: it holds the language model "
                    "(thinker_config.get_text_config())");
    p = "thinker_config.text_config.";
  }
  const family* wrapper = r.text("model_type") ? family_named(*r.text("model_type")) : nullptr;
  const bool own = wrapper && wrapper->own_text_model;
  const std::string type_key = !own && r.text(p + "model_type") ? p + "model_type" : "model_type";
  const std::optional<std::string> model_type = r.text(type_key);
  if (!options.family.empty()) {
    const family* f = family_named(options.family);
    if (!f)
      fail_argument("family ", quoted(options.family), " is not a listed family (", family_names(),
                    ")");
    text_context c{r, p, *f, model_type.value_or("")};
    resolve_stack(c, options);
    return c;
  }
  if (!model_type)
    fail_argument(type_key, " is missing: posenc takes a family's rules from it. To read this "
                  "config with a listed family's rules on purpose, pass { family: 'llama' } "
                  "(config_options.family) or another of: ", family_names());
  const family* f = family_named(*model_type);
  if (const refusal* no = f ? nullptr : refusal_of(*model_type))
    fail_argument(type_key, " = ", quoted(*model_type), " is refused: ", no->why, " (",
                  no->source, "). To read it with a listed family's rules on purpose, pass "
                  "{ family: 'llama' } (config_options.family) or another listed family");
  if (!f)
    fail_argument(type_key, " = ", quoted(*model_type), " is not a family posenc knows. To read "
                  "it with a listed family's rules on purpose, pass { family: 'llama' } "
                  "(config_options.family) or another of: ", family_names());
  const std::string no_rope = p + std::string(f->no_rope_flag);
  if (!f->no_rope_flag.empty() && r.flag(no_rope).value_or(false))
    fail_argument(no_rope, " = true: this ", f->name, " uses ALiBi, not RoPE (", f->source,
                  "); posenc describes rotary encodings only");
  for (const refused_flag& flag : f->refused_flags)
    if (!flag.key.empty() && r.flag(p + std::string(flag.key)).value_or(false))
      fail_argument(p, flag.key, " = true: ", flag.why, " (", f->source, ")");
  text_context c{r, p, *f, *model_type};
  resolve_stack(c, options);
  return c;
}

// The indexer's head width: the family's alias when present (it wins, as MiniMaxM3VLTextConfig
// sets it last), else index_head_dim, else the class default.
std::pair<int, std::string> indexer_dim_of(const text_context& c) {
  std::string key = c.p + std::string(c.f.indexer_dim);
  const std::string alias = c.p + std::string(c.f.indexer_alias);
  if (!c.f.indexer_alias.empty() && c.r.has(alias)) key = alias;
  c.r.refuse_null(key, "the indexer's head width");
  if (const auto d = c.r.integer(key, 1)) return {*d, key};
  if (!c.f.indexer_fallback) fail_argument(key, " is required for part 'indexer'");
  return {c.f.indexer_fallback, key};
}

rope_config text_rope(const text_context& c, const std::string& layer_type,
                      const config_options& options, const std::optional<layer_theta>& theta) {
  const reader& r = c.r;
  const rope_source src = find_rope(c, layer_type);
  std::string type_key;
  const rope_type_keys& type = src.unscaled ? kRopeTypes[0] : rope_type_of(c, src.dict, type_key);
  if (!src.unscaled) check_keys(c, src.dict, type);

  const bool indexer = options.part == "indexer";
  const bool compressed = !c.f.compress.rates_key.empty();
  auto [head_dim, head_key] = head_dim_of(c, layer_type);
  if (head_dim < 2 || head_dim > max_dim)
    fail_argument(head_key, " gives head_dim ", head_dim, ", outside [2, ", max_dim, "]");
  std::optional<double> proportion;
  auto [rotary_dim, rotary_key] = rotary_dim_of(c, src.dict, type, head_dim, proportion);
  if (compressed) {  // the trailing slice: the rotator's head is the slice (rope_slice places it)
    if (indexer) {
      if (layer_type != c.f.compress.types[0].name)
        fail_argument("part 'indexer': only ", c.f.name, "'s ", c.f.compress.types[0].name,
                      " layers have an indexer (this is ", layer_type, ")");
      std::tie(head_dim, head_key) = indexer_dim_of(c);
    }
    if (rotary_dim > head_dim)
      fail_argument(rotary_key, " gives rotary dim ", rotary_dim, ", wider than ", head_key, " = ",
                    head_dim, " (", c.f.source, " rotates x[..., -rotary_dim:])");
    head_dim = rotary_dim;
  } else if (indexer) {  // DeepSeek-V3.2's indexer: its own head, the same rotary slice
    if (c.f.indexer_dim.empty())
      fail_argument("part 'indexer' names a lightning indexer (DeepSeek-V3.2, MiniMax-M3); ",
                    c.f.name, " has none");
    if (!c.f.indexer_slices) {
      rotary_key = head_key;
      rotary_dim = head_dim;
    }
    std::tie(head_dim, head_key) = indexer_dim_of(c);
    if (c.f.indexer_slices && rotary_dim > head_dim)
      fail_argument(head_key, " = ", head_dim, " is narrower than the ", rotary_dim, " rotated dims: ",
                    c.f.source, " rotates the indexer with cos[..., :", head_dim, "], whose rotate_half "
                    "pairs then take angles of different rungs, not a rotation posenc performs");
  }
  if (rotary_dim < 2 || rotary_dim % 2 != 0 || rotary_dim > head_dim)
    fail_argument(rotary_key, " gives rotary dim ", rotary_dim, " for head_dim ", head_dim,
                  ": it must be even, in [2, head_dim]");
  std::string base_key;
  double base = base_of(c, src, base_key);
  if (theta && c.f.layers.theta_flags && theta->value != base)  // MuseGlimmerTextModel
    fail_argument(theta->key, " = ", theta->value, " is not the θ transformers rotates with: ",
                  c.f.source, " only switches RoPE on for a non-zero entry and rotates at ",
                  base_key, " = ", base, "; give ", base, " (or 0 for no RoPE on that layer)");
  if (theta && !c.f.layers.theta_flags) {  // GraniteSWAModel: {**rope_parameters, "rope_theta": layer_rope_theta[i]}
    base = theta->value;
    base_key = theta->key;
  }

  std::vector<field_key> names = {{"scaling.type", type_key}, {"scaling.seq_len", "seq_len"}};
  scaling s = scaling_of(c, src.dict, type, options, names);
  s.partial_rotary_factor = proportion;
  // HunYuan's rotary keeps @dynamic_rope_update: past max_position_embeddings transformers
  // recomputes plain dynamic NTK from `factor` and drops alpha — a third ladder; refused.
  if (s.alpha && *s.alpha != 0.0 && s.seq_len && s.max_position_embeddings &&
      *s.seq_len > *s.max_position_embeddings)
    fail_argument("seq_len = ", *s.seq_len, " exceeds max_position_embeddings = ",
                  *s.max_position_embeddings, ": there transformers replaces ", c.p,
                  "rope_scaling.alpha's ladder by plain dynamic NTK (dynamic_rope_update); "
                  "posenc computes the alpha ladder up to max_position_embeddings only");

  names.push_back({"scaling.partial_rotary_factor", rotary_key});

  rope_layout layout = c.f.layout;
  if (!c.f.layout_flag.empty())  // DeepseekV3Config: rope_interleave, default true
    layout = r.flag(c.p + std::string(c.f.layout_flag)).value_or(true) ? rope_layout::interleaved
                                                                       : rope_layout::half;
  if (indexer) layout = c.f.indexer_layout;  // DeepSeek-V3.2, A.X K2: half; GLM-MoE-DSA: interleaved
  if (options.layout) layout = *options.layout;

  if (!(base > 1.0)) fail_argument(base_key, " must be > 1, got ", base);
  std::string section_key;
  const rope_axes axes = axes_of(c, src.dict, section_key);
  names.push_back({"mrope.section", section_key});
  double attention_factor = 1.0;
  try {
    attention_factor = make_axis_ladder(axes, rotary_dim, base, s).attention_factor;  // every range check, first
  } catch (const invalid_argument& e) {
    rethrow_named(e.what(), names);
  }
  if (compressed && attention_factor != 1.0)  // the output's de-rotation is (cos, -sin)·factor
    fail_argument(src.dict, ".attention_factor must be 1 for ", c.f.name, " (these rope "
                  "parameters give ", attention_factor, "): ", c.f.source,
                  " de-rotates the output by the same scaled cos/sin, which posenc's inverse "
                  "(R(−p·θ) / factor) is not: give ", src.dict, ".attention_factor = 1, as "
                  "DeepseekV4Config does for yarn");
  rope_config out;
  out.head_dim = head_dim;
  out.rotary_dim = rotary_dim;
  out.base = base;
  out.layout = layout;
  out.turn = c.f.turn;
  out.scaling = std::move(s);
  out.axes = axes;
  return out;
}

// ── the vision tower ───────────────────────────────────────────────────────────────────

std::string vision_key(const reader& r) {
  // Qwen2.5-Omni / Qwen3-Omni: the thinker holds the vision encoder (thinker_config.vision_config).
  if (!r.has("vision_config") && r.is_object("thinker_config")) return "thinker_config.vision_config";
  return "vision_config";
}

namespace {

// head_dim of a vision tower: `dims` / `heads` (integer division, as HF's attention does).
std::pair<int, std::string> vision_head_dim(const reader& r, const std::string& dims,
                                            const std::string& heads) {
  const auto h = r.integer(dims, 1);
  const auto n = r.integer(heads, 1);
  if (!h || !n) fail_argument(!h ? dims : heads, " is required (head_dim = ", dims, " / ", heads, ")");
  return {*h / *n, dims + " / " + heads};
}

void require_vision(const reader& r) {
  const std::string v = vision_key(r);
  if (r.has(v) && !r.is_object(v)) fail_argument(v, " must be an object");
  if (!r.is_object(v)) fail_argument(v, " is missing: tower 'vision' reads the vision tower's config");
}

// A vision rotary that is an axes preset (Muse Glimmer): the rotary reads head_dim when the
// config has one (getattr(config, "head_dim", None) or …), the attention hidden_size //
// num_attention_heads, so the two must agree; the "default" rope type only (any other runs
// its init function on the whole head, not the per-axis ladders).
rope_config preset_vision_rope(const reader& r, const family& f) {
  const std::string v = vision_key(r) + ".", dict = v + "rope_parameters";
  const auto [head_dim, head_key] =
      vision_head_dim(r, v + "hidden_size", v + "num_attention_heads");
  if (const auto d = r.integer(v + "head_dim", 1); d && *d != head_dim)
    fail_argument(v, "head_dim = ", *d, " is not ", head_key, " = ", head_dim, ": the rotary reads "
                  "head_dim, the attention hidden_size // num_attention_heads (", f.source, ")");
  if (r.has(dict) && !r.is_object(dict)) fail_argument(dict, " must be an object");
  const std::string type = r.text(dict + ".rope_type").value_or("default");
  if (type != "default")
    fail_argument(dict, ".rope_type = ", quoted(type), ": only 'default' builds the per-axis "
                  "ladders of ", f.vision_axes, " (", f.source, ")");
  r.refuse_null(dict + ".rope_theta", "the vision rotary's base");
  rope_config out = axes_preset(f.vision_axes, head_dim);
  out.base = r.number(dict + ".rope_theta").value_or(10000.0);  // default_theta
  if (!(out.base > 1.0)) fail_argument(dict, ".rope_theta must be > 1, got ", out.base);
  if (head_dim % 4 != 0) fail_argument(head_key, " gives head_dim ", head_dim, ": a 2-D rotary needs a multiple of 4");
  return out;
}

}  // namespace

rope_config vision_rope(const reader& r, const config_options& options) {
  require_vision(r);
  const std::string v = vision_key(r);
  const std::string top = r.text("model_type").value_or("");
  const std::string own = r.text(v + ".model_type").value_or("");
  const family* f = family_named(top.empty() ? own : top);
  if (f && !f->vision_axes.empty()) {
    if (options.layout)
      fail_argument("layout: ", f->vision_axes, "'s vision rotary fixes its pairs (", f->source, ")");
    return preset_vision_rope(r, *f);
  }
  rope_config out;
  std::string head_key, base_key = v + ".rope_theta";
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
  } else if (f && !f->vision_dims.empty()) {
    // Qwen2VisionTransformer: embed_dim // num_heads; Qwen2.5-VL / Qwen3-VL: hidden_size // num_heads.
    std::tie(out.head_dim, head_key) =
        vision_head_dim(r, v + "." + std::string(f->vision_dims), v + ".num_heads");
    out.base = 10000.0;  // VisionRotaryEmbedding(head_dim // 2), theta fixed
    base_key = "theta";
    out.axes.kind = rope_axes_kind::vision_qwen2vl;
  } else {
    fail_argument(own.empty() ? std::string("model_type") : v + ".model_type", " = ",
                  quoted(own.empty() ? top : own), " has no vision rotary posenc knows "
                  "(Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Qwen2.5-Omni, Qwen3-Omni, Pixtral)");
  }
  if (out.head_dim < 4 || out.head_dim > max_dim || out.head_dim % 4 != 0)
    fail_argument(head_key, " gives head_dim ", out.head_dim, ": a 2-D rotary needs a multiple "
                  "of 4 in [4, ", max_dim, "]");
  if (!(out.base > 1.0)) fail_argument(base_key, " must be > 1, got ", out.base);
  out.rotary_dim = out.head_dim;
  out.layout = options.layout.value_or(rope_layout::half);  // HF's rotate_half
  return out;
}

int vision_layer_count(const reader& r) {
  require_vision(r);
  const std::string v = vision_key(r);
  for (const std::string& key : {v + ".depth", v + ".num_hidden_layers"})
    if (const auto n = r.integer(key, 1)) return *n;
  fail_argument(v, ".depth (or ", v, ".num_hidden_layers) is required to list the vision "
                "tower's layers");
}

namespace {

// Muse Glimmer: layer_types[i] picks cu_seqlens or cu_window_seqlens (MuseGlimmerVisionModel.
// forward); windows of window_size // 1 // patch_size = pos_emb_height patches (no merge).
std::vector<layer_info> typed_windows(const reader& r, const vision_window_rule& w,
                                      std::vector<layer_info> out) {
  const std::string v = vision_key(r) + ".", key = v + std::string(w.types_key);
  const auto n = static_cast<int>(out.size());
  std::vector<std::string> types;
  if (const auto given = r.texts(key)) {
    types = *given;
    if (static_cast<int>(types.size()) != n)
      fail_argument(key, " lists ", types.size(), " layers, the tower has ", n);
  } else {
    for (int i = 0; i < n; ++i)
      types.emplace_back((i + 1) % w.full_every == 0 || i == n - 1 ? "full_attention" : "window_attention");
  }
  const std::string side_key = v + std::string(w.side_key);
  r.refuse_null(side_key, "the vision window");
  const int side = r.integer(side_key, 1).value_or(w.side_fallback);
  for (int i = 0; i < n; ++i) {
    const std::string& t = types[static_cast<std::size_t>(i)];
    if (t == "full_attention") continue;
    if (t != "window_attention")
      fail_argument(key, "[", i, "] must be 'full_attention' or 'window_attention', got ", quoted(t));
    out[static_cast<std::size_t>(i)].attention = attention_kind::windowed;
    out[static_cast<std::size_t>(i)].patches = patch_window{.side = side, .merge = 1};
  }
  return out;
}

}  // namespace

std::vector<layer_info> vision_layers(const reader& r) {
  const int n = vision_layer_count(r);
  const std::string top = r.text("model_type").value_or("");
  const std::string v = vision_key(r) + ".";
  const family* f = family_named(top.empty() ? r.text(v + "model_type").value_or("") : top);
  const vision_window_rule w = f ? f->vision_windows : vision_window_rule{};
  std::vector<layer_info> out;
  for (int i = 0; i < n; ++i)
    out.push_back({.index = i, .rope = 0, .bidirectional = true});  // is_causal = False
  if (!w.types_key.empty()) return typed_windows(r, w, std::move(out));
  if (w.full_key.empty()) return out;
  const std::string key = v + std::string(w.full_key);
  if (r.is_null(key))
    fail_argument(key, " is null, but transformers needs a list of layer indices (", f->source,
                  "): remove the key or give its value");
  std::vector<double> full(w.full_default.begin(), w.full_default.end());
  if (const auto given = r.numbers(key)) full = *given;
  for (std::size_t k = 0; k < full.size(); ++k)
    if (full[k] != std::floor(full[k]) || std::abs(full[k]) > 2147483647.0)
      fail_argument(key, "[", k, "] must be an integer (a layer index), got ", full[k]);
  const auto read = [&](const char* name, int fallback) {
    r.refuse_null(v + name, "the vision window");
    return r.integer(v + name, 1).value_or(fallback);
  };
  const int window = read("window_size", w.window_fallback);
  const int merge = read("spatial_merge_size", w.merge_fallback);
  const int patch = read("patch_size", w.patch_fallback);
  const patch_window tiles{.side = window / merge / patch, .merge = merge};
  if (tiles.side < 1)  // get_vision_window_index runs on every forward
    fail_argument(v, "window_size = ", window, " gives windows of ", window, " // ", merge, " // ",
                  patch, " = 0 merged tokens (window_size // spatial_merge_size // patch_size; "
                  "transformers divides by it): it must be at least ", merge * patch);
  for (layer_info& l : out) {
    // `layer_num in fullatt_block_indexes`: entries outside [0, depth) name no layer.
    if (std::find(full.begin(), full.end(), static_cast<double>(l.index)) != full.end()) continue;
    l.attention = attention_kind::windowed;
    l.patches = tiles;
  }
  return out;
}

}  // namespace detail
}  // namespace posenc
