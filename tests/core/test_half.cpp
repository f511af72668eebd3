// test_half.cpp — float16 / bfloat16 storage: the conversions against independent
// references (every float16 value, every tie, random floats), and RoPE on 16-bit tensors
// against the exact rotation of the decoded inputs (≤ 1 ulp of the 16-bit format) and
// against the float32 rope_apply of the widened tensor (bit for bit).
#include "detail/dispatch.hpp"
#include "detail/half_float.hpp"
#include "detail/half_kernels.hpp"
#include "posenc/errors.hpp"
#include "posenc/half.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using posenc::half_format;
using posenc::half_tensor_view;
using posenc::rope_config;
using posenc::rope_layout;
using posenc::rotary_cache;
using posenc::tensor_view;

namespace {

// IEEE binary16 decoded from its fields with ldexp (no bit tricks).
double f16_value(std::uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -mag : mag;
}

// Round-to-nearest-even of a finite double to float16, by search over the 31744 finite
// non-negative halves (ties: the even bit pattern; ≥ 65520 → Inf).
std::uint16_t f16_round(double v) {
  static const std::vector<double> values = [] {
    std::vector<double> t(0x7c00);
    for (std::uint16_t h = 0; h < 0x7c00; ++h) t[h] = f16_value(h);
    return t;
  }();
  const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::abs(v);
  if (a >= 65520.0) return sign | 0x7c00;
  const auto hi = std::lower_bound(values.begin(), values.end(), a);
  if (hi == values.begin()) return sign;
  if (hi == values.end()) return sign | 0x7bff;  // (65504, 65520): the largest finite
  if (*hi == a) return static_cast<std::uint16_t>(sign | (hi - values.begin()));
  const auto lo = hi - 1;
  const double dl = a - *lo, dh = *hi - a;
  std::uint16_t bits = static_cast<std::uint16_t>((dl < dh || (dl == dh && (lo - values.begin()) % 2 == 0))
                                                     ? lo - values.begin() : hi - values.begin());
  return static_cast<std::uint16_t>(sign | bits);
}

// bfloat16: the two neighbours of v (a float) by truncation, nearest by double distance.
std::uint16_t bf16_round(float v) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(v);
  const auto down = static_cast<std::uint16_t>(u >> 16);
  const auto up = static_cast<std::uint16_t>(down + 1);
  const auto val = [](std::uint16_t b) {  // Inf counts as 2^128, the next binade's start
    const double v = double(std::bit_cast<float>(std::uint32_t(b) << 16));
    return std::isinf(v) ? std::copysign(std::ldexp(1.0, 128), v) : v;
  };
  if (val(down) == double(v)) return down;
  const double dl = std::abs(double(v) - val(down)), dh = std::abs(val(up) - double(v));
  return (dl < dh || (dl == dh && down % 2 == 0)) ? down : up;
}

// Distance in units of the last place between two finite 16-bit values of one format.
int ulp_distance(std::uint16_t a, std::uint16_t b) {
  const auto ordered = [](std::uint16_t x) { return (x & 0x8000) ? -int(x & 0x7fff) : int(x); };
  return std::abs(ordered(a) - ordered(b));
}

std::vector<std::uint16_t> random_half(std::size_t n, half_format f, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  std::vector<std::uint16_t> v(n);
  for (auto& x : v) x = posenc::from_float(u(rng), f);
  return v;
}

}  // namespace

