// config_compressed.cpp — compressed-attention configs (DeepSeek-V4, family compress rule),
// turned into the config DeepseekV4Config.__post_init__ makes of them: the legacy keys folded
// (compress_ratios → layer_types, compress_rate_csa / _hca → compress_rates, qk_rope_head_dim →
// partial_rotary_factor), layer_types completed and cut to num_hidden_layers, and
// rope_parameters keyed by rope-type label: `main` (the sliding layers: rope_theta, default
// type) and `compress` (the compressed layers: the flat rope_scaling / rope_parameters with
// compress_rope_theta, yarn's attention_factor set to 1 by default). The keys folded are
// removed, so the generic reader sees one form only.
#include "config_reader.hpp"

#include <cmath>
#include <string>

namespace posenc::detail {
namespace {

void erase_tree(hf_config& out, const std::string& key) {
  out.erase(key);
  const std::string lead = key + ".";
  for (auto it = out.lower_bound(lead); it != out.end() && it->first.starts_with(lead);)
    it = out.erase(it);
}

// A positive integer rate read at `key` (a ZeroDivisionError or an empty compressor in
// transformers otherwise).
int rate_at(const reader& r, const std::string& key) {
  const auto v = r.integer(key, 1);
  if (!v) fail_argument(key, " must be an integer ≥ 1 (one compressed key per that many tokens)");
  return *v;
}

// compress_rates as __post_init__ leaves it: the dict (else the class defaults), each legacy
// top-level rate folded in; keys the class does not read refused.
std::array<int, 2> rates_of(const text_context& c) {
  const compress_rule& rule = c.f.compress;
  const reader& r = c.r;
  const std::string key = c.p + std::string(rule.rates_key);
  if (r.has(key) && !r.is_object(key)) fail_argument(key, " must be an object or null");
  std::array<int, 2> out{};
  if (r.is_object(key))
    for (const std::string& child : r.children(key)) {
      bool known = false;
      for (const compressed_type& t : rule.types) known = known || child == t.name;
      if (!known)
        fail_argument(key, ".", key_text(child), " is not a compressed layer type of ", c.f.name,
                      " (", rule.types[0].name, ", ", rule.types[1].name, ": ", c.f.source, ")");
    }
  for (std::size_t i = 0; i < rule.types.size(); ++i) {
    const compressed_type& t = rule.types[i];
    const std::string own = key + "." + std::string(t.name);
    const std::string legacy = c.p + std::string(t.legacy_key);
    if (r.has(legacy)) out[i] = rate_at(r, legacy);  // `if legacy is not None`: a null is absent
    else if (r.is_object(key)) {
      if (!r.has(own))
        fail_argument(own, " is required: ", c.f.source, " reads compress_rates[", t.name,
                      "] (a KeyError in transformers)");
      out[i] = rate_at(r, own);
    } else {
      out[i] = t.rate;
    }
  }
  return out;
}

// layer_types: the list given, else the legacy per-layer ratios, else two `types[1]` layers then
// `types[0]` / `types[1]` alternating (odd / even); cut to n.
std::vector<std::string> types_of(const text_context& c, int n) {
  const compress_rule& rule = c.f.compress;
  const reader& r = c.r;
  const std::string key = c.p + "layer_types", ratios = c.p + std::string(rule.ratios_key);
  std::vector<std::string> out;
  if (r.has(key)) {
    const auto listed = r.texts(key);
    if (!listed) fail_argument(key, " must be a list of strings");
    if (listed->size() != static_cast<std::size_t>(n))
      fail_argument(key, " must hold one entry per layer (", n, "), got ", listed->size());
    out = *listed;
  } else if (r.has(ratios)) {
    const auto listed = r.numbers(ratios);
    if (!listed) fail_argument(ratios, " must be a list of numbers");
    if (listed->size() < static_cast<std::size_t>(n))
      fail_argument(ratios, " must hold a ratio per layer (at least ", n, "), got ", listed->size());
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      const double v = (*listed)[i];
      std::string_view name;
      if (v == 0.0) name = rule.sliding_name;
      for (const compressed_type& t : rule.types)
        if (v == t.legacy_ratio) name = t.name;
      if (name.empty())
        fail_argument(ratios, "[", i, "] = ", v, " is not a ratio ", c.f.source, " maps (0, ",
                      rule.types[0].legacy_ratio, ", ", rule.types[1].legacy_ratio, ")");
      out.emplace_back(name);
    }
  } else {
    for (int i = 0; i < n; ++i)
      out.emplace_back(i < 2 || i % 2 == 0 ? rule.types[1].name : rule.types[0].name);
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    bool known = out[i] == rule.sliding_name;
    for (const compressed_type& t : rule.types) known = known || out[i] == t.name;
    if (!known)
      fail_argument(key, "[", i, "] = ", quoted(out[i]), " is not a layer type of ", c.f.name,
                    " (", rule.sliding_name, ", ", rule.types[0].name, ", ", rule.types[1].name,
                    ": ", c.f.source, ")");
  }
  return out;
}

// partial_rotary_factor as __post_init__ sets it: the key, else the legacy rope dim / head_dim,
// else the class default; both given and different is refused (transformers drops the legacy one).
double factor_of(const text_context& c, int head_dim) {
  const reader& r = c.r;
  const std::string key = c.p + "partial_rotary_factor", legacy = c.p + std::string(c.f.compress.rope_dim_key);
  const std::optional<double> given = r.number(key);
  if (given && !(*given > 0.0 && *given <= 1.0)) fail_argument(key, " must be in (0, 1], got ", *given);
  const std::optional<int> dims = r.integer(legacy, 1);
  if (dims && *dims > head_dim)
    fail_argument(legacy, " = ", *dims, " exceeds head_dim = ", head_dim);
  if (given && dims && static_cast<int>(head_dim * *given) != *dims)
    fail_argument(legacy, " = ", *dims, " is not read by ", c.f.name, ": ", key, " = ", *given,
                  " wins (", c.f.source, "), rotating ", static_cast<int>(head_dim * *given),
                  " dims; remove one of them");
  if (given) return *given;
  if (dims) return static_cast<double>(*dims) / head_dim;
  return c.f.rotary.factor_fallback;
}

// A θ key transformers types float | int (strict): null refused, else the class default.
double theta_at(const reader& r, const std::string& key, double fallback) {
  r.refuse_null(key, "the rotary's base");
  return r.number(key).value_or(fallback);
}

}  // namespace

