// core/src/arch/avx512f.cpp — the dispatched kernels (detail/dispatch.hpp) for AVX-512F.
// The root CMakeLists.txt compiles this file alone with -mavx512f (which implies AVX2 and
// FMA) and defines POSENC_DISPATCH; dispatch.cpp calls these instantiations only when the
// CPU and OS report AVX-512F (xsimd::available_architectures()).
#include "../detail/dispatch.hpp"

POSENC_DISPATCHED_KERNELS(template, xsimd::avx512f)
