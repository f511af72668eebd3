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
#include <type_traits>

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

// The batch path reduces by quadrants instead of turns: x = k·π/2 + r, |r| ≤ π/4, then
// evaluates sin r and cos r by fdlibm's minimax kernels (__kernel_sin/__kernel_cos, error
// < 1 ulp(double) on [−π/4, π/4]) and swaps/negates them by k mod 4. One reduction and two
// short polynomials give both outputs: ~3× cheaper than xsimd::sincos, which reduces each
// output separately and blends two polynomials per output.
//
// Cody–Waite split of π/2: kHalfPiA and kHalfPiB carry 25 significant bits each, so k·A and
// k·B are exact for |k| ≤ 2^28 and the reduction needs no fused multiply-add (xsimd's
// generic fma is an unfused a·b + c on SSE2/WASM). A + B + C = π/2 to 1.5e−33, so
// r = ((x − k·A) − k·B) − k·C is within 1 ulp(r) + 2^28·1e−32 of the exact x − k·π/2.
inline constexpr double kTwoOverPi = 0.6366197723675814;
inline constexpr double kHalfPiA = 1.5707963109016418;
inline constexpr double kHalfPiB = 1.5893254712295857e-08;
inline constexpr double kHalfPiC = 6.123233995736766e-17;
// Lanes with |k| above this take the scalar reduction (|x| > 2^28·π/2 ≈ 4.2e8 rad).
inline constexpr double kBatchReduceMaxQuadrants = 268435456.0;  // 2^28

// fdlibm's kernel coefficients: sin r ≈ r + r³·P(r²), cos r ≈ 1 − r²/2 + r⁴·Q(r²).
inline constexpr double kSin[6] = {-1.66666666666666324348e-01, 8.33333333332248946124e-03,
                                   -1.98412698298579493134e-04, 2.75573137070700676789e-06,
                                   -2.50507602534068634195e-08, 1.58969099521155010221e-10};
inline constexpr double kCos[6] = {4.16666666666666019037e-02,  -1.38888888888741095749e-03,
                                   2.48015872894767294178e-05,  -2.75573143513906633035e-07,
                                   2.08757232129817482790e-09,  -1.13596475577881948265e-11};

// s = sin x, c = cos x for every lane, each within 1 ulp(double) + 1e−24 of the exact value
// for |x| ≤ 2^28·π/2; returns false (s, c untouched) when a lane is beyond that range.
template <class Arch>
bool sincos_batch(xsimd::batch<double, Arch> x, xsimd::batch<double, Arch>& s,
                  xsimd::batch<double, Arch>& c) noexcept {
  using batch = xsimd::batch<double, Arch>;
  const batch k = xsimd::nearbyint(x * batch(kTwoOverPi));
  if (xsimd::any(xsimd::abs(k) > batch(kBatchReduceMaxQuadrants))) return false;
  // x − k·A is exact (Sterbenz), k·B exact; one rounding in each of the last two steps.
  const batch r = ((x - k * batch(kHalfPiA)) - k * batch(kHalfPiB)) - k * batch(kHalfPiC);
  const batch z = r * r;
  batch p(kSin[5]), q(kCos[5]);
  for (int j = 4; j >= 0; --j) {  // Horner, unrolled by the compiler
    p = xsimd::fma(p, z, batch(kSin[j]));
    q = xsimd::fma(q, z, batch(kCos[j]));
  }
  const batch sin_r = xsimd::fma(r * z, p, r);
  const batch cos_r = xsimd::fma(z * z, q, xsimd::fnma(batch(0.5), z, batch(1.0)));
  // Quadrant q = k mod 4 (exact in double): (sin, cos) = (s, c), (c, −s), (−s, −c), (−c, s).
  const batch quadrant = k - batch(4.0) * xsimd::floor(k * batch(0.25));
  const auto odd = (quadrant == batch(1.0)) | (quadrant == batch(3.0));
  const batch s0 = xsimd::select(odd, cos_r, sin_r);
  const batch c0 = xsimd::select(odd, sin_r, cos_r);
  s = xsimd::select(quadrant >= batch(2.0), -s0, s0);
  c = xsimd::select((quadrant == batch(1.0)) | (quadrant == batch(2.0)), -c0, c0);
  return true;
}

