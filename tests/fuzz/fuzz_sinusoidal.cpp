// tests/fuzz/fuzz_sinusoidal.cpp — libFuzzer target for posenc/sinusoidal.hpp: tables by
// range and by positions (both layouts, exactly-sized or too-small output buffers), rows,
// the shift matrix and apply_shift, dot-by-distance (measured and closed form), norms and
// the minimum distance, with positions at the int32 / max_table_position extremes. Counts
// are capped small so one execution stays fast; only over-limit values are ever huge.
// Either a call succeeds or it throws posenc::error. On success: every table value in
// [−1, 1]; table rows by range equal rows by positions and sinusoidal_row (to float
// rounding); apply_shift equals M(k)·row; M(k)·PE(p) ≈ PE(p+k); the two dot-by-distance
// forms agree; norms ≈ √(d/2).
#include "fuzz_input.hpp"

#include <span>

namespace {

using namespace posenc;
using fuzz::expect;

// sinusoidal.hpp: each value within 0.5 ulp(float) + 1e−9 of float64 truth, so two ways of
// computing one value differ by at most 2 float ulps at 1 (+ 2e−9).
constexpr double kTwoWays = 1.2e-7 + 2e-9;

// The accuracy promise (sinusoidal.hpp, core/README.md) covers |p| ≤ 2^24: past it the double
// product p·θ_i rounds by up to |p|·2^-53 rad (6e−5 near 2^40, corpus
// finding-large-position-angle-rounding), which sinusoidal.hpp documents. Beyond 2^24 the
// calls must still succeed safely, but the value checks below do not apply.
bool beyond_promise(std::initializer_list<std::int64_t> positions) {
  bool large = false;
  for (std::int64_t p : positions) large = large || p < -(1 << 24) || p > (1 << 24);
  return large;
}

// A count in [0, cap], or rarely one the function must refuse: negative, or `limit` + 1
// (its documented maximum + 1), or absurd. Never a legal huge count (that would be slow).
std::int64_t small_count(fuzz::input& in, std::int64_t cap, std::int64_t limit) {
  if (in.rarely(16))
    return in.one_of<std::int64_t>({-1, INT64_MIN, INT64_MAX, limit + 1});
  return in.between<std::int64_t>(0, cap);
}

// Documented maxima of the counts (sinusoidal.hpp).
constexpr std::int64_t kMaxRows = std::int64_t{1} << 24;

std::int64_t first_position(fuzz::input& in) {
  return in.flag() ? in.between<std::int64_t>(-300, 300) : in.position();
}

void fuzz_table(fuzz::input& in, int dim, double base, pe_layout layout) {
  const std::int64_t first = first_position(in), count = small_count(in, 40, max_table_position);
  const auto row_floats = static_cast<std::size_t>(std::clamp(dim, 0, 2048));
  const auto rows = static_cast<std::size_t>(std::clamp<std::int64_t>(count, 0, 40));
  std::size_t size = rows * row_floats;
  if (in.rarely(8)) size = size > 0 ? size - in.between<std::size_t>(1, std::min<std::size_t>(size, 3)) : 0;
  fuzz::buffer out(size);
  std::fill(out.begin(), out.end(), 7.0f);  // outside [−1, 1]: unwritten values show up
  fuzz::note("table dim %d base %.17g layout %d first %lld count %lld size %zu", dim, base,
             static_cast<int>(layout), static_cast<long long>(first),
             static_cast<long long>(count), size);
  float* target = in.rarely(64) ? nullptr : out.begin();
  if (!fuzz::attempt([&] { sinusoidal_table(target, size, dim, base, first, count, layout); }))
    return;
  for (const float v : std::span(out.begin(), size))
    expect(v >= -1.0f && v <= 1.0f, "every table value in [-1, 1]", v, 1.0);
  if (count <= 0 || first < INT32_MIN || first + count - 1 > INT32_MAX) return;
  if (beyond_promise({first, first + count - 1})) return;
  // The same rows by positions, and single rows.
  std::vector<std::int32_t> pos(static_cast<std::size_t>(count));
  for (std::size_t r = 0; r < pos.size(); ++r)
    pos[r] = static_cast<std::int32_t>(first + static_cast<std::int64_t>(r));
  fuzz::buffer by_pos(size);
  sinusoidal_table(by_pos.begin(), size, dim, base, pos, layout);
  for (std::size_t j = 0; j < size; ++j)
    expect(std::fabs(double{by_pos.begin()[j]} - out.begin()[j]) <= kTwoWays,
           "table by range == table by positions", by_pos.begin()[j] - out.begin()[j], kTwoWays);
  const std::size_t r = in.between<std::size_t>(0, pos.size() - 1);
  const std::vector<float> one = sinusoidal_row(dim, base, pos[r], layout);
  for (std::size_t j = 0; j < one.size(); ++j)
    expect(std::fabs(double{one[j]} - out.begin()[r * row_floats + j]) <= kTwoWays,
           "sinusoidal_row == table row");
}

void fuzz_positions(fuzz::input& in, int dim, double base, pe_layout layout) {
  const auto n = in.between<std::size_t>(0, 24);
  const std::vector<std::int32_t> pos = in.positions(n);
  const auto row_floats = static_cast<std::size_t>(std::clamp(dim, 0, 2048));
  std::size_t size = n * row_floats;
  if (in.rarely(8)) size = size > 0 ? size - 1 : 0;
  fuzz::buffer out(size);
  fuzz::note("positions dim %d base %.17g layout %d n %zu size %zu", dim, base,
             static_cast<int>(layout), n, size);
  if (!fuzz::attempt([&] { sinusoidal_table(out.begin(), size, dim, base, pos, layout); }))
    return;
  for (const float v : std::span(out.begin(), size))
    expect(v >= -1.0f && v <= 1.0f, "every table value in [-1, 1]", v, 1.0);
}

void fuzz_shift(fuzz::input& in, int dim, double base, pe_layout layout) {
  const std::int64_t k = in.position();
  const std::int64_t p = in.flag() ? in.between<std::int64_t>(-1000, 1000) : in.position();
  fuzz::note("shift dim %d base %.17g layout %d k %lld p %lld", dim, base,
             static_cast<int>(layout), static_cast<long long>(k), static_cast<long long>(p));
  std::vector<float> row;
  if (!fuzz::attempt([&] { row = sinusoidal_row(dim, base, p, layout); })) return;
  if (in.rarely(16)) row.pop_back();
  std::vector<double> shifted;
  if (!fuzz::attempt([&] { shifted = apply_shift(dim, base, k, row, layout); })) return;
  // M(k)·PE(p) = PE(p + k), to the float rounding of PE(p) plus the table error.
  std::vector<float> target;
  if (!beyond_promise({p, k, p + k}) && fuzz::attempt([&] { target = sinusoidal_row(dim, base, p + k, layout); }))
    for (std::size_t j = 0; j < target.size(); ++j)
      expect(std::fabs(shifted[j] - target[j]) <= 2.5e-7, "M(k) PE(p) == PE(p + k)",
             shifted[j] - target[j], 2.5e-7);
  if (dim > 256) return;  // shift_matrix is dim² doubles
  std::vector<double> m;
  if (!fuzz::attempt([&] { m = shift_matrix(dim, base, k, layout); })) return;
  const auto d = row.size();
  for (std::size_t i = 0; i < d; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < d; ++j) sum += m[i * d + j] * row[j];
    expect(std::fabs(sum - shifted[i]) <= 1e-12, "shift_matrix . row == apply_shift",
           sum - shifted[i], 1e-12);
  }
}

