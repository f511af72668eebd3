// core/src/detail/table_kernels.hpp — the sinusoidal table fill: scalar reference + xsimd path.
//
// Scalar reference: every value straight from detail/angles.hpp (angle formed and reduced in
// double, sin/cos in double, rounded once).
// SIMD path: rows at consecutive positions are one rotation apart (DESIGN §2, the shift
// matrix M(1)), so after an exact "anchor" row every following row costs one 2×2 rotation per
// pair, in double, vectorized across pairs i:
//     sin((p+1)θ) = sin(pθ)·cos θ + cos(pθ)·sin θ
//     cos((p+1)θ) = cos(pθ)·cos θ − sin(pθ)·sin θ
// Each step is an isometry plus ≤ 2 ulp(double) of rounding (and the rounding of cos θ,
// sin θ), so errors add linearly: after kAnchorRows = 64 steps they are < 64·4.5e−16 ≈ 3e−14,
// invisible after the final rounding to float32 (0.5 ulp(float) ≤ 3e−8). Anchors are
// recomputed every kAnchorRows rows by angles.hpp's sincos_row_double (quadrant reduction
// in double and fdlibm's kernels, ≤ 1 ulp(double)). Arbitrary (non-consecutive) positions take angles.hpp's
// SIMD sincos_row, one row at a time.
#pragma once

#include "angles.hpp"
#include "posenc/sinusoidal.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "simd.hpp"

