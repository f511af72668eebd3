// core/src/detail/half_float.hpp — IEEE binary16 (float16) and bfloat16 ⇄ float32, bit
// exact: widening is exact (subnormals, ±0, ±Inf; a NaN comes out quiet, payload kept); narrowing rounds to
// nearest, ties to even, overflowing to ±Inf, NaN → a quiet NaN of the same sign keeping
// the payload's top bits. SSE2, WebAssembly SIMD128 and AVX2 lane versions below serve the
// 16-bit RoPE kernels (half_kernels.hpp), bit-identical to the scalar functions on every
// input the kernels give them (AVX2's bfloat16 narrowing assumes no NaN with nonzero low 16
// bits, which the kernels never produce: see avx2_half::merge16_bf16). The split kernels move
// 16-bit values as even/odd splits (split8 / merge8, split16_bf16 / merge16_bf16): one full
// vector of 16-bit values forms two 32-bit batches by a shift and a mask, no shuffle.
#pragma once

#include "bit_as.hpp"

#include <cstddef>
#include <cstdint>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace posenc::detail {

inline float f16_to_f32(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t em = h & 0x7fffu;
  // Normal and subnormal: the bits shifted into float position are the value / 2^112
  // (a float subnormal for a half subnormal), so one exact multiply rescales both.
  const float finite = bit_as<float>(em << 13) * 0x1p112f;
  // Inf, NaN (quieted, payload kept: what F16C's widening gives)
  const std::uint32_t special = (em << 13) | 0x7f800000u | (em > 0x7c00u ? 0x00400000u : 0u);
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

#if defined(__wasm_simd128__)
// Four values at a time in WebAssembly SIMD128, by its own intrinsics rather than
// Emscripten's SSE2 ones, shaped for what engines generate: the common path is a few
// integer and float operations, and the test for a rare lane (Inf, NaN, a subnormal or
// overflowing result) is one subtraction whose sign bits i32x4.bitmask reads (an integer
// range compare on known-positive lanes becomes an unsigned one, which x86 engines
// emulate in four instructions). A batch with a rare lane takes the full path, which
// computes every case as the scalar function does; so results are bit-identical to it.
namespace wasm_half {

// Marks the start of a rare path: an empty volatile asm, a side effect the compiler may
// not speculate, so the path stays behind its branch instead of being computed for every
// batch and selected (a call would do too, but engines then spill the common path's
// registers around it).
inline void rare_path() noexcept { __asm__ volatile(""); }

// True when some lane of v is negative (its sign bit set).
inline bool any_negative(v128_t v) noexcept { return wasm_i32x4_bitmask(v) != 0; }

// Four 16-bit values at p, each in the high half of a 32-bit lane (the low half zero).
inline v128_t load_high4(const std::uint16_t* p) noexcept {
  return wasm_i16x8_shuffle(wasm_i32x4_splat(0), wasm_v128_load64_zero(p), 0, 8, 1, 9, 2, 10, 3, 11);
}

// The low 16 bits of each lane stored at p (high: the high 16 bits).
template <bool High>
inline void store16x4(v128_t v, std::uint16_t* p) noexcept {
  constexpr int b = High ? 2 : 0;
  wasm_v128_store64_lane(p, wasm_i8x16_shuffle(v, v, b, b + 1, b + 4, b + 5, b + 8, b + 9, b + 12, b + 13,
                                               b, b + 1, b + 4, b + 5, b + 8, b + 9, b + 12, b + 13), 0);
}

// Eight 16-bit values at p split without a shuffle: the even ones (p[0], p[2], …) and the
// odd ones (p[1], p[3], …), each in the high half of a 32-bit lane, the low half zero.
inline void split8(const std::uint16_t* p, v128_t& even, v128_t& odd) noexcept {
  const v128_t v = wasm_v128_load(p);
  even = wasm_i32x4_shl(v, 16);
  odd = wasm_v128_and(v, wasm_i32x4_splat(static_cast<int>(0xffff0000u)));
}

// split8's inverse: the even and odd values, each in the high half of its lanes (the low
// half ignored), merged and stored as eight 16-bit values at p.
inline void merge8(v128_t even, v128_t odd, std::uint16_t* p) noexcept {
  const v128_t mask = wasm_i32x4_splat(static_cast<int>(0xffff0000u));
  wasm_v128_store(p, wasm_v128_or(wasm_u32x4_shr(even, 16), wasm_v128_and(odd, mask)));
}

// float16 values in the high halves of the lanes → their float32 bits where they are finite:
// sign | em << 13 (the arithmetic shift's copies of the sign in bits 28..30 and the low
// half's bits masked off), then f16_to_f32's one exact multiply, which keeps the sign.
inline v128_t widen_f16_finite(v128_t v) noexcept {
  const v128_t s = wasm_v128_and(wasm_i32x4_shr(v, 3), wasm_i32x4_splat(static_cast<int>(0x8fffe000u)));
  return wasm_f32x4_mul(s, wasm_f32x4_splat(0x1p112f));
}

// float16 values in the high halves of the lanes (load_high4, split8) → their float32 bits.
inline v128_t widen_f16(v128_t v) noexcept {
  const v128_t f = widen_f16_finite(v);
  const v128_t mag = wasm_v128_and(v, wasm_i32x4_splat(0x7fffffff));  // em << 16
  const v128_t below_inf = wasm_i32x4_sub(wasm_i32x4_splat(0x7bffffff), mag);  // < 0: Inf / NaN
  if (any_negative(below_inf)) [[unlikely]] {
    rare_path();  // Inf / NaN (em ≥ 0x7c00): f is ±2^16·(1 + m/1024), lacking the all-ones
                  // exponent and, for NaN, the quiet bit
    const v128_t special = wasm_i32x4_shr(below_inf, 31);
    const v128_t nan = wasm_i32x4_shr(wasm_i32x4_sub(wasm_i32x4_splat(0x7c000000), mag), 31);
    return wasm_v128_or(f, wasm_v128_or(wasm_v128_and(special, wasm_i32x4_splat(0x7f800000)),
                                        wasm_v128_and(nan, wasm_i32x4_splat(0x00400000))));
  }
  return f;
}

// f32_to_f16's result for a normal float16 (abs: x without its sign bit), without the sign.
inline v128_t normal_f16(v128_t abs) noexcept {
  return wasm_u32x4_shr(
      wasm_i32x4_add(wasm_i32x4_add(abs, wasm_i32x4_splat(static_cast<int>(0xc8000fffu))),
                     wasm_v128_and(wasm_u32x4_shr(abs, 13), wasm_i32x4_splat(1))), 13);
}

// f32_to_f16 of every lane, every case (|x| < 2^−14, ≥ 65536, NaN by float comparisons:
// u < 113 << 23, u ≥ 143 << 23, u > 0x7f800000 of the scalar function), the result in the
// low 16 bits of each lane.
inline v128_t narrow_f16_full(v128_t x) noexcept {
  const v128_t abs = wasm_v128_and(x, wasm_i32x4_splat(0x7fffffff));
  const v128_t top = wasm_u32x4_shr(abs, 13);
  const v128_t normal = normal_f16(abs);
  const v128_t magic = wasm_i32x4_splat(126 << 23);
  const v128_t sub = wasm_i32x4_sub(wasm_f32x4_add(abs, magic), magic);
  const v128_t nan = wasm_v128_or(wasm_i32x4_splat(0x7e00), wasm_v128_and(top, wasm_i32x4_splat(0x3ff)));
  v128_t out = wasm_v128_bitselect(sub, normal, wasm_f32x4_lt(abs, wasm_f32x4_splat(0x1p-14f)));
  out = wasm_v128_bitselect(out, wasm_i32x4_splat(0x7c00), wasm_f32x4_lt(abs, wasm_f32x4_splat(65536.0f)));
  out = wasm_v128_bitselect(nan, out, wasm_f32x4_ne(abs, abs));
  return wasm_v128_or(out, wasm_v128_and(wasm_u32x4_shr(x, 16), wasm_i32x4_splat(0x8000)));
}

// Four float32 bit patterns → their float16 values in the low 16 bits of the lanes.
inline v128_t narrow_f16(v128_t x) noexcept {
  const v128_t abs = wasm_v128_and(x, wasm_i32x4_splat(0x7fffffff));
  // The normal result is the answer exactly when it lies in [0x400, 0x7c00]: below 2^−14 it
  // is < 0x400 or wraps to ≥ 2^18, but where it rounds up to 0x400, which is right; above
  // 65536 (NaN too) it exceeds 0x7c00, but where it is 0x7c00, Inf, which is right.
  const v128_t normal = normal_f16(abs);
  if (any_negative(wasm_v128_or(wasm_i32x4_sub(wasm_i32x4_splat(0x7c00), normal),
                                wasm_i32x4_sub(normal, wasm_i32x4_splat(0x400))))) [[unlikely]] {
    rare_path();
    return narrow_f16_full(x);
  }
  return wasm_v128_or(normal, wasm_v128_and(wasm_u32x4_shr(x, 16), wasm_i32x4_splat(0x8000)));
}

// f32_to_bf16's rounding of non-NaN float32 bits to nearest even, the result in the high half.
inline v128_t round_bf16(v128_t x) noexcept {
  const v128_t odd = wasm_v128_and(wasm_u32x4_shr(x, 16), wasm_i32x4_splat(1));
  return wasm_i32x4_add(wasm_i32x4_add(x, wasm_i32x4_splat(0x7fff)), odd);
}

// Four float32 bit patterns → their bfloat16 values in the high 16 bits of the lanes
// (store with store16x4<true> or merge8).
inline v128_t narrow_bf16(v128_t x) noexcept {
  const v128_t rounded = round_bf16(x);
  const v128_t is_nan = wasm_f32x4_ne(x, x);
  if (any_negative(is_nan)) [[unlikely]] {
    rare_path();  // NaN lanes: quiet, sign and payload top kept
    return wasm_v128_bitselect(wasm_v128_or(x, wasm_i32x4_splat(0x00400000)), rounded, is_nan);
  }
  return rounded;
}

// Eight float32 bit patterns (the even and the odd values) → eight bfloat16 values stored at
// p, f32_to_bf16 of each (narrow_bf16's steps); one NaN test for all eight.
inline void narrow8_bf16(v128_t even, v128_t odd, std::uint16_t* p) noexcept {
  const v128_t nan_e = wasm_f32x4_ne(even, even), nan_o = wasm_f32x4_ne(odd, odd);
  if (any_negative(wasm_v128_or(nan_e, nan_o))) [[unlikely]] {
    rare_path();
    return merge8(narrow_bf16(even), narrow_bf16(odd), p);
  }
  merge8(round_bf16(even), round_bf16(odd), p);
}

// Whole rows for the staged float16 kernel (half_kernels.hpp): n values (a multiple of 8),
// in order, with one range test per row; each returns false when some value needed its
// rare path, and then the row is redone by the *_each version, which tests each batch of
// four (widen_f16, narrow_f16) so that only those take the full path.

// float16 at p → float32 at f, every value taken as finite; false if one was Inf or NaN.
inline bool widen_row_f16(const std::uint16_t* p, std::size_t n, float* f) noexcept {
  const v128_t zero = wasm_i32x4_splat(0);
  v128_t top = zero;  // the largest em (value without its sign) seen, per 16-bit lane
  for (std::size_t j = 0; j < n; j += 8) {
    const v128_t v = wasm_v128_load(p + j);
    top = wasm_i16x8_max(top, wasm_v128_and(v, wasm_i16x8_splat(0x7fff)));
    wasm_v128_store(f + j, widen_f16_finite(wasm_i16x8_shuffle(zero, v, 0, 8, 1, 9, 2, 10, 3, 11)));
    wasm_v128_store(f + j + 4, widen_f16_finite(wasm_i16x8_shuffle(zero, v, 4, 12, 5, 13, 6, 14, 7, 15)));
  }
  return !wasm_v128_any_true(wasm_i16x8_gt(top, wasm_i16x8_splat(0x7bff)));
}

inline void widen_row_f16_each(const std::uint16_t* p, std::size_t n, float* f) noexcept {
  for (std::size_t j = 0; j < n; j += 4) wasm_v128_store(f + j, widen_f16(load_high4(p + j)));
}

// float32 at f → float16 at p by normal_f16; false if some result was not a normal float16
// (f32_to_f16's other cases), the test narrow_f16 makes, on the row's least and largest.
inline bool narrow_row_f16(const float* f, std::size_t n, std::uint16_t* p) noexcept {
  const v128_t abs_mask = wasm_i32x4_splat(0x7fffffff);
  v128_t least = wasm_i16x8_splat(-1), largest = wasm_i16x8_splat(0);
  for (std::size_t j = 0; j < n; j += 8) {
    const v128_t x0 = wasm_v128_load(f + j), x1 = wasm_v128_load(f + j + 4);
    // Results ≥ 2^16 saturate to 0xffff, outside [0x400, 0x7c00] as they were.
    const v128_t m = wasm_u16x8_narrow_i32x4(normal_f16(wasm_v128_and(x0, abs_mask)),
                                             normal_f16(wasm_v128_and(x1, abs_mask)));
    least = wasm_u16x8_min(least, m);
    largest = wasm_u16x8_max(largest, m);
    const v128_t sign = wasm_i16x8_narrow_i32x4(wasm_i32x4_shr(x0, 16), wasm_i32x4_shr(x1, 16));
    wasm_v128_store(p + j, wasm_v128_or(m, wasm_v128_and(sign, wasm_i16x8_splat(static_cast<short>(0x8000)))));
  }
  return !wasm_v128_any_true(wasm_v128_or(wasm_u16x8_lt(least, wasm_i16x8_splat(0x400)),
                                          wasm_u16x8_gt(largest, wasm_i16x8_splat(0x7c00))));
}

inline void narrow_row_f16_each(const float* f, std::size_t n, std::uint16_t* p) noexcept {
  for (std::size_t j = 0; j < n; j += 4) store16x4<false>(narrow_f16(wasm_v128_load(f + j)), p + j);
}

}  // namespace wasm_half
#elif defined(__SSE2__)
// Four values at a time with SSE2 (x86-64's baseline): the same integer and float
// operations as the scalar functions above, lane by lane, so the results are bit-identical
// to them. The common case (normal
// values, no NaN) takes a short path; a batch holding any other value takes the full one.
namespace sse2_half {

inline __m128i select(__m128i mask, __m128i a, __m128i b) noexcept {  // mask ? a : b
  return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b));
}

