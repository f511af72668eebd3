// config_rope_lists.cpp — per-layer rope lists (Step 3.5 / 3.7: `rope_theta` as a number or
// one θ per layer, `partial_rotary_factors` one factor per layer), turned into the config
// Step3p7TextConfig.__post_init__ makes of them: layer_types and the lists cut to
// num_hidden_layers (the published files pad them with num_nextn_predict_layers MTP entries),
// one rope_parameters dict per layer type from its first layer, rope_scaling merged into
// full_attention's. Layers of one type with different values are refused: transformers takes
// the first layer's, the model's own code each layer's.
#include "config_reader.hpp"

#include <cmath>
#include <string>

namespace posenc::detail {
namespace {

// `key` (a list of numbers, or absent) cut to n entries when it holds n + mtp.
std::optional<std::vector<double>> cut_numbers(const reader& r, const std::string& key, std::size_t n,
                                               std::size_t mtp) {
  auto v = r.numbers(key);
  if (v && mtp && v->size() == n + mtp) v->resize(n);
  if (v && v->size() != n)
    fail_argument(key, " must hold one value per layer (", n, ", or ", n + mtp, " with the ",
                  "num_nextn_predict_layers MTP entries), got ", v->size());
  return v;
}

// layer_types as the class keeps it: cut to n, else n × full_attention.
std::vector<std::string> cut_types(const reader& r, const std::string& key, std::size_t n,
                                   std::size_t mtp) {
  if (r.has(key) && !r.texts(key)) fail_argument(key, " must be a list of strings");
  std::vector<std::string> types = r.texts(key).value_or(std::vector<std::string>(n, "full_attention"));
  if (mtp && types.size() == n + mtp) types.resize(n);
  if (types.size() != n)
    fail_argument(key, " must hold one entry per layer (", n, ", or ", n + mtp, " with the ",
                  "num_nextn_predict_layers MTP entries), got ", types.size());
  return types;
}

// Keys Step3p7TextConfig pops or never reads for the rotary, which would change nothing in
// transformers while the model's own code may read them.
void refuse_unread(const text_context& c) {
  const reader& r = c.r;
  const std::string why = std::string(" (") + std::string(c.f.source) + ")";
  if (r.has(c.p + "partial_rotary_factor") || r.is_null(c.p + "partial_rotary_factor"))
    fail_argument(c.p, "partial_rotary_factor is not read by ", c.f.name, why, ": give "
                  "partial_rotary_factors, one factor per layer");
  if (r.has(c.p + "original_max_position_embeddings"))
    fail_argument(c.p, "original_max_position_embeddings is not read by ", c.f.name, why,
                  ": give it in rope_scaling");
  const std::string legacy = c.p + "rope_scaling.type";
  if (r.has(legacy) && !r.has(c.p + "rope_scaling.rope_type"))
    fail_argument(legacy, " without rope_scaling.rope_type: ", c.f.source, " merges rope_scaling "
                  "into a dict whose rope_type is 'default', so transformers applies no scaling; "
                  "give rope_scaling.rope_type");
  for (const char* k : {"rope_theta", "partial_rotary_factor"})
    if (r.has(c.p + "rope_scaling." + k))
      fail_argument(c.p, "rope_scaling.", k, " would replace the full_attention layers' value "
                    "from the per-layer lists", why, ": give it in the lists instead");
  const std::string yarn = c.p + "yarn_only_types";
  if (r.has(yarn) && r.texts(yarn) != std::vector<std::string>{"full_attention"})
    fail_argument(yarn, " is not read by transformers: ", c.f.source, " applies rope_scaling to "
                  "the full_attention layers only; give ['full_attention'] or remove it");
  const std::string use = c.p + "use_rope_layers";
  if (r.has(use) && !r.numbers(use).value_or(std::vector<double>{}).empty())
    fail_argument(use, " is not read by transformers (", c.f.source, " rotates every layer), "
                  "while the model's own code may skip RoPE on layers it lists: remove it to "
                  "follow transformers");
  const std::string both = c.p + "use_bidirectional_attention";
  if (r.flag(both).value_or(false))
    fail_argument(both, " = true: every layer then attends both ways, which posenc's causal "
                  "layer map does not describe");
  const std::string other = c.p + "attention_other_setting.head_dim";
  const auto head = r.integer(c.p + "head_dim", 1).value_or(c.f.head.fallback);
  if (const auto d = r.integer(other, 1); d && *d != head)
    fail_argument(other, " = ", *d, " is not read by transformers (", c.f.source, " gives every "
                  "layer head_dim = ", head, ")");
}

struct layer_values {
  double theta = 0.0;
  std::optional<double> partial;
  std::string theta_key, partial_key;
};

// Layer i's θ and factor, checked where they are read (rope_theta[i], partial_rotary_factors[i]).
layer_values values_at(const text_context& c, const std::optional<std::vector<double>>& thetas,
                       double theta, const std::optional<std::vector<double>>& partials,
                       int head_dim, std::size_t i) {
  layer_values v{theta, std::nullopt, c.p + "rope_theta", ""};
  std::string at = "[";  // appended, not "[" + … + "]": GCC 12 warns (-Wrestrict) on that form
  at += std::to_string(i);
  at += ']';
  if (thetas) {
    v.theta = (*thetas)[i];
    v.theta_key += at;
  }
  if (!(v.theta > 1.0) || !std::isfinite(v.theta))
    fail_argument(v.theta_key, " must be a finite number > 1, got ", v.theta);
  if (partials) {
    v.partial = (*partials)[i];
    v.partial_key = c.p + "partial_rotary_factors" + at;
    if (!(*v.partial > 0.0 && *v.partial <= 1.0))
      fail_argument(v.partial_key, " must be in (0, 1], got ", *v.partial);
    const int dims = static_cast<int>(head_dim * *v.partial);  // int(head_dim * factor)
    if (dims < 2 || dims % 2 != 0)
      fail_argument(v.partial_key, " = ", *v.partial, " gives rotary dim ", dims, " for head_dim ",
                    head_dim, ": it must be even, in [2, head_dim]");
  }
  return v;
}

}  // namespace

hf_config with_rope_lists(const hf_config& config, const text_context& c) {
  const reader& r = c.r;
  refuse_unread(c);
  const std::string count_key = c.p + "num_hidden_layers";
  const auto n_given = r.integer(count_key, 1);
  if (!n_given) fail_argument(count_key, " is required to list the decoder layers");
  const auto n = static_cast<std::size_t>(*n_given);
  const auto mtp = static_cast<std::size_t>(r.integer(c.p + "num_nextn_predict_layers", 0).value_or(0));
  const std::string types_key = c.p + "layer_types", theta_key = c.p + "rope_theta";
  const std::string partial_key = c.p + "partial_rotary_factors", params = c.p + "rope_parameters";
  const std::vector<std::string> types = cut_types(r, types_key, n, mtp);

  hf_config out = config;
  for (auto it = out.lower_bound(types_key + "."); it != out.end() && it->first.starts_with(types_key + ".");)
    it = out.erase(it);
  out[types_key] = config_value::strings(n);
  for (std::size_t i = 0; i < n; ++i)
    out[types_key + "." + std::to_string(i)] = config_value::of_text(types[i]);

  // A saved config already holds one dict per layer type: kept, the lists are not read.
  bool per_type = r.is_object(params);
  for (const std::string& t : types) per_type = per_type && r.is_object(params + "." + t);
  if (per_type) {
    for (const std::string& k : {theta_key, partial_key, c.p + "rope_scaling"})
      if (r.has(k))
        fail_argument(k, " is not read by ", c.f.name, " when ", params, " holds one dict per "
                      "layer type (", c.f.source, " keeps those): remove one of them");
    return out;
  }
  if (r.has(params))
    fail_argument(params, " is not read by ", c.f.name, " unless it holds one dict per layer "
                  "type (", c.f.source, " rebuilds it from rope_theta, partial_rotary_factors and "
                  "rope_scaling): remove it or give those keys");

  r.refuse_null(theta_key, "the base of the ladder");
  std::optional<std::vector<double>> thetas;
  double theta = c.f.base.fallback;  // default_theta
  if (r.has(theta_key) && r.find(theta_key)->type == config_value::kind::numbers)
    thetas = cut_numbers(r, theta_key, n, mtp);
  else
    theta = r.number(theta_key).value_or(theta);
  if (r.has(partial_key) && r.find(partial_key)->type != config_value::kind::numbers)
    fail_argument(partial_key, " must be a list of numbers (one factor per layer)");
  auto partials = cut_numbers(r, partial_key, n, mtp);
  if (partials && partials->empty()) partials.reset();  // `if partial_rotary_factors:`

  const std::string scaling = c.p + "rope_scaling";
  if (r.has(scaling) && !r.is_object(scaling)) fail_argument(scaling, " must be an object or null");
  out.erase(theta_key);
  out.erase(partial_key);
  out[params] = config_value::object();
  const int head_dim = r.integer(c.p + "head_dim", 1).value_or(c.f.head.fallback);
  for (std::size_t i = 0; i < n; ++i) {
    if (types[i] != "full_attention" && types[i] != "sliding_attention")
      fail_argument(types_key, "[", i, "] = ", quoted(types[i]), " is not a layer type ",
                    c.f.source, " rotates (full_attention, sliding_attention)");
    const std::string dict = params + "." + types[i];
    const layer_values v = values_at(c, thetas, theta, partials, head_dim, i);
    if (!out.contains(dict)) {  // the type's first layer
      out[dict] = config_value::object();
      out[dict + ".rope_type"] = config_value::of_text("default");
      out[dict + ".rope_theta"] = config_value::of(v.theta);
      if (v.partial) out[dict + ".partial_rotary_factor"] = config_value::of(*v.partial);
      continue;
    }
    if (out[dict + ".rope_theta"].number != v.theta)
      fail_argument(v.theta_key, " = ", v.theta, " differs from the first ", types[i], " layer's ",
                    out[dict + ".rope_theta"].number, ": ", c.f.source, " gives every layer of a "
                    "type its first layer's θ, the model's own code each layer's own");
    if (v.partial && out[dict + ".partial_rotary_factor"].number != *v.partial)
      fail_argument(v.partial_key, " = ", *v.partial, " differs from the first ", types[i],
                    " layer's ", out[dict + ".partial_rotary_factor"].number, ": ", c.f.source,
                    " gives every layer of a type its first layer's factor, the model's own code "
                    "each layer's own");
  }
  // `self.rope_parameters["full_attention"].update(rope_scaling)`.
  const std::string full = params + ".full_attention", lead = scaling + ".";
  if (out.contains(full))
    for (auto it = config.lower_bound(lead); it != config.end() && it->first.starts_with(lead); ++it)
      out[full + "." + it->first.substr(lead.size())] = it->second;
  for (auto it = out.lower_bound(scaling); it != out.end() && it->first.starts_with(scaling);)
    it = (it->first == scaling || it->first.starts_with(lead)) ? out.erase(it) : std::next(it);
  return out;
}

}  // namespace posenc::detail
