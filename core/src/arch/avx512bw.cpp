// core/src/arch/avx512bw.cpp — the dispatched kernels (detail/dispatch.hpp) for AVX-512 F+CD+DQ+BW.
// The root CMakeLists.txt compiles this file alone with -mavx512f -mavx512cd -mavx512dq
// -mavx512bw (F implies AVX2 and FMA) and defines POSENC_DISPATCH; dispatch.cpp calls these
// instantiations only when the CPU and OS report all four (xsimd::available_architectures()).
// Why not plain F: xsimd 8.1's avx512f horizontal add uses a DQ instruction
// (_mm512_extractf32x8_ps), and its avx512cd/dq types exist only when BW is enabled. Every
// AVX-512 CPU since Skylake-SP (Intel) and Zen 4 (AMD) has the four.
#include "../detail/dispatch.hpp"

POSENC_DISPATCHED_KERNELS(template, xsimd::avx512bw)

posenc::detail::dispatched::rope_kernel_table posenc::detail::dispatched::rope_kernels_for(
    xsimd::avx512bw) noexcept {
  return rope_kernels_of<xsimd::avx512bw>();
}