// Four 16-bit values zero-extended in 32-bit lanes → their float32 bits.
inline __m128i widen4(__m128i h, bool bf) noexcept {
  if (bf) return _mm_slli_epi32(h, 16);
  const __m128i sign = _mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x8000)), 16);
  const __m128i em = _mm_and_si128(h, _mm_set1_epi32(0x7fff));
  const __m128i shifted = _mm_slli_epi32(em, 13);
  const __m128i finite = _mm_castps_si128(_mm_mul_ps(_mm_castsi128_ps(shifted), _mm_set1_ps(0x1p112f)));
  const __m128i is_special = _mm_cmpgt_epi32(em, _mm_set1_epi32(0x7bff));
  if (_mm_movemask_epi8(is_special) == 0) [[likely]] return _mm_or_si128(finite, sign);  // no Inf / NaN
  const __m128i quiet = _mm_and_si128(_mm_cmpgt_epi32(em, _mm_set1_epi32(0x7c00)), _mm_set1_epi32(0x00400000));
  const __m128i special = _mm_or_si128(_mm_or_si128(shifted, _mm_set1_epi32(0x7f800000)), quiet);
  return _mm_or_si128(select(is_special, special, finite), sign);
}

// Four float32 bit patterns → their 16-bit values in the low halves of 32-bit lanes.
inline __m128i narrow4(__m128i x, bool bf) noexcept {
  const __m128i abs = _mm_and_si128(x, _mm_set1_epi32(0x7fffffff));
  const __m128i is_nan = _mm_cmpgt_epi32(abs, _mm_set1_epi32(0x7f800000));
  if (bf) {
    const __m128i odd = _mm_and_si128(_mm_srli_epi32(x, 16), _mm_set1_epi32(1));
    const __m128i rounded = _mm_srli_epi32(_mm_add_epi32(_mm_add_epi32(x, _mm_set1_epi32(0x7fff)), odd), 16);
    if (_mm_movemask_epi8(is_nan) == 0) [[likely]] return rounded;
    const __m128i nan = _mm_or_si128(_mm_srli_epi32(x, 16), _mm_set1_epi32(0x40));
    return select(is_nan, nan, rounded);
  }
  const __m128i sign = _mm_and_si128(_mm_srli_epi32(x, 16), _mm_set1_epi32(0x8000));
  const __m128i odd = _mm_and_si128(_mm_srli_epi32(abs, 13), _mm_set1_epi32(1));
  const __m128i normal = _mm_srli_epi32(
      _mm_add_epi32(_mm_add_epi32(abs, _mm_set1_epi32(static_cast<int>(0xc8000fffu))), odd), 13);
  const __m128i is_small = _mm_cmplt_epi32(abs, _mm_set1_epi32(113 << 23));
  const __m128i is_big = _mm_cmpgt_epi32(abs, _mm_set1_epi32((143 << 23) - 1));  // NaN too
  if (_mm_movemask_epi8(_mm_or_si128(is_small, is_big)) == 0) [[likely]] return _mm_or_si128(normal, sign);
  const __m128i magic = _mm_set1_epi32(126 << 23);
  const __m128i sub = _mm_sub_epi32(
      _mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(abs), _mm_castsi128_ps(magic))), magic);
  const __m128i nan = _mm_or_si128(_mm_set1_epi32(0x7e00),
                                   _mm_and_si128(_mm_srli_epi32(abs, 13), _mm_set1_epi32(0x3ff)));
  __m128i out = select(is_small, sub, normal);
  out = select(is_big, _mm_set1_epi32(0x7c00), out);
  out = select(is_nan, nan, out);
  return _mm_or_si128(out, sign);
}