TEST_CASE("float16 widening is exact for every value; narrowing rounds to nearest even",
          "[half]") {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const float f = posenc::to_float(h, half_format::float16);
    const int e = (h >> 10) & 31;
    if (e == 31 && (h & 1023)) {  // NaN: comes out quiet with its payload, and narrows back
      REQUIRE(std::isnan(f));
      REQUIRE(((std::bit_cast<std::uint32_t>(f) >> 13) & 1023) == (h & 1023u | 0x200u));
      REQUIRE(posenc::from_float(f, half_format::float16) == (h | 0x0200));
      continue;
    }
    REQUIRE(double(f) == (e == 31 ? ((h & 0x8000) ? -INFINITY : INFINITY) : f16_value(h)));
    REQUIRE(std::signbit(f) == bool(h & 0x8000));
    REQUIRE(posenc::from_float(f, half_format::float16) == h);  // round trip
  }
  // Every midpoint between neighbours (ties → even), and a float either side of it.
  for (std::uint16_t h = 0; h < 0x7bff; ++h) {
    const double mid = (f16_value(h) + f16_value(h + 1)) / 2;
    const auto m = static_cast<float>(mid);  // exact: a half midpoint has ≤ 12 bits
    REQUIRE(posenc::from_float(m, half_format::float16) == f16_round(mid));
    REQUIRE(posenc::from_float(-m, half_format::float16) == (f16_round(mid) | 0x8000));
    REQUIRE(posenc::from_float(std::nextafter(m, 0.0f), half_format::float16) == h);
    REQUIRE(posenc::from_float(std::nextafter(m, INFINITY), half_format::float16) == h + 1);
  }
  // Overflow edge: 65504 is the largest; 65520 (the tie) goes to Inf.
  CHECK(posenc::from_float(65504.0f, half_format::float16) == 0x7bff);
  CHECK(posenc::from_float(std::nextafter(65520.0f, 0.0f), half_format::float16) == 0x7bff);
  CHECK(posenc::from_float(65520.0f, half_format::float16) == 0x7c00);
  CHECK(posenc::from_float(-1e30f, half_format::float16) == 0xfc00);
  CHECK(posenc::from_float(INFINITY, half_format::float16) == 0x7c00);
  CHECK(posenc::from_float(1e-30f, half_format::float16) == 0);
  CHECK(posenc::from_float(-0.0f, half_format::float16) == 0x8000);
  // Random floats of every magnitude against the search reference.
  std::mt19937 rng(1);
  std::uniform_int_distribution<std::uint32_t> bits(0, 0xffffffffu);
  for (int i = 0; i < 200000; ++i) {
    float f = std::bit_cast<float>(bits(rng));
    if (std::isnan(f)) continue;
    int exponent = 0;  // a random significand at a random scale around float16's range
    f = std::ldexp(std::frexp(f, &exponent), int(bits(rng) % 60) - 40);
    REQUIRE(posenc::from_float(f, half_format::float16) == f16_round(f));
  }
}

TEST_CASE("bfloat16 widening is exact; narrowing rounds to nearest even; NaN stays NaN",
          "[half]") {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const auto h = static_cast<std::uint16_t>(b);
    const float f = posenc::to_float(h, half_format::bfloat16);
    REQUIRE(std::bit_cast<std::uint32_t>(f) == b << 16);
    if (std::isnan(f)) REQUIRE(std::isnan(posenc::to_float(posenc::from_float(f, half_format::bfloat16), half_format::bfloat16)));
    else REQUIRE(posenc::from_float(f, half_format::bfloat16) == h);
  }
  std::mt19937 rng(2);
  std::uniform_int_distribution<std::uint32_t> bits(0, 0xffffffffu);
  for (int i = 0; i < 200000; ++i) {
    const std::uint32_t u = i % 4 == 0 ? (bits(rng) & 0xffff0000u) | 0x8000u : bits(rng);  // ties too
    const float f = std::bit_cast<float>(u);
    if (std::isnan(f) || std::isinf(f)) continue;
    REQUIRE(posenc::from_float(f, half_format::bfloat16) == bf16_round(f));
  }
  CHECK(posenc::from_float(std::numeric_limits<float>::max(), half_format::bfloat16) == 0x7f80);
  CHECK(posenc::from_float(-INFINITY, half_format::bfloat16) == 0xff80);
}

// The lane conversions of the SIMD kernels against the scalar functions, bit for bit: every
// 16-bit pattern widened; narrowed, every float16 and bfloat16 value, tie and neighbour of a
// tie, the specials (NaN payloads, subnormal floats, overflow edges) and random bit patterns.
// (The WebAssembly ones are checked through the package: tests/js/half.test.mjs.)
namespace {

std::vector<float> narrowing_probes() {
  std::vector<float> v;
  const auto add = [&](float f) { v.push_back(f); v.push_back(-f); };
  for (std::uint32_t h = 0; h < 0x7c00; ++h) {  // float16: values, midpoints, their neighbours
    const float a = posenc::detail::f16_to_f32(static_cast<std::uint16_t>(h));
    const auto m = static_cast<float>((double(a) + posenc::detail::f16_to_f32(static_cast<std::uint16_t>(h + 1))) / 2);
    for (float f : {a, m, std::nextafter(m, 0.0f), std::nextafter(m, INFINITY)}) add(f);
  }
  for (std::uint32_t h = 0; h < 0x8000; ++h)  // bfloat16: values, ties, their neighbours
    for (std::uint32_t low : {0x0000u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu})
      v.push_back(std::bit_cast<float>((h << 16) | low)), v.push_back(std::bit_cast<float>((h << 16) | low | 0x80000000u));
  for (std::uint32_t bits : {0x7f800000u, 0x7f800001u, 0x7fbfffffu, 0x7fc00000u, 0x7fffffffu, 0x7fa5a5a5u,
                             0x00000001u, 0x007fffffu, 0x00800000u, 0x477ff000u, 0x477fefffu, 0x477fffffu,
                             0x47800000u, 0x7f7fffffu, 0x7f7f8000u, 0x7f7f7fffu, 0x33000000u, 0x33000001u})
    add(std::bit_cast<float>(bits));
  std::mt19937 rng(9);
  for (int i = 0; i < 1 << 20; ++i) v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(rng())));
  v.resize((v.size() + 15) / 16 * 16, 1.0f);  // whole vectors of every arch's conversions
  return v;
}

