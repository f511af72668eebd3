// core/src/sinusoidal.cpp — sinusoidal tables (Vaswani et al.) and their algebra.
#include "posenc/sinusoidal.hpp"

#include "detail/angles.hpp"
#include "detail/dispatch.hpp"
#include "detail/dot_kernels.hpp"
#include "detail/table_kernels.hpp"
#include "posenc/detail/check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc {
namespace {

using detail::check_range;

// Largest count of the functions that materialise rows or return one value per position.
constexpr std::int64_t max_row_count = std::int64_t{1} << 24;

// θ_i; inverse_frequencies validates dim (even, [2, max_dim]) and base (finite, > 1).
std::vector<double> ladder(int dim, double base) {
  return inverse_frequencies(dim, base).inv_freq;
}

std::size_t half_of(int dim) { return static_cast<std::size_t>(dim / 2); }

void check_position(const char* name, std::int64_t p) {
  check_range(name, p, -max_table_position, max_table_position);
}

// [first, first + count) must lie within ±max_table_position.
void check_span(const char* first_name, std::int64_t first, const char* count_name,
                std::int64_t count, std::int64_t max_count) {
  check_position(first_name, first);
  check_range(count_name, count, 0, max_count);
  if (count > 0)
    check_range(detail::concat(first_name, " + ", count_name, " - 1").c_str(), first + count - 1,
                -max_table_position, max_table_position);
}

// An enum value outside pe_layout (a cast integer) is refused like everywhere else.
void check_layout(pe_layout layout) {
  if (layout != pe_layout::interleaved && layout != pe_layout::concat)
    detail::fail_argument("layout must be pe_layout interleaved or concat, got ",
                          static_cast<int>(layout));
}

// Fills rows [first, first+count) of an already validated table.
void fill_rows(const std::vector<double>& inv, std::int64_t first, std::int64_t count,
               pe_layout layout, float* out) {
  detail::dispatched::table_rows(inv.data(), inv.size(), first, count, layout, out);
}

// (cos kθ_i, sin kθ_i) in double, the 2×2 block of M(k) for pair i.
struct rotation {
  double c, s;
};
rotation shift_rotation(double k, double inv_freq) {
  const double a = detail::reduce_product(k, inv_freq);
  return {std::cos(a), std::sin(a)};
}

// Index of the (sin, cos) members of pair i in a row of the layout.
struct pair_index {
  std::size_t s, c;
};
pair_index pair_at(std::size_t i, std::size_t half, pe_layout layout) {
  if (layout == pe_layout::concat) return {i, half + i};
  return {2 * i, 2 * i + 1};
}

// Calls fn(r, row) for the float32 rows PE(first + r), r in [0, count), built in chunks
// so memory stays O(chunk·dim) for any count.
template <class Fn>
void for_each_row(const std::vector<double>& inv, std::int64_t first, std::int64_t count,
                  Fn&& fn) {
  constexpr std::int64_t chunk = 256;
  const std::size_t d = inv.size() * 2;
  std::vector<float> rows(static_cast<std::size_t>(std::min(count, chunk)) * d);
  for (std::int64_t r0 = 0; r0 < count; r0 += chunk) {
    const std::int64_t n = std::min(chunk, count - r0);
    fill_rows(inv, first + r0, n, pe_layout::interleaved, rows.data());
    for (std::int64_t j = 0; j < n; ++j)
      fn(static_cast<std::size_t>(r0 + j), rows.data() + static_cast<std::size_t>(j) * d);
  }
}

}  // namespace

pe_layout parse_pe_layout(std::string_view name) {
  if (name == "interleaved") return pe_layout::interleaved;
  if (name == "concat") return pe_layout::concat;
  detail::fail_argument("layout must be 'interleaved' or 'concat', got ", detail::quoted(name));
}

std::string_view to_string(pe_layout layout) noexcept {
  return layout == pe_layout::concat ? "concat" : "interleaved";
}

void sinusoidal_table(float* out, std::size_t out_size, int dim, double base,
                      std::int64_t first, std::int64_t count, pe_layout layout) {
  const std::vector<double> inv = ladder(dim, base);
  check_layout(layout);
  check_span("first", first, "count", count, max_table_position);
  // count may exceed a 32-bit size_t (WASM): refuse it before the cast can truncate.
  if (static_cast<std::uint64_t>(count) > std::numeric_limits<std::size_t>::max())
    detail::fail_length("count = ", count, " does not fit size_t");
  const std::size_t need =
      detail::checked_mul("count * dim", static_cast<std::size_t>(count), half_of(dim) * 2);
  detail::check_buffer("out", out_size, need);
  if (need > 0 && out == nullptr) detail::fail_argument("out must not be null");
  fill_rows(inv, first, count, layout, out);
}

void sinusoidal_table(float* out, std::size_t out_size, int dim, double base,
                      std::span<const std::int32_t> positions, pe_layout layout) {
  const std::vector<double> inv = ladder(dim, base);
  check_layout(layout);
  const std::size_t need = detail::checked_mul("positions.size() * dim", positions.size(),
                                               half_of(dim) * 2);
  detail::check_buffer("out", out_size, need);
  if (need > 0 && out == nullptr) detail::fail_argument("out must not be null");
  // Every int32 lies within ±max_table_position, so positions need no further check.
  detail::dispatched::table_positions(inv.data(), inv.size(), positions.data(),
                                      positions.size(), layout, out);
}