// Low 16 bits of each 32-bit lane of a and b, packed (sign-extended first so the signed
// saturating pack keeps them exactly).
inline __m128i pack_low16(__m128i a, __m128i b) noexcept {
  return _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(a, 16), 16),
                         _mm_srai_epi32(_mm_slli_epi32(b, 16), 16));
}

}  // namespace sse2_half
#endif

#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__) && !POSENC_SCALAR_ONLY
#define POSENC_HALF_AVX2 1
// AVX2 with F16C (every AVX2 CPU has F16C; checked at run time all the same): the 16-bit
// kernels' conversions (half_kernels.hpp; float16's widening is one instruction).
namespace avx2_half {

// AVX2 (with the OS saving its registers) by the compiler's check; F16C by its CPUID bit
// (leaf 1, ECX bit 29), which Clang's __builtin_cpu_supports does not name.
inline bool available() noexcept {
  static const bool ok = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __builtin_cpu_supports("avx2") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 &&
           (ecx & (1u << 29)) != 0;
  }();
  return ok;
}

// Sixteen bfloat16 values split without a shuffle into the float32 values of the even ones
// (v[0], v[2], …) and of the odd ones: a shift and a mask (x86 cores run vector shifts and
// shuffles on fewer ports than adds and logic, and this kernel is bound by them).
[[gnu::target("avx2")]] inline void split_bf16(__m256i v, __m256& even, __m256& odd) noexcept {
  even = _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
  odd = _mm256_castsi256_ps(_mm256_and_si256(v, _mm256_set1_epi32(static_cast<int>(0xffff0000u))));
}