#if POSENC_DISPATCH
// The AVX2 + F16C conversions of the kernels (half_kernels.hpp) over whole arrays: float16
// packed (eight at a time), bfloat16 split into even and odd elements and merged back, W
// of each per step (W = 8: the full vectors, W = 4: the tail's half-width ones).
template <std::size_t W>
[[gnu::target("avx2,f16c")]] void avx2_widen(const std::uint16_t* in, float* out, std::size_t n, bool bf) {
  namespace a = posenc::detail::avx2_half;
  for (std::size_t i = 0; i < n; i += 2 * W) {
    if (!bf) {
      for (std::size_t k = 0; k < 2 * W; k += 8)
        _mm256_storeu_ps(out + i + k, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i + k))));
      continue;
    }
    alignas(32) float e[8], o[8];
    if constexpr (W == 8) {
      __m256 even, odd;
      a::split16_bf16(in + i, even, odd);
      _mm256_store_ps(e, even), _mm256_store_ps(o, odd);
    } else {
      __m128 even, odd;
      a::split8_bf16(in + i, even, odd);
      _mm_store_ps(e, even), _mm_store_ps(o, odd);
    }
    for (std::size_t k = 0; k < W; ++k) out[i + 2 * k] = e[k], out[i + 2 * k + 1] = o[k];
  }
}
template <std::size_t W>
[[gnu::target("avx2,f16c")]] void avx2_narrow(const float* in, std::uint16_t* out, std::size_t n, bool bf) {
  namespace a = posenc::detail::avx2_half;
  for (std::size_t i = 0; i < n; i += 2 * W) {
    if (!bf) {
      for (std::size_t k = 0; k < 2 * W; k += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i + k),
                         _mm256_cvtps_ph(_mm256_loadu_ps(in + i + k), _MM_FROUND_TO_NEAREST_INT));
      continue;
    }
    alignas(32) float e[8], o[8];
    for (std::size_t k = 0; k < W; ++k) e[k] = in[i + 2 * k], o[k] = in[i + 2 * k + 1];
    if constexpr (W == 8) a::merge16_bf16(_mm256_load_ps(e), _mm256_load_ps(o), out + i);
    else a::merge8_bf16(_mm_load_ps(e), _mm_load_ps(o), out + i);
  }
}
#endif

}  // namespace

// Each kernel result out[i] equals the scalar conversion ref(in[i]) bit for bit; the first
// that differs is reported. One assertion per sweep: an assertion per value would cost more
// than the millions of conversions it checks.
namespace {
template <class T>
auto bits(T v) {
  if constexpr (sizeof(T) == 4) return std::bit_cast<std::uint32_t>(v);
  else return std::bit_cast<std::uint16_t>(v);
}
template <class In, class Out, class Ref>
void require_converted(const std::vector<In>& in, const std::vector<Out>& out, Ref&& ref) {
  std::size_t bad = in.size();
  for (std::size_t i = 0; i < in.size() && bad == in.size(); ++i)
    if (bits(out[i]) != ref(in[i])) bad = i;
  CAPTURE(bad, bad < in.size() ? std::uint32_t{bits(in[bad])} : 0u);
  REQUIRE(bad == in.size());
}
}  // namespace

TEST_CASE("16-bit lane conversions of every arch the CPU runs equal the scalar ones bit for bit",
          "[half]") {
  namespace d = posenc::detail;
  std::vector<std::uint16_t> all(65536);
  for (std::uint32_t b = 0; b < 65536; ++b) all[b] = static_cast<std::uint16_t>(b);
  const std::vector<float> probes = narrowing_probes();
  for (const bool bf : {false, true}) {
    CAPTURE(bf);
    const auto widen = [bf](std::uint16_t h) { return std::bit_cast<std::uint32_t>(bf ? d::bf16_to_f32(h) : d::f16_to_f32(h)); };
    const auto narrow = [bf](float f) { return bf ? d::f32_to_bf16(f) : d::f32_to_f16(f); };
    std::vector<float> wide(all.size());
    std::vector<std::uint16_t> narrowed(probes.size());
#if defined(__SSE2__)
    for (std::size_t i = 0; i < all.size(); i += 4) {
      const __m128i h = _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&all[i])), _mm_setzero_si128());
      _mm_storeu_si128(reinterpret_cast<__m128i*>(&wide[i]), d::sse2_half::widen4(h, bf));
    }
    require_converted(all, wide, widen);
    for (std::size_t i = 0; i < probes.size(); i += 4) {
      const __m128i h = d::sse2_half::narrow4(_mm_castps_si128(_mm_loadu_ps(&probes[i])), bf);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(&narrowed[i]), d::sse2_half::pack_low16(h, h));
    }
    require_converted(probes, narrowed, narrow);
