// wasm/src/bind_rotary.cpp — RoPE rotators (core: posenc/rotary.hpp).
//
// A rotator is a heap-allocated posenc::rotary_cache whose address JS keeps as an opaque
// handle in private state (wasm/js/rotary.js frees it with ropeDestroy on dispose() or
// finalization, and checks it live before every call).
// Tensors arrive as heap address + element count + shape/strides; sizes and positions as
// doubles holding safe integers (exact as int64). The core checks every range and that the
// view lies inside the `size` elements given.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/axes.hpp"
#include "posenc/detail/check.hpp"
#include "posenc/half.hpp"
#include "posenc/rotary.hpp"
#include "posenc/tensor.hpp"

#include <emscripten/bind.h>
#include <emscripten/em_macros.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

namespace posenc::wasm {
namespace {

const rotary_cache& cache_at(std::uintptr_t handle) {
  return *from_address<const rotary_cache>(handle);
}

// The strided view [tokens][heads][head_dim] at `x` (JS filled in default strides).
tensor_view view_at(const rotary_cache& cache, std::uintptr_t x, std::size_t size,
                    double tokens, double heads, double token_stride, double head_stride) {
  return {from_address<float>(x), size, i64(tokens), i64(heads), cache.head_dim(),
          i64(token_stride), i64(head_stride)};
}

direction dir_of(bool inverse) { return inverse ? direction::inverse : direction::forward; }

// → the handle (a number), or null on error. The rotator's facts come from rope_info.
// axes: "none" | "mrope" | "mrope-interleaved" | "qwen2-vl" | "pixtral" (multimodal.hpp),
// section: M-RoPE's (t, h, w) rung counts; direction: the turn, "forward" | "inverse".
val rope_create(int head_dim, int rotary_dim, double base, std::string layout,
                std::string scaling_type, std::uintptr_t scaling_block, std::string angles,
                double cache_first, double cache_count, std::string axes, int section_t,
                int section_h, int section_w, std::string direction) {
  return guarded([&] {
    rope_config config;
    config.head_dim = head_dim;
    config.rotary_dim = rotary_dim;
    config.base = base;
    config.layout = parse_rope_layout(layout);
    config.turn = parse_direction(direction);
    config.scaling = scaling_at(scaling_type, scaling_block);
    config.angles = parse_angle_precision(angles);
    config.axes = {parse_rope_axes(axes), {section_t, section_h, section_w}};
    auto cache = std::make_unique<rotary_cache>(config, i64(cache_first), i64(cache_count));
    return val(static_cast<double>(reinterpret_cast<std::uintptr_t>(cache.release())));
  });
}

// → the handle of a rotator whose axes are bands (posenc/axes.hpp): preset `preset`, or
// (preset "") the n bands whose dims and scales JS staged as 2n doubles at `bands` and whose
// names arrive comma-separated; base NaN keeps the preset's, layout "" keeps the preset's.
val rope_create_bands(int head_dim, std::string preset, std::uintptr_t bands, std::size_t n,
                      std::string names, double base, std::string layout, std::string angles,
                      double cache_first, double cache_count, std::string direction) {
  return guarded([&] {
    rope_config config;
    if (!preset.empty()) {
      config = axes_preset(preset, head_dim);
    } else {
      config.head_dim = head_dim;
      config.axes.kind = rope_axes_kind::bands;
      config.axes.name = "custom";
      const double* v = from_address<const double>(bands);
      std::size_t at = 0;
      for (std::size_t a = 0; a < n; ++a) {
        const std::size_t comma = std::min(names.find(',', at), names.size());
        config.axes.bands.push_back({names.substr(at, comma - at), static_cast<int>(v[2 * a]), v[2 * a + 1]});
        config.rotary_dim += static_cast<int>(v[2 * a]);
        at = comma + 1;
      }
      if (config.rotary_dim > head_dim)
        detail::fail_argument("axes.dims must sum to at most headDim ", head_dim, ", got ", config.rotary_dim);
      if (config.rotary_dim == 0) config.rotary_dim = 2;  // an empty list: refused by the core as such
    }
    if (!std::isnan(base)) config.base = base;
    if (!layout.empty()) config.layout = parse_rope_layout(layout);
    config.angles = parse_angle_precision(angles);
    config.turn = parse_direction(direction);
    auto cache = std::make_unique<rotary_cache>(config, i64(cache_first), i64(cache_count));
    return val(static_cast<double>(reinterpret_cast<std::uintptr_t>(cache.release())));
  });
}

// → Float64Array view [attentionFactor, rotaryDim, invFreq…] of a live rotator.
val rope_info(std::uintptr_t handle) {
  const rotary_cache& cache = cache_at(handle);
  std::vector<double> info{cache.attention_factor(), static_cast<double>(cache.rotary_dim())};
  info.insert(info.end(), cache.inv_freq().begin(), cache.inv_freq().end());
  return hand_over(std::move(info));
}

// → Float64Array view [base, interleaved (0/1), axes] of preset `name` at head_dim (JS
// reports a preset rotator's base, layout and axis count from the core's table), or null.
val axes_preset_info(std::string name, int head_dim) {
  return guarded([&] {
    const rope_config c = axes_preset(name, head_dim);
    return hand_over(std::vector<double>{c.base, c.layout == rope_layout::interleaved ? 1.0 : 0.0,
                                         static_cast<double>(c.axes.count())});
  });
}

void rope_destroy(std::uintptr_t handle) {
  delete from_address<rotary_cache>(handle);
}

// How a call's positions arrive: a start, int32 ids or float64 (real-valued) positions.
enum positions_kind : int { kStart = 0, kInt32 = 1, kReal = 2 };

// Calls f with the call's position source: start, or a span of int32 / float64 values.
template <class F>
void with_positions(int kind, std::uintptr_t positions, std::size_t n, double start, F&& f) {
  if (kind == kReal) return f(std::span<const double>(from_address<const double>(positions), n));
  if (kind == kInt32) return f(std::span<const std::int32_t>(from_address<const std::int32_t>(positions), n));
  f(i64(start));
}

// in → out (same shape and strides), token t at its positions (positions_kind), else at
// start + t. out == in takes the in-place overload, whose errors name the tensor `x` as the
// JS API does (the out-of-place one names `in` and `out`).
void rope_apply_at(std::uintptr_t handle, std::uintptr_t in, std::size_t in_size,
                   std::uintptr_t out, std::size_t out_size, double tokens, double heads,
                   double token_stride, double head_stride, std::uintptr_t positions,
                   std::size_t n_positions, double start, int kind, bool inverse) {
  const rotary_cache& cache = cache_at(handle);
  const tensor_view src = view_at(cache, in, in_size, tokens, heads, token_stride, head_stride);
  const tensor_view dst = view_at(cache, out, out_size, tokens, heads, token_stride, head_stride);
  with_positions(kind, positions, n_positions, start, [&](const auto& p) {
    if (in == out)
      posenc::rope_apply(cache, dst, p, dir_of(inverse));
    else
      posenc::rope_apply(cache, src, dst, p, dir_of(inverse));
  });
}

// Throws what an in-place rope_apply of this whole call would throw, touching no element:
// wasm/js/rotary.js checks a call first and then runs it in token chunks through scratch
// memory, so that an error leaves x unchanged as the one-call path does. check_view never
// reads data, and a view of 0 heads rotates nothing but still has its start checked.
void rope_check_at(std::uintptr_t handle, std::size_t size, double tokens, double heads,
                   double token_stride, double head_stride, double start) {
  const rotary_cache& cache = cache_at(handle);
  // Any non-null address: only the geometry is checked against `size`.
  alignas(float) static const float unread = 0;
  check_view("x", view_at(cache, reinterpret_cast<std::uintptr_t>(&unread), size, tokens, heads,
                          token_stride, head_stride));
  posenc::rope_apply(cache, view_at(cache, 0, 0, tokens, 0, token_stride, head_stride), i64(start));
}

void rope_shift_at(std::uintptr_t handle, std::uintptr_t x, std::size_t size, double tokens,
                   double heads, double token_stride, double head_stride, double delta) {
  const rotary_cache& cache = cache_at(handle);
  posenc::rope_shift(cache, view_at(cache, x, size, tokens, heads, token_stride, head_stride),
                     i64(delta));
}

// q and k (same tokens, own heads and strides) rotated forward in place, sharing one cos/sin
// row per token: token t at its positions (positions_kind), else at start + t.
void rope_apply_qk_at(std::uintptr_t handle, std::uintptr_t q, std::size_t q_size,
                      double q_heads, double q_token_stride, double q_head_stride,
                      std::uintptr_t k, std::size_t k_size, double k_heads,
                      double k_token_stride, double k_head_stride, double tokens,
                      std::uintptr_t positions, std::size_t n_positions, double start, int kind) {
  const rotary_cache& cache = cache_at(handle);
  const tensor_view qv = view_at(cache, q, q_size, tokens, q_heads, q_token_stride, q_head_stride);
  const tensor_view kv = view_at(cache, k, k_size, tokens, k_heads, k_token_stride, k_head_stride);
  with_positions(kind, positions, n_positions, start,
                 [&](const auto& p) { posenc::rope_apply_qk(cache, qv, kv, p); });
}

// → Float32Array view [cos(rotaryDim/2) | sin(rotaryDim/2)], raw (no factor).
val rope_row(std::uintptr_t handle, double position) {
  return guarded([&] {
    const rotary_cache& cache = cache_at(handle);
    const auto half = static_cast<std::size_t>(cache.rotary_dim() / 2);
    std::vector<float> row(2 * half);
    cache.row(i64(position), row.data(), row.data() + half);
    return hand_over(std::move(row));
  });
}

// → Float32Array view [cos | sin], each [tokens][rotaryDim]: HF's full-width pair (core
// rope_cos_sin), token t at positions[t] when use_positions, else at start + t; real: the
// positions are float64 values.
val rope_cos_sin(std::uintptr_t handle, std::uintptr_t positions, std::size_t n_positions,
                 double start, double tokens, bool use_positions, bool real) {
  return guarded([&] {
    const rotary_cache& cache = cache_at(handle);
    // A multi-axis rotator's positions are [axes][tokens] (rope_cos_sin checks the count).
    const std::size_t t = use_positions ? n_positions / static_cast<std::size_t>(cache.axes())
                                        : static_cast<std::size_t>(i64(tokens));
    const auto r = static_cast<std::size_t>(cache.rotary_dim());
    if (t > std::numeric_limits<std::size_t>::max() / (2 * r))  // 32-bit size_t: no wrap
      detail::fail_length("tokens·rotaryDim = ", t, "·", r, " floats (cos and sin) exceeds WebAssembly memory");
    const std::size_t n = t * r;
    std::vector<float> both(2 * n);
    const std::span<float> cos_out(both.data(), n), sin_out(both.data() + n, n);
    if (use_positions && real)
      posenc::rope_cos_sin(cache, {from_address<const double>(positions), n_positions},
                           cos_out, sin_out);
    else if (use_positions)
      posenc::rope_cos_sin(cache, {from_address<const std::int32_t>(positions), n_positions},
                           cos_out, sin_out);
    else
      posenc::rope_cos_sin(cache, i64(start), t, cos_out, sin_out);
    return hand_over(std::move(both));
  });
}

// → Float32Array view [cos(rotaryDim/2) | sin(rotaryDim/2)] of a multi-axis token at
// (p0, p1[, p2[, p3]]) (the merged row; real values where the model uses them), raw.
val rope_row_axes(std::uintptr_t handle, double p0, double p1, double p2, double p3) {
  return guarded([&] {
    const rotary_cache& cache = cache_at(handle);
    const auto half = static_cast<std::size_t>(cache.rotary_dim() / 2);
    const double p[4] = {p0, p1, p2, p3};
    std::vector<float> row(2 * half);
    cache.row(std::span<const double>(p, static_cast<std::size_t>(cache.axes())), row.data(),
              row.data() + half);
    return hand_over(std::move(row));
  });
}

// The 16-bit view [tokens][heads][head_dim] at `x` (bfloat16 when bf, else float16).
half_tensor_view half_view_at(const rotary_cache& cache, std::uintptr_t x, std::size_t size,
                              double tokens, double heads, double token_stride,
                              double head_stride, bool bf) {
  return {from_address<std::uint16_t>(x), size, i64(tokens), i64(heads), cache.head_dim(),
          i64(token_stride), i64(head_stride),
          bf ? half_format::bfloat16 : half_format::float16};
}

} // namespace
} // namespace posenc::wasm

