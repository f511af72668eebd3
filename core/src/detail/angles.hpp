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
#include <cstdint>

#include "simd.hpp"

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

// Scalar reference: sin_out[i] = sin(position·inv_freq[i]), cos_out[i] likewise, in
// double (rope_shift rotates in double and rounds only its result) or rounded once to float.
template <class Real>
void sincos_row_scalar(double position, const double* inv_freq, std::size_t n,
                       Real* sin_out, Real* cos_out) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const double a = reduce_angle(position * inv_freq[i]);
    sin_out[i] = static_cast<Real>(std::sin(a));
    cos_out[i] = static_cast<Real>(std::cos(a));
  }
}

#if !POSENC_SCALAR_ONLY

// Cody–Waite split of 2π for the batch reduction: kTwoPiA and kTwoPiB carry 26 significant
// bits each, so k·kTwoPiA and k·kTwoPiB are exact for |k| < 2^27 and the reduction needs no
// fused multiply-add (xsimd's generic fma is an unfused a·b + c on SSE2/WASM, which would
// round k·2π before the subtraction). kTwoPiA + kTwoPiB + kTwoPiLo = 2π to 6e−33.
inline constexpr double kTwoPiA = 6.283185243606567;
inline constexpr double kTwoPiB = 6.357301884918343e-08;
// Lanes with |k| above this take the scalar reduction (|x| > 2^26·2π ≈ 4.2e8 rad).
inline constexpr double kBatchReduceMaxTurns = 67108864.0;  // 2^26

// Batch twin of reduce_angle (same result to ≤ 1 ulp of the reduced angle) for lanes with
// |x| ≤ 2^26·2π; returns false when a lane is outside that range.
template <class Arch>
bool reduce_angle_batch(xsimd::batch<double, Arch> x, xsimd::batch<double, Arch>& out) noexcept {
  using batch = xsimd::batch<double, Arch>;
  const batch k = xsimd::nearbyint(x * batch(1.0 / kTwoPi));
  if (xsimd::any(xsimd::abs(k) > batch(kBatchReduceMaxTurns))) return false;
  // x − k·A is exact (Sterbenz), k·B exact; one rounding in each of the last two steps.
  out = ((x - k * batch(kTwoPiA)) - k * batch(kTwoPiB)) - k * batch(kTwoPiLo);
  return true;
}

// SIMD twin of sincos_row_scalar: reduce in double, xsimd::sincos on double batches of
// |angle| ≤ π (where it never takes its slow large-argument path), round each value once.
// Agrees with the scalar reference to ≤ 1 ulp(float) (both are within 0.5 ulp + 1e−15 of
// truth; they can round to different neighbours only at a float rounding boundary).
template <class Arch>
void sincos_row(double position, const double* inv_freq, std::size_t n, float* sin_out,
                float* cos_out) noexcept {
  using batch = xsimd::batch<double, Arch>;
  constexpr std::size_t width = batch::size;
  alignas(64) double s[width];
  alignas(64) double c[width];
  std::size_t i = 0;
  for (; i + width <= n; i += width) {
    batch a;
    if (!reduce_angle_batch<Arch>(batch(position) * batch::load_unaligned(inv_freq + i), a)) {
      sincos_row_scalar(position, inv_freq + i, width, sin_out + i, cos_out + i);
      continue;
    }
    const auto sc = xsimd::sincos(a);
    sc.first.store_aligned(s);
    sc.second.store_aligned(c);
    for (std::size_t j = 0; j < width; ++j) {
      sin_out[i + j] = static_cast<float>(s[j]);
      cos_out[i + j] = static_cast<float>(c[j]);
    }
  }
  sincos_row_scalar(position, inv_freq + i, n - i, sin_out + i, cos_out + i);  // tail
}

// Rows of `count` consecutive positions first, first + 1, … (the RoPE cache): row k at
// sin_out/cos_out + k·n. Each row is sincos_row of its position, so cached rows and rows
// computed on the fly are bit-identical (rotary.hpp promises it). first + k is exact in
// double for |first + k| ≤ 2^53.
template <class Arch>
void sincos_rows(double first, std::int64_t count, const double* inv_freq, std::size_t n,
                 float* sin_out, float* cos_out) noexcept {
  for (std::int64_t k = 0; k < count; ++k) {
    const auto offset = static_cast<std::size_t>(k) * n;
    sincos_row<Arch>(first + static_cast<double>(k), inv_freq, n, sin_out + offset,
                     cos_out + offset);
  }
}

#endif // !POSENC_SCALAR_ONLY

// What most implementations compute instead (for side-by-side comparisons only): θ rounded
// to float32, the angle p·θ multiplied and evaluated in float32, no reduction in double.
// Its error grows with |p|: about |p|·2⁻²⁴ rad (0.06 rad at p = 10⁶).
inline void sincos_row_float32(double position, const double* inv_freq, std::size_t n,
                               float* sin_out, float* cos_out) noexcept {
  const auto p = static_cast<float>(position);
  for (std::size_t i = 0; i < n; ++i) {
    const float angle = p * static_cast<float>(inv_freq[i]);
    sin_out[i] = std::sin(angle);
    cos_out[i] = std::cos(angle);
  }
}

} // namespace posenc::detail
