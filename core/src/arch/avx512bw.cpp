// core/src/arch/avx512bw.cpp — the dispatched kernels (detail/dispatch.hpp) for AVX-512 F+CD+DQ+BW.
// The root CMakeLists.txt compiles this file alone with -mavx512f -mavx512cd -mavx512dq
// -mavx512bw (F implies AVX2 and FMA) and defines POSENC_DISPATCH; dispatch.cpp calls these
// instantiations only when the CPU and OS report all four (xsimd::available_architectures()).
// Why not plain F: xsimd 8.1's avx512f horizontal add uses a DQ instruction
// (_mm512_extractf32x8_ps), and its avx512cd/dq types exist only when BW is enabled. Every
// AVX-512 CPU since Skylake-SP (Intel) and Zen 4 (AMD) has the four.
#include "../detail/dispatch.hpp"

POSENC_DISPATCHED_KERNELS(template, xsimd::avx512bw)

// Interleaved rows that stream from memory take the AVX2 kernels: on AMD Zen 5 they beat
// the 512-bit ones there (bench/results/decisions.md); half-layout rows keep 512 bits.
posenc::detail::dispatched::rope_kernel_table posenc::detail::dispatched::rope_kernels_for(
    xsimd::avx512bw) noexcept {
  rope_kernel_table t = rope_kernels_of<xsimd::avx512bw>();
  const rope_kernel_table narrow = rope_kernels_for(xsimd::fma3<xsimd::avx2>{});
  t.streaming[1][0] = narrow.apply[1][0];
  t.streaming[1][1] = narrow.apply[1][1];
  return t;
}

posenc::detail::half_kernel_table posenc::detail::dispatched::half_kernels_for(
    xsimd::avx512bw) noexcept {
  return half_kernels_of<xsimd::avx512bw>();
}
