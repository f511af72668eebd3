// posenc/half.hpp — RoPE on 16-bit storage: IEEE float16 or bfloat16 tensors
// [tokens][heads][head_dim], as models keep q and k.
//
// Each value is widened exactly to float32 as the rotation kernel loads it, rotated by the
// float32 formula with the rows of rope_apply (rotary.hpp: the same rows and bounds), and
// rounded back to the 16-bit format to nearest, ties to even, as it is stored (SIMD where
// the CPU has it: SSE2 / WebAssembly SIMD, AVX2 + F16C): the result is the 16-bit
// rounding of the float32 result, so within 1 ulp of the format of the exact rotation of
// the decoded inputs (0.5 ulp from the final rounding, plus float32's ≤ 4e−7 relative,
// which can move a value across a rounding boundary). Subnormals are kept; ±Inf and NaN
// inputs give NaN/Inf as float arithmetic does; a rotated value beyond the format's
// range becomes ±Inf (float16 max 65504; bfloat16 has float32's range). Pass-through dims
// (≥ rotary_dim) keep their bits (copied bit for bit out of place).
#pragma once

#include "posenc/rotary.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace posenc {

enum class half_format { float16, bfloat16 };

// "float16" | "bfloat16"; anything else throws posenc::invalid_argument naming `dtype`.
half_format parse_half_format(std::string_view name);
std::string_view to_string(half_format format) noexcept;

// One value's conversions (exact widening; round-to-nearest-even narrowing).
float to_float(std::uint16_t bits, half_format format) noexcept;
std::uint16_t from_float(float value, half_format format) noexcept;

// A strided view of 16-bit values, with tensor_view's geometry rules (tensor.hpp): element
// (t, h, j) at data[t·token_stride + h·head_stride + j], `size` values owned at data.
struct half_tensor_view {
  std::uint16_t* data = nullptr;
  std::size_t size = 0;
  std::int64_t tokens = 0;
  std::int64_t heads = 0;
  std::int64_t dim = 0;
  std::int64_t token_stride = 0;
  std::int64_t head_stride = 0;
  half_format format = half_format::float16;

  static half_tensor_view dense(std::uint16_t* data, std::size_t size, std::int64_t tokens,
                                std::int64_t heads, std::int64_t dim, half_format format) {
    return {data, size, tokens, heads, dim, dense_token_stride(heads, dim), dim, format};
  }
};

// rope_apply / rope_apply_qk on 16-bit tensors, in place: the contract of rotary.hpp
// (positions, multi-axis positions, start, direction, GQA), with the error above. The
// views are checked as check_view checks float views, naming x, q or k; q and k must not
// share memory. Out of place, `in` is only read and `out` (in's tokens, heads, dim and
// dtype; any strides) receives the rotation, pass-through dims copied bit for bit; out is
// either the very same view as in (then in place) or shares no memory with it. There is
// no conversion between storage types: a float32 destination takes the float32 overloads.
// Invalid arguments throw before anything is written.
void rope_apply(const rotary_cache& cache, half_tensor_view x,
                std::span<const std::int32_t> positions, direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, half_tensor_view x,
                std::span<const std::int64_t> positions, direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, half_tensor_view x, std::int64_t start,
                direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, half_tensor_view in, half_tensor_view out,
                std::span<const std::int32_t> positions, direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, half_tensor_view in, half_tensor_view out,
                std::span<const std::int64_t> positions, direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, half_tensor_view in, half_tensor_view out,
                std::int64_t start, direction dir = direction::forward);
void rope_apply_qk(const rotary_cache& cache, half_tensor_view q, half_tensor_view k,
                   std::span<const std::int32_t> positions);
void rope_apply_qk(const rotary_cache& cache, half_tensor_view q, half_tensor_view k,
                   std::int64_t start);

}  // namespace posenc
