// core/src/detail/table_kernels.hpp — the sinusoidal table fill: scalar reference + xsimd path.
//
// Scalar reference: every value straight from detail/angles.hpp (angle formed and reduced in
// double, sin/cos in double, rounded once).
// SIMD path: rows of consecutive positions by angles.hpp's angle addition from exact anchors
// (a full reduced sincos every K rows, then two products and two fused adds per value, in
// double: ≤ 5e−16 before the rounding to float, nothing accumulates). Tables of fewer than K
// rows and arbitrary positions take angles.hpp's SIMD sincos_row, one row at a time.
#pragma once

#include "angles.hpp"
#include "posenc/sinusoidal.hpp"
#include "simd.hpp"  // has_stream_store, stream_fence

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
  const pair_rows::row out{row, false};
  for (std::size_t i = 0; i < half; i += chunk) {
    const std::size_t m = half - i < chunk ? half - i : chunk;
    sincos_row_double<Arch>(position, inv_freq + i, m, s, c);
    out.put_tail(i, m, s, c);
  }
}

// Tables of more than this many floats (32 MiB: the last-level cache a core shares on the
// x86 hosts measured) are written with non-temporal stores where whole aligned 16-byte
// pieces allow it (x86 only): past that cache they skip the read-for-ownership of every
// line. Smaller tables are stored plainly, so they stay in cache for the code that reads
// them next (bench/native/bench_tables.cpp, sinusoidal/32768x512, measures the choice).
inline constexpr std::int64_t kStreamFloats = std::int64_t{1} << 23;

template <class Arch>
bool streams(const float* out, std::size_t half, std::int64_t count, pe_layout layout) noexcept {
  if constexpr (!has_stream_store<Arch>()) {
    return false;
  } else {
    // The interleaved stores are 16 bytes at 2i (i a multiple of 2); the concat ones are
    // whole 16 bytes from AVX on, at i and half + i (i a multiple of 4).
    const bool aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0 && half % 2 == 0;
    const bool shape = layout == pe_layout::interleaved ||
                       (half % 4 == 0 && !std::is_base_of_v<xsimd::sse2, Arch>);
    return aligned && shape && count * static_cast<std::int64_t>(2 * half) > kStreamFloats;
  }
}

// Same contract as table_rows_scalar; each value within 0.5 ulp(float) + |p·θ|·2⁻⁵² + 5e−16
// of truth (the reference: + |p·θ|·2⁻⁵³), so ≤ 1 ulp(float) + 3·|p·θ|·2⁻⁵³ from it.
template <class Arch>
void table_rows(const double* inv_freq, std::size_t half, std::int64_t first,
                std::int64_t count, pe_layout layout, float* out) {
  const std::size_t d = 2 * half;
  if (count < static_cast<std::int64_t>(offset_block(half))) {  // the offsets would not pay
    for (std::int64_t r = 0; r < count; ++r)
      pe_row<Arch>(static_cast<double>(first + r), inv_freq, half, layout,
                   out + static_cast<std::size_t>(r) * d);
    return;
  }
  std::vector<double> table(offset_doubles(half));
  fill_offsets<Arch>(inv_freq, half, table.data());
  const angle_offsets o = offsets_view(inv_freq, half, table.data());
  const bool stream = streams<Arch>(out, half, count, layout);
  if (layout == pe_layout::concat)
    angle_rows<Arch>(o, first, count, split_rows{out, out + half, d, stream});
  else
    angle_rows<Arch>(o, first, count, pair_rows{out, d, stream});
  if (stream) stream_fence();
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
