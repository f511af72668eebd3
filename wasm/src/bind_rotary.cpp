// wasm/src/bind_rotary.cpp — RoPE rotators (core: posenc/rotary.hpp).
//
// A rotator is a heap-allocated posenc::rotary_cache whose address JS keeps as an opaque
// handle (wasm/js/rotary.js frees it with ropeDestroy on dispose() or finalization).
// Tensors arrive as heap address + element count + shape/strides; sizes and positions as
// doubles holding safe integers (exact as int64). The core checks every range and that the
// view lies inside the `size` elements given.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/rotary.hpp"
#include "posenc/tensor.hpp"

#include <emscripten/bind.h>
#include <emscripten/em_macros.h>

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

// → { handle, attentionFactor, invFreq, rotaryDim }
val rope_create(int head_dim, int rotary_dim, double base, std::string layout, val scaling,
                std::string angles, double cache_first, double cache_count) {
  return guarded([&] {
    rope_config config;
    config.head_dim = head_dim;
    config.rotary_dim = rotary_dim;
    config.base = base;
    config.layout = parse_rope_layout(layout);
    config.scaling = scaling_from_js(scaling);
    config.angles = parse_angle_precision(angles);
    auto cache = std::make_unique<rotary_cache>(config, i64(cache_first), i64(cache_count));
    val out = val::object();
    out.set("attentionFactor", cache->attention_factor());
    out.set("invFreq", copy_to_js(cache->inv_freq().data(), cache->inv_freq().size()));
    out.set("rotaryDim", cache->rotary_dim());
    out.set("handle", reinterpret_cast<std::uintptr_t>(cache.release()));
    return out;
  });
}

void rope_destroy(std::uintptr_t handle) {
  delete from_address<rotary_cache>(handle);
}

// in → out (same shape and strides), token t at positions[t] when use_positions, else at
// start + t. out == in takes the in-place overload, whose errors name the tensor `x` as the
// JS API does (the out-of-place one names `in` and `out`).
void rope_apply_at(std::uintptr_t handle, std::uintptr_t in, std::size_t in_size,
                   std::uintptr_t out, std::size_t out_size, double tokens, double heads,
                   double token_stride, double head_stride, std::uintptr_t positions,
                   std::size_t n_positions, double start, bool use_positions, bool inverse) {
  const rotary_cache& cache = cache_at(handle);
  const tensor_view src = view_at(cache, in, in_size, tokens, heads, token_stride, head_stride);
  const tensor_view dst = view_at(cache, out, out_size, tokens, heads, token_stride, head_stride);
  const std::span<const std::int32_t> p(from_address<const std::int32_t>(positions), n_positions);
  if (in == out && use_positions)
    posenc::rope_apply(cache, dst, p, dir_of(inverse));
  else if (in == out)
    posenc::rope_apply(cache, dst, i64(start), dir_of(inverse));
  else if (use_positions)
    posenc::rope_apply(cache, src, dst, p, dir_of(inverse));
  else
    posenc::rope_apply(cache, src, dst, i64(start), dir_of(inverse));
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

val rope_shift(std::uintptr_t handle, std::uintptr_t x, std::size_t size, double tokens,
               double heads, double token_stride, double head_stride, double delta) {
  return guarded([&] {
    const rotary_cache& cache = cache_at(handle);
    posenc::rope_shift(cache, view_at(cache, x, size, tokens, heads, token_stride, head_stride),
                       i64(delta));
    return val::undefined();
  });
}

// q and k (same tokens, own heads and strides) rotated forward in place, sharing one cos/sin
// row per token. A position list when n_positions ≥ 0, else start.
val rope_apply_qk(std::uintptr_t handle, std::uintptr_t q, std::size_t q_size, double q_heads,
                  double q_token_stride, double q_head_stride, std::uintptr_t k,
                  std::size_t k_size, double k_heads, double k_token_stride,
                  double k_head_stride, double tokens, std::uintptr_t positions,
                  std::size_t n_positions, double start, bool use_positions) {
  return guarded([&] {
    const rotary_cache& cache = cache_at(handle);
    const tensor_view qv = view_at(cache, q, q_size, tokens, q_heads, q_token_stride, q_head_stride);
    const tensor_view kv = view_at(cache, k, k_size, tokens, k_heads, k_token_stride, k_head_stride);
    if (use_positions)
      posenc::rope_apply_qk(cache, qv, kv, {from_address<const std::int32_t>(positions), n_positions});
    else
      posenc::rope_apply_qk(cache, qv, kv, i64(start));
    return val::undefined();
  });
}

// → { cos: Float32Array(rotaryDim/2), sin: Float32Array(rotaryDim/2) }, raw (no factor).
val rope_row(std::uintptr_t handle, double position) {
  return guarded([&] {
    const rotary_cache& cache = cache_at(handle);
    const auto half = static_cast<std::size_t>(cache.rotary_dim() / 2);
    std::vector<float> cos(half), sin(half);
    cache.row(i64(position), cos.data(), sin.data());
    val out = val::object();
    out.set("cos", copy_to_js(cos));
    out.set("sin", copy_to_js(sin));
    return out;
  });
}

} // namespace
} // namespace posenc::wasm

// Raw exports for the hot calls (see guard.hpp: 0 or 1 + lastError()); same arguments as
// the functions above, booleans as 0/1.
extern "C" {

EMSCRIPTEN_KEEPALIVE int posenc_rope_apply(std::uintptr_t handle, std::uintptr_t in,
                                           std::size_t in_size, std::uintptr_t out,
                                           std::size_t out_size, double tokens, double heads,
                                           double token_stride, double head_stride,
                                           std::uintptr_t positions, std::size_t n_positions,
                                           double start, int use_positions, int inverse) {
  return posenc::wasm::status_of([&] {
    posenc::wasm::rope_apply_at(handle, in, in_size, out, out_size, tokens, heads, token_stride,
                                head_stride, positions, n_positions, start, use_positions != 0,
                                inverse != 0);
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
  emscripten::function("ropeDestroy", &rope_destroy);
  emscripten::function("ropeApplyQK", &rope_apply_qk);
  emscripten::function("ropeShift", &rope_shift);
  emscripten::function("ropeRow", &rope_row);
}
