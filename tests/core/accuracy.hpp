// tests/core/accuracy.hpp — the float64 truth of sin/cos(p·θ) and the per-value rounding
// check the table tests share (test_angles, test_rotary, test_sinusoidal).
#pragma once

#include <cmath>
#include <limits>

namespace posenc::test {

// sin/cos of the exact product p·θ (θ a double), to ~1e−18 for |p·θ| ≤ 2^33: the product is
// split into hi + lo exactly (fma), hi is reduced by a three-part 2π in long double (Cody–
// Waite: P1 and P2 carry 32 bits, so k·P1 and k·P2 are exact for |k| < 2^32; P1 + P2 + P3 =
// 2π to 1e−40) and lo added back. Independent of angles.hpp's constants.
struct sincos_truth {
  long double sin, cos;
};

inline sincos_truth exact_sincos(double position, double theta) {
  constexpr long double p1 = 0x6487ed51p-28L, p2 = 0x85a308d3p-63L;
  constexpr long double p3 = 0x98cc51701b839a25p-130L;
  const double hi = position * theta;
  const double lo = std::fma(position, theta, -hi);
  const long double k = std::nearbyint(static_cast<long double>(hi) / (p1 + p2));
  const long double a = ((static_cast<long double>(hi) - k * p1) - k * p2) - k * p3 + lo;
  return {std::sin(a), std::cos(a)};
}

// What an exact table promises for one value: f is truth t correctly rounded to float,
// except where t lies within `slack` of a rounding midpoint. So |f − t| ≤ half the float
// spacing at f plus slack. slack covers the angle's own rounding (p·θ formed in double:
// |p·θ|·2⁻⁵³) and the double evaluation (≤ 1e−15); a table whose values carry more error
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
  return std::fabs(position * theta) * 0x1p-52 + 1e-15;
}

}  // namespace posenc::test
