// core/src/detail/table_kernels.hpp — the sinusoidal table fill: scalar reference + xsimd path.
//
// Scalar reference: every value straight from detail/angles.hpp (angle formed and reduced in
// double, sin/cos in double, rounded once).
// SIMD path: rows of consecutive positions by the step recurrence from exact anchors (a full
// reduced sincos every kStepBlock rows; then each row is the row before it rotated by θ_i,
// two products and two fused adds per value in double: at most kStepBlock − 1 steps of
// ≤ 4 ulp(double) each, so ≤ 3e−14 before the rounding to float); in WebAssembly by
// angles.hpp's angle addition from the anchor (≤ 5e−16).
// Tables of fewer than kStepBlock rows and arbitrary positions take angles.hpp's SIMD
// sincos_row, one row at a time.
#pragma once

#include "angles.hpp"
#include "posenc/sinusoidal.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace posenc::detail {

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

// row[0, 2·half) = PE(position) in `layout` from angles.hpp's SIMD sincos_row.
template <class Arch>
void pe_row(double position, const double* inv_freq, std::size_t half, pe_layout layout,
            float* row) noexcept {
  if (layout == pe_layout::concat) {
    sincos_row<Arch>(position, inv_freq, half, row, row + half);
    return;
  }
  constexpr std::size_t chunk = 64;
  alignas(64) double s[chunk];
  alignas(64) double c[chunk];
  const pair_rows::row out{row};
  for (std::size_t i = 0; i < half; i += chunk) {
    const std::size_t m = half - i < chunk ? half - i : chunk;
    sincos_row_double<Arch>(position, inv_freq + i, m, s, c);
    out.put_tail(i, m, s, c);
  }
}

// Rows per exact anchor of the step recurrence: an anchor costs about five stepped values,
// so 32 rows make it ~1/6 of a value each, and 31 steps keep the error ~1e−14.
inline constexpr std::int64_t kStepBlock = 32;

// Rows first … first + count − 1 into `rows` (angles.hpp's split_rows or pair_rows), row k =
// position first + k, by the step recurrence (top of file): the state (sin, cos of the
// current row, in double) lives in two row-sized arrays, and rows are written in order.
// Row p is computed from the anchor floor(p / kStepBlock)·kStepBlock by the same steps in
// every call, so its bits depend only on p. |first|, |first + count − 1| ≤ 2^53.
template <class Arch, class Rows>
void step_rows(const double* inv_freq, std::size_t n, std::int64_t first, std::int64_t count,
               const Rows& rows) {
  using batch = xsimd::batch<double, Arch>;
  constexpr std::size_t w = batch::size;
  const std::size_t padded = (n + w - 1) / w * w;  // the last batch reads zeros past n
  const std::size_t whole = n - n % w;
  std::vector<double> buf(4 * padded, 0.0);
  double* const step_s = buf.data();
  double* const step_c = step_s + padded;
  double* const row_s = step_c + padded;
  double* const row_c = row_s + padded;
  sincos_row_double<Arch>(1.0, inv_freq, n, step_s, step_c);
  alignas(64) double ts[w], tc[w];
  for (std::int64_t k = 0; k < count;) {
    const std::int64_t p = first + k;
    const std::int64_t j = p & (kStepBlock - 1);  // p − j: an exact double (a power-of-two multiple)
    const std::int64_t run = std::min(kStepBlock - j, count - k);
    sincos_row_double<Arch>(static_cast<double>(p - j), inv_freq, n, row_s, row_c);
    for (std::int64_t r = 0; r < j + run; ++r) {
      const bool put = r >= j;  // rows before the call's first are stepped through only
      // (and point at the call's first row, so no address outside out is formed)
      const auto out = rows.at(static_cast<std::size_t>(put ? k + r - j : k), 0);
      for (std::size_t i = 0; i < padded; i += w) {
        const batch s = batch::load_unaligned(row_s + i), c = batch::load_unaligned(row_c + i);
        if (put && i < whole) {
          out.put(i, s, c);
        } else if (put) {  // the row's last, partial batch
          s.store_aligned(ts);
          c.store_aligned(tc);
          out.put_tail(i, n - i, ts, tc);
        }
        const batch st = batch::load_unaligned(step_s + i), ct = batch::load_unaligned(step_c + i);
        xsimd::fma(s, ct, c * st).store_unaligned(row_s + i);  // sin(a + θ), cos(a + θ)
        xsimd::fms(c, ct, s * st).store_unaligned(row_c + i);
      }
    }
    k += run;
  }
}

// Same contract as table_rows_scalar; each value within 0.5 ulp(float) + |p·θ|·2⁻⁵² + 3e−14
// of truth (the reference: + |p·θ|·2⁻⁵³), so ≤ 1 ulp(float) + 3·|p·θ|·2⁻⁵³ from it. A row's
// bits depend only on its position (and the ladder), whatever the call's first and count
// once count ≥ kStepBlock.
template <class Arch>
void table_rows(const double* inv_freq, std::size_t half, std::int64_t first,
                std::int64_t count, pe_layout layout, float* out) {
  const std::size_t d = 2 * half;
  if (count < kStepBlock) {  // the anchors would not pay
    for (std::int64_t r = 0; r < count; ++r)
      pe_row<Arch>(static_cast<double>(first + r), inv_freq, half, layout,
                   out + static_cast<std::size_t>(r) * d);
    return;
  }
#ifdef __EMSCRIPTEN__
  // WebAssembly: angles.hpp's angle-addition rows, whose state needs no stores (the step
  // recurrence's row state stores measured slower there; bench/results/decisions.md).
  std::vector<double> table(offset_doubles(half));
  fill_offsets<Arch>(inv_freq, half, table.data());
  const angle_offsets o = offsets_view(inv_freq, half, table.data());
  if (layout == pe_layout::concat)
    angle_rows<Arch>(o, first, count, split_rows{out, out + half, d});
  else
    angle_rows<Arch>(o, first, count, pair_rows{out, d});
#else
  if (layout == pe_layout::concat)
    step_rows<Arch>(inv_freq, half, first, count, split_rows{out, out + half, d});
  else
    step_rows<Arch>(inv_freq, half, first, count, pair_rows{out, d});
#endif
}

// Row r = PE(positions[r]) for arbitrary positions, one pe_row each.
template <class Arch>
void table_positions(const double* inv_freq, std::size_t half, const std::int32_t* positions,
                     std::size_t count, pe_layout layout, float* out) {
  for (std::size_t r = 0; r < count; ++r)
    pe_row<Arch>(positions[r], inv_freq, half, layout, out + r * 2 * half);
}
#endif  // !POSENC_SCALAR_ONLY

}  // namespace posenc::detail
