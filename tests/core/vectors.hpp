// tests/core/vectors.hpp — reads the golden float64 cases of tests/vectors/*.json (written by
// tests/vectors/generate.mjs from the test reference; the format is described there).
// The directory comes from the POSENC_VECTORS_DIR macro that tests/core/CMakeLists.txt sets.
#pragma once

#include "posenc/frequencies.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef POSENC_VECTORS_DIR
#error "POSENC_VECTORS_DIR must name the tests/vectors directory"
#endif

namespace posenc_test {

using json = nlohmann::json;

// The "cases" array of tests/vectors/<file>; throws std::runtime_error (failing the test
// that called it) when the file is missing, unparsable or has no cases.
inline json load_cases(const std::string& file) {
  const std::string path = std::string(POSENC_VECTORS_DIR) + "/" + file;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open golden vector file " + path);
  const json doc = json::parse(in);
  if (!doc.contains("cases") || doc["cases"].empty())
    throw std::runtime_error(path + " holds no cases");
  return doc["cases"];
}

// A JSON array of numbers as std::vector<T> (double, float or int32).
template <class T>
std::vector<T> numbers(const json& array) {
  std::vector<T> out;
  out.reserve(array.size());
  for (const json& v : array) out.push_back(v.get<T>());
  return out;
}

// params["key"] when present, else `fallback`.
template <class T>
T value_or(const json& params, const char* key, T fallback) {
  return params.contains(key) ? params[key].get<T>() : fallback;
}

// camelCase `scaling` object of a case's params → posenc::scaling (none if absent).
inline posenc::scaling scaling_from(const json& params) {
  posenc::scaling s;
  if (!params.contains("scaling")) return s;
  const json& j = params["scaling"];
  s.type = posenc::parse_scaling_type(j.at("type").get<std::string>());
  const auto optional_double = [&j](const char* key, std::optional<double>& out) {
    if (j.contains(key)) out = j[key].get<double>();
  };
  const auto optional_int = [&j](const char* key, std::optional<int>& out) {
    if (j.contains(key)) out = j[key].get<int>();
  };
  optional_double("factor", s.factor);
  optional_int("originalMaxPositionEmbeddings", s.original_max_position_embeddings);
  optional_int("maxPositionEmbeddings", s.max_position_embeddings);
  optional_int("seqLen", s.seq_len);
  optional_double("attentionFactor", s.attention_factor);
  optional_double("mscale", s.mscale);
  optional_double("mscaleAllDim", s.mscale_all_dim);
  s.beta_fast = value_or(j, "betaFast", s.beta_fast);
  s.beta_slow = value_or(j, "betaSlow", s.beta_slow);
  s.truncate = value_or(j, "truncate", s.truncate);
  s.low_freq_factor = value_or(j, "lowFreqFactor", s.low_freq_factor);
  s.high_freq_factor = value_or(j, "highFreqFactor", s.high_freq_factor);
  if (j.contains("shortFactor")) s.short_factor = numbers<double>(j["shortFactor"]);
  if (j.contains("longFactor")) s.long_factor = numbers<double>(j["longFactor"]);
  return s;
}

// The positions of a table/rope case: the `positions` list, or `positions`/`tokens` rows
// counted from `start` (the contract accepts both forms).
inline std::vector<std::int32_t> position_list(const json& params, std::int64_t count) {
  if (params.contains("positions") && params["positions"].is_array())
    return numbers<std::int32_t>(params["positions"]);
  const auto start = value_or<std::int64_t>(params, "start", 0);
  std::vector<std::int32_t> out;
  for (std::int64_t r = 0; r < count; ++r) out.push_back(static_cast<std::int32_t>(start + r));
  return out;
}

} // namespace posenc_test
