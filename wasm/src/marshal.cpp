// wasm/src/marshal.cpp — JS scaling object → posenc::scaling (camelCase → snake_case).
#include "marshal.hpp"

namespace posenc::wasm {

namespace {

template <class T>
void read(const val& js, const char* key, T& out) {
  if (has(js, key)) out = js[key].as<T>();
}

template <class T>
void read(const val& js, const char* key, std::optional<T>& out) {
  if (has(js, key)) out = js[key].as<T>();
}

void read(const val& js, const char* key, std::vector<double>& out) {
  if (has(js, key)) out = emscripten::convertJSArrayToNumberVector<double>(js[key]);
}

} // namespace

posenc::scaling scaling_from_js(const val& js) {
  posenc::scaling s;
  if (js.isUndefined() || js.isNull()) return s;
  s.type = posenc::parse_scaling_type(js["type"].as<std::string>());
  read(js, "factor", s.factor);
  read(js, "originalMaxPositionEmbeddings", s.original_max_position_embeddings);
  read(js, "maxPositionEmbeddings", s.max_position_embeddings);
  read(js, "seqLen", s.seq_len);
  read(js, "attentionFactor", s.attention_factor);
  read(js, "betaFast", s.beta_fast);
  read(js, "betaSlow", s.beta_slow);
  read(js, "mscale", s.mscale);
  read(js, "mscaleAllDim", s.mscale_all_dim);
  read(js, "truncate", s.truncate);
  read(js, "lowFreqFactor", s.low_freq_factor);
  read(js, "highFreqFactor", s.high_freq_factor);
  read(js, "shortFactor", s.short_factor);
  read(js, "longFactor", s.long_factor);
  return s;
}

} // namespace posenc::wasm
