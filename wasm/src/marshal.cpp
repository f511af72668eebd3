// wasm/src/marshal.cpp — the scaling block → posenc::scaling, and the result release.
#include "marshal.hpp"

#include <emscripten/em_macros.h>

#include <cmath>
#include <cstdlib>
#include <optional>

namespace posenc::wasm {

namespace {

// A block value: NaN means the key was absent (every given value is finite).
void read(double v, std::optional<double>& out) {
  if (!std::isnan(v)) out = v;
}
void read(double v, std::optional<int>& out) {
  if (!std::isnan(v)) out = static_cast<int>(v);
}
void read(double v, double& out) {
  if (!std::isnan(v)) out = v;
}
void read(double v, bool& out) {
  if (!std::isnan(v)) out = v != 0.0;
}

// Fields of the block, in wasm/js/scaling.js FIELDS order; then the counts of short_factor
// and long_factor and their values.
constexpr std::size_t kFields = 14;

} // namespace

posenc::scaling scaling_at(const std::string& type, std::uintptr_t block) {
  posenc::scaling s;
  if (block == 0) return s;
  s.type = posenc::parse_scaling_type(type);
  const double* b = from_address<const double>(block);
  read(b[0], s.factor);
  read(b[1], s.original_max_position_embeddings);
  read(b[2], s.max_position_embeddings);
  read(b[3], s.seq_len);
  read(b[4], s.attention_factor);
  read(b[5], s.beta_fast);
  read(b[6], s.beta_slow);
  read(b[7], s.mscale);
  read(b[8], s.mscale_all_dim);
  read(b[9], s.truncate);
  read(b[10], s.low_freq_factor);
  read(b[11], s.high_freq_factor);
  read(b[12], s.partial_rotary_factor);
  read(b[13], s.alpha);
  const auto n_short = static_cast<std::size_t>(b[kFields]);
  const auto n_long = static_cast<std::size_t>(b[kFields + 1]);
  const double* values = b + kFields + 2;
  s.short_factor.assign(values, values + n_short);
  s.long_factor.assign(values + n_short, values + n_short + n_long);
  return s;
}

} // namespace posenc::wasm

// JS has copied the latest result out (wasm/js/heap.js take): free it.
extern "C" EMSCRIPTEN_KEEPALIVE void posenc_release_result() {
  using posenc::wasm::held_result;
  std::vector<float>().swap(held_result<float>());
  std::vector<double>().swap(held_result<double>());
  std::vector<std::int32_t>().swap(held_result<std::int32_t>());
}

// Memory for tensors and scratch blocks, on 64-byte lines as PyTorch, ONNX Runtime and ggml
// align tensors (malloc's 8 bytes put one v128 access in four across a line); 0 when
// memory cannot grow enough. Freed with free (wasm/js/heap.js).
extern "C" EMSCRIPTEN_KEEPALIVE void* posenc_alloc(std::size_t bytes) {
  return std::aligned_alloc(64, (bytes + 63) / 64 * 64);
}
