// test_dispatch.cpp — the runtime-dispatched kernels (core/src/detail/dispatch.hpp) equal
// their scalar references. The other suites call the kernels at xsimd's default arch (SSE2
// on baseline x86-64); these go through xsimd::dispatch, i.e. AVX-512 or AVX2 + FMA where
// the CPU has it, AND call every arch's explicit instantiation the CPU can run (so the
// AVX2 kernels are checked on an AVX-512 machine too, not only the arch dispatch picks).
#include "detail/angles.hpp"
#include "detail/dispatch.hpp"
#include "detail/dot_kernels.hpp"
#include "detail/rotary_kernels.hpp"
#include "detail/table_kernels.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#if POSENC_DISPATCH
// Defined by the library's arch translation units (core/src/arch/*.cpp).
POSENC_DISPATCHED_KERNELS(extern template, xsimd::fma3<xsimd::avx2>)
POSENC_DISPATCHED_KERNELS(extern template, xsimd::avx512bw)
#endif

namespace {

constexpr float kUlp = 1.0f / 8388608.0f;  // ulp(1) in float: 2^-23

// One arch's kernels: the dispatched entry points, then (dispatching builds) each arch the
// library was compiled for and this CPU runs.
struct arch_kernels {
  std::string name;
  void (*rotate_token)(const posenc::detail::token_rows&) noexcept;
  void (*score_matrix)(const float*, std::size_t, const float*, std::size_t, std::size_t,
                       double, float*) noexcept;
  void (*fill_offsets)(const double*, std::size_t, double*) noexcept;
  void (*sincos_rows)(const posenc::detail::angle_offsets&, std::int64_t, std::int64_t, float*,
                      float*) noexcept;
  void (*table_rows)(const double*, std::size_t, std::int64_t, std::int64_t,
                     posenc::pe_layout, float*);
  void (*table_positions)(const double*, std::size_t, const std::int32_t*, std::size_t,
                          posenc::pe_layout, float*);
};

#if POSENC_DISPATCH
template <class Arch>
arch_kernels kernels_of() {
  namespace d = posenc::detail;
  return {Arch::name(),          &d::rotate_token<Arch>, &d::score_matrix<Arch>,
          &d::fill_offsets<Arch>, &d::sincos_rows<Arch>,  &d::table_rows<Arch>,
          &d::table_positions<Arch>};
}
#endif

std::vector<arch_kernels> every_arch() {
  namespace d = posenc::detail::dispatched;
  std::vector<arch_kernels> archs{{"dispatched", &d::rotate_token, &d::score_matrix,
                                   &d::fill_offsets, &d::sincos_rows, &d::table_rows,
                                   &d::table_positions}};
#if POSENC_DISPATCH
  const auto cpu = xsimd::available_architectures();
  archs.push_back(kernels_of<xsimd::sse2>());
  if (cpu.fma3_avx2) archs.push_back(kernels_of<xsimd::fma3<xsimd::avx2>>());
  if (cpu.avx512bw) archs.push_back(kernels_of<xsimd::avx512bw>());
#endif
  return archs;
}

void fill(std::vector<float>& v, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& x : v) x = u(rng);
}

// A one-token job: rows c/s (c2/s2 their interleaved expansion) applied to `heads` dense
// rows of x; the caller sets out, sign, g and the options under test.
posenc::detail::token_rows make_job(const std::vector<float>& c, const std::vector<float>& s,
                                    const std::vector<float>& c2, const std::vector<float>& s2,
                                    bool interleaved, const float* x, std::int64_t heads,
                                    std::int64_t dim) {
  posenc::detail::token_rows job;
  job.cos = c.data();
  job.sin = s.data();
  job.cos2 = c2.data();
  job.sin2 = s2.data();
  job.half = c.size();
  job.interleaved = interleaved;
  job.in = x;
  job.in_head_stride = job.out_head_stride = dim;
  job.heads = heads;
  job.dim = dim;
  return job;
}

}  // namespace

TEST_CASE("dispatch picks AVX-512, else AVX2+FMA, when the CPU has it", "[dispatch]") {
  const std::string name = posenc::detail::dispatched::arch_name();
  CAPTURE(name);
#if defined(__x86_64__) && !POSENC_SCALAR_ONLY
  if (name != "scalar") {  // the POSENC_SCALAR library build reports "scalar"
    const auto cpu = xsimd::available_architectures();
    const char* best = cpu.avx512bw ? "avx512bw" : cpu.fma3_avx2 ? "fma3+avx2" : "sse2";
    CHECK(name == std::string(best));
  }
#else
  CHECK(!name.empty());
#endif
}

