// core/src/arch/avx512bw.cpp — the dispatched kernels (detail/dispatch.hpp) for AVX-512 F+CD+DQ+BW.
// The root CMakeLists.txt compiles this file alone with -mavx512f -mavx512cd -mavx512dq
// -mavx512bw (F implies AVX2 and FMA) and defines POSENC_DISPATCH; dispatch.cpp calls these
// instantiations only when the CPU and OS report all four (xsimd::available_architectures()).
// Why not plain F: xsimd 8.1's avx512f horizontal add uses a DQ instruction
// (_mm512_extractf32x8_ps), and its avx512cd/dq types exist only when BW is enabled. Every
// AVX-512 CPU since Skylake-SP (Intel) and Zen 4 (AMD) has the four.
#include "../detail/dispatch.hpp"

POSENC_DISPATCHED_KERNELS(template, xsimd::avx512bw)

// Where the AVX2 kernels beat the 512-bit ones (bench/results/decisions.md): interleaved
// calls past 64 KiB with a row off a 64-byte line (AMD Zen 5, in L2 too; no slower on Zen 4;
// on rows on lines the 512-bit kernels win); on Zen 4, calls of ≤ 64 KiB with a row off a line.
posenc::detail::dispatched::rope_kernel_table posenc::detail::dispatched::rope_kernels_for(
    xsimd::avx512bw, avx512_cpu cpu) noexcept {
  rope_kernel_table t = rope_kernels_of<xsimd::avx512bw>();
  const rope_kernel_table narrow = rope_kernels_for(xsimd::fma3<xsimd::avx2>{});
  for (int scaled = 0; scaled < 2; ++scaled) {
    t.streaming_off_line[1][scaled] = narrow.apply[1][scaled];
    if (cpu == avx512_cpu::amd_zen4)
      for (int interleaved = 0; interleaved < 2; ++interleaved)
        t.apply_off_line[interleaved][scaled] = narrow.apply[interleaved][scaled];
  }
  return t;
}

posenc::detail::half_kernel_table posenc::detail::dispatched::half_kernels_for(
    xsimd::avx512bw) noexcept {
  return half_kernels_of<xsimd::avx512bw>();
}
