// core/src/detail/train_kernels.hpp — the two loops the trainer's matrix products reduce to:
// y += a·x (axpy) and Σ x_j·y_j (dot), for float (training) and double (gradient checks).
//
// Built for xsimd's compile-time default arch only (SSE2 natively, SIMD128 in WebAssembly),
// not the runtime dispatch: both targets then add in the same order with the same lane
// width, and the trainer's products are small (rows of 8 … 256). No fused multiply-add, so
// a result does not depend on whether the compiler contracts: every product and sum is
// rounded once, in a fixed order (lanes, then the lanes' sum, then the scalar tail).
#pragma once

#include <cstddef>

#include "simd.hpp"

namespace posenc::detail {

// y[j] += a·x[j], j < n.
template <class S>
inline void train_axpy(std::size_t n, S a, const S* x, S* y) noexcept {
  std::size_t j = 0;
#if !POSENC_SCALAR_ONLY
  using batch = xsimd::batch<S, xsimd::default_arch>;
  constexpr std::size_t w = batch::size;
  const batch av(a);
  for (; j + w <= n; j += w) (batch::load_unaligned(y + j) + av * batch::load_unaligned(x + j)).store_unaligned(y + j);
#endif
  for (; j < n; ++j) y[j] += a * x[j];
}

// Σ_j x[j]·y[j], j < n: two batch accumulators, their lanes summed, then the scalar tail.
template <class S>
inline S train_dot(std::size_t n, const S* x, const S* y) noexcept {
  std::size_t j = 0;
  S sum = 0;
#if !POSENC_SCALAR_ONLY
  using batch = xsimd::batch<S, xsimd::default_arch>;
  constexpr std::size_t w = batch::size;
  batch acc0(S(0)), acc1(S(0));
  for (; j + 2 * w <= n; j += 2 * w) {
    acc0 = acc0 + batch::load_unaligned(x + j) * batch::load_unaligned(y + j);
    acc1 = acc1 + batch::load_unaligned(x + j + w) * batch::load_unaligned(y + j + w);
  }
  if (j + w <= n) {
    acc0 = acc0 + batch::load_unaligned(x + j) * batch::load_unaligned(y + j);
    j += w;
  }
  sum = lane_sum(acc0 + acc1);
#endif
  for (; j < n; ++j) sum += x[j] * y[j];
  return sum;
}

// c[m][n] = Σ_k a[m][k]·b[k][n] (row-major; c must not alias a or b).
template <class S>
inline void train_matmul(const S* a, const S* b, S* c, std::size_t rows, std::size_t inner,
                         std::size_t cols) noexcept {
  for (std::size_t m = 0; m < rows; ++m) {
    S* cm = c + m * cols;
    for (std::size_t n = 0; n < cols; ++n) cm[n] = 0;
    for (std::size_t k = 0; k < inner; ++k) train_axpy(cols, a[m * inner + k], b + k * cols, cm);
  }
}

// c[k][n] += Σ_m a[m][k]·b[m][n]: the weight gradient aᵀ·b.
template <class S>
inline void train_matmul_tn(const S* a, const S* b, S* c, std::size_t rows, std::size_t inner,
                            std::size_t cols) noexcept {
  for (std::size_t m = 0; m < rows; ++m)
    for (std::size_t k = 0; k < inner; ++k) train_axpy(cols, a[m * inner + k], b + m * cols, c + k * cols);
}

// c[m][k] (+)= Σ_n a[m][n]·b[k][n]: the input gradient a·bᵀ; accumulate adds to c.
template <class S>
inline void train_matmul_nt(const S* a, const S* b, S* c, std::size_t rows, std::size_t inner,
                            std::size_t cols, bool accumulate) noexcept {
  for (std::size_t m = 0; m < rows; ++m)
    for (std::size_t k = 0; k < inner; ++k) {
      const S v = train_dot(cols, a + m * cols, b + k * cols);
      c[m * inner + k] = accumulate ? c[m * inner + k] + v : v;
    }
}

}  // namespace posenc::detail