TEST_CASE("dispatched rotate_token equals the scalar reference", "[dispatch]") {
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  CAPTURE(arch.name);
  std::mt19937 rng(17);
  for (std::size_t half : {1u, 3u, 4u, 7u, 8u, 9u, 16u, 31u, 64u}) {
    for (std::int64_t extra : {0, 5}) {  // pass-through dims after the rotated ones
      const std::int64_t dim = static_cast<std::int64_t>(2 * half) + extra, heads = 5;
      std::vector<float> c(half), s(half), c2(2 * half), s2(2 * half);
      std::vector<float> x(static_cast<std::size_t>(heads * dim));
      fill(c, rng);
      fill(s, rng);
      fill(x, rng);
      // g = 1 takes the kernels' unscaled loop; large = true (out of place here) their
      // L1-block + non-temporal path, where the CPU has one.
      for (auto [interleaved, g, stream] : {std::tuple{false, 1.25f, false},
                                            std::tuple{true, 1.25f, false},
                                            std::tuple{false, 1.0f, false},
                                            std::tuple{true, 1.0f, false},
                                            std::tuple{false, 1.25f, true},
                                            std::tuple{true, 1.0f, true}}) {
        for (float sign : {1.0f, -1.0f}) {
          posenc::detail::expand_interleaved_row(c.data(), s.data(), half, sign, c2.data(),
                                                 s2.data());
          std::vector<float> y1(x.size(), 9.0f), y2(x.size(), 9.0f);
          posenc::detail::token_rows job = make_job(c, s, c2, s2, interleaved, x.data(), heads, dim);
          job.sign = sign;
          job.g = g;
          job.large = stream;
          job.out = y1.data();
          arch.rotate_token(job);
          job.out = y2.data();
          posenc::detail::rotate_token_scalar(job);
          CAPTURE(half, extra, interleaved, g, stream, sign);
          for (std::size_t i = 0; i < x.size(); ++i)  // |x|,|c|,|s| ≤ 1: ≤ 1 ulp of 2g
            REQUIRE(std::fabs(y1[i] - y2[i]) <= 2 * job.g * kUlp);
          // In place (the register-blocked kernels; out of place goes row by row).
          std::vector<float> z = x;
          job.in = job.out = z.data();
          arch.rotate_token(job);
          for (std::size_t i = 0; i < x.size(); ++i)
            REQUIRE(std::fabs(z[i] - y2[i]) <= 2 * job.g * kUlp);
        }
      }
    }
  }
}

// The streaming path rotates groups of kScratchFloats / dim heads through its L1 block and
// peels each destination run to a vector boundary: cover several groups, outputs at every
// float offset from a 64-byte line, gapped head strides (row by row), and a prefetch
// pointer (a hint, which must change nothing).
TEST_CASE("dispatched streaming rotate_token equals the scalar reference", "[dispatch]") {
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  CAPTURE(arch.name);
  std::mt19937 rng(23);
  const std::size_t half = 64;
  const std::int64_t dim = 133, heads = 70;  // 30 heads per group: 3 groups
  std::vector<float> c(half), s(half), c2(2 * half), s2(2 * half);
  fill(c, rng);
  fill(s, rng);
  std::vector<float> x(static_cast<std::size_t>(2 * heads * dim));  // two tokens
  fill(x, rng);
  for (bool interleaved : {false, true})
    for (std::int64_t gap : {0, 3})
      for (std::size_t offset = 0; offset < 16; offset += 3) {
        posenc::detail::expand_interleaved_row(c.data(), s.data(), half, 1.0f, c2.data(),
                                               s2.data());
        const std::int64_t stride = dim + gap;
        std::vector<float> y1(static_cast<std::size_t>(heads * stride) + 16, 9.0f), y2(y1);
        posenc::detail::token_rows job = make_job(c, s, c2, s2, interleaved, x.data(), heads, dim);
        job.g = 1.5f;
        job.large = true;
        job.prefetch = x.data() + heads * dim;
        job.out_head_stride = stride;
        job.out = y1.data() + offset;
        arch.rotate_token(job);
        job.out = y2.data() + offset;
        posenc::detail::rotate_token_scalar(job);
        CAPTURE(interleaved, gap, offset);
        for (std::size_t i = 0; i < y1.size(); ++i)  // gaps and margins stay 9
          REQUIRE(std::fabs(y1[i] - y2[i]) <= 2 * job.g * kUlp);
      }
}