void fuzz_dots(fuzz::input& in, int dim, double base) {
  const std::int64_t p = first_position(in), k_first = first_position(in);
  const std::int64_t k_count = small_count(in, 24, kMaxRows);
  fuzz::note("dots dim %d base %.17g p %lld k_first %lld k_count %lld", dim, base,
             static_cast<long long>(p), static_cast<long long>(k_first),
             static_cast<long long>(k_count));
  std::vector<double> measured, closed;
  const bool ok_measured =
      fuzz::attempt([&] { measured = pe_dot_by_distance(dim, base, p, k_first, k_count); });
  const bool ok_closed =
      fuzz::attempt([&] { closed = pe_dot_closed_form(dim, base, k_first, k_count); });
  if (!ok_measured || !ok_closed) return;
  if (beyond_promise({p, k_first, p + k_first, p + k_first + k_count})) return;
  // sinusoidal.hpp: measured within dim·6e−8 of truth, closed form dim/2·(1 ulp + 1e−9).
  const double tol = dim * 1.2e-7 + 1e-9 * dim;
  for (std::size_t j = 0; j < measured.size(); ++j)
    expect(std::fabs(measured[j] - closed[j]) <= tol, "PE(p).PE(p+k) == sum cos(k theta)",
           measured[j] - closed[j], tol);
}

void fuzz_norms(fuzz::input& in, int dim, double base) {
  const std::int64_t first = first_position(in), count = small_count(in, 24, kMaxRows);
  fuzz::note("norms dim %d base %.17g first %lld count %lld", dim, base,
             static_cast<long long>(first), static_cast<long long>(count));
  std::vector<double> norms;
  if (!fuzz::attempt([&] { norms = pe_norms(dim, base, first, count); })) return;
  const double expected = std::sqrt(dim / 2.0);
  for (double v : norms)
    expect(std::fabs(v - expected) <= expected * 1.2e-7, "||PE(p)|| == sqrt(d/2)", v, expected);
}

void fuzz_min_distance(fuzz::input& in, int dim, double base) {
  const std::int64_t first = first_position(in);
  const std::int64_t count = small_count(in, 40, max_min_distance_count);
  fuzz::note("min_distance dim %d base %.17g first %lld count %lld", dim, base,
             static_cast<long long>(first), static_cast<long long>(count));
  min_distance m;
  if (!fuzz::attempt([&] { m = pe_min_distance(dim, base, first, count); })) return;
  expect(std::isfinite(m.distance) && m.distance >= 0, "distance finite, >= 0", m.distance);
  expect(m.p == first && m.q > m.p && m.q < first + count, "p = first < q < first + count");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::input in(data, size);
  // Small dims mostly; up to 2048 for the tables (max_shift_matrix_dim, ragged SIMD tails).
  const int dim = in.dim(in.flag() ? 24 : 2048);
  const double base = in.base();
  const pe_layout layout = in.pick_pe_layout();
  switch (in.between<int>(0, 5)) {
    case 0: fuzz_table(in, dim, base, layout); break;
    case 1: fuzz_positions(in, dim, base, layout); break;
    case 2: fuzz_shift(in, dim, base, layout); break;
    case 3: fuzz_dots(in, dim, base); break;
    case 4: fuzz_norms(in, dim, base); break;
    default: fuzz_min_distance(in, dim, base); break;
  }
  return 0;
}
