// core/src/detail/angles.hpp — sin/cos of position·θ_i, the one place posenc forms angles.
//
// The angle p·θ is formed in double (exactly split, hi + lo, once |p·θ| > 2^24), reduced
// mod 2π in double, evaluated in double and rounded once to float32. Common float32
// implementations lose the angle at large positions (at p = 10⁶ the float32 spacing is
// 0.06 rad); this keeps every value within 0.5 ulp(float) + min(|p·θ|, 2^24)·2⁻⁵³ + 1e−15
// (≤ 0.5 ulp + 2e−9) of sin/cos of the exact product p·θ (θ the double), for |p| ≤ 2^53, in
// every build (SIMD batches, the scalar references).
// Both the RoPE cos/sin cache (rotary) and the sinusoidal table (sinusoidal) call this.
//
// Rows of consecutive positions (the tables) go by angle addition from exact anchors: for
// p = a + j with a = floor(p / K)·K and 0 ≤ j < K (K a power of two),
//     sin(pθ) = sin(aθ)·cos(jθ) + cos(aθ)·sin(jθ),   cos(pθ) = cos(aθ)·cos(jθ) − sin(aθ)·sin(jθ).
// The anchor row (aθ) is a full reduced sincos, once per K rows; the K offset rows (jθ) are
// computed once per ladder (angle_offsets). Every value then costs two products and two fused
// adds in double: no recurrence, so nothing accumulates — each value carries the anchor's and
// the offset's error (≤ 1 ulp(double) each) plus 2 roundings, ≤ 5e−16 absolute, before the
// one rounding to float32. The angle is still exact: aθ and jθ are each one rounded product,
// as pθ is. A row depends on its position only (not on where a table starts), so cached rows
// and rows computed alone are bit-identical.
#pragma once

#include <algorithm>
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

// The exact product p·θ reduced: p·θ = hi + lo exactly (fma), hi reduced as above, lo added
// back. Past |p·θ| = 2^24 the rounded product alone would be off by up to |p·θ|·2⁻⁵³ (3e−2
// rad at 2^48); this keeps the angle within 2e−16 + 2⁻¹⁰⁶·|p·θ| of p·θ for |p| ≤ 2^53.
inline double reduce_product(double position, double theta) noexcept {
  const double hi = position * theta;
  return reduce_angle(hi) + std::fma(position, theta, -hi);
}

// Scalar reference: sin_out[i] = sin(position·inv_freq[i]), cos_out[i] likewise, in
// double (rope_shift rotates in double and rounds only its result) or rounded once to float.
template <class Real>
void sincos_row_scalar(double position, const double* inv_freq, std::size_t n,
                       Real* sin_out, Real* cos_out) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const double a = reduce_product(position, inv_freq[i]);
    sin_out[i] = static_cast<Real>(std::sin(a));
    cos_out[i] = static_cast<Real>(std::cos(a));
  }
}

// The per-ladder constants of the angle-addition rows (top of file): K and the offset rows
// cos(j·θ_i), sin(j·θ_i) for j < K, in double. rotary_cache keeps its own; a table builds one.
struct angle_offsets {
  const double* inv_freq = nullptr;
  std::size_t n = 0;           // ladder length
  std::size_t block = 1;       // K, rows per anchor (1: every row is an anchor)
  std::size_t stride = 0;      // doubles per offset row: n rounded up to kOffsetPad
  const double* cos = nullptr;  // [block][stride], padding zero
  const double* sin = nullptr;
};

// Offset rows are padded to whole batches of the widest arch (8 doubles, AVX-512), so the
// kernels read whole batches only.
inline constexpr std::size_t kOffsetPad = 8;

inline std::size_t offset_stride(std::size_t n) noexcept {
  return (n + kOffsetPad - 1) / kOffsetPad * kOffsetPad;
}