// split_bf16's inverse, rounding: eight even and eight odd floats → sixteen bfloat16 values,
// by f32_to_bf16's integer steps done on 16-bit words, all sixteen values at once: each
// float's high half (its truncation) and low half (the bits rounded off) gathered by a shift
// and a blend, and the high half + 1 where low + 0x7fff + (high & 1) carries out of 16 bits,
// which is where the rounding average (low + (0x7ffe | (high & 1)) + 1) / 2 has its top bit
// set. Exact for every value but a NaN whose low 16 bits are not zero, which the RoPE
// kernels never produce from bfloat16 inputs (x86 arithmetic returns an operand's NaN,
// quieted, or the default NaN 0xffc00000; widened bfloat16 values have zero low bits, the
// cos/sin rows and the scale are finite): for a quiet NaN with zero low bits the high half
// is f32_to_bf16's result, so no NaN test is needed.
[[gnu::target("avx2")]] inline __m256i merge_bf16(__m256 even, __m256 odd) noexcept {
  const __m256i e = _mm256_castps_si256(even), o = _mm256_castps_si256(odd);
  const __m256i high = _mm256_blend_epi16(_mm256_srli_epi32(e, 16), o, 0xaa);
  const __m256i low = _mm256_blend_epi16(e, _mm256_slli_epi32(o, 16), 0xaa);
  const __m256i bias = _mm256_or_si256(_mm256_and_si256(high, _mm256_set1_epi16(1)), _mm256_set1_epi16(0x7ffe));
  const __m256i up = _mm256_cmpgt_epi16(_mm256_setzero_si256(), _mm256_avg_epu16(low, bias));  // −1: round up
  return _mm256_sub_epi16(high, up);
}

