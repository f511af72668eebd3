// tests/core/accuracy.hpp — the float64 truth of sin/cos(p·θ) and the per-value rounding
// check the table tests share (test_angles, test_rotary, test_sinusoidal).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc::test {

// sin/cos of the exact product p·θ (θ a double), to ~1e−18 for |p| ≤ 2^53: the product is
// split into hi + lo exactly (fma), hi is reduced by 2π taken 8 bits at a time from its
// hexadecimal expansion (Cody–Waite in long double: k·P_j is exact for |k| < 2^56, and each
// step keeps the residual within 64 bits until it is below 2^−60) and lo added back.
// Independent of angles.hpp's constants.
struct sincos_truth {
  long double sin, cos;
};

inline sincos_truth exact_sincos(double position, double theta) {
  // 2π = 0x6.487ed5110b4611a62633145c06e0e68948127044533e63a010… (200 bits)
  constexpr const char* two_pi_hex = "6487ed5110b4611a62633145c06e0e68948127044533e63a010";
  const double hi = position * theta;
  const double lo = std::fma(position, theta, -hi);
  const long double k = std::nearbyint(static_cast<long double>(hi) / 6.283185307179586476925286766559L);
  long double a = hi;
  auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  // Part j: hex digits 2j, 2j + 1 of the expansion, weight 16^(1 − 2j) · (16·d0 + d1) / 16.
  for (int j = 0; two_pi_hex[2 * j] != '\0' && two_pi_hex[2 * j + 1] != '\0'; ++j) {
    const long double part = std::ldexp(static_cast<long double>(16 * digit(two_pi_hex[2 * j]) +
                                                                  digit(two_pi_hex[2 * j + 1])),
                                        -8 * j - 4);
    a -= k * part;
  }
  a += lo;
  return {std::sin(a), std::cos(a)};
}

// What an exact table promises for one value: f is truth t correctly rounded to float,
// except where t lies within `slack` of a rounding midpoint. So |f − t| ≤ half the float
// spacing at f plus slack. slack covers the angle's own rounding (p·θ rounded to double
// within 2^24 rad, where the SIMD batches use it: min(|p·θ|, 2^24)·2⁻⁵³; past that every
// build splits the product exactly) and the double evaluation (≤ 1e−15); a table whose
// values carry more error
// (float32 angles, a recurrence that drifts) fails this on the values near midpoints and
// on the small ones, whose spacing is tiny.
inline bool rounds_to(float f, long double t, double slack) {
  const float a = std::fabs(f);
  const double spacing =
      static_cast<double>(std::nextafter(a, std::numeric_limits<float>::infinity()) - a);
  return std::fabs(static_cast<long double>(f) - t) <= 0.5 * spacing + slack;
}

// slack for position p and rung θ (see rounds_to).
inline double exact_slack(double position, double theta) {
  return std::min(std::fabs(position * theta), 0x1p24) * 0x1p-52 + 1e-15;
}

}  // namespace posenc::test