// K for a ladder of n: 32 (an anchor costs about five combined values, so 32 rows make it
// ~1/6 of a value each) while the offsets stay ≤ 128 KiB (L2), then fewer. The scalar build
// evaluates every value directly and keeps no offsets.
inline std::size_t offset_block(std::size_t n) noexcept {
#if POSENC_SCALAR_ONLY
  (void)n;
  return 1;
#else
  std::size_t k = 32;
  while (k > 1 && k * n > 8192) k /= 2;
  return k;
#endif
}

// Doubles an offset table of n takes: cos and sin, [K][stride] each.
inline std::size_t offset_doubles(std::size_t n) noexcept {
  return 2 * offset_block(n) * offset_stride(n);
}

// A view of `table` (offset_doubles(n) doubles, filled by fill_offsets) for inv_freq[0, n).
inline angle_offsets offsets_view(const double* inv_freq, std::size_t n,
                                  const double* table) noexcept {
  angle_offsets o;
  o.inv_freq = inv_freq;
  o.n = n;
  o.block = offset_block(n);
  o.stride = offset_stride(n);
  o.cos = table;
  o.sin = table + o.block * o.stride;
  return o;
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
// Batches with a lane beyond 2^24 rad take the scalar path (reduce_product): up to there
// the product p·θ rounded to double is within 2⁻³⁰ (1e−9) of the exact one, past it the
// rounding grows with |p·θ| and only the exact split (fma, which WebAssembly lacks as an
// instruction) keeps the angle. The reduction itself is exact to 2^28 quadrants.
inline constexpr double kBatchMaxAngle = 16777216.0;  // 2^24

// fdlibm's kernel coefficients: sin r ≈ r + r³·P(r²), cos r ≈ 1 − r²/2 + r⁴·Q(r²).
inline constexpr double kSin[6] = {-1.66666666666666324348e-01, 8.33333333332248946124e-03,
                                   -1.98412698298579493134e-04, 2.75573137070700676789e-06,
                                   -2.50507602534068634195e-08, 1.58969099521155010221e-10};
inline constexpr double kCos[6] = {4.16666666666666019037e-02,  -1.38888888888741095749e-03,
                                   2.48015872894767294178e-05,  -2.75573143513906633035e-07,
                                   2.08757232129817482790e-09,  -1.13596475577881948265e-11};

// s = sin x, c = cos x for every lane, each within 1 ulp(double) + 1e−24 of the exact value
// for |x| ≤ 2^24; returns false (s, c untouched) when a lane is beyond that range.
template <class Arch>
bool sincos_batch(xsimd::batch<double, Arch> x, xsimd::batch<double, Arch>& s,
                  xsimd::batch<double, Arch>& c) noexcept {
  using batch = xsimd::batch<double, Arch>;
  if (xsimd::any(xsimd::abs(x) > batch(kBatchMaxAngle))) return false;
  const batch k = xsimd::nearbyint(x * batch(kTwoOverPi));
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

// Fills the offset table of o (offsets_view over writable memory): row j = cos, sin(j·θ_i),
// each within 1 ulp(double) (sincos_row_double); padding zero.
template <class Arch>
void fill_offsets(const double* inv_freq, std::size_t n, double* table) noexcept {
  const angle_offsets o = offsets_view(inv_freq, n, table);
  std::fill(table, table + offset_doubles(n), 0.0);
  for (std::size_t j = 0; j < o.block; ++j)
    sincos_row_double<Arch>(static_cast<double>(j), inv_freq, n,
                            table + (o.block + j) * o.stride, table + j * o.stride);
}

// Rounds one batch of doubles to float into dst[0, batch::size) (as store_row does).
template <class Arch>
void store_floats(const xsimd::batch<double, Arch>& v, float* dst) noexcept {
#if POSENC_X86
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
    _mm256_storeu_ps(dst, _mm512_cvtpd_ps(v));
  } else if constexpr (std::is_base_of_v<xsimd::avx, Arch>) {
    _mm_storeu_ps(dst, _mm256_cvtpd_ps(v));
  } else
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch>) {
    _mm_storel_pi(reinterpret_cast<__m64*>(dst), _mm_cvtpd_ps(v));
  } else
#endif
  {
    v.store_unaligned(dst);  // xsimd's converting store, lane by lane
  }
}

