// core/src/detail/simd.hpp — the one switch between xsimd kernels and scalar references,
// and the one place that knows how xsimd's API differs between the versions posenc builds
// with (8.1 … 14.x, keyed on XSIMD_VERSION_MAJOR): everything else calls the helpers below.
// POSENC_SCALAR_ONLY (CMake option POSENC_SCALAR; the non-SIMD WASM build) must keep xsimd
// out entirely: without -msse2/-msimd128 it has no usable arch under Emscripten.
#pragma once

#ifndef POSENC_SCALAR_ONLY
#define POSENC_SCALAR_ONLY 0
#endif
#if !POSENC_SCALAR_ONLY
#include <xsimd/xsimd.hpp>
#endif

// Native x86 (not Emscripten's SSE2-on-SIMD128): where x86 intrinsics may be used directly.
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__EMSCRIPTEN__) && !POSENC_SCALAR_ONLY
#define POSENC_X86 1
#else
#define POSENC_X86 0
#endif

#if !POSENC_SCALAR_ONLY
#if POSENC_X86
#include <immintrin.h>
#endif
#include <cstdint>
#include <type_traits>

namespace posenc::detail {

// Horizontal sum of a batch's lanes: `hadd` up to xsimd 8, `reduce_add` from 9 on.
template <class T, class Arch>
T lane_sum(const xsimd::batch<T, Arch>& x) noexcept {
#if XSIMD_VERSION_MAJOR >= 9
  return xsimd::reduce_add(x);
#else
  return xsimd::hadd(x);
#endif
}

// Lane permutation (1, 0, 3, 2, …): swaps the members of every interleaved pair.
struct pair_swap {
  static constexpr unsigned get(unsigned index, unsigned /*size*/) { return index ^ 1u; }
};

// (x1, x0, x3, x2, …) of a float or double batch: each lane's partner in the interleaved
// layouts (RoPE pairs, sinusoidal sin/cos pairs). A swizzle, not zip_lo/zip_hi, which in
// xsimd 8.1 interleave per 128-bit lane on AVX and so would not give one layout on every
// arch. Batch sizes are even on every arch, so pairs never straddle batches.
template <class T, class Arch>
xsimd::batch<T, Arch> swap_pairs(const xsimd::batch<T, Arch>& x) noexcept {
#if POSENC_X86
  // On AVX the swap stays inside each 128-bit lane: an in-lane permute (1 cycle) where
  // xsimd's swizzle emits the lane-crossing vpermps (several cycles on AMD).
  if constexpr (std::is_base_of_v<xsimd::avx, Arch>) {
    if constexpr (std::is_same_v<T, float>) return _mm256_permute_ps(x, 0xB1);
    else return _mm256_permute_pd(x, 0x5);
  } else
#endif
  {
  using index = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  // make_batch_constant's template parameters: <batch, generator> up to 12,
  // <value, arch, generator> in 13, <value, generator, arch> from 14.
#if XSIMD_VERSION_MAJOR >= 14
  constexpr auto swap = xsimd::make_batch_constant<index, pair_swap, Arch>();
#elif XSIMD_VERSION_MAJOR == 13
  constexpr auto swap = xsimd::make_batch_constant<index, Arch, pair_swap>();
#else
  constexpr auto swap = xsimd::make_batch_constant<xsimd::batch<index, Arch>, pair_swap>();
#endif
  return xsimd::swizzle(x, swap);
  }
}

}  // namespace posenc::detail
#endif
