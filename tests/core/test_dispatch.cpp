// test_dispatch.cpp — the runtime-dispatched kernels (core/src/detail/dispatch.hpp) equal
// their scalar references. The other suites call the kernels at xsimd's default arch (SSE2
// on baseline x86-64); these go through xsimd::dispatch, i.e. AVX-512 or AVX2 + FMA where
// the CPU has it, AND call every arch's kernels the CPU can run (so the AVX2 kernels are
// checked on an AVX-512 machine too, not only the arch dispatch picks).
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
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <utility>
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
  posenc::detail::dispatched::rope_kernel_table rope;
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
arch_kernels kernels_of(const posenc::detail::dispatched::rope_kernel_table& rope, std::string name = Arch::name()) {
  namespace d = posenc::detail;
  return {name, rope, &d::score_matrix<Arch>, &d::fill_offsets<Arch>, &d::sincos_rows<Arch>,
          &d::table_rows<Arch>, &d::table_positions<Arch>};
}

template <class Arch>
arch_kernels kernels_of() {
  return kernels_of<Arch>(posenc::detail::dispatched::rope_kernels_for(Arch{}));
}
#endif

std::vector<arch_kernels> every_arch() {
  namespace d = posenc::detail::dispatched;
  std::vector<arch_kernels> archs{{"dispatched", d::rope_kernels(), &d::score_matrix,
                                   &d::fill_offsets, &d::sincos_rows, &d::table_rows,
                                   &d::table_positions}};
#if POSENC_DISPATCH
  const auto cpu = xsimd::available_architectures();
  archs.push_back(kernels_of<xsimd::sse2>());
  if (cpu.fma3_avx2) archs.push_back(kernels_of<xsimd::fma3<xsimd::avx2>>());
  if (cpu.avx512bw) {  // the table of every AVX-512 CPU model, whichever this one is
    using posenc::detail::dispatched::avx512_cpu;
    for (const auto& [model, name] : {std::pair{avx512_cpu::other, "avx512bw"},
                                      std::pair{avx512_cpu::amd_zen4, "avx512bw (AMD Zen 4)"}})
      archs.push_back(kernels_of<xsimd::avx512bw>(d::rope_kernels_for(xsimd::avx512bw{}, model), name));
  }
#endif
  return archs;
}

void fill(std::vector<float>& v, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& x : v) x = u(rng);
}