// Raw exports for the hot calls (see guard.hpp: 0 or 1 + lastError()); same arguments as
// the functions above, booleans as 0/1, use_positions a positions_kind (0 start, 1 int32,
// 2 float64; the 16-bit calls take 0 or 1).
extern "C" {

EMSCRIPTEN_KEEPALIVE int posenc_rope_apply(std::uintptr_t handle, std::uintptr_t in,
                                           std::size_t in_size, std::uintptr_t out,
                                           std::size_t out_size, double tokens, double heads,
                                           double token_stride, double head_stride,
                                           std::uintptr_t positions, std::size_t n_positions,
                                           double start, int use_positions, int inverse) {
  return posenc::wasm::status_of([&] {
    posenc::wasm::rope_apply_at(handle, in, in_size, out, out_size, tokens, heads, token_stride,
                                head_stride, positions, n_positions, start, use_positions,
                                inverse != 0);
  });
}

EMSCRIPTEN_KEEPALIVE int posenc_rope_apply_qk(std::uintptr_t handle, std::uintptr_t q,
                                              std::size_t q_size, double q_heads,
                                              double q_token_stride, double q_head_stride,
                                              std::uintptr_t k, std::size_t k_size,
                                              double k_heads, double k_token_stride,
                                              double k_head_stride, double tokens,
                                              std::uintptr_t positions,
                                              std::size_t n_positions, double start,
                                              int use_positions) {
  return posenc::wasm::status_of([&] {
    posenc::wasm::rope_apply_qk_at(handle, q, q_size, q_heads, q_token_stride, q_head_stride, k,
                                   k_size, k_heads, k_token_stride, k_head_stride, tokens,
                                   positions, n_positions, start, use_positions);
  });
}

EMSCRIPTEN_KEEPALIVE int posenc_rope_shift(std::uintptr_t handle, std::uintptr_t x,
                                           std::size_t size, double tokens, double heads,
                                           double token_stride, double head_stride,
                                           double delta) {
  return posenc::wasm::status_of([&] {
    posenc::wasm::rope_shift_at(handle, x, size, tokens, heads, token_stride, head_stride, delta);
  });
}

// 16-bit tensors (posenc/half.hpp): x → out, sizes in 16-bit values; out the very same
// view as x is in place (errors name x), else out of place (errors name in, out); bf: bfloat16.
EMSCRIPTEN_KEEPALIVE int posenc_rope_apply16(std::uintptr_t handle, std::uintptr_t x,
                                             std::size_t size, std::uintptr_t out,
                                             std::size_t out_size, double tokens, double heads,
                                             double token_stride, double head_stride,
                                             std::uintptr_t positions, std::size_t n_positions,
                                             double start, int use_positions, int inverse,
                                             int bf) {
  using namespace posenc;
  return wasm::status_of([&] {
    const rotary_cache& cache = wasm::cache_at(handle);
    const half_tensor_view in =
        wasm::half_view_at(cache, x, size, tokens, heads, token_stride, head_stride, bf != 0);
    const half_tensor_view dst =
        wasm::half_view_at(cache, out, out_size, tokens, heads, token_stride, head_stride, bf != 0);
    const direction dir = inverse != 0 ? direction::inverse : direction::forward;
    if (use_positions != 0)
      rope_apply(cache, in, dst, {wasm::from_address<const std::int32_t>(positions), n_positions}, dir);
    else
      rope_apply(cache, in, dst, wasm::i64(start), dir);
  });
}

EMSCRIPTEN_KEEPALIVE int posenc_rope_apply_qk16(std::uintptr_t handle, std::uintptr_t q,
                                                std::size_t q_size, double q_heads,
                                                double q_token_stride, double q_head_stride,
                                                std::uintptr_t k, std::size_t k_size,
                                                double k_heads, double k_token_stride,
                                                double k_head_stride, double tokens,
                                                std::uintptr_t positions,
                                                std::size_t n_positions, double start,
                                                int use_positions, int bf) {
  using namespace posenc;
  return wasm::status_of([&] {
    const rotary_cache& cache = wasm::cache_at(handle);
    const half_tensor_view qv = wasm::half_view_at(cache, q, q_size, tokens, q_heads,
                                                   q_token_stride, q_head_stride, bf != 0);
    const half_tensor_view kv = wasm::half_view_at(cache, k, k_size, tokens, k_heads,
                                                   k_token_stride, k_head_stride, bf != 0);
    if (use_positions != 0)
      rope_apply_qk(cache, qv, kv, {wasm::from_address<const std::int32_t>(positions), n_positions});
    else
      rope_apply_qk(cache, qv, kv, wasm::i64(start));
  });
}

EMSCRIPTEN_KEEPALIVE int posenc_rope_check(std::uintptr_t handle, std::size_t size, double tokens,
                                           double heads, double token_stride,
                                           double head_stride, double start) {
  return posenc::wasm::status_of([&] {
    posenc::wasm::rope_check_at(handle, size, tokens, heads, token_stride, head_stride, start);
  });
}

} // extern "C"

EMSCRIPTEN_BINDINGS(posenc_rotary) {
  using namespace posenc::wasm;
  emscripten::function("ropeCreate", &rope_create);
  emscripten::function("ropeCreateBands", &rope_create_bands);
  emscripten::function("axesPresetInfo", &axes_preset_info);
  emscripten::function("ropeDestroy", &rope_destroy);
  emscripten::function("ropeInfo", &rope_info);
  emscripten::function("ropeRow", &rope_row);
  emscripten::function("ropeCosSin", &rope_cos_sin);
  emscripten::function("ropeRowAxes", &rope_row_axes);
}
