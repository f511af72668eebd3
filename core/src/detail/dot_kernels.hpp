// core/src/detail/dot_kernels.hpp — dot products of float32 rows for score matrices:
// a float64 scalar reference and an xsimd float32 kernel.
//
// Reference: every product a_j·b_j of two floats is exact in double (24 + 24 bits ≤ 53) and
// the sum runs in double, so it is float64 truth up to n·2⁻⁵³·Σ|a_j·b_j|.
// SIMD kernel: two float32 batch accumulators (so the add latency overlaps), one fused or
// unfused multiply-add per element, the lanes summed (lane_sum, simd.hpp), the tail added in
// scalar. Each product meets at most K = ⌈n/(2W)⌉ + log2(2W) + W additions (W = lanes), so
//     |dot − reference| ≤ (K + 1)·2⁻²⁴·Σ_j |a_j·b_j|
// (Higham's recursive-summation bound γ_{K+1}, with the product's own rounding). For n = 128
// and W = 4 that is 22·6e−8 ≈ 1.3e−6 of Σ|a_j b_j|: float32 noise, 2× the speed of
// accumulating in double (which would need lane-widening converts).
#pragma once

#include <cstddef>

#include "simd.hpp"

namespace posenc::detail {

// Σ_j a_j·b_j in double (the reference).
inline double dot_reference(const float* a, const float* b, std::size_t n) noexcept {
  double sum = 0;
  for (std::size_t j = 0; j < n; ++j) sum += static_cast<double>(a[j]) * b[j];
  return sum;
}

// out[m·tk + n] = scale·⟨q_m, k_n⟩ for dense rows q [tq][dim], k [tk][dim] (reference).
inline void score_matrix_scalar(const float* q, std::size_t tq, const float* k, std::size_t tk,
                                std::size_t dim, double scale, float* out) noexcept {
  for (std::size_t m = 0; m < tq; ++m)
    for (std::size_t n = 0; n < tk; ++n)
      out[m * tk + n] = static_cast<float>(scale * dot_reference(q + m * dim, k + n * dim, dim));
}

#if !POSENC_SCALAR_ONLY

// Σ_j a_j·b_j in float32 batches; error bound in the header comment.
template <class Arch>
float dot(const float* a, const float* b, std::size_t n) noexcept {
  using batch = xsimd::batch<float, Arch>;
  constexpr std::size_t w = batch::size;
  batch acc0(0.0f), acc1(0.0f);
  std::size_t j = 0;
  for (; j + 2 * w <= n; j += 2 * w) {
    acc0 = xsimd::fma(batch::load_unaligned(a + j), batch::load_unaligned(b + j), acc0);
    acc1 = xsimd::fma(batch::load_unaligned(a + j + w), batch::load_unaligned(b + j + w), acc1);
  }
  if (j + w <= n) {
    acc0 = xsimd::fma(batch::load_unaligned(a + j), batch::load_unaligned(b + j), acc0);
    j += w;
  }
  float sum = lane_sum(acc0 + acc1);
  for (; j < n; ++j) sum += a[j] * b[j];  // tail: fewer than w elements
  return sum;
}

// The SIMD twin of score_matrix_scalar (scale applied in double to the float dot).
template <class Arch>
void score_matrix(const float* q, std::size_t tq, const float* k, std::size_t tk,
                  std::size_t dim, double scale, float* out) noexcept {
  for (std::size_t m = 0; m < tq; ++m)
    for (std::size_t n = 0; n < tk; ++n)
      out[m * tk + n] = static_cast<float>(scale * dot<Arch>(q + m * dim, k + n * dim, dim));
}

#endif  // !POSENC_SCALAR_ONLY

}  // namespace posenc::detail