// One RoPE token kernel against its scalar reference: `heads` rows of `dim` floats (row
// stride `stride`), `offset` floats past a 64-byte line, rotated in place or into a second
// buffer at the same offset; every float outside the rows (gaps, margins) must stay as it was.
template <class T, bool Interleaved>
void check_rope_kernel(void (*kernel)(const posenc::detail::token_rows<T>&) noexcept,
                       std::size_t half, std::int64_t dim, std::int64_t heads,
                       std::int64_t stride, std::size_t offset, float sign, float g,
                       bool in_place, std::mt19937& rng) {
  const std::int64_t group = heads % 3 + 1;  // groups of 1, 2 or 3 heads, ragged ends too
  std::vector<float> cf(half), sf(half);
  fill(cf, rng);
  fill(sf, rng);
  const std::vector<T> c(cf.begin(), cf.end()), s(sf.begin(), sf.end());
  std::vector<T> lc(2 * half), ls(2 * half);
  posenc::detail::expand_lanes(c.data(), s.data(), half, sign, Interleaved, lc.data(), ls.data());
  const std::size_t floats = static_cast<std::size_t>(heads * stride) + 48;
  alignas(64) static float pool[4][1 << 14];  // 64-byte-aligned bases for the offsets
  REQUIRE(floats <= (1u << 14));
  float* x = pool[0] + offset;
  std::vector<float> input(floats);
  fill(input, rng);
  std::copy(input.begin(), input.end(), x);
  float* got = in_place ? x : pool[1] + offset;
  float* want = pool[2] + offset;
  std::fill(pool[1], pool[1] + floats + 16, 9.0f);
  std::copy(input.begin(), input.end(), want);
  posenc::detail::token_rows<T> job;
  job.cos = c.data();
  job.sin = s.data();
  job.lane_cos = lc.data();
  job.lane_sin = ls.data();
  job.half = half;
  job.sign = sign;
  job.g = g;
  job.in = x;
  job.out = got;
  job.in_head_stride = job.out_head_stride = stride;
  job.heads = heads;
  job.dim = dim;
  job.head_group = group;
  kernel(job);
  job.in = job.out = want;  // the reference in place on a copy of the input
  posenc::detail::rotate_token_scalar<T, Interleaved>(job);
  // The library is compiled without implicit fused multiply-adds, so every arch's kernel
  // computes the reference's operations: the same bits.
  std::size_t bad = floats;  // the first float that differs
  for (std::size_t i = 0; i < floats && bad == floats; ++i) {
    const bool in_row = static_cast<std::int64_t>(i) < heads * stride &&
                        static_cast<std::int64_t>(i) % stride < dim;
    const float expected = in_row ? want[i] : in_place ? input[i] : 9.0f;
    if (std::memcmp(&got[i], &expected, sizeof(float)) != 0) bad = i;
  }
  CAPTURE(half, dim, heads, group, stride, offset, sign, g, in_place, bad);
  REQUIRE(bad == floats);
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

// Every entry of every arch's RoPE table: both layouts, g = 1 (unscaled entries) and not,
// forward and inverse, rope_shift's double rows; rows of fewer than one batch, whole
// register blocks and ragged tails, pass-through dims, head counts across head groups,
// gapped strides, rows at every float offset from a 64-byte line, in and out of place.
TEST_CASE("dispatched RoPE kernels equal their scalar references", "[dispatch]") {
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  CAPTURE(arch.name);
  std::mt19937 rng(17);
  for (std::size_t half : {1u, 3u, 4u, 7u, 8u, 9u, 16u, 24u, 31u, 32u, 33u, 40u, 64u, 100u}) {
    for (std::int64_t extra : {0, 5}) {
      const std::int64_t dim = static_cast<std::int64_t>(2 * half) + extra;
      for (std::int64_t heads : {1, 8, 9, 20, 32}) {
        for (std::int64_t gap : {0, 3}) {
          for (std::size_t offset : {0u, 1u, 4u, 12u, 13u}) {
            for (bool in_place : {true, false}) {
              const std::int64_t stride = dim + gap;
              for (float sign : {1.0f, -1.0f}) {
                check_rope_kernel<float, false>(arch.rope.apply[0][1], half, dim, heads, stride, offset, sign, 1.25f, in_place, rng);
                check_rope_kernel<float, true>(arch.rope.apply[1][1], half, dim, heads, stride, offset, sign, 0.75f, in_place, rng);
              }
              check_rope_kernel<float, false>(arch.rope.apply[0][0], half, dim, heads, stride, offset, -1.0f, 1.0f, in_place, rng);
              check_rope_kernel<float, true>(arch.rope.apply[1][0], half, dim, heads, stride, offset, 1.0f, 1.0f, in_place, rng);
              for (const auto* tier : {&arch.rope.apply_off_line, &arch.rope.streaming_off_line}) {
                check_rope_kernel<float, false>((*tier)[0][1], half, dim, heads, stride, offset, 1.0f, 1.25f, in_place, rng);
                check_rope_kernel<float, true>((*tier)[1][1], half, dim, heads, stride, offset, -1.0f, 0.75f, in_place, rng);
                check_rope_kernel<float, false>((*tier)[0][0], half, dim, heads, stride, offset, -1.0f, 1.0f, in_place, rng);
                check_rope_kernel<float, true>((*tier)[1][0], half, dim, heads, stride, offset, 1.0f, 1.0f, in_place, rng);
              }
              check_rope_kernel<double, false>(arch.rope.shift[0], half, dim, heads, stride, offset, 1.0f, 1.0f, in_place, rng);
              check_rope_kernel<double, true>(arch.rope.shift[1], half, dim, heads, stride, offset, 1.0f, 1.0f, in_place, rng);
            }
          }
        }
      }
    }
  }
}

// Every arch's lane expansion of a float row equals the baseline's bit for bit: both
// layouts, both signs, plain lanes and every lane group the 16-bit kernels use, ragged halves.
TEST_CASE("dispatched lane expansions equal the scalar expansion", "[dispatch]") {
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  CAPTURE(arch.name);
  std::mt19937 rng(29);
  for (std::size_t half : {1u, 3u, 4u, 7u, 8u, 9u, 16u, 31u, 32u, 33u, 40u, 64u, 100u, 128u}) {
    std::vector<float> c(half), s(half);
    fill(c, rng);
    fill(s, rng);
    for (bool interleaved : {false, true})
      for (float sign : {1.0f, -1.0f})
        for (std::size_t group : {0u, 8u, 16u, 32u}) {
          const std::size_t lanes = interleaved ? 2 * half : half;
          std::vector<float> want_c(lanes, 7.0f), want_s(lanes, 7.0f), got_c(lanes, 7.0f), got_s(lanes, 7.0f);
          posenc::detail::expand_lanes(c.data(), s.data(), half, sign, interleaved, want_c.data(),
                                       want_s.data(), group);
          arch.rope.expand(c.data(), s.data(), half, sign, interleaved, got_c.data(), got_s.data(), group);
          CAPTURE(half, interleaved, sign, group);
          REQUIRE(std::memcmp(got_c.data(), want_c.data(), lanes * 4) == 0);
          REQUIRE(std::memcmp(got_s.data(), want_s.data(), lanes * 4) == 0);
        }
  }
}

// Every arch's merged-row select: for spans starting and ending at every offset, each float
// in the span whose mask is set takes the row's bits (NaN payloads too), every other float
// keeps its own.
TEST_CASE("dispatched rung selects copy exactly the masked rungs", "[dispatch]") {
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  CAPTURE(arch.name);
  std::mt19937 rng(23);
  constexpr std::size_t n = 131;
  std::vector<std::uint32_t> row_bits(n), out_bits(n), mask(n);
  for (std::size_t i = 0; i < n; ++i) {
    row_bits[i] = rng();  // any bit pattern, NaNs and subnormals included
    out_bits[i] = rng();
    mask[i] = (rng() % 3 == 0) ? ~std::uint32_t{0} : 0;
  }
  std::vector<float> row(n), start(n);
  std::memcpy(row.data(), row_bits.data(), n * 4);
  std::memcpy(start.data(), out_bits.data(), n * 4);
  for (std::size_t first : {0u, 1u, 3u, 16u, 17u})
    for (std::size_t end : {first, first + 1, first + 15, first + 64, n}) {
      std::vector<float> out = start;
      arch.rope.select(row.data(), mask.data(), first, end, out.data());
      std::vector<std::uint32_t> got(n);
      std::memcpy(got.data(), out.data(), n * 4);
      std::size_t bad = n;
      for (std::size_t i = 0; i < n && bad == n; ++i) {
        const bool take = i >= first && i < end && mask[i] != 0;
        if (got[i] != (take ? row_bits[i] : out_bits[i])) bad = i;
      }
      CAPTURE(first, end, bad);
      REQUIRE(bad == n);
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
          // Each is within 0.5 ulp(float) + |p·θ|·2⁻⁵³ + 1e−15 of truth (the reference rounds
          // p·θ, the kernel a·θ and j·θ): they may differ by 1 ulp plus twice the rest.
          const double angle = std::fabs(static_cast<double>(first + k) * inv[i]) * 0x1p-52 + 2e-15;
          const bool sin_ok = std::fabs(s[k * n + i] - s_ref[i]) <= std::max(kUlp / 2 * std::fabs(s_ref[i]), 1e-45f) * 2 + angle;
          const bool cos_ok = std::fabs(c[k * n + i] - c_ref[i]) <= std::max(kUlp / 2 * std::fabs(c_ref[i]), 1e-45f) * 2 + angle;
          // A row alone is the same function of its position as inside a block.
          const bool alone_same = s1[i] == s[k * n + i] && c1[i] == c[k * n + i];
          if (sin_ok && cos_ok && alone_same) continue;  // assertions only where one fails
          CAPTURE(dim, first, k, i, s[k * n + i], s_ref[i], c[k * n + i], c_ref[i], s1[i], c1[i]);
          REQUIRE(sin_ok);
          REQUIRE(cos_ok);
          REQUIRE(alone_same);
        }
      }
    }
  }
}