// Rows at every float offset from a 64-byte line: AVX-512 covers a misaligned row with
// masked line-aligned batches (rotary_kernels.hpp, rotate_token_lines). Both layouts, in
// place and out of place (same and different offsets), rows of one or several register
// blocks (and 24/12 pairs, which the masked kernels leave to the blocked ones), head
// strides that keep or break the offset, g = 1 and not. Guard floats around every row must
// stay untouched: the masked lanes lie in the neighbouring rows.
TEST_CASE("dispatched rotate_token equals the scalar reference at every row offset", "[dispatch]") {
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  CAPTURE(arch.name);
  std::mt19937 rng(31);
  for (auto [interleaved, half] : {std::tuple{false, 16u}, std::tuple{false, 64u},
                                   std::tuple{false, 80u}, std::tuple{false, 128u},
                                   std::tuple{false, 24u}, std::tuple{true, 8u},
                                   std::tuple{true, 64u}, std::tuple{true, 72u},
                                   std::tuple{true, 12u}}) {
    std::vector<float> c(half), s(half), c2(2 * half), s2(2 * half);
    fill(c, rng);
    fill(s, rng);
    posenc::detail::expand_interleaved_row(c.data(), s.data(), half, -1.0f, c2.data(), s2.data());
    for (std::int64_t gap : {0, 16, 3}) {
      const std::int64_t dim = static_cast<std::int64_t>(2 * half), heads = 7,
                         stride = dim + gap;
      const auto floats = static_cast<std::size_t>(heads * stride) + 32;
      std::vector<float> x(floats);
      fill(x, rng);
      for (std::size_t offset = 0; offset < 16; ++offset) {
        for (std::size_t out_shift : {0u, 4u}) {
          for (float g : {1.0f, 0.75f}) {
            // x.data() is 16-byte aligned or better: offsets 0–15 reach every float of a line.
            std::vector<float> y1(floats, 9.0f), y2(floats, 9.0f), z(x);
            posenc::detail::token_rows job = make_job(c, s, c2, s2, interleaved, x.data() + offset, heads, dim);
            job.in_head_stride = job.out_head_stride = stride;
            job.g = g;
            job.sign = -1.0f;
            job.out = y1.data() + offset + out_shift;
            arch.rotate_token(job);
            job.out = y2.data() + offset + out_shift;
            posenc::detail::rotate_token_scalar(job);
            CAPTURE(interleaved, half, gap, offset, out_shift, g);
            for (std::size_t i = 0; i < floats; ++i)  // gaps and margins stay 9
              REQUIRE(std::fabs(y1[i] - y2[i]) <= 2 * g * kUlp);
            if (out_shift != 0) continue;
            job.in = job.out = z.data() + offset;  // in place
            arch.rotate_token(job);
            for (std::size_t i = 0; i < floats; ++i) {
              const bool in_row = i >= offset && i < offset + static_cast<std::size_t>(heads * stride) &&
                                  static_cast<std::int64_t>(i - offset) % stride < dim;
              REQUIRE(std::fabs(z[i] - (in_row ? y2[i] : x[i])) <= 2 * g * kUlp);
            }
          }
        }
      }
    }
  }
}

// Each dot meets at most ⌈n/(2W)⌉ + log2(2W) + W additions (dot_kernels.hpp); W ≤ 16 lanes
// on every dispatched arch, so that many float roundings bound it against the double sum.
TEST_CASE("dispatched score_matrix equals the float64 reference within its bound", "[dispatch]") {
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  CAPTURE(arch.name);
  std::mt19937 rng(29);
  for (std::size_t dim : {1u, 7u, 15u, 16u, 17u, 31u, 33u, 64u, 100u, 128u}) {
    const std::size_t tq = 3, tk = 4;
    std::vector<float> q(tq * dim + 1), k(tk * dim + 1), got(tq * tk), ref(tq * tk);
    fill(q, rng);
    fill(k, rng);
    // Offset by one float: unaligned rows.
    arch.score_matrix(q.data() + 1, tq, k.data() + 1, tk, dim, 0.5, got.data());
    posenc::detail::score_matrix_scalar(q.data() + 1, tq, k.data() + 1, tk, dim, 0.5, ref.data());
    const double additions = std::ceil(double(dim) / 32) + 5 + 16 + 1;
    for (std::size_t m = 0; m < tq; ++m)
      for (std::size_t n = 0; n < tk; ++n) {
        double abs_sum = 0;
        for (std::size_t j = 0; j < dim; ++j)
          abs_sum += std::fabs(double(q[1 + m * dim + j]) * k[1 + n * dim + j]);
        CAPTURE(dim, m, n);
        REQUIRE(std::fabs(got[m * tk + n] - ref[m * tk + n]) <=
                0.5 * additions * std::ldexp(1.0, -24) * abs_sum + 1e-7 * std::fabs(ref[m * tk + n]));
      }
  }
}