namespace posenc::detail {

// Rows between two exact anchors of the recurrence (error bound above).
inline constexpr std::int64_t kAnchorRows = 64;

// ---------------------------------------------------------------------------------------
// Scalar reference.

// row[0, 2·half) = PE(position) in `layout`, each value from sincos_row_scalar.
inline void pe_row_scalar(double position, const double* inv_freq, std::size_t half,
                          pe_layout layout, float* row) noexcept {
  if (layout == pe_layout::concat) {
    sincos_row_scalar(position, inv_freq, half, row, row + half);
    return;
  }
  for (std::size_t i = 0; i < half; ++i)
    sincos_row_scalar(position, inv_freq + i, 1, row + 2 * i, row + 2 * i + 1);
}

// out[r·2·half …] = PE(first + r) for r in [0, count).
inline void table_rows_scalar(const double* inv_freq, std::size_t half, std::int64_t first,
                              std::int64_t count, pe_layout layout, float* out) noexcept {
  for (std::int64_t r = 0; r < count; ++r)
    pe_row_scalar(static_cast<double>(first + r), inv_freq, half, layout,
                  out + static_cast<std::size_t>(r) * 2 * half);
}

#if !POSENC_SCALAR_ONLY
// ---------------------------------------------------------------------------------------
// xsimd path (templates on Arch, instantiated per dispatched arch: detail/dispatch.hpp).
//
// The running state v holds the current row in double, already in the output layout, so
// each row is one or two converting stores. The step rotation is stored in the same layout:
//   concat:      v = [s… | c…], rc = [c1… | c1…], rs = [s1… | s1…]
//                s' = s·c1 + c·s1,  c' = c·c1 − s·s1
//   interleaved: v = [s0 c0 s1 c1 …], rc = [c1_0 c1_0 …], rs = [s1_0 −s1_0 …]
//                v' = v·rc + swap_pairs(v)·rs  (simd.hpp)
// Every part is padded with zeros to whole batches (concat: each half), so a step is whole
// batches only: a scalar tail would be contracted to FMA differently per layout by the
// compiler, and the two layouts must hold the same values bit for bit.
struct table_state {
  std::size_t half = 0;
  std::size_t part = 0;  // concat: doubles from the s part to the c part (half, padded)
  std::size_t size = 0;  // doubles in v, rc, rs (a multiple of the batch size)
};

inline std::size_t round_up(std::size_t n, std::size_t to) noexcept {
  return (n + to - 1) / to * to;
}

inline table_state make_table_state(std::size_t half, pe_layout layout,
                                    std::size_t batch_size) noexcept {
  table_state st;
  st.half = half;
  st.part = round_up(half, batch_size);
  st.size = layout == pe_layout::concat ? 2 * st.part : round_up(2 * half, batch_size);
  return st;
}

// Scatters (s, c) into a layout-shaped state row; sign multiplies the cos member of
// interleaved pairs (−1 builds rs above, +1 the state and rc). Padding is left as it is.
inline void place_row(const double* s, const double* c, const table_state& st, pe_layout layout,
                      double* v, double sign = 1.0) noexcept {
  for (std::size_t i = 0; i < st.half; ++i) {
    if (layout == pe_layout::concat) {
      v[i] = s[i];
      v[st.part + i] = c[i];
    } else {
      v[2 * i] = s[i];
      v[2 * i + 1] = sign * c[i];
    }
  }
}

// n = st.size: whole batches (batch::size is even on every arch, so pairs never straddle).
template <class Arch>
void step_interleaved(double* v, const double* rc, const double* rs, std::size_t n) noexcept {
  using batch = xsimd::batch<double, Arch>;
  for (std::size_t j = 0; j < n; j += batch::size) {
    const batch x = batch::load_unaligned(v + j);
    xsimd::fma(x, batch::load_unaligned(rc + j), swap_pairs(x) * batch::load_unaligned(rs + j))
        .store_unaligned(v + j);
  }
}

// part = st.part: each half is whole batches.
template <class Arch>
void step_concat(double* v, const double* rc, const double* rs, std::size_t part) noexcept {
  using batch = xsimd::batch<double, Arch>;
  double* s = v;
  double* c = v + part;
  for (std::size_t i = 0; i < part; i += batch::size) {
    const batch sv = batch::load_unaligned(s + i), cv = batch::load_unaligned(c + i);
    const batch c1 = batch::load_unaligned(rc + i), s1 = batch::load_unaligned(rs + i);
    xsimd::fma(sv, c1, cv * s1).store_unaligned(s + i);
    xsimd::fms(cv, c1, sv * s1).store_unaligned(c + i);
  }
}

// Same contract as table_rows_scalar. The recurrence adds exact multiples of θ_i in real
// arithmetic where the reference rounds each product (p·θ_i) in double, so the two differ by
// ≤ 1 ulp(float) + 2·|p|·2⁻⁵³ (≤ 6.4e−8 for |p| ≤ 2²⁴; tests check it).
template <class Arch>
void table_rows(const double* inv_freq, std::size_t half, std::int64_t first,
                std::int64_t count, pe_layout layout, float* out) {
  if (count <= 0) return;
  const std::size_t d = 2 * half;
  const table_state st = make_table_state(half, layout, xsimd::batch<double, Arch>::size);
  std::vector<double> s(half), c(half), v(st.size), rc(st.size), rs(st.size);
  sincos_row_double<Arch>(1.0, inv_freq, half, s.data(), c.data());  // one step: θ_i
  place_row(c.data(), c.data(), st, layout, rc.data());
  place_row(s.data(), s.data(), st, layout, rs.data(), -1.0);
  for (std::int64_t r = 0; r < count; ++r) {
    if (r % kAnchorRows == 0) {
      sincos_row_double<Arch>(static_cast<double>(first + r), inv_freq, half, s.data(),
                              c.data());
      place_row(s.data(), c.data(), st, layout, v.data());
    } else if (layout == pe_layout::concat) {
      step_concat<Arch>(v.data(), rc.data(), rs.data(), st.part);
    } else {
      step_interleaved<Arch>(v.data(), rc.data(), rs.data(), st.size);
    }
    float* row = out + static_cast<std::size_t>(r) * d;
    if (layout == pe_layout::concat) {
      store_row<Arch>(v.data(), half, row);
      store_row<Arch>(v.data() + st.part, half, row + half);
    } else {
      store_row<Arch>(v.data(), d, row);
    }
  }
}

// Row r = PE(positions[r]) for arbitrary positions: angles.hpp's SIMD sincos_row per row.
template <class Arch>
void table_positions(const double* inv_freq, std::size_t half, const std::int32_t* positions,
                     std::size_t count, pe_layout layout, float* out) {
  std::vector<float> s(half), c(half);
  for (std::size_t r = 0; r < count; ++r) {
    float* row = out + r * 2 * half;
    if (layout == pe_layout::concat) {
      sincos_row<Arch>(positions[r], inv_freq, half, row, row + half);
      continue;
    }
    sincos_row<Arch>(positions[r], inv_freq, half, s.data(), c.data());
    for (std::size_t i = 0; i < half; ++i) {
      row[2 * i] = s[i];
      row[2 * i + 1] = c[i];
    }
  }
}
#endif  // !POSENC_SCALAR_ONLY

}  // namespace posenc::detail
