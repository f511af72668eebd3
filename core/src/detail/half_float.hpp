// core/src/detail/half_float.hpp — IEEE binary16 (float16) and bfloat16 ⇄ float32, bit
// exact: widening is exact (subnormals, ±0, ±Inf, NaN payloads kept); narrowing rounds to
// nearest, ties to even, overflowing to ±Inf, NaN → a quiet NaN of the same sign keeping
// the payload's top bits. Branch-free, so the loops over rows vectorize (SSE2 / SIMD128).
#pragma once

#include <cstddef>
#include <cstdint>

namespace posenc::detail {

// std::bit_cast (missing from the libc++ Emscripten ships), as the builtin both GCC and
// Clang provide.
template <class To, class From>
constexpr To bit_as(From v) noexcept {
  return __builtin_bit_cast(To, v);
}

inline float f16_to_f32(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t em = h & 0x7fffu;
  // Normal and subnormal: the bits shifted into float position are the value / 2^112
  // (a float subnormal for a half subnormal), so one exact multiply rescales both.
  const float finite = bit_as<float>(em << 13) * 0x1p112f;
  const std::uint32_t special = (em << 13) | 0x7f800000u;  // Inf, NaN (payload kept)
  const std::uint32_t bits = em >= 0x7c00u ? special : bit_as<std::uint32_t>(finite);
  return bit_as<float>(bits | sign);
}

inline std::uint16_t f32_to_f16(float f) noexcept {
  std::uint32_t u = bit_as<std::uint32_t>(f);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  u &= 0x7fffffffu;
  // |f| < 2^−14: the result is subnormal or zero. Adding 0.5 (2^−1) puts the half's
  // subnormal bits at the bottom of the float's mantissa, rounded to nearest even by the
  // float addition itself.
  constexpr std::uint32_t kDenormMagic = 126u << 23;
  const std::uint32_t sub =
      bit_as<std::uint32_t>(bit_as<float>(u) + bit_as<float>(kDenormMagic)) -
      kDenormMagic;
  // Normal: rebias the exponent and round the 13 dropped bits to nearest even (a carry into
  // the exponent is the correct next binade, up to Inf).
  const std::uint32_t odd = (u >> 13) & 1u;
  const std::uint32_t normal = (u + (static_cast<std::uint32_t>(15 - 127) << 23) + 0xfffu + odd) >> 13;
  const std::uint32_t nan = 0x7e00u | ((u >> 13) & 0x3ffu);
  std::uint32_t out = u < (113u << 23) ? sub : normal;
  out = u >= (143u << 23) ? 0x7c00u : out;  // ≥ 65536: Inf (65520 … 65536 carries to it)
  out = u > 0x7f800000u ? nan : out;
  return static_cast<std::uint16_t>(out | sign);
}

inline float bf16_to_f32(std::uint16_t h) noexcept {
  return bit_as<float>(static_cast<std::uint32_t>(h) << 16);
}

inline std::uint16_t f32_to_bf16(float f) noexcept {
  const std::uint32_t u = bit_as<std::uint32_t>(f);
  const std::uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  const std::uint32_t nan = (u >> 16) | 0x40u;  // quiet, sign and payload top kept
  return static_cast<std::uint16_t>((u & 0x7fffffffu) > 0x7f800000u ? nan : rounded);
}

// n values of one row, widened / narrowed (bfloat16 when bf is true).
inline void widen_row(const std::uint16_t* in, std::size_t n, bool bf, float* out) noexcept {
  if (bf)
    for (std::size_t i = 0; i < n; ++i) out[i] = bf16_to_f32(in[i]);
  else
    for (std::size_t i = 0; i < n; ++i) out[i] = f16_to_f32(in[i]);
}

inline void narrow_row(const float* in, std::size_t n, bool bf, std::uint16_t* out) noexcept {
  if (bf)
    for (std::size_t i = 0; i < n; ++i) out[i] = f32_to_bf16(in[i]);
  else
    for (std::size_t i = 0; i < n; ++i) out[i] = f32_to_f16(in[i]);
}

}  // namespace posenc::detail