#endif
#if POSENC_DISPATCH
    if (d::avx2_half::available()) {
      // The bfloat16 narrowing's domain: NaNs with zero low 16 bits (what the kernels'
      // arithmetic makes of bfloat16 inputs, half_float.hpp); every other probe as it is.
      std::vector<float> domain(probes);
      if (bf)
        for (float& f : domain)
          if (std::isnan(f)) f = std::bit_cast<float>((std::bit_cast<std::uint32_t>(f) & 0xffff0000u) | 0x00400000u);
      for (const bool tail : {false, true}) {
        CAPTURE(tail);
        (tail ? avx2_widen<4> : avx2_widen<8>)(all.data(), wide.data(), all.size(), bf);
        require_converted(all, wide, widen);
        (tail ? avx2_narrow<4> : avx2_narrow<8>)(domain.data(), narrowed.data(), domain.size(), bf);
        require_converted(domain, narrowed, narrow);
      }
    }
#endif
  }
}

// Every arch's 16-bit token kernels the CPU runs (the dispatched table, SSE2, AVX2 with
// F16C) against their scalar reference: rows of random values with specials mixed in (±0,
// subnormals, ±Inf, NaN), strided, offset, in place and out of place. Equal to 1 ulp of the
// 16-bit format (a fused multiply-add may move the float32 result across a rounding
// boundary), NaN where the reference is NaN; nothing outside the rows written.
namespace {

struct half_arch {
  std::string name;
  posenc::detail::half_kernel_table table;
};

std::vector<half_arch> every_half_arch() {
  namespace d = posenc::detail::dispatched;
  std::vector<half_arch> archs{{"dispatched", d::half_kernels()}};
#if POSENC_DISPATCH
  archs.push_back({"sse2", d::half_kernels_for(xsimd::sse2{})});
  if (xsimd::available_architectures().fma3_avx2 && posenc::detail::avx2_half::available())
    archs.push_back({"fma3+avx2+f16c", d::half_kernels_for(xsimd::fma3<xsimd::avx2>{})});
  if (xsimd::available_architectures().avx512bw)
    archs.push_back({"avx512bw", d::half_kernels_for(xsimd::avx512bw{})});
#endif
  return archs;
}

template <bool BF, bool Interleaved>
void check_half_kernel(posenc::detail::half_kernel_table::apply_fn kernel, std::size_t lane_group, std::size_t half,
                       std::int64_t dim, std::int64_t heads, std::int64_t stride, std::size_t offset,
                       float sign, float g, bool in_place, std::mt19937& rng) {
  using storage = posenc::detail::half_storage<BF>;
  const half_format format = BF ? half_format::bfloat16 : half_format::float16;
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> c(half), s(half), lc(2 * half), ls(2 * half);
  for (std::size_t i = 0; i < half; ++i) c[i] = u(rng), s[i] = u(rng);
  posenc::detail::expand_lanes(c.data(), s.data(), half, sign, Interleaved, lc.data(), ls.data(), lane_group);
  const std::size_t n = static_cast<std::size_t>(heads * stride) + 40;
  auto input = random_half(n, format, static_cast<std::uint32_t>(rng()));
  // ±0, subnormals, ±Inf, a quiet and a signalling NaN of each format.
  constexpr std::uint16_t f16_specials[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x7c00, 0xfc00, 0x7e00, 0x7d01};
  constexpr std::uint16_t bf16_specials[] = {0x0000, 0x8000, 0x0001, 0x807f, 0x7f80, 0xff80, 0x7fc0, 0x7f81};
  for (std::size_t i = 0; i < n; i += 37) input[i] = (BF ? bf16_specials : f16_specials)[i % 8];
  std::vector<std::uint16_t> x(n + offset), other(n + offset, 0xabcd), want(n + offset);
  std::copy(input.begin(), input.end(), x.begin() + offset);
  std::copy(input.begin(), input.end(), want.begin() + offset);
  std::uint16_t* got = in_place ? x.data() + offset : other.data() + offset;
  posenc::detail::token_rows<float, std::uint16_t> job;
  job.cos = c.data();
  job.sin = s.data();
  job.lane_cos = lc.data();
  job.lane_sin = ls.data();
  job.half = half;
  job.sign = sign;
  job.g = g;
  job.in = x.data() + offset;
  job.out = got;
  job.in_head_stride = job.out_head_stride = stride;
  job.heads = heads;
  job.dim = dim;
  job.head_group = heads % 3 + 1;
  kernel(job);
  job.in = job.out = want.data() + offset;
  posenc::detail::rotate_token_scalar<float, Interleaved, storage>(job);
  std::size_t bad = n;
  for (std::size_t i = 0; i < n && bad == n; ++i) {
    const bool in_row = static_cast<std::int64_t>(i) < heads * stride &&
                        static_cast<std::int64_t>(i) % stride < dim;
    const std::uint16_t expected = in_row ? want[offset + i] : in_place ? input[i] : 0xabcd;
    const float e = storage::widen(expected), v = storage::widen(got[i]);
    // Within 1 unit of the 16-bit format, or, where a pair's products cancel (a result far
    // below |x|), within the float32 rounding of those products (|x| ≤ 2, |c|, |s| ≤ 1),
    // which the kernel's fused multiply-adds and the reference's separate steps round apart.
    const bool ok = std::isnan(e) ? std::isnan(v)
                                  : !std::isnan(v) && (ulp_distance(got[i], expected) <= 1 ||
                                                       std::fabs(v - e) <= 8 * g * std::ldexp(1.0f, -23));
    if (!ok) bad = i;
  }
  CAPTURE(half, dim, heads, stride, offset, sign, g, in_place, bad);
  REQUIRE(bad == n);
}

}  // namespace

