// core/src/detail/simd.hpp — the one switch between xsimd kernels and scalar references.
// POSENC_SCALAR_ONLY (CMake option POSENC_SCALAR; the non-SIMD WASM build) must keep xsimd
// out entirely: without -msse2/-msimd128 it has no usable arch under Emscripten.
#pragma once

#ifndef POSENC_SCALAR_ONLY
#define POSENC_SCALAR_ONLY 0
#endif
#if !POSENC_SCALAR_ONLY
#include <xsimd/xsimd.hpp>
#endif