TEST_CASE("dispatched sincos_rows equal the scalar reference to 1 ulp", "[dispatch]") {
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  CAPTURE(arch.name);
  for (int dim : {2, 10, 64, 128, 130, 1026}) {
    const auto inv = posenc::inverse_frequencies(dim, 10000).inv_freq;
    const std::size_t n = inv.size();
    std::vector<double> table(posenc::detail::offset_doubles(n));
    arch.fill_offsets(inv.data(), n, table.data());
    const auto offsets = posenc::detail::offsets_view(inv.data(), n, table.data());
    for (std::int64_t first : {0, -37, 4000, 16777000, 500000000}) {
      const std::int64_t count = 40;  // several anchors, on both sides of 0 for first = −37
      std::vector<float> s(n * count), c(n * count), s_ref(n), c_ref(n), s1(n), c1(n);
      arch.sincos_rows(offsets, first, count, s.data(), c.data());
      for (std::int64_t k = 0; k < count; ++k) {
        posenc::detail::sincos_row_scalar(static_cast<double>(first + k), inv.data(), n,
                                          s_ref.data(), c_ref.data());
        arch.sincos_rows(offsets, first + k, 1, s1.data(), c1.data());
        for (std::size_t i = 0; i < n; ++i) {
          CAPTURE(dim, first, k, i);
          // Each is within 0.5 ulp(float) + |p·θ|·2⁻⁵³ + 1e−15 of truth (the reference rounds
          // p·θ, the kernel a·θ and j·θ): they may differ by 1 ulp plus twice the rest.
          const double angle = std::fabs(static_cast<double>(first + k) * inv[i]) * 0x1p-52 + 2e-15;
          REQUIRE(std::fabs(s[k * n + i] - s_ref[i]) <= std::max(kUlp / 2 * std::fabs(s_ref[i]), 1e-45f) * 2 + angle);
          REQUIRE(std::fabs(c[k * n + i] - c_ref[i]) <= std::max(kUlp / 2 * std::fabs(c_ref[i]), 1e-45f) * 2 + angle);
          // A row alone is the same function of its position as inside a block.
          REQUIRE(s1[i] == s[k * n + i]);
          REQUIRE(c1[i] == c[k * n + i]);
        }
      }
    }
  }
}

TEST_CASE("dispatched sinusoidal table rows equal the scalar reference", "[dispatch]") {
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  CAPTURE(arch.name);
  const auto layout = GENERATE(posenc::pe_layout::interleaved, posenc::pe_layout::concat);
  for (int dim : {2, 6, 64, 512}) {
    const auto inv = posenc::inverse_frequencies(dim, 10000).inv_freq;
    for (std::int64_t first : {std::int64_t{0}, std::int64_t{-500}, std::int64_t{16777000}}) {
      const std::int64_t count = 150;  // crosses two re-anchoring points
      std::vector<float> simd(static_cast<std::size_t>(count * dim)), ref(simd.size());
      arch.table_rows(inv.data(), inv.size(), first, count, layout,
                                             simd.data());
      posenc::detail::table_rows_scalar(inv.data(), inv.size(), first, count, layout,
                                        ref.data());
      double worst = 0;
      for (std::size_t j = 0; j < ref.size(); ++j)
        worst = std::max(worst, static_cast<double>(std::fabs(simd[j] - ref[j])));
      CAPTURE(dim, first, worst);
      CHECK(worst <= 6e-8 + 4e-9);  // as the default-arch recurrence test (test_sinusoidal)

      std::vector<std::int32_t> positions = {3, -7, 900, 123456, 0};
      std::vector<float> rows(positions.size() * static_cast<std::size_t>(dim));
      std::vector<float> row_ref(static_cast<std::size_t>(dim));
      arch.table_positions(inv.data(), inv.size(), positions.data(),
                                                  positions.size(), layout, rows.data());
      for (std::size_t r = 0; r < positions.size(); ++r) {
        posenc::detail::pe_row_scalar(positions[r], inv.data(), inv.size(), layout,
                                      row_ref.data());
        for (int j = 0; j < dim; ++j)
          CHECK(std::fabs(rows[r * dim + j] - row_ref[j]) <= kUlp);
      }
    }
  }
}
