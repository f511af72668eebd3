// core/src/arch/avx2_fma.cpp — the dispatched kernels (detail/dispatch.hpp) for AVX2 + FMA.
// The root CMakeLists.txt compiles this file alone with -mavx2 -mfma -mf16c and defines
// POSENC_DISPATCH; dispatch.cpp calls these instantiations only when the CPU reports
// AVX2 and FMA (xsimd::available_architectures()), the 16-bit ones only with F16C too.
#include "../detail/dispatch.hpp"

POSENC_DISPATCHED_KERNELS(template, xsimd::fma3<xsimd::avx2>)

posenc::detail::dispatched::rope_kernel_table posenc::detail::dispatched::rope_kernels_for(
    xsimd::fma3<xsimd::avx2>) noexcept {
  return rope_kernels_of<xsimd::fma3<xsimd::avx2>>();
}

posenc::detail::half_kernel_table posenc::detail::dispatched::half_kernels_for(
    xsimd::fma3<xsimd::avx2>) noexcept {
  return half_kernels_of<xsimd::fma3<xsimd::avx2>>();
}
