// test_angles.cpp — detail/angles.hpp, the one place posenc turns p·θ into cos/sin:
// accuracy against an independent high-precision reference (within 3e−7 of float64 truth
// for |p| ≤ 2^24), the SIMD row against its scalar reference, and the angle-addition rows
// of the tables held to the double-precision error they promise.
#include "detail/angles.hpp"
#include "posenc/frequencies.hpp"

#include "accuracy.hpp"
#include "double_rows.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

using posenc::test::exact_sincos;

// Distance in float ulps (same sign assumed by the callers' tolerance use).
std::int64_t ulp_distance(float a, float b) {
  auto key = [](float f) {
    std::int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? std::int64_t{INT32_MIN} - i : std::int64_t{i};
  };
  return std::llabs(key(a) - key(b));
}

std::vector<double> sample_positions() {
  const double m = 16777216.0;  // 2^24
  std::vector<double> ps = {0, 1, -1, 2, 3, 97, 100, 201, 202, 4095, 1e6, -1e6,
                            m - 1, m, -m, -(m - 1), 1e7, 12345678};
  std::mt19937_64 rng(20261129);
  std::uniform_int_distribution<std::int64_t> any(-(1 << 24), 1 << 24);
  for (int i = 0; i < 300; ++i) ps.push_back(static_cast<double>(any(rng)));
  return ps;
}

} // namespace

TEST_CASE("reduce_angle lands in [-pi, pi] and keeps the angle", "[angles]") {
  // Up to 1e8 rad.
  for (double x : {0.0, 1.0, -3.5, 3.2, 1e6, -1e6, 16777216.0, 1e8, -1e8}) {
    const double r = posenc::detail::reduce_angle(x);
    CAPTURE(x, r);
    CHECK(std::fabs(r) <= 3.14159265358979324);
    const auto t = exact_sincos(x, 1.0);
    CHECK(std::fabs(std::sin(r) - static_cast<double>(t.sin)) < 1e-11);
    CHECK(std::fabs(std::cos(r) - static_cast<double>(t.cos)) < 1e-11);
  }
}

TEST_CASE("sincos_row_scalar is within 3e-7 of float64 truth for |p| <= 2^24", "[angles]") {
  const auto theta = posenc::inverse_frequencies(128, 10000.0).inv_freq;
  const std::size_t n = theta.size();
  std::vector<float> s(n), c(n);
  double worst = 0;
  for (double p : sample_positions()) {
    posenc::detail::sincos_row_scalar(p, theta.data(), n, s.data(), c.data());
    for (std::size_t i = 0; i < n; ++i) {
      const auto t = exact_sincos(p, theta[i]);
      worst = std::max({worst, std::fabs(s[i] - static_cast<double>(t.sin)),
                        std::fabs(c[i] - static_cast<double>(t.cos))});
    }
  }
  CAPTURE(worst);
  CHECK(worst <= 3e-7);
  // Correct rounding plus the reduction error: never more than half a float ulp of 1.
  CHECK(worst <= 0.5 * 1.1920929e-7 + 1e-9);
}

