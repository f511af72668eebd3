// test_sinusoidal.cpp — sinusoidal tables and their algebra (posenc/sinusoidal.hpp):
// every fact to its printed precision, accuracy against an independent long-double
// reference, the SIMD recurrence against its scalar reference, both layouts, and
// every bad argument.
#include "detail/table_kernels.hpp"
#include "posenc/errors.hpp"
#include "posenc/sinusoidal.hpp"

#include "accuracy.hpp"
#include "double_rows.hpp"

#include <catch2/catch.hpp>
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using posenc::test::require_throws;

using posenc::pe_layout;

// sin/cos of the exact product p·θ (θ the double ladder value), reduced in long double
// after an exact fma split of the product — independent of angles.hpp's constants.
long double truth_angle(double p, double theta) {
  const double hi = p * theta;
  const double lo = std::fma(p, theta, -hi);
  return std::remainder(static_cast<long double>(hi), 6.283185307179586476925286766559L) + lo;
}

// Reference row PE(p) in long double, interleaved layout.
std::vector<long double> truth_row(int dim, double base, double p) {
  const auto inv = posenc::inverse_frequencies(dim, base).inv_freq;
  std::vector<long double> row(static_cast<std::size_t>(dim));
  for (std::size_t i = 0; i < inv.size(); ++i) {
    const long double a = truth_angle(p, inv[i]);
    row[2 * i] = std::sin(a);
    row[2 * i + 1] = std::cos(a);
  }
  return row;
}

std::vector<float> table(int dim, std::int64_t first, std::int64_t count,
                         pe_layout layout = pe_layout::interleaved, double base = 10000) {
  std::vector<float> out(static_cast<std::size_t>(dim * count));
  posenc::sinusoidal_table(out.data(), out.size(), dim, base, first, count, layout);
  return out;
}

const int kDims[] = {2, 4, 6, 10, 64, 80, 96, 128, 256};

}  // namespace

TEST_CASE("d=8 rows p=0..3 to 4 decimals", "[sinusoidal]") {
  const double expected[4][8] = {
      {0, 1, 0, 1, 0, 1, 0, 1},
      {0.8415, 0.5403, 0.0998, 0.9950, 0.0100, 1.0000, 0.0010, 1.0000},
      {0.9093, -0.4161, 0.1987, 0.9801, 0.0200, 0.9998, 0.0020, 1.0000},
      {0.1411, -0.9900, 0.2955, 0.9553, 0.0300, 0.9996, 0.0030, 1.0000}};
  const auto pe = table(8, 0, 4);
  for (int p = 0; p < 4; ++p)
    for (int j = 0; j < 8; ++j) {
      CAPTURE(p, j);
      // Half a unit of the 4th decimal, plus float rounding: cos 0.01 = 0.99995 is printed
      // as 1.0000 and sits exactly on that boundary (why d=4 is checked to 5 places).
      CHECK(pe[p * 8 + j] == Approx(expected[p][j]).margin(5e-5 + 1e-7));
    }
}

TEST_CASE("d=4 row p=1 to 5 places", "[sinusoidal]") {
  const auto row = posenc::sinusoidal_row(4, 10000, 1);
  CHECK(row[0] == Approx(0.84147).margin(5e-6));
  CHECK(row[1] == Approx(0.54030).margin(5e-6));
  CHECK(row[2] == Approx(0.0099998).margin(5e-8));
  CHECK(row[3] == Approx(0.99995).margin(5e-6));
  // The same row out of a table and out of the arbitrary-positions table.
  const std::int32_t one[] = {1};
  std::vector<float> t(4);
  posenc::sinusoidal_table(t.data(), t.size(), 4, 10000, one);
  CHECK(t == row);
  CHECK(table(4, 1, 1) == row);
}

