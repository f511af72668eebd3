// test_angles.cpp — detail/angles.hpp, the one place posenc turns p·θ into cos/sin:
// accuracy against an independent high-precision reference (within 3e−7 of
// float64 truth for |p| ≤ 2^24), and the SIMD row against its scalar reference.
#include "detail/angles.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

// sin/cos of the exact product p·θ (θ a double): the product is split into hi + lo
// exactly (fma), hi is reduced in long double (64-bit 2π: error < 1e−12 for |p·θ| ≤ 2^26)
// and lo added back. Independent of reduce_angle's double-double constants.
struct sincos_truth {
  long double sin, cos;
};

sincos_truth truth(double position, double theta) {
  const double hi = position * theta;
  const double lo = std::fma(position, theta, -hi);
  const long double two_pi = 6.283185307179586476925286766559L;
  const long double a = std::remainder(static_cast<long double>(hi), two_pi) + lo;
  return {std::sin(a), std::cos(a)};
}

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
  // Up to 1e8 rad, where the long-double reference itself is good to ~4e−12.
  for (double x : {0.0, 1.0, -3.5, 3.2, 1e6, -1e6, 16777216.0, 1e8, -1e8}) {
    const double r = posenc::detail::reduce_angle(x);
    CAPTURE(x, r);
    CHECK(std::fabs(r) <= 3.14159265358979324);
    const auto t = truth(x, 1.0);
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
      const auto t = truth(p, theta[i]);
      worst = std::max({worst, std::fabs(s[i] - static_cast<double>(t.sin)),
                        std::fabs(c[i] - static_cast<double>(t.cos))});
    }
  }
  CAPTURE(worst);
  CHECK(worst <= 3e-7);
  // Correct rounding plus the reduction error: never more than half a float ulp of 1.
  CHECK(worst <= 0.5 * 1.1920929e-7 + 1e-9);
}

#if !POSENC_SCALAR_ONLY
TEST_CASE("SIMD sincos_row agrees with the scalar reference to 1 ulp", "[angles]") {
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
        worst = std::max({worst, ulp_distance(s[i], s_ref[i]), ulp_distance(c[i], c_ref[i])});
        if (std::fabs(p) <= 16777216.0) {
          const auto t = truth(p, theta[i]);
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