namespace {

// Positions from 2^24 to 2^53: 2^k + 1, 2^k − 1 (not a power of two times anything), and a
// random one in [2^k, 2^(k+1)), either sign, for every k.
std::vector<double> far_positions() {
  std::mt19937_64 rng(20261205);
  std::vector<double> ps;
  for (int k = 24; k <= 53; ++k) {
    const std::int64_t lo = std::int64_t{1} << k;
    std::uniform_int_distribution<std::int64_t> any(lo, k == 53 ? lo : 2 * lo - 1);
    for (std::int64_t p : {lo + 1, lo - 1, any(rng)}) {
      if (p > (std::int64_t{1} << 53)) continue;
      ps.push_back(static_cast<double>(p));
      ps.push_back(-static_cast<double>(p));
    }
  }
  return ps;
}

// The worst distance of sin/cos rows row(p, theta, s, c) from truth correctly rounded:
// values that miss rounds_to with the exact slack (1e−15 past 2^24 rad) are counted.
template <class Row>
std::int64_t misrounded_far(Row&& row) {
  std::int64_t missed = 0;
  for (double base : {10000.0, 500000.0}) {
    const auto theta = posenc::inverse_frequencies(128, base).inv_freq;
    const std::size_t n = theta.size();
    std::vector<float> s(n), c(n);
    for (double p : far_positions()) {
      row(p, theta, s.data(), c.data());
      for (std::size_t i = 0; i < n; ++i) {
        const auto t = exact_sincos(p, theta[i]);
        const double slack = posenc::test::exact_slack(p, theta[i]);
        const bool ok = posenc::test::rounds_to(s[i], t.sin, slack) &&
                        posenc::test::rounds_to(c[i], t.cos, slack);
        if (!ok) UNSCOPED_INFO("p = " << p << ", rung " << i << ": sin " << s[i] << " cos " << c[i]
                                      << ", truth " << static_cast<double>(t.sin) << ", "
                                      << static_cast<double>(t.cos));
        missed += !ok;
      }
    }
  }
  return missed;
}

}  // namespace

TEST_CASE("sincos_row_scalar is truth correctly rounded for 2^24 <= |p| <= 2^53", "[angles]") {
  // The exact product: a rounded p·θ is off by up to |p·θ|·2⁻⁵³ (5e−3 in cos at 2^48).
  CHECK(misrounded_far([](double p, const std::vector<double>& theta, float* s, float* c) {
          posenc::detail::sincos_row_scalar(p, theta.data(), theta.size(), s, c);
        }) == 0);
}

#if !POSENC_SCALAR_ONLY
TEST_CASE("SIMD sincos_row is truth correctly rounded for 2^24 <= |p| <= 2^53", "[angles]") {
  CHECK(misrounded_far([](double p, const std::vector<double>& theta, float* s, float* c) {
          posenc::detail::sincos_row<xsimd::default_arch>(p, theta.data(), theta.size(), s, c);
        }) == 0);
}
#endif

#if !POSENC_SCALAR_ONLY
TEST_CASE("SIMD sincos_row agrees with the scalar reference to 1 ulp (beyond the product rounding)", "[angles]") {
  using arch = xsimd::default_arch;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> log_theta(-12.0, 1.0);
  std::vector<double> ps = sample_positions();
  // Past 2^26 turns the batch reduction hands lanes to the scalar one: cover that path.
  for (double p : {5e8, -5e8, 4.2e8, 9007199254740992.0, -9007199254740992.0}) ps.push_back(p);
  std::int64_t worst = 0;
  double worst_truth = 0;
  for (std::size_t n : {1u, 2u, 3u, 5u, 8u, 17u, 64u, 65u}) {
    std::vector<double> theta(n);
    for (double& t : theta) t = std::pow(10.0, log_theta(rng));
    theta[0] = 1.0;
    std::vector<float> s(n), c(n), s_ref(n), c_ref(n);
    for (double p : ps) {
      posenc::detail::sincos_row<arch>(p, theta.data(), n, s.data(), c.data());
      posenc::detail::sincos_row_scalar(p, theta.data(), n, s_ref.data(), c_ref.data());
      for (std::size_t i = 0; i < n; ++i) {
        // Below 2^24 rad the batches round the product p·θ (≤ 2⁻³⁰ rad), the reference does
        // not: values may differ by that much on top of one rounding.
        const double product = posenc::test::exact_slack(p, theta[i]);
        if (std::fabs(s[i] - s_ref[i]) > product) worst = std::max(worst, ulp_distance(s[i], s_ref[i]));
        if (std::fabs(c[i] - c_ref[i]) > product) worst = std::max(worst, ulp_distance(c[i], c_ref[i]));
        if (std::fabs(p) <= 16777216.0) {
          const auto t = exact_sincos(p, theta[i]);
          worst_truth = std::max({worst_truth, std::fabs(s[i] - static_cast<double>(t.sin)),
                                  std::fabs(c[i] - static_cast<double>(t.cos))});
        }
      }
    }
  }
  CAPTURE(worst, worst_truth);
  CHECK(worst <= 1);
  CHECK(worst_truth <= 3e-7);
}
#endif