TEST_CASE("M(3)·PE(5) = PE(8), and M(k)·PE(p) = PE(p+k) for many p", "[sinusoidal]") {
  const auto shifted = posenc::apply_shift(8, 10000, 3, posenc::sinusoidal_row(8, 10000, 5));
  const double expected[4] = {0.98936, -0.14550, 0.71736, 0.69671};
  for (int j = 0; j < 4; ++j) CHECK(shifted[j] == Approx(expected[j]).margin(5e-6));

  const auto layout = GENERATE(pe_layout::interleaved, pe_layout::concat);
  const int dim = GENERATE(8, 64);
  const std::int64_t k = GENERATE(-1000, -3, 1, 3, 97, 100000);
  const auto m = posenc::shift_matrix(dim, 10000, k, layout);
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> any(-(1 << 24), 1 << 24);
  double worst_apply = 0, worst_matrix = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const std::int64_t p = trial < 5 ? trial : any(rng);
    const auto row = posenc::sinusoidal_row(dim, 10000, p, layout);
    const auto target = posenc::sinusoidal_row(dim, 10000, p + k, layout);
    const auto via_apply = posenc::apply_shift(dim, 10000, k, row, layout);
    for (int a = 0; a < dim; ++a) {
      double via_matrix = 0;
      for (int b = 0; b < dim; ++b) via_matrix += m[a * dim + b] * row[b];
      worst_apply = std::max(worst_apply, std::fabs(via_apply[a] - target[a]));
      worst_matrix = std::max(worst_matrix, std::fabs(via_matrix - target[a]));
    }
  }
  CAPTURE(dim, k, posenc::to_string(layout));
  // Float rounding: each of row and target is within 6e−8 of truth; a rotation keeps that.
  CHECK(worst_apply <= 1.5e-7);
  CHECK(worst_matrix <= 1.5e-7);
}

TEST_CASE("shift_matrix is block diagonal with rotation blocks", "[sinusoidal]") {
  const auto m = posenc::shift_matrix(4, 10000, 3);
  // Pair θ=1: [[cos 3, sin 3], [−sin 3, cos 3]]; pair θ=0.01 at (2,3); zeros elsewhere.
  CHECK(m[0 * 4 + 0] == Approx(std::cos(3.0)));
  CHECK(m[0 * 4 + 1] == Approx(std::sin(3.0)));
  CHECK(m[1 * 4 + 0] == Approx(-std::sin(3.0)));
  CHECK(m[3 * 4 + 2] == Approx(-std::sin(0.03)));
  CHECK(m[0 * 4 + 2] == 0);
  CHECK(m[2 * 4 + 1] == 0);
  const auto mc = posenc::shift_matrix(4, 10000, 3, pe_layout::concat);
  CHECK(mc[0 * 4 + 2] == Approx(std::sin(3.0)));  // (sin_0, cos_0) live at (0, 2)
  CHECK(mc[0 * 4 + 1] == 0);
}

TEST_CASE("d=32 every norm is 4.0", "[sinusoidal]") {
  const auto norms = posenc::pe_norms(32, 10000, -300, 1000);
  REQUIRE(norms.size() == 1000);
  for (double n : norms) CHECK(n == Approx(4.0).margin(1e-6));
  const auto far = posenc::pe_norms(32, 10000, 16777216 - 10, 10);
  for (double n : far) CHECK(n == Approx(4.0).margin(1e-6));
}

TEST_CASE("concat layout holds the same values as interleaved", "[sinusoidal]") {
  const int dim = GENERATE(2, 6, 10, 128);
  const std::int64_t first = GENERATE(-70, 0, 1000000);
  const auto il = table(dim, first, 150);
  const auto cc = table(dim, first, 150, pe_layout::concat);
  const int half = dim / 2;
  for (int r = 0; r < 150; ++r)
    for (int i = 0; i < half; ++i) {
      CAPTURE(dim, first, r, i);
      CHECK(cc[r * dim + i] == il[r * dim + 2 * i]);
      CHECK(cc[r * dim + half + i] == il[r * dim + 2 * i + 1]);
    }
  CHECK(posenc::parse_pe_layout("concat") == pe_layout::concat);
  CHECK(posenc::parse_pe_layout("interleaved") == pe_layout::interleaved);
  CHECK(posenc::to_string(pe_layout::concat) == "concat");
}