// dst[2l] = s_l, dst[2l + 1] = c_l for the lanes l of one batch, each rounded once to float
// (the interleaved sinusoidal layout).
template <class Arch>
void store_pairs(const xsimd::batch<double, Arch>& s, const xsimd::batch<double, Arch>& c,
                 float* dst) noexcept {
#if POSENC_X86
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
    // unpack works per 128-bit lane: lo = s0 c0 s1 c1 | s4 c4 s5 c5, hi = s2 c2 s3 c3 | s6 …
    const auto s8 = _mm512_cvtpd_ps(s), c8 = _mm512_cvtpd_ps(c);
    const auto lo = _mm256_unpacklo_ps(s8, c8), hi = _mm256_unpackhi_ps(s8, c8);
    _mm256_storeu_ps(dst, _mm256_permute2f128_ps(lo, hi, 0x20));
    _mm256_storeu_ps(dst + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
  } else if constexpr (std::is_base_of_v<xsimd::avx, Arch>) {
    const auto s4 = _mm256_cvtpd_ps(s), c4 = _mm256_cvtpd_ps(c);
    _mm_storeu_ps(dst, _mm_unpacklo_ps(s4, c4));
    _mm_storeu_ps(dst + 4, _mm_unpackhi_ps(s4, c4));
  } else
#endif
#if defined(__SSE2__)
  if constexpr (std::is_base_of_v<xsimd::sse2, Arch>) {  // also Emscripten: WebAssembly SIMD128
    _mm_storeu_ps(dst, _mm_unpacklo_ps(_mm_cvtpd_ps(s), _mm_cvtpd_ps(c)));
  } else
#endif
  {
    using batch = xsimd::batch<double, Arch>;
    alignas(64) double sv[batch::size], cv[batch::size];
    s.store_aligned(sv);
    c.store_aligned(cv);
    for (std::size_t l = 0; l < batch::size; ++l) {
      dst[2 * l] = static_cast<float>(sv[l]);
      dst[2 * l + 1] = static_cast<float>(cv[l]);
    }
  }
}

// Where angle_rows writes: at(k, i) is row k from θ index i on, whose put(j, s, c) stores a
// batch of sin/cos values at index i + j and put_tail(j, m, s, c) the last m < batch size.
// split_rows: sin(p·θ_i) at sin + k·stride + i, cos at cos + k·stride + i (the RoPE cache:
// two tables, stride n; the concat sinusoidal layout: cos = sin + half, stride 2·half).
struct split_rows {
  float* sin;
  float* cos;
  std::size_t stride;

  struct row {
    float* sin;
    float* cos;
    template <class Arch>
    void put(std::size_t j, const xsimd::batch<double, Arch>& s,
             const xsimd::batch<double, Arch>& c) const noexcept {
      store_floats(s, sin + j);
      store_floats(c, cos + j);
    }
    void put_tail(std::size_t j, std::size_t m, const double* s, const double* c) const noexcept {
      for (std::size_t l = 0; l < m; ++l) {
        sin[j + l] = static_cast<float>(s[l]);
        cos[j + l] = static_cast<float>(c[l]);
      }
    }
  };
  row at(std::size_t k, std::size_t i) const noexcept {
    return {sin + k * stride + i, cos + k * stride + i};
  }
};

// pair_rows: (sin, cos)(p·θ_i) at out + k·stride + 2i, + 1 (the interleaved sinusoidal layout).
struct pair_rows {
  float* out;
  std::size_t stride;

