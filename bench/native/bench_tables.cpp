// bench/native/bench_tables.cpp — table builds: the RoPE cos/sin cache (8192
// positions × 128, i.e. 64 cos + 64 sin per row) and the sinusoidal table (8192 × 512).
// Each member also reports `max_err`: its largest deviation from float64 truth (long double
// sin/cos of p·θ_i), measured once on every 16th row after timing.
#include "detail/angles.hpp"
#include "detail/dispatch.hpp"
#include "detail/table_kernels.hpp"
#include "harness.hpp"
#include "posenc/sinusoidal.hpp"

#include <algorithm>
#include <memory>
#include <utility>

namespace posenc::bench {
namespace {

constexpr std::int64_t kPositions = 8192;
constexpr int kRopeDim = 128, kPeDim = 512;

// Largest |value − truth| over rows p % 16 == 0 of a table whose sin(p·θ_i) sits at
// sin[p·row + i·step] and cos(p·θ_i) at cos[p·row + i·step].
double table_error(const std::vector<double>& inv, const float* sin, const float* cos,
                   std::int64_t rows, std::size_t row, std::size_t step) {
  double worst = 0;
  for (std::int64_t p = 0; p < rows; p += 16)
    for (std::size_t i = 0; i < inv.size(); ++i) {
      const long double a = static_cast<long double>(p) * inv[i];
      const std::size_t at = static_cast<std::size_t>(p) * row + i * step;
      worst = std::max({worst, static_cast<double>(std::fabs(sin[at] - std::sin(a))),
                        static_cast<double>(std::fabs(cos[at] - std::cos(a)))});
    }
  return worst;
}

// A [rows][half] pair of sin and cos tables (the RoPE cache layout).
double table_error(const std::vector<double>& inv, const float* sin, const float* cos,
                   std::int64_t rows) {
  return table_error(inv, sin, cos, rows, inv.size(), 1);
}

// An interleaved PE table [rows][2·half] (sin at 2i, cos at 2i+1).
double pe_error(const std::vector<double>& inv, const std::vector<float>& table,
                std::int64_t rows) {
  return table_error(inv, table.data(), table.data() + 1, rows, 2 * inv.size(), 2);
}

// The angle-addition offsets of a ladder (what a rotary_cache keeps), for the fill member.
struct offset_table {
  std::vector<double> inv, data;
  detail::angle_offsets view;
  explicit offset_table(std::vector<double> ladder)
      : inv(std::move(ladder)), data(detail::offset_doubles(inv.size())) {
    detail::dispatched::fill_offsets(inv.data(), inv.size(), data.data());
    view = detail::offsets_view(inv.data(), inv.size(), data.data());
  }
};

// A [rows][half] sin table and its cos twin, owned by one member.
struct tables {
  std::vector<float> sin, cos;
  explicit tables(std::size_t n) : sin(n), cos(n) {}
};

// "cache/8192x128": the rotary_cache constructor, which includes allocating its 4 MiB of
// tables (a fresh mapping, so page faults, per cache). "fill" is the dispatched kernel that
// constructor runs, into reused memory — timed like the sinusoidal table.
void register_cache() {
  const std::int64_t values = kPositions * kRopeDim;  // 64 cos + 64 sin per position
  const std::vector<double> inv = inverse_frequencies(kRopeDim, 10000).inv_freq;
  const std::size_t half = inv.size(), n = static_cast<std::size_t>(kPositions) * half;
  register_paired(
      "cache/8192x128",
      [=] {
        rope_config config;
        config.head_dim = kRopeDim;
        auto last = std::make_shared<std::unique_ptr<rotary_cache>>();
        auto fill = std::make_shared<tables>(n), scalar = std::make_shared<tables>(n);
        auto uc = std::make_shared<user_cache>(kRopeDim, 0, kPositions);
        auto offsets = std::make_shared<offset_table>(inv);
        return std::vector<member>{
            {"posenc", [=] { *last = std::make_unique<rotary_cache>(config, 0, kPositions); },
             [=] {
               return table_error(inv, (*last)->sin_table().data(), (*last)->cos_table().data(),
                                  kPositions);
             }},
            {"fill",
             [=] {
               detail::dispatched::sincos_rows(offsets->view, 0, kPositions, fill->sin.data(),
                                               fill->cos.data());
             },
             [=] { return table_error(inv, fill->sin.data(), fill->cos.data(), kPositions); }},
            {"scalar",
             [=] {
               for (std::int64_t p = 0; p < kPositions; ++p)
                 detail::sincos_row_scalar(static_cast<double>(p), inv.data(), half,
                                           scalar->sin.data() + p * half,
                                           scalar->cos.data() + p * half);
             },
             [=] { return table_error(inv, scalar->sin.data(), scalar->cos.data(), kPositions); }},
            {"user", [=] { uc->fill(kRopeDim, 0, kPositions); },
             [=] { return table_error(inv, uc->sin.data(), uc->cos.data(), kPositions); }},
            memcpy_member(static_cast<std::size_t>(values) * sizeof(float))};
      },
      1, values);
}

// The "bare" member of a table: every float of it stored once, nothing computed.
[[gnu::noinline]] void bare_store(float* out, std::size_t n) {
#if POSENC_X86
  const __m128 v = _mm_set1_ps(0.5f);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) _mm_storeu_ps(out + i, v);
  for (; i < n; ++i) out[i] = 0.5f;
#else
  std::fill(out, out + n, 0.5f);
#endif
  benchmark::DoNotOptimize(out);
}

member bare_table_member(std::size_t floats) {
  auto out = std::make_shared<std::vector<float>>(floats);
  return {"bare", [=] { bare_store(out->data(), out->size()); }};
}

// sinusoidal_table's rows [0, rows) into a buffer the member owns, in one call.
member table_member(std::string name, const std::vector<double>& inv, std::int64_t rows) {
  auto out = std::make_shared<std::vector<float>>(static_cast<std::size_t>(rows * kPeDim));
  return {std::move(name),
          [=] {
            sinusoidal_table(out->data(), out->size(), kPeDim, 10000, 0, rows);
          },
          [=] { return pe_error(inv, *out, rows); }};
}

// "sinusoidal/8192x512": sinusoidal_table into a caller's buffer, interleaved layout.
void register_sinusoidal() {
  const std::int64_t values = kPositions * kPeDim;
  const std::vector<double> inv = inverse_frequencies(kPeDim, 10000).inv_freq;
  const auto size = static_cast<std::size_t>(values);
  register_paired(
      "sinusoidal/8192x512",
      [=] {
        auto s = std::make_shared<std::vector<float>>(size);
        auto u = std::make_shared<std::vector<float>>(size);
        return std::vector<member>{
            table_member("posenc", inv, kPositions),
            {"scalar",
             [=] {
               detail::table_rows_scalar(inv.data(), inv.size(), 0, kPositions,
                                         pe_layout::interleaved, s->data());
             },
             [=] { return pe_error(inv, *s, kPositions); }},
            {"user",
             [=] {  // PE(p)[2i] = sin(p·θ_i), PE(p)[2i+1] = cos(p·θ_i), all in float32
               std::vector<float>& out = *u;
               for (std::int64_t q = 0; q < kPositions; ++q)
                 for (int i = 0; i < kPeDim / 2; ++i) {
                   const float theta = 1.0f / std::pow(10000.0f, static_cast<float>(2 * i) / kPeDim);
                   const float angle = static_cast<float>(q) * theta;
                   out[static_cast<std::size_t>(q * kPeDim + 2 * i)] = std::sin(angle);
                   out[static_cast<std::size_t>(q * kPeDim + 2 * i + 1)] = std::cos(angle);
                 }
             },
             [=] { return pe_error(inv, *u, kPositions); }},
            bare_table_member(size), memcpy_member(size * sizeof(float))};
      },
      1, values);
}

const bool registered = [] {
  register_cache();
  register_sinusoidal();
  return true;
}();

}  // namespace
}  // namespace posenc::bench
