// tests/core/support.hpp — small helpers shared by the Catch2 test files.
#pragma once

#include "posenc/config.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace posenc::test {

// f() must throw exactly E (a posenc exception type) whose message names `needle`.
template <class E, class F>
void require_throws(F&& f, const std::string& needle) {
  try {
    f();
  } catch (const E& e) {
    CHECK_THAT(e.what(), Catch::Contains(needle));
    return;
  }
  FAIL("expected an exception naming " << needle);
}

// n values uniform in [−1, 1) from a seeded generator.
inline std::vector<float> random_tensor(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}


// A config.json with only its shape keys: model_type, hidden_size, num_attention_heads,
// head_dim (omitted when 0) and num_hidden_layers, under `prefix` ("text_config.": the nested
// object is created; the wrapper's own keys are the caller's).
inline hf_config config_shape(const std::string& model_type, double hidden, double heads,
                              double head_dim, double layers, const std::string& prefix = "") {
  hf_config c;
  if (!prefix.empty()) c[prefix.substr(0, prefix.size() - 1)] = config_value::object();
  c[prefix + "model_type"] = config_value::of_text(model_type);
  c[prefix + "hidden_size"] = config_value::of(hidden);
  c[prefix + "num_attention_heads"] = config_value::of(heads);
  if (head_dim > 0) c[prefix + "head_dim"] = config_value::of(head_dim);
  c[prefix + "num_hidden_layers"] = config_value::of(layers);
  return c;
}

// A flattened list of strings at `key` (config_value::strings with its elements).
inline void put_strings(hf_config& c, const std::string& key, const std::vector<std::string>& items) {
  c[key] = config_value::strings(items.size());
  for (std::size_t i = 0; i < items.size(); ++i)
    c[key + "." + std::to_string(i)] = config_value::of_text(items[i]);
}

// ── HF transformers' formulas in float64 (src/transformers/modeling_rope_utils.py) ───────

// _compute_default_rope_parameters: 1 / base^(arange(0, dim, 2) / dim).
inline std::vector<double> hf_default(int dim, double base) {
  std::vector<double> inv;
  for (int i = 0; i < dim; i += 2) inv.push_back(1.0 / std::pow(base, static_cast<double>(i) / dim));
  return inv;
}

// _compute_llama3_parameters.
inline std::vector<double> hf_llama3(int dim, double base, double factor, double low_freq_factor,
                                     double high_freq_factor, double old_context_len) {
  std::vector<double> inv = hf_default(dim, base);
  const double low_freq_wavelen = old_context_len / low_freq_factor;
  const double high_freq_wavelen = old_context_len / high_freq_factor;
  for (double& f : inv) {
    const double wavelen = 2 * std::numbers::pi / f;
    double llama = wavelen > low_freq_wavelen ? f / factor : f;
    const double smooth = (old_context_len / wavelen - low_freq_factor) /
                          (high_freq_factor - low_freq_factor);
    const double smoothed = (1 - smooth) * llama / factor + smooth * llama;
    const bool medium = !(wavelen < high_freq_wavelen) && !(wavelen > low_freq_wavelen);
    f = medium ? smoothed : llama;
  }
  return inv;
}

// A half-layout rotator over `dims` of a head_dim-wide head whose ladder is HF's default at
// `theta`, every rung divided by `factor` (linear scaling), attention factor 1; rung by rung.
inline void check_default_ladder(const rope_config& r, int head_dim, int dims, double theta,
                                 double factor = 1.0) {
  CHECK(r.head_dim == head_dim);
  CHECK(r.rotary_dim == dims);
  CHECK(r.base == theta);
  CHECK(r.layout == rope_layout::half);
  const frequencies f = inverse_frequencies(r.rotary_dim, r.base, r.scaling);
  const std::vector<double> want = hf_default(dims, theta);
  REQUIRE(f.inv_freq.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    CHECK(f.inv_freq[i] == Approx(want[i] / factor).epsilon(1e-15));
  CHECK(f.attention_factor == 1.0);
}

} // namespace posenc::test