TEST_CASE("PE within 3e-7 of float64 truth for |p| <= 2^24", "[sinusoidal]") {
  const int dim = GENERATE(8, 128);
  const double base = GENERATE(10000.0, 500000.0);
  double worst = 0;
  auto check_rows = [&](const std::vector<float>& t, std::int64_t first, std::int64_t count) {
    for (std::int64_t r = 0; r < count; ++r) {
      const auto ref = truth_row(dim, base, static_cast<double>(first + r));
      for (int j = 0; j < dim; ++j)
        worst = std::max(worst, static_cast<double>(std::fabs(t[r * dim + j] - ref[j])));
    }
  };
  // Consecutive rows (the SIMD recurrence, across several anchors) at both ends of the range.
  for (std::int64_t first : {std::int64_t{-(1 << 24)}, std::int64_t{(1 << 24) - 200},
                             std::int64_t{-100}, std::int64_t{999'937}})
    check_rows(table(dim, first, 200, pe_layout::interleaved, base), first, 200);
  // Arbitrary positions.
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::int32_t> any(-(1 << 24), 1 << 24);
  std::vector<std::int32_t> ps(300);
  for (auto& p : ps) p = any(rng);
  ps[0] = 1 << 24;
  std::vector<float> t(ps.size() * dim);
  posenc::sinusoidal_table(t.data(), t.size(), dim, base, ps);
  for (std::size_t r = 0; r < ps.size(); ++r) {
    const auto ref = truth_row(dim, base, ps[r]);
    for (int j = 0; j < dim; ++j)
      worst = std::max(worst, static_cast<double>(std::fabs(t[r * dim + j] - ref[j])));
  }
  CAPTURE(dim, base, worst);
  CHECK(worst <= 6e-8);  // 0.5 ulp(float) on [−1, 1]; the promise is 3e−7
}

TEST_CASE("tables are float64 truth correctly rounded (max error 3e-8 below 2^16)",
          "[sinusoidal]") {
  // Every value of PE(0 … 2^16 − 1) at dim 16 (2^20 floats), both layouts, and 300 rows at
  // ±2^24; rounds_to fails a table built with float32 angles or by a recurrence that drifts.
  // A table built in two calls holds the same bits (test_dispatch).
  const auto layout = GENERATE(pe_layout::interleaved, pe_layout::concat);
  const int dim = 16;
  const auto theta = posenc::inverse_frequencies(dim, 10000).inv_freq;
  std::int64_t misrounded = 0;
  double worst_small = 0;
  auto check = [&](const std::vector<float>& t, std::int64_t first, std::int64_t count) {
    for (std::int64_t r = 0; r < count; ++r) {
      const double p = static_cast<double>(first + r);
      for (int i = 0; i < dim / 2; ++i) {
        const auto truth = posenc::test::exact_sincos(p, theta[i]);
        const bool concat = layout == pe_layout::concat;
        const float sv = t[r * dim + (concat ? i : 2 * i)];
        const float cv = t[r * dim + (concat ? dim / 2 + i : 2 * i + 1)];
        const double slack = posenc::test::exact_slack(p, theta[i]);
        misrounded += !posenc::test::rounds_to(sv, truth.sin, slack);
        misrounded += !posenc::test::rounds_to(cv, truth.cos, slack);
        if (std::fabs(p) < 65536)
          worst_small = std::max({worst_small, static_cast<double>(std::fabs(sv - truth.sin)),
                                  static_cast<double>(std::fabs(cv - truth.cos))});
      }
    }
  };
  check(table(dim, 0, 65536, layout), 0, 65536);
  for (std::int64_t first : {-(std::int64_t{1} << 24), (std::int64_t{1} << 24) - 300})
    check(table(dim, first, 300, layout), first, 300);
  CAPTURE(posenc::to_string(layout), misrounded, worst_small);
  CHECK(misrounded == 0);
  CHECK(worst_small <= 3e-8);
}

TEST_CASE("the accuracy check rejects a float32-angle table", "[sinusoidal]") {
  // The classic mistake: p·θ formed in float32. The same comparison must fail it.
  const auto inv = posenc::inverse_frequencies(8, 10000).inv_freq;
  const float p = 1000003.0f;
  const auto ref = truth_row(8, 10000, p);
  double worst = 0;
  for (std::size_t i = 0; i < inv.size(); ++i) {
    const float angle = p * static_cast<float>(inv[i]);
    worst = std::max(worst, static_cast<double>(std::fabs(std::sin(angle) - ref[2 * i])));
  }
  CAPTURE(worst);
  CHECK(worst > 3e-7);
}

TEST_CASE("SIMD table recurrence matches the scalar reference", "[sinusoidal]") {
#if POSENC_SCALAR_ONLY
  SUCCEED("scalar-only build");
#else
  const int dim = GENERATE(from_range(std::begin(kDims), std::end(kDims)));
  const auto layout = GENERATE(pe_layout::interleaved, pe_layout::concat);
  std::mt19937_64 rng(static_cast<std::uint64_t>(dim) * 31 + static_cast<int>(layout));
  std::uniform_int_distribution<std::int64_t> start(-(1 << 24), (1 << 24) - 300);
  std::uniform_int_distribution<std::int64_t> len(1, 300);
  const auto inv = posenc::inverse_frequencies(dim, 10000).inv_freq;
  double worst = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const std::int64_t first = trial == 0 ? 0 : start(rng), count = len(rng);
    std::vector<float> simd(static_cast<std::size_t>(count * dim)), ref(simd.size());
    posenc::detail::table_rows<xsimd::default_arch>(inv.data(), inv.size(), first, count,
                                                    layout, simd.data());
    posenc::detail::table_rows_scalar(inv.data(), inv.size(), first, count, layout,
                                      ref.data());
    for (std::size_t j = 0; j < ref.size(); ++j)
      worst = std::max(worst, static_cast<double>(std::fabs(simd[j] - ref[j])));
  }
  CAPTURE(dim, posenc::to_string(layout), worst);
  // Both are within 0.5 ulp(float) + |p|·2⁻⁵³ (the product p·θ's rounding, ≤ 1.9e−9) of
  // the exact value, so they differ by at most 1 ulp(float) ≤ 6e−8 plus twice that.
  CHECK(worst <= 6e-8 + 4e-9);
#endif
}

TEST_CASE("the step recurrence stays within |p·θ|·2^-52 + 3e-14 of the exact sin and cos",
          "[sinusoidal]") {
#if POSENC_SCALAR_ONLY
  SUCCEED("scalar-only build");
#else
  for (std::size_t n : {1u, 3u, 37u, 64u, 256u}) {
    const auto inv = posenc::inverse_frequencies(static_cast<int>(2 * n), 10000).inv_freq;
    for (std::int64_t first : {std::int64_t{0}, std::int64_t{-517}, std::int64_t{16777000}}) {
      const std::int64_t count = 200;  // starts inside a block, crosses six anchors
      std::vector<double> s(static_cast<std::size_t>(count) * n), c(s.size());
      posenc::detail::step_rows<xsimd::default_arch>(inv.data(), n, first, count,
                                                     posenc::test::double_rows{s.data(), c.data(), n});
      double excess = 0;  // the error beyond the product p·θ's rounding
      for (std::int64_t r = 0; r < count; ++r)
        for (std::size_t i = 0; i < n; ++i) {
          const long double a = static_cast<long double>(first + r) * inv[i];
          const double allow = std::fabs(static_cast<double>(a)) * 0x1p-52;
          const std::size_t at = static_cast<std::size_t>(r) * n + i;
          excess = std::max({excess, std::fabs(s[at] - static_cast<double>(std::sin(a))) - allow,
                             std::fabs(c[at] - static_cast<double>(std::cos(a))) - allow});
        }
      CAPTURE(n, first, excess);
      CHECK(excess <= 3e-14);
    }
  }
#endif
}

TEST_CASE("PE(m)·PE(n) depends only on n-m and equals sum cos(k theta_i)", "[sinusoidal]") {
  const int dim = GENERATE(8, 64, 128);
  const auto closed = posenc::pe_dot_closed_form(dim, 10000, -50, 400);
  for (std::int64_t p : {0, 7, -1000, 123456, 16000000}) {
    const auto dots = posenc::pe_dot_by_distance(dim, 10000, p, -50, 400);
    REQUIRE(dots.size() == closed.size());
    double worst = 0;
    for (std::size_t j = 0; j < dots.size(); ++j)
      worst = std::max(worst, std::fabs(dots[j] - closed[j]));
    CAPTURE(dim, p, worst);
    CHECK(worst <= dim * 6e-8);
  }
  // k = 0 gives d/2; the curve is not monotone in |k| (d=8: the θ=1 pair turns back).
  CHECK(closed[50] == Approx(dim / 2.0));
  const auto d8 = posenc::pe_dot_closed_form(8, 10000, 0, 10);
  CHECK(d8[6] > d8[3]);
  CHECK(d8[1] == Approx(std::cos(1.0) + std::cos(0.1) + std::cos(0.01) + std::cos(0.001)));
}

TEST_CASE("pe_min_distance agrees with a brute force over float32 rows", "[sinusoidal]") {
  const int dim = GENERATE(2, 8, 16);
  const std::int64_t first = GENERATE(0, -40, 5000);
  const std::int64_t count = 60;
  const auto got = posenc::pe_min_distance(dim, 10000, first, count);
  const auto rows = table(dim, first, count);
  double best = std::numeric_limits<double>::infinity();
  for (int p = 0; p < count; ++p)
    for (int q = p + 1; q < count; ++q) {
      double sq = 0;
      for (int j = 0; j < dim; ++j) {
        const double diff = double(rows[p * dim + j]) - rows[q * dim + j];
        sq += diff * diff;
      }
      best = std::min(best, std::sqrt(sq));
    }
  CAPTURE(dim, first, got.distance, best);
  CHECK(got.distance == Approx(best).margin(1e-6));
  CHECK(got.p == first);
  CHECK(got.q > got.p);
  // d=2 (θ=1): the closest pair is 44 apart (44 ≈ 7·2π), not neighbours.
  if (dim == 2) CHECK(got.q - got.p == 44);
}

TEST_CASE("sinusoidal: bad input throws naming the argument", "[sinusoidal]") {
  using posenc::invalid_argument;
  using posenc::length_error;
  std::vector<float> buf(64);
  auto fill = [&](int dim, double base, std::int64_t first, std::int64_t count) {
    posenc::sinusoidal_table(buf.data(), buf.size(), dim, base, first, count);
  };
  require_throws<invalid_argument>([&] { fill(7, 10000, 0, 1); }, "dim");
  require_throws<invalid_argument>([&] { fill(0, 10000, 0, 1); }, "dim");
  require_throws<invalid_argument>([&] { fill(posenc::max_dim + 2, 10000, 0, 1); }, "dim");
  require_throws<invalid_argument>([&] { fill(8, 1.0, 0, 1); }, "base");
  require_throws<invalid_argument>([&] { fill(8, std::nan(""), 0, 1); }, "base");
  require_throws<invalid_argument>([&] { fill(8, 10000, 0, -1); }, "count");
  require_throws<invalid_argument>([&] { fill(8, 10000, posenc::max_table_position + 1, 1); },
                                   "first");
  require_throws<invalid_argument>([&] { fill(8, 10000, posenc::max_table_position, 2); },
                                   "first + count - 1");
  require_throws<length_error>([&] { fill(8, 10000, 0, 9); }, "out");
  require_throws<length_error>([&] { fill(8, 10000, 0, posenc::max_table_position); }, "out");
  require_throws<invalid_argument>(
      [&] { posenc::sinusoidal_table(nullptr, 8, 8, 10000, 0, 1); }, "out");
  const std::int32_t ps[] = {1, 2, 3};
  require_throws<length_error>(
      [&] { posenc::sinusoidal_table(buf.data(), 23, 8, 10000, ps); }, "out");
  require_throws<invalid_argument>([&] { posenc::sinusoidal_row(8, 10000, -(std::int64_t{1} << 41)); },
                                   "position");
  require_throws<invalid_argument>([&] { posenc::parse_pe_layout("half"); }, "layout");
  require_throws<invalid_argument>(
      [&] { posenc::shift_matrix(posenc::max_shift_matrix_dim + 2, 10000, 1); }, "dim");
  require_throws<invalid_argument>(
      [&] { posenc::shift_matrix(8, 10000, std::int64_t{1} << 50); }, "k");
  require_throws<length_error>(
      [&] { posenc::apply_shift(8, 10000, 1, std::vector<float>(6)); }, "row");
  require_throws<invalid_argument>([&] { posenc::pe_dot_by_distance(8, 10000, 0, 0, -1); },
                                   "k_count");
  require_throws<invalid_argument>(
      [&] { posenc::pe_dot_by_distance(8, 10000, 0, 0, (std::int64_t{1} << 24) + 1); },
      "k_count");
  require_throws<invalid_argument>([&] { posenc::pe_dot_closed_form(9, 10000, 0, 1); }, "dim");
  require_throws<invalid_argument>([&] { posenc::pe_norms(8, 10000, 0, -5); }, "count");
  require_throws<invalid_argument>([&] { posenc::pe_min_distance(8, 10000, 0, 1); }, "count");
  require_throws<invalid_argument>(
      [&] { posenc::pe_min_distance(8, 10000, 0, posenc::max_min_distance_count + 1); },
      "count");
  // Nothing was written by any failed call.
  for (float v : buf) CHECK(v == 0.0f);
}

TEST_CASE("sinusoidal: an out-of-range pe_layout is refused by every entry point", "[sinusoidal]") {
  using posenc::invalid_argument;
  std::vector<float> buf(64, 0.0f);
  const std::int32_t ps[] = {1, 2};
  const std::vector<float> row(8, 0.5f);
  for (int bad : {2, -1, 7}) {
    const auto l = static_cast<posenc::pe_layout>(bad);
    require_throws<invalid_argument>(
        [&] { posenc::sinusoidal_table(buf.data(), buf.size(), 8, 10000, 0, 2, l); }, "layout");
    require_throws<invalid_argument>(
        [&] { posenc::sinusoidal_table(buf.data(), buf.size(), 8, 10000, ps, l); }, "layout");
    require_throws<invalid_argument>([&] { posenc::sinusoidal_row(8, 10000, 3, l); }, "layout");
    require_throws<invalid_argument>([&] { posenc::shift_matrix(8, 10000, 3, l); }, "layout");
    require_throws<invalid_argument>([&] { posenc::apply_shift(8, 10000, 3, row, l); }, "layout");
  }
  for (float v : buf) CHECK(v == 0.0f);
}
