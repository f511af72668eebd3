// tests/core/double_rows.hpp — a row destination of the table kernels (angle_rows,
// step_rows) that keeps their double values, so their own bounds can be checked before the
// rounding to float.
#pragma once

#include "detail/simd.hpp"

#if !POSENC_SCALAR_ONLY
#include <algorithm>
#include <cstddef>

namespace posenc::test {

// Rows [k][stride] of sin and cos.
struct double_rows {
  double* sin;
  double* cos;
  std::size_t stride;

  struct row {
    double* sin;
    double* cos;
    template <class Arch>
    void put(std::size_t j, const xsimd::batch<double, Arch>& s,
             const xsimd::batch<double, Arch>& c) const noexcept {
      s.store_unaligned(sin + j);
      c.store_unaligned(cos + j);
    }
    void put_tail(std::size_t j, std::size_t m, const double* s, const double* c) const noexcept {
      std::copy_n(s, m, sin + j);
      std::copy_n(c, m, cos + j);
    }
  };
  row at(std::size_t k, std::size_t i) const noexcept {
    return {sin + k * stride + i, cos + k * stride + i};
  }
};

}  // namespace posenc::test
#endif