hf_config with_compressed(const hf_config& config, const text_context& c) {
  const compress_rule& rule = c.f.compress;
  const reader& r = c.r;
  const std::string count_key = c.p + std::string(c.f.layers.count_key);
  r.refuse_null(count_key, "the decoder's layer count");
  const int n = r.integer(count_key, 1).value_or(43);  // DeepseekV4Config: num_hidden_layers 43
  r.refuse_null(c.p + "head_dim", "the attention head width");
  const int head_dim = r.integer(c.p + "head_dim", 1).value_or(c.f.head.fallback);
  const std::array<int, 2> rates = rates_of(c);
  const std::vector<std::string> types = types_of(c, n);
  const double factor = factor_of(c, head_dim);
  const double theta = theta_at(r, c.p + "rope_theta", c.f.base.fallback);
  const double compress_theta = theta_at(r, c.p + std::string(rule.theta_key), rule.theta_fallback);

  const std::string scaling = c.p + "rope_scaling", parameters = c.p + "rope_parameters";
  for (const std::string& k : {scaling, parameters})
    if (r.has(k) && !r.is_object(k)) fail_argument(k, " must be an object or null");
  const std::string main = parameters + "." + std::string(rule.main_label);
  const std::string compress = parameters + "." + std::string(rule.compress_label);
  hf_config out = config;
  for (const char* k : {"layer_types", "compress_rates", "rope_theta", "partial_rotary_factor"})
    erase_tree(out, c.p + k);
  for (std::string_view k : {rule.ratios_key, rule.theta_key, rule.rope_dim_key,
                             rule.types[0].legacy_key, rule.types[1].legacy_key})
    erase_tree(out, c.p + std::string(k));
  out[count_key] = config_value::of(n);
  out[c.p + "layer_types"] = config_value::strings(types.size());
  for (std::size_t i = 0; i < types.size(); ++i)
    out[c.p + "layer_types." + std::to_string(i)] = config_value::of_text(types[i]);
  out[c.p + std::string(rule.rates_key)] = config_value::object();
  for (std::size_t i = 0; i < rule.types.size(); ++i)
    out[c.p + std::string(rule.rates_key) + "." + std::string(rule.types[i].name)] =
        config_value::of(rates[i]);

  const bool scaled = r.is_object(scaling) && !r.children(scaling).empty();  // `rope_scaling or …`
  if (!scaled && r.is_object(main) && r.is_object(compress)) {
    // Already nested: the dicts as given, standardize_rope_params' defaults filled in.
    for (const std::string& child : r.children(parameters))
      if (child != rule.main_label && child != rule.compress_label)
        fail_argument(parameters, ".", key_text(child), " is not read by ", c.f.name, " (",
                      c.f.source, " keeps only ", rule.main_label, " and ", rule.compress_label, ")");
    // standardize_rope_params (Case 2) runs again inside every non-default rope init and
    // overwrites each dict's factor with the class's, so a dict's own factor (or its absence:
    // 1.0) holds in some rotaries and not in others: refused unless it is the class's.
    const std::string top_original = c.p + "original_max_position_embeddings";
    const std::string max_key = c.p + std::string(c.f.max_key);
    for (const std::string& dict : {main, compress}) {
      if (!r.has(dict + ".rope_type") && !r.has(dict + ".type"))
        out[dict + ".rope_type"] = config_value::of_text("default");
      if (!r.has(dict + ".rope_theta")) out[dict + ".rope_theta"] = config_value::of(theta);
      const std::string own = dict + ".partial_rotary_factor";
      if (r.has(c.p + "partial_rotary_factor") || (r.has(own) && r.number(own) == factor)) {
        out[own] = config_value::of(factor);
      } else {
        fail_argument(own, r.has(own) ? " differs from" : " is missing, unlike", " the class's "
                      "partial_rotary_factor = ", factor, ": ", c.f.source, " rotates with one or "
                      "the other depending on which rotary is built first (standardize_rope_params "
                      "overwrites it); give ", own, " = ", factor, " or a top-level partial_rotary_factor");
      }
      // Case 2 takes the dict's original_max_position_embeddings, else max_position_embeddings;
      // a top-level one is not read there.
      const std::string type = r.text(dict + ".rope_type").value_or(r.text(dict + ".type").value_or("default"));
      if ((type == "yarn" || type == "llama3" || type == "longrope") &&
          !r.has(dict + ".original_max_position_embeddings"))
        out[dict + ".original_max_position_embeddings"] =
            config_value::of(r.integer(max_key, 1).value_or(c.f.max_fallback));
    }
    erase_tree(out, top_original);
    return out;
  }
  // Flat: `rope_scaling or rope_parameters` goes to `compress`, `main` is plain RoPE.
  const std::string flat = scaled ? scaling : parameters;
  for (const char* k : {"rope_theta", "partial_rotary_factor"}) {  // replaced by __post_init__
    const std::string own = flat + "." + k;
    const double used = k[0] == 'r' ? theta : factor;
    r.refuse_null(own, "it would be replaced, but say it once");
    if (const auto v = r.number(own); v && *v != used)
      fail_argument(own, " = ", *v, " is not read by ", c.f.name, " (", c.f.source, " replaces it "
                    "with ", k[0] == 'r' ? "rope_theta" : "partial_rotary_factor", " = ", used,
                    " and the compressed layers' ", rule.theta_key, "): remove it");
  }
  hf_config dicts;
  const std::string lead = flat + ".";
  for (auto it = config.lower_bound(lead); it != config.end() && it->first.starts_with(lead); ++it) {
    const std::string rest = it->first.substr(lead.size());
    if (rest == rule.main_label || rest == rule.compress_label ||
        rest.starts_with(std::string(rule.main_label) + ".") ||
        rest.starts_with(std::string(rule.compress_label) + "."))
      continue;
    dicts[compress + "." + rest] = it->second;
  }
  erase_tree(out, scaling);
  erase_tree(out, parameters);
  out[parameters] = config_value::object();
  out[main] = config_value::object();
  out[main + ".rope_type"] = config_value::of_text("default");
  out[main + ".rope_theta"] = config_value::of(theta);
  out[main + ".partial_rotary_factor"] = config_value::of(factor);
  for (auto& [k, v] : dicts) out[k] = v;
  out[compress] = config_value::object();
  out[compress + ".rope_theta"] = config_value::of(compress_theta);
  out[compress + ".partial_rotary_factor"] = config_value::of(factor);
  const reader d(dicts);
  const auto type = d.has(compress + ".rope_type") ? d.text(compress + ".rope_type")
                                                   : d.text(compress + ".type");
  if (!d.has(compress + ".rope_type")) out[compress + ".rope_type"] = config_value::of_text(type.value_or("default"));
  if (type == "yarn" && !d.has(compress + ".attention_factor"))  // setdefault("attention_factor", 1.0)
    out[compress + ".attention_factor"] = config_value::of(1.0);
  return out;
}

}  // namespace posenc::detail
