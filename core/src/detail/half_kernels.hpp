// core/src/detail/half_kernels.hpp — the RoPE token kernel (rotary_kernels.hpp) on float16 /
// bfloat16 storage: each batch is widened to float32 in registers as it is loaded, rotated
// by the float32 formula, and narrowed to nearest, ties to even, as it is stored. So every
// output is the 16-bit rounding of the float32 kernel's result, and the SIMD kernel equals
// its scalar reference (rotate_token_scalar with half_storage) wherever the float32 one does.
//   - SSE2 (x86-64's baseline): four values per batch, by the integer conversions of
//     half_float.hpp (bit-identical to the scalar ones).
//   - WebAssembly SIMD128 (xsimd's sse2 arch under Emscripten): four per batch, by the
//     WebAssembly conversions of half_float.hpp (bit-identical too).
//   - AVX2: eight per batch; float16 by F16C (exact widening, round-to-nearest-even
//     narrowing that quiets NaNs as f32_to_f16 does), bfloat16 by integer steps. Built in the
//     AVX2 translation unit (-mavx2 -mfma -mf16c), chosen only when the CPU has F16C too.
//   - Other arches (AVX-512 CPUs run the AVX2 kernels; NEON …): the scalar reference.
#pragma once

#include "half_float.hpp"
#include "rotary_kernels.hpp"

#include <cstdint>
#include <type_traits>

namespace posenc::detail {

// 16-bit storage, bfloat16 when BF, else IEEE float16.
template <bool BF>
struct half_storage {
  using value = std::uint16_t;
  static float widen(std::uint16_t h) noexcept { return BF ? bf16_to_f32(h) : f16_to_f32(h); }
  static std::uint16_t narrow(float f) noexcept { return BF ? f32_to_bf16(f) : f32_to_f16(f); }

#if !POSENC_SCALAR_ONLY && defined(__SSE2__)
  template <class Batch>
  static Batch load(const std::uint16_t* p) noexcept {
    using arch = typename Batch::arch_type;
#if POSENC_HALF_AVX2
    if constexpr (std::is_same_v<arch, xsimd::fma3<xsimd::avx2>>) {
      if constexpr (BF) return avx2_half::widen8_bf16(p);
      else return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    } else
#endif
    {
      static_assert(std::is_same_v<arch, xsimd::sse2>, "16-bit kernels: sse2 or fma3<avx2>");
#ifdef __wasm_simd128__
      const v128_t v = wasm_half::load_high4(p);  // bfloat16: already the float32 bits
      if constexpr (BF) return __m128(v);
      else return __m128(wasm_half::widen_f16(v));
#else
      const __m128i h = _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)),
                                           _mm_setzero_si128());
      return _mm_castsi128_ps(sse2_half::widen4(h, BF));
#endif
    }
  }

  template <class Batch>
  static void store(const Batch& v, std::uint16_t* p) noexcept {
    using arch = typename Batch::arch_type;
#if POSENC_HALF_AVX2
    if constexpr (std::is_same_v<arch, xsimd::fma3<xsimd::avx2>>) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), avx2_half::narrow8<BF>(v));
    } else
#endif
    {
#ifdef __wasm_simd128__
      const v128_t x = v128_t(__m128(v));
      if constexpr (BF) wasm_half::store16x4<true>(wasm_half::narrow_bf16(x), p);
      else wasm_half::store16x4<false>(wasm_half::narrow_f16(x), p);
#else
      const __m128i h = sse2_half::narrow4(_mm_castps_si128(v), BF);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(p), sse2_half::pack_low16(h, h));
#endif
    }
  }
#endif
};

// One arch's 16-bit token kernels: apply[bf][interleaved][scaled] (scaled: g ≠ 1).
struct half_kernel_table {
  using apply_fn = void (*)(const token_rows<float, std::uint16_t>&) noexcept;
  apply_fn apply[2][2][2];
};

// The scalar references of every entry.
inline half_kernel_table half_kernels_scalar() noexcept {
  return {{{{&rotate_token_scalar<float, false, half_storage<false>>, &rotate_token_scalar<float, false, half_storage<false>>},
            {&rotate_token_scalar<float, true, half_storage<false>>, &rotate_token_scalar<float, true, half_storage<false>>}},
           {{&rotate_token_scalar<float, false, half_storage<true>>, &rotate_token_scalar<float, false, half_storage<true>>},
            {&rotate_token_scalar<float, true, half_storage<true>>, &rotate_token_scalar<float, true, half_storage<true>>}}}};
}

#if !POSENC_SCALAR_ONLY
// The table of one arch: its rotate_token instantiations where it has 16-bit loads and
// stores (sse2, fma3<avx2>), else the scalar references.
template <class Arch>
half_kernel_table half_kernels_of() noexcept {
  constexpr bool simd = std::is_same_v<Arch, xsimd::sse2>
#if POSENC_HALF_AVX2
                        || std::is_same_v<Arch, xsimd::fma3<xsimd::avx2>>
#endif
      ;
  if constexpr (simd) {
    return {{{{&rotate_token<Arch, float, false, false, half_storage<false>>, &rotate_token<Arch, float, false, true, half_storage<false>>},
              {&rotate_token<Arch, float, true, false, half_storage<false>>, &rotate_token<Arch, float, true, true, half_storage<false>>}},
             {{&rotate_token<Arch, float, false, false, half_storage<true>>, &rotate_token<Arch, float, false, true, half_storage<true>>},
              {&rotate_token<Arch, float, true, false, half_storage<true>>, &rotate_token<Arch, float, true, true, half_storage<true>>}}}};
  } else {
    return half_kernels_scalar();
  }
}
#endif

}  // namespace posenc::detail
