// core/src/detail/angles.hpp — sin/cos of position·θ_i, the one place posenc forms angles.
//
// DESIGN §4: the angle p·θ is formed in double, reduced mod 2π in double, evaluated in
// double and rounded once to float32. Common float32 implementations lose the angle at
// large positions (at p = 10⁶ the float32 spacing is 0.06 rad); this keeps every value
// within 0.5 ulp(float) + 1e−9 of float64 truth for |p·θ| ≤ 2⁴⁰.
// Both the RoPE cos/sin cache (rotary) and the sinusoidal table (sinusoidal) call this.
#pragma once

#include <cmath>
#include <cstddef>

namespace posenc::detail {

// 2π = kTwoPi + kTwoPiLo (double-double), so the reduction below loses nothing to 2π's
// own rounding: at |x| = 10⁶·2π a plain `x − k·2π` would be off by ~2.4e−10.
inline constexpr double kTwoPi = 6.283185307179586;
inline constexpr double kTwoPiLo = 2.4492935982947064e-16;

// x − 2π·round(x/2π), in [−π, π]. Error ≤ 1 ulp of the result + 2⁻¹⁰⁶·|x| (fma: one rounding).
inline double reduce_angle(double x) noexcept {
  const double k = std::nearbyint(x * (1.0 / kTwoPi));
  // fma keeps k·2π's rounding out of the difference.
  return std::fma(-k, kTwoPi, x) - k * kTwoPiLo;
}

// Scalar reference: sin_out[i] = sin(position·inv_freq[i]), cos_out[i] likewise.
inline void sincos_row_scalar(double position, const double* inv_freq, std::size_t n,
                              float* sin_out, float* cos_out) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const double a = reduce_angle(position * inv_freq[i]);
    sin_out[i] = static_cast<float>(std::sin(a));
    cos_out[i] = static_cast<float>(std::cos(a));
  }
}

} // namespace posenc::detail
