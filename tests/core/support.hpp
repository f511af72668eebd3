// tests/core/support.hpp — small helpers shared by the Catch2 test files.
#pragma once

#include "posenc/config.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
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

} // namespace posenc::test