// Sixteen bfloat16 values at p split (split_bf16), and their merge stored back.
[[gnu::target("avx2")]] inline void split16_bf16(const std::uint16_t* p, __m256& even, __m256& odd) noexcept {
  split_bf16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), even, odd);
}
[[gnu::target("avx2")]] inline void merge16_bf16(__m256 even, __m256 odd, std::uint16_t* p) noexcept {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), merge_bf16(even, odd));
}

// The same for eight values, for the AVX2 kernels' half-width (128-bit) tail: the low halves
// of the 256-bit steps (their high halves unused).
[[gnu::target("avx2")]] inline void split8_bf16(const std::uint16_t* p, __m128& even, __m128& odd) noexcept {
  __m256 e, o;
  split_bf16(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))), e, o);
  even = _mm256_castps256_ps128(e);
  odd = _mm256_castps256_ps128(o);
}
[[gnu::target("avx2")]] inline void merge8_bf16(__m128 even, __m128 odd, std::uint16_t* p) noexcept {
  const __m256i m = merge_bf16(_mm256_castps128_ps256(even), _mm256_castps128_ps256(odd));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(m));
}

}  // namespace avx2_half

// AVX-512 (F + BW): the same conversions on twice the values, for the AVX-512 kernels.
namespace avx512_half {

// Thirty-two bfloat16 values at p split into the float32 values of the even and of the
// odd ones (avx2_half::split_bf16 at twice the width).
[[gnu::target("avx512f,avx512bw")]] inline void split32_bf16(const std::uint16_t* p, __m512& even,
                                                             __m512& odd) noexcept {
  const __m512i v = _mm512_loadu_si512(p);
  even = _mm512_castsi512_ps(_mm512_slli_epi32(v, 16));
  odd = _mm512_castsi512_ps(_mm512_and_si512(v, _mm512_set1_epi32(static_cast<int>(0xffff0000u))));
}

// split32_bf16's inverse, rounding: avx2_half::merge_bf16's 16-bit-word steps (and its
// domain: exact but for a NaN whose low 16 bits are not zero) at twice the width, stored.
[[gnu::target("avx512f,avx512bw")]] inline void merge32_bf16(__m512 even, __m512 odd,
                                                             std::uint16_t* p) noexcept {
  constexpr __mmask32 odd_words = 0xaaaaaaaau;
  const __m512i e = _mm512_castps_si512(even), o = _mm512_castps_si512(odd);
  const __m512i high = _mm512_mask_blend_epi16(odd_words, _mm512_srli_epi32(e, 16), o);
  const __m512i low = _mm512_mask_blend_epi16(odd_words, e, _mm512_slli_epi32(o, 16));
  const __m512i bias = _mm512_or_si512(_mm512_and_si512(high, _mm512_set1_epi16(1)), _mm512_set1_epi16(0x7ffe));
  const __mmask32 up = _mm512_movepi16_mask(_mm512_avg_epu16(low, bias));  // top bit: round up
  _mm512_storeu_si512(p, _mm512_mask_add_epi16(high, up, high, _mm512_set1_epi16(1)));
}

}  // namespace avx512_half

#endif

}  // namespace posenc::detail