TEST_CASE("a table equals the same rows built in two calls", "[dispatch]") {
  // A row's bits depend only on its position: the second call starts inside an anchor block
  // and steps from that block's anchor as the first call did.
  const arch_kernels arch = GENERATE(from_range(every_arch()));
  const auto layout = GENERATE(posenc::pe_layout::interleaved, posenc::pe_layout::concat);
  const std::size_t shift = GENERATE(0u, 1u);  // 0: the vector's 16-byte alignment; 1: 4 B past
  CAPTURE(arch.name, posenc::to_string(layout), shift);
  for (int dim : {2, 6, 16, 130, 512}) {
    const auto inv = posenc::inverse_frequencies(dim, 10000).inv_freq;
    const std::int64_t count = 1000, first = -1000, head = 437;
    const auto floats = static_cast<std::size_t>(count * dim);
    std::vector<float> whole(floats + shift), parts(floats + shift);
    arch.table_rows(inv.data(), inv.size(), first, count, layout, whole.data() + shift);
    arch.table_rows(inv.data(), inv.size(), first, head, layout, parts.data() + shift);
    arch.table_rows(inv.data(), inv.size(), first + head, count - head, layout,
                    parts.data() + shift + static_cast<std::size_t>(head * dim));
    std::size_t differ = 0;
    for (std::size_t j = 0; j < floats; ++j) differ += whole[j + shift] != parts[j + shift];
    CAPTURE(dim);
    CHECK(differ == 0);
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