TEST_CASE("16-bit RoPE kernels of every arch the CPU runs equal their scalar reference",
          "[half]") {
  const half_arch arch = GENERATE(from_range(every_half_arch()));
  CAPTURE(arch.name);
  std::mt19937 rng(23);
  for (std::size_t half : {1u, 3u, 4u, 8u, 9u, 16u, 24u, 31u, 32u, 40u, 64u}) {
    for (std::int64_t extra : {0, 5}) {
      const std::int64_t dim = static_cast<std::int64_t>(2 * half) + extra;
      for (std::int64_t heads : {1, 3, 8}) {
        for (std::int64_t gap : {0, 3}) {
          for (std::size_t offset : {0u, 1u, 5u}) {
            for (bool in_place : {true, false}) {
              const std::int64_t stride = dim + gap;
              for (float sign : {1.0f, -1.0f}) {
                check_half_kernel<false, false>(arch.table.apply[0][0][1], arch.table.lane_group[0][0], half, dim, heads, stride, offset, sign, 1.25f, in_place, rng);
                check_half_kernel<false, true>(arch.table.apply[0][1][1], arch.table.lane_group[0][1], half, dim, heads, stride, offset, sign, 0.75f, in_place, rng);
                check_half_kernel<true, false>(arch.table.apply[1][0][1], arch.table.lane_group[1][0], half, dim, heads, stride, offset, sign, 1.25f, in_place, rng);
                check_half_kernel<true, true>(arch.table.apply[1][1][1], arch.table.lane_group[1][1], half, dim, heads, stride, offset, sign, 0.75f, in_place, rng);
                check_half_kernel<false, false>(arch.table.apply[0][0][0], arch.table.lane_group[0][0], half, dim, heads, stride, offset, sign, 1.0f, in_place, rng);
                check_half_kernel<false, true>(arch.table.apply[0][1][0], arch.table.lane_group[0][1], half, dim, heads, stride, offset, sign, 1.0f, in_place, rng);
                check_half_kernel<true, false>(arch.table.apply[1][0][0], arch.table.lane_group[1][0], half, dim, heads, stride, offset, sign, 1.0f, in_place, rng);
                check_half_kernel<true, true>(arch.table.apply[1][1][0], arch.table.lane_group[1][1], half, dim, heads, stride, offset, sign, 1.0f, in_place, rng);
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("RoPE on 16-bit tensors: within 1 ulp of the exact rotation, and the 16-bit "
          "rounding of the float32 apply bit for bit", "[half]") {
  struct shape { int dim, rotary; rope_layout layout; std::int64_t heads; };
  const shape shapes[] = {{64, 64, rope_layout::half, 3}, {80, 80, rope_layout::interleaved, 2},
                          {128, 128, rope_layout::half, 16}, {128, 64, rope_layout::interleaved, 4}};
  for (const half_format format : {half_format::float16, half_format::bfloat16})
    for (const shape& s : shapes) {
      rope_config cfg{.head_dim = s.dim, .rotary_dim = s.rotary, .base = 500000, .layout = s.layout};
      cfg.scaling.type = posenc::scaling_type::yarn;  // an attention factor ≠ 1 as well
      cfg.scaling.factor = 4.0;
      cfg.scaling.original_max_position_embeddings = 8192;
      const rotary_cache cache(cfg, 0, 64);
      const std::vector<std::int32_t> positions = {0, 1, 63, 64, 1000000, 16777216, -5, 7};
      const auto tokens = static_cast<std::int64_t>(positions.size());
      const auto n = static_cast<std::size_t>(tokens * s.heads * s.dim);
      const auto in = random_half(n, format, 3);
      auto x = in;
      posenc::rope_apply(cache, half_tensor_view::dense(x.data(), n, tokens, s.heads, s.dim, format),
                         positions);
      // (a) the 16-bit rounding of the float32 apply of the widened input.
      std::vector<float> wide(n);
      for (std::size_t i = 0; i < n; ++i) wide[i] = posenc::to_float(in[i], format);
      posenc::rope_apply(cache, tensor_view::dense(wide.data(), n, tokens, s.heads, s.dim), positions);
      // (b) the exact rotation in double of the decoded inputs, rounded to the format.
      const double f = cache.attention_factor();
      const auto inv = cache.inv_freq();
      int worst = 0;
      for (std::int64_t t = 0; t < tokens; ++t)
        for (std::int64_t h = 0; h < s.heads; ++h) {
          const std::size_t base = static_cast<std::size_t>((t * s.heads + h) * s.dim);
          for (int i = 0; i < s.rotary / 2; ++i) {
            const int ja = s.layout == rope_layout::half ? i : 2 * i;
            const int jb = s.layout == rope_layout::half ? i + s.rotary / 2 : 2 * i + 1;
            const long double ang = (long double)positions[t] * inv[i];
            const long double a = posenc::to_float(in[base + ja], format);
            const long double b = posenc::to_float(in[base + jb], format);
            const double ra = double(f * (a * std::cos(ang) - b * std::sin(ang)));
            const double rb = double(f * (b * std::cos(ang) + a * std::sin(ang)));
            const auto round16 = [&](double v) {
              return format == half_format::float16 ? f16_round(v)
                                                    : bf16_round(static_cast<float>(v));
            };
            worst = std::max({worst, ulp_distance(x[base + ja], round16(ra)),
                              ulp_distance(x[base + jb], round16(rb))});
          }
          for (int j = s.rotary; j < s.dim; ++j) REQUIRE(x[base + j] == in[base + j]);
        }
      for (std::size_t i = 0; i < n; ++i) REQUIRE(x[i] == posenc::from_float(wide[i], format));
      INFO("format " << posenc::to_string(format) << " dim " << s.dim << " layout "
                     << posenc::to_string(s.layout));
      CHECK(worst <= 1);
    }
}

TEST_CASE("16-bit RoPE: blocks of many tokens, strided views, start, inverse, M-RoPE, GQA",
          "[half]") {
  const rotary_cache cache({.head_dim = 128, .base = 10000});
  // 300 tokens × 8 heads: many blocks; stored heads-major ([heads][tokens][dim]).
  const std::int64_t tokens = 300, heads = 8, dim = 128;
  const auto n = static_cast<std::size_t>(tokens * heads * dim);
  const auto in = random_half(n, half_format::bfloat16, 4);
  auto x = in;
  half_tensor_view v{x.data(), n, tokens, heads, dim, dim, tokens * dim, half_format::bfloat16};
  posenc::rope_apply(cache, v, std::int64_t{1000});
  std::vector<float> wide(n);
  for (std::size_t i = 0; i < n; ++i) wide[i] = posenc::to_float(in[i], half_format::bfloat16);
  posenc::rope_apply(cache, tensor_view{wide.data(), n, tokens, heads, dim, dim, tokens * dim},
                     std::int64_t{1000});
  for (std::size_t i = 0; i < n; ++i) REQUIRE(x[i] == posenc::from_float(wide[i], half_format::bfloat16));
  posenc::rope_apply(cache, v, std::int64_t{1000}, posenc::direction::inverse);
  double worst = 0;  // inputs within ±2: two bfloat16 roundings of ≤ ulp(2)/2 = 2^−7 each
  for (std::size_t i = 0; i < n; ++i)
    worst = std::max(worst, double(std::abs(posenc::to_float(x[i], half_format::bfloat16) -
                                            posenc::to_float(in[i], half_format::bfloat16))));
  CHECK(worst <= 0x1p-6);

  // M-RoPE on float16 equals the float32 M-RoPE, rounded.
  rope_config mc{.head_dim = 128, .base = 1e6};
  mc.axes = {posenc::rope_axes_kind::mrope, {16, 24, 24}};
  const rotary_cache m(mc);
  const std::int64_t mt = 40;
  std::vector<std::int32_t> ids(3 * mt);
  for (std::int64_t t = 0; t < mt; ++t) {
    ids[t] = static_cast<std::int32_t>(t / 10);
    ids[mt + t] = static_cast<std::int32_t>(t % 7);
    ids[2 * mt + t] = static_cast<std::int32_t>(t % 5);
  }
  const auto mn = static_cast<std::size_t>(mt * 30 * 128);  // 30 heads: one token per block
  const auto min = random_half(mn, half_format::float16, 5);
  auto mx = min;
  std::vector<float> mw(mn);
  for (std::size_t i = 0; i < mn; ++i) mw[i] = posenc::to_float(min[i], half_format::float16);
  posenc::rope_apply(m, half_tensor_view::dense(mx.data(), mn, mt, 30, 128, half_format::float16), ids);
  posenc::rope_apply(m, tensor_view::dense(mw.data(), mn, mt, 30, 128), ids);
  for (std::size_t i = 0; i < mn; ++i) REQUIRE(mx[i] == posenc::from_float(mw[i], half_format::float16));

  // GQA: q (8 heads) and k (2 heads) together equal two separate calls.
  auto q = random_half(static_cast<std::size_t>(50 * 8 * 128), half_format::float16, 6);
  auto k = random_half(static_cast<std::size_t>(50 * 2 * 128), half_format::float16, 7);
  auto q2 = q, k2 = k;
  std::vector<std::int32_t> p(50);
  for (int i = 0; i < 50; ++i) p[i] = 3 * i;
  posenc::rope_apply_qk(cache, half_tensor_view::dense(q.data(), q.size(), 50, 8, 128, half_format::float16),
                        half_tensor_view::dense(k.data(), k.size(), 50, 2, 128, half_format::float16), p);
  posenc::rope_apply(cache, half_tensor_view::dense(q2.data(), q2.size(), 50, 8, 128, half_format::float16), p);
  posenc::rope_apply(cache, half_tensor_view::dense(k2.data(), k2.size(), 50, 2, 128, half_format::float16), p);
  CHECK(q == q2);
  CHECK(k == k2);
}

TEST_CASE("16-bit RoPE: pass-through dims keep their bits; bad arguments throw, nothing "
          "written", "[half]") {
  using posenc::invalid_argument;
  using posenc::length_error;
  using posenc::test::require_throws;
  const rotary_cache cache({.head_dim = 8, .rotary_dim = 4});
  std::vector<std::uint16_t> x = {0x3c00, 0x4000, 0xbc00, 0x3800, 0x7d01, 0xfc00, 0x0001, 0x8000,
                                  0x3c00, 0x4000, 0xbc00, 0x3800, 0x7c00, 0x7e55, 0x03ff, 0x0000};
  const auto before = x;
  const std::vector<std::int32_t> two = {1, 2}, three = {1, 2, 3};
  posenc::rope_apply(cache, half_tensor_view::dense(x.data(), x.size(), 2, 1, 8, half_format::float16), two);
  for (int t = 0; t < 2; ++t)
    for (int j = 4; j < 8; ++j) CHECK(x[t * 8 + j] == before[t * 8 + j]);  // sNaN 0x7d01 too
  CHECK(x[0] != before[0]);

  x = before;
  auto v = half_tensor_view::dense(x.data(), x.size(), 2, 1, 8, half_format::float16);
  require_throws<length_error>([&] { posenc::rope_apply(cache, v, three); }, "positions");
  auto small = v;
  small.size = 15;
  require_throws<length_error>([&] { posenc::rope_apply(cache, small, two); }, "x");
  auto wrong = half_tensor_view::dense(x.data(), x.size(), 2, 2, 4, half_format::float16);
  require_throws<invalid_argument>([&] { posenc::rope_apply(cache, wrong, two); }, "x.dim");
  auto bad_format = v;
  bad_format.format = static_cast<half_format>(7);
  require_throws<invalid_argument>([&] { posenc::rope_apply(cache, bad_format, two); }, "dtype");
  require_throws<invalid_argument>(
      [&] { posenc::rope_apply(cache, v, posenc::max_position); }, "start");
  auto q = half_tensor_view::dense(x.data(), 8, 1, 1, 8, half_format::float16);
  auto k = half_tensor_view::dense(x.data() + 4, 8, 1, 1, 8, half_format::float16);
  require_throws<invalid_argument>(
      [&] { posenc::rope_apply_qk(cache, q, k, std::int64_t{0}); }, "share memory");
  auto kb = half_tensor_view::dense(x.data() + 8, 8, 1, 1, 8, half_format::bfloat16);
  require_throws<invalid_argument>([&] { posenc::rope_apply_qk(cache, q, kb, std::int64_t{0}); },
                                   "dtype");
  CHECK(x == before);
  require_throws<invalid_argument>([] { (void)posenc::parse_half_format("half"); }, "dtype");
  CHECK(posenc::parse_half_format("bfloat16") == half_format::bfloat16);
}

TEST_CASE("16-bit RoPE out of place: in unchanged, out the in-place result (pass-through "
          "bits copied); bad pairs throw, nothing written", "[half]") {
  using posenc::invalid_argument;
  using posenc::length_error;
  using posenc::test::require_throws;
  const rotary_cache cache({.head_dim = 64, .rotary_dim = 48, .base = 10000});
  for (const half_format format : {half_format::float16, half_format::bfloat16}) {
    const std::int64_t tokens = 70, heads = 3, dim = 64;  // several blocks
    const auto n = static_cast<std::size_t>(tokens * heads * dim);
    const auto in = random_half(n, format, 8);
    auto src = in, expected = in;
    posenc::rope_apply(cache, half_tensor_view::dense(expected.data(), n, tokens, heads, dim, format),
                       std::int64_t{77}, posenc::direction::inverse);
    // out stored heads-major ([heads][tokens][dim]) with a gap: any strides of its own.
    const std::int64_t ts = dim, hs = tokens * dim + 5;
    std::vector<std::uint16_t> out(static_cast<std::size_t>((heads - 1) * hs + tokens * ts), 0xabcd);
    const half_tensor_view ov{out.data(), out.size(), tokens, heads, dim, ts, hs, format};
    posenc::rope_apply(cache, half_tensor_view::dense(src.data(), n, tokens, heads, dim, format), ov,
                       std::int64_t{77}, posenc::direction::inverse);
    CHECK(src == in);
    for (std::int64_t t = 0; t < tokens; ++t)
      for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t j = 0; j < dim; ++j)
          REQUIRE(out[static_cast<std::size_t>(t * ts + h * hs + j)] ==
                  expected[static_cast<std::size_t>((t * heads + h) * dim + j)]);
    for (std::int64_t h = 0; h + 1 < heads; ++h)  // the gaps are never written
      for (std::int64_t g = 0; g < 5; ++g) REQUIRE(out[static_cast<std::size_t>(h * hs + tokens * ts + g)] == 0xabcd);
    // positions (int32 and int64) give the same as in place.
    std::vector<std::int32_t> p32(static_cast<std::size_t>(tokens));
    for (std::int64_t t = 0; t < tokens; ++t) p32[static_cast<std::size_t>(t)] = static_cast<std::int32_t>(9 * t - 40);
    const std::vector<std::int64_t> p64(p32.begin(), p32.end());
    auto inplace = in;
    posenc::rope_apply(cache, half_tensor_view::dense(inplace.data(), n, tokens, heads, dim, format), p32);
    std::vector<std::uint16_t> o32(n), o64(n);
    posenc::rope_apply(cache, half_tensor_view::dense(src.data(), n, tokens, heads, dim, format),
                       half_tensor_view::dense(o32.data(), n, tokens, heads, dim, format), p32);
    posenc::rope_apply(cache, half_tensor_view::dense(src.data(), n, tokens, heads, dim, format),
                       half_tensor_view::dense(o64.data(), n, tokens, heads, dim, format), p64);
    CHECK(o32 == inplace);
    CHECK(o64 == inplace);
    CHECK(src == in);
  }
  // Refused pairs: overlap, another dtype, another shape; nothing written.
  std::vector<std::uint16_t> buf(3 * 64, 0x3c00);
  const auto before = buf;
  const auto a = half_tensor_view::dense(buf.data(), 128, 2, 1, 64, half_format::float16);
  const auto shifted = half_tensor_view::dense(buf.data() + 32, 128, 2, 1, 64, half_format::float16);
  require_throws<invalid_argument>([&] { posenc::rope_apply(cache, a, shifted, std::int64_t{3}); },
                                   "share memory");
  std::vector<std::uint16_t> other(128);
  const auto bf = half_tensor_view::dense(other.data(), 128, 2, 1, 64, half_format::bfloat16);
  require_throws<invalid_argument>([&] { posenc::rope_apply(cache, a, bf, std::int64_t{3}); }, "dtype");
  const auto one = half_tensor_view::dense(other.data(), 64, 1, 1, 64, half_format::float16);
  require_throws<length_error>([&] { posenc::rope_apply(cache, a, one, std::int64_t{3}); }, "out");
  const std::vector<std::int32_t> three = {1, 2, 3};
  const auto ok = half_tensor_view::dense(other.data(), 128, 2, 1, 64, half_format::float16);
  require_throws<length_error>([&] { posenc::rope_apply(cache, a, ok, three); }, "positions");
  CHECK(buf == before);
  CHECK(std::all_of(other.begin(), other.end(), [](std::uint16_t v) { return v == 0; }));
}