#if !POSENC_SCALAR_ONLY
namespace {

using posenc::test::double_rows;

// Runs angle_rows over `count` rows from `first` for the ladder `theta` and returns the
// largest |value − truth| − allowance(p, θ) (≤ 0 when every value is within its allowance).
template <class Allowance>
double worst_excess(const std::vector<double>& theta, std::int64_t first, std::int64_t count,
                    Allowance&& allowance) {
  using arch = xsimd::default_arch;
  namespace d = posenc::detail;
  const std::size_t n = theta.size();
  std::vector<double> table(d::offset_doubles(n));
  d::fill_offsets<arch>(theta.data(), n, table.data());
  std::vector<double> s(n * count), c(n * count);
  d::angle_rows<arch>(d::offsets_view(theta.data(), n, table.data()), first, count,
                      double_rows{s.data(), c.data(), n});
  double excess = -1;
  for (std::int64_t k = 0; k < count; ++k) {
    const double p = static_cast<double>(first + k);
    for (std::size_t i = 0; i < n; ++i) {
      const auto t = exact_sincos(p, theta[i]);
      const double err = std::max(std::fabs(s[k * n + i] - static_cast<double>(t.sin)),
                                  std::fabs(c[k * n + i] - static_cast<double>(t.cos)));
      excess = std::max(excess, err - allowance(p, theta[i]));
    }
  }
  return excess;
}

const std::int64_t kFirsts[] = {0, -1000, (1 << 24) - 600, -(1 << 24), 65536 - 300};

}  // namespace

TEST_CASE("angle-addition rows are within 5e-16 of truth in double: nothing accumulates",
          "[angles]") {
  // θ rounded to 24 significant bits, so every product p·θ (|p| ≤ 2^29) is exact in double
  // and the only error left is the kernel's own: anchor and offset (≤ 1 ulp each) and two
  // roundings. 600 rows cross dozens of anchors; a recurrence stepping from row to row
  // drifts past 5e−16 within a few rows, and float32 arithmetic anywhere is 1e−8 off.
  for (int dim : {2, 6, 128, 1026}) {  // 1026: 513 rungs, a smaller K and two chunks
    std::vector<double> theta = posenc::inverse_frequencies(dim, 10000.0).inv_freq;
    for (double& t : theta) {
      int e = 0;
      std::frexp(t, &e);
      t = std::ldexp(std::nearbyint(std::ldexp(t, 24 - e)), e - 24);
    }
    for (std::int64_t first : kFirsts) {
      const double excess = worst_excess(theta, first, 600, [](double, double) { return 5e-16; });
      CAPTURE(dim, first, excess);
      CHECK(excess <= 0);
    }
  }
}

TEST_CASE("angle-addition rows with the real ladder: within |p theta| 2^-52 + 5e-16",
          "[angles]") {
  // With θ_i = b^(−2i/d) the products aθ and jθ are rounded like the reference's pθ is.
  for (int dim : {2, 6, 128, 1026}) {
    for (double base : {10000.0, 500000.0}) {
      const auto theta = posenc::inverse_frequencies(dim, base).inv_freq;
      for (std::int64_t first : kFirsts) {
        const double excess = worst_excess(theta, first, 600, [](double p, double t) {
          return std::fabs(p * t) * 0x1p-52 + 5e-16;
        });
        CAPTURE(dim, base, first, excess);
        CHECK(excess <= 0);
      }
    }
  }
}

TEST_CASE("offset blocks are powers of two and bounded", "[angles]") {
  namespace d = posenc::detail;
  for (std::size_t n : {1u, 64u, 256u, 257u, 4096u, 32768u}) {
    const std::size_t k = d::offset_block(n);
    CAPTURE(n, k);
    CHECK(k >= 1);
    CHECK((k & (k - 1)) == 0);  // −2^53 must be an anchor: K divides 2^53
    CHECK((k == 1 || k * n <= 8192));
    CHECK(d::offset_stride(n) % d::kOffsetPad == 0);
  }
}
#endif