// s[i], c[i] = sin, cos(position·inv_freq[i]) in double for i < n: sincos_batch, with the
// scalar reduction and std::sin/std::cos (exactly sincos_row_scalar's values) for any
// batch holding a lane beyond its range, and for the tail.
template <class Arch>
void sincos_row_double(double position, const double* inv_freq, std::size_t n, double* s,
                       double* c) noexcept {
  using batch = xsimd::batch<double, Arch>;
  std::size_t i = 0;
  for (; i + batch::size <= n; i += batch::size) {
    batch sv, cv;
    if (sincos_batch<Arch>(batch(position) * batch::load_unaligned(inv_freq + i), sv, cv)) {
      sv.store_unaligned(s + i);
      cv.store_unaligned(c + i);
      continue;
    }
    sincos_row_scalar(position, inv_freq + i, batch::size, s + i, c + i);
  }
  sincos_row_scalar(position, inv_freq + i, n - i, s + i, c + i);
}

// Rounds the d doubles of v once to float32 (round to nearest, as static_cast): every
// double row posenc computes becomes a float row here (sincos_row, the sinusoidal table).
// xsimd 8.1 has no double→float batch conversion: its converting store goes lane by lane,
// which was a third of the WASM table fill. On x86 and under Emscripten's SSE2 (where
// _mm_cvtpd_ps is f32x4.demote_f64x2_zero) four to eight values go per instruction instead.
template <class Arch>
void store_row(const double* v, std::size_t d, float* row) noexcept {
  using batch = xsimd::batch<double, Arch>;
  std::size_t j = 0;
#if defined(__SSE2__) && !defined(__EMSCRIPTEN__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
    for (; j + 8 <= d; j += 8)  // batch::size = 8: the batch converts to __m512d
      _mm256_storeu_ps(row + j, _mm512_cvtpd_ps(batch::load_unaligned(v + j)));
  }
  if constexpr (std::is_base_of_v<xsimd::avx, Arch>) {
    for (; j + 4 <= d; j += 4)  // batch::size = 4: the batch converts to __m256d
      _mm_storeu_ps(row + j, _mm256_cvtpd_ps(batch::load_unaligned(v + j)));
  }
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch>) {
    for (; j + 4 <= d; j += 4)
      _mm_storeu_ps(row + j, _mm_movelh_ps(_mm_cvtpd_ps(_mm_loadu_pd(v + j)),
                                           _mm_cvtpd_ps(_mm_loadu_pd(v + j + 2))));
  }
#endif
  for (; j + batch::size <= d; j += batch::size)
    batch::load_unaligned(v + j).store_unaligned(row + j);  // converting store
  for (; j < d; ++j) row[j] = static_cast<float>(v[j]);
}

// SIMD twin of sincos_row_scalar: each value computed in double (sincos_row_double) and
// rounded once to float. Agrees with the scalar reference to ≤ 1 ulp(float) (both are
// within 0.5 ulp + 1e−15 of truth; they can round to different neighbours only at a float
// rounding boundary). Works in chunks so the double→float rounding is store_row's.
template <class Arch>
void sincos_row(double position, const double* inv_freq, std::size_t n, float* sin_out,
                float* cos_out) noexcept {
  constexpr std::size_t chunk = 64;
  alignas(64) double s[chunk];
  alignas(64) double c[chunk];
  for (std::size_t i = 0; i < n; i += chunk) {
    const std::size_t m = n - i < chunk ? n - i : chunk;
    sincos_row_double<Arch>(position, inv_freq + i, m, s, c);
    store_row<Arch>(s, m, sin_out + i);
    store_row<Arch>(c, m, cos_out + i);
  }
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