  struct row {
    float* out;
    template <class Arch>
    void put(std::size_t j, const xsimd::batch<double, Arch>& s,
             const xsimd::batch<double, Arch>& c) const noexcept {
      store_pairs(s, c, out + 2 * j);
    }
    void put_tail(std::size_t j, std::size_t m, const double* s, const double* c) const noexcept {
      for (std::size_t l = 0; l < m; ++l) {
        out[2 * (j + l)] = static_cast<float>(s[l]);
        out[2 * (j + l) + 1] = static_cast<float>(c[l]);
      }
    }
  };
  row at(std::size_t k, std::size_t i) const noexcept {
    return {out + k * stride + 2 * i};
  }
};

// The angle-addition rows (top of file) of positions first … first + count − 1 into `rows`
// (split_rows or pair_rows), row k = position first + k. |first|, |first + count − 1| ≤ 2^53.
template <class Arch, class Rows>
void angle_rows(const angle_offsets& o, std::int64_t first, std::int64_t count,
                const Rows& rows) noexcept {
  using batch = xsimd::batch<double, Arch>;
  // Anchor values per pass: rows up to 512 pairs (every real head) are written whole, one
  // after the other (8 KiB of stack).
  constexpr std::size_t chunk = 512;
  alignas(64) double as[chunk] = {}, ac[chunk] = {}, ts[batch::size], tc[batch::size];
  const auto block = static_cast<std::int64_t>(o.block);
  for (std::int64_t k = 0; k < count;) {
    // p = anchor + j, anchor = floor(p / K)·K. K is a power of two, so −2^53 is an anchor and
    // every anchor of an accepted position is an exact double.
    const std::int64_t p = first + k;
    const std::int64_t j = p & (block - 1);
    const std::int64_t run = std::min(block - j, count - k);
    for (std::size_t i0 = 0; i0 < o.n; i0 += chunk) {
      const std::size_t m = std::min(chunk, o.n - i0);
      sincos_row_double<Arch>(static_cast<double>(p - j), o.inv_freq + i0, m, as, ac);
      for (std::int64_t r = 0; r < run; ++r) {
        const auto out = rows.at(static_cast<std::size_t>(k + r), i0);
        const std::size_t at = static_cast<std::size_t>(j + r) * o.stride + i0;
        const double* cos_b = o.cos + at;
        const double* sin_b = o.sin + at;
        // sin(a + b) = sin a cos b + cos a sin b, cos(a + b) = cos a cos b − sin a sin b. The
        // last batch may run past m: as/ac are a whole chunk and offset rows are padded.
        auto sum = [&](std::size_t i, batch& s, batch& c) {
          const batch sa = batch::load_aligned(as + i), ca = batch::load_aligned(ac + i);
          const batch cb = batch::load_unaligned(cos_b + i), sb = batch::load_unaligned(sin_b + i);
          s = xsimd::fma(sa, cb, ca * sb);
          c = xsimd::fms(ca, cb, sa * sb);
        };
        std::size_t i = 0;
        for (; i + batch::size <= m; i += batch::size) {
          batch s, c;
          sum(i, s, c);
          out.put(i, s, c);
        }
        if (i < m) {
          batch s, c;
          sum(i, s, c);
          s.store_aligned(ts);
          c.store_aligned(tc);
          out.put_tail(i, m - i, ts, tc);
        }
      }
    }
    k += run;
  }
}

// Rows of `count` consecutive positions from `first` (the RoPE cache): row k at
// sin_out/cos_out + k·o.n, each value the angle-addition value rounded once to float, so
// within 0.5 ulp(float) + min(|p·θ|, 2^24)·2⁻⁵³ + 5e−16 of truth and ≤ 1 ulp(float) from the scalar
// reference. A row depends only on its position: count = 1 gives the same bits.
template <class Arch>
void sincos_rows(const angle_offsets& o, std::int64_t first, std::int64_t count,
                 float* sin_out, float* cos_out) noexcept {
  angle_rows<Arch>(o, first, count, split_rows{sin_out, cos_out, o.n});
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