std::vector<float> sinusoidal_row(int dim, double base, std::int64_t position,
                                  pe_layout layout) {
  const std::vector<double> inv = ladder(dim, base);
  check_layout(layout);
  check_position("position", position);
  std::vector<float> row(half_of(dim) * 2);
  detail::pe_row_scalar(static_cast<double>(position), inv.data(), inv.size(), layout,
                        row.data());
  return row;
}

std::vector<double> shift_matrix(int dim, double base, std::int64_t k, pe_layout layout) {
  const std::vector<double> inv = ladder(dim, base);
  check_layout(layout);
  detail::check_even("dim", dim, 2, max_shift_matrix_dim);
  check_position("k", k);
  const std::size_t d = half_of(dim) * 2;
  std::vector<double> m(d * d, 0.0);
  for (std::size_t i = 0; i < inv.size(); ++i) {
    const auto [c, s] = shift_rotation(static_cast<double>(k), inv[i]);
    const auto [is, ic] = pair_at(i, inv.size(), layout);
    // sin θ(p+k) = cos θk·sin θp + sin θk·cos θp; cos θ(p+k) = −sin θk·sin θp + …
    m[is * d + is] = c;
    m[is * d + ic] = s;
    m[ic * d + is] = -s;
    m[ic * d + ic] = c;
  }
  return m;
}

std::vector<double> apply_shift(int dim, double base, std::int64_t k,
                                std::span<const float> row, pe_layout layout) {
  const std::vector<double> inv = ladder(dim, base);
  check_layout(layout);
  check_position("k", k);
  if (row.size() != half_of(dim) * 2)
    detail::fail_length("row holds ", row.size(), " elements but dim = ", dim,
                        " are needed");
  std::vector<double> out(row.size());
  for (std::size_t i = 0; i < inv.size(); ++i) {
    const auto [c, s] = shift_rotation(static_cast<double>(k), inv[i]);
    const auto [is, ic] = pair_at(i, inv.size(), layout);
    const double sp = row[is], cp = row[ic];
    out[is] = c * sp + s * cp;
    out[ic] = c * cp - s * sp;
  }
  return out;
}

std::vector<double> pe_dot_by_distance(int dim, double base, std::int64_t p,
                                       std::int64_t k_first, std::int64_t k_count) {
  const std::vector<double> inv = ladder(dim, base);
  check_position("p", p);
  check_position("k_first", k_first);
  check_span("p + k_first", p + k_first, "k_count", k_count, max_row_count);
  const std::vector<float> row_p = sinusoidal_row(dim, base, p);
  std::vector<double> out(static_cast<std::size_t>(k_count));
  for_each_row(inv, p + k_first, k_count, [&](std::size_t j, const float* row) {
    out[j] = detail::dot_reference(row_p.data(), row, row_p.size());
  });
  return out;
}

std::vector<double> pe_dot_closed_form(int dim, double base, std::int64_t k_first,
                                       std::int64_t k_count) {
  const std::vector<double> inv = ladder(dim, base);
  check_span("k_first", k_first, "k_count", k_count, max_row_count);
  std::vector<double> out(static_cast<std::size_t>(k_count));
  for (std::size_t j = 0; j < out.size(); ++j) {
    const double k = static_cast<double>(k_first + static_cast<std::int64_t>(j));
    double sum = 0;
    for (double theta : inv) sum += std::cos(detail::reduce_product(k, theta));
    out[j] = sum;
  }
  return out;
}

std::vector<double> pe_norms(int dim, double base, std::int64_t first, std::int64_t count) {
  const std::vector<double> inv = ladder(dim, base);
  check_span("first", first, "count", count, max_row_count);
  std::vector<double> out(static_cast<std::size_t>(count));
  for_each_row(inv, first, count, [&](std::size_t r, const float* row) {
    out[r] = std::sqrt(detail::dot_reference(row, row, inv.size() * 2));
  });
  return out;
}

min_distance pe_min_distance(int dim, double base, std::int64_t first, std::int64_t count) {
  const std::vector<double> inv = ladder(dim, base);
  check_range("count", count, 2, max_min_distance_count);
  check_span("first", first, "count", count, max_min_distance_count);
  min_distance best{std::numeric_limits<double>::infinity(), first, first};
  for (std::int64_t delta = 1; delta < count; ++delta) {
    // ‖PE(p) − PE(p+δ)‖² = Σ_i (2 − 2cos δθ_i) = Σ_i 4·sin²(δθ_i/2): no cancellation.
    double sq = 0;
    for (double theta : inv) {
      const double h = std::sin(detail::reduce_product(static_cast<double>(delta), theta) / 2);
      sq += 4 * h * h;
    }
    const double dist = std::sqrt(sq);
    if (dist < best.distance) best = {dist, first, first + delta};
  }
  return best;
}

}  // namespace posenc
