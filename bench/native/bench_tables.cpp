// bench/native/bench_tables.cpp — table builds (issue 5): the RoPE cos/sin cache (8192
// positions × 128, i.e. 64 cos + 64 sin per row) and the sinusoidal table (8192 × 512).
// Besides time, each posenc/scalar/user run reports `max_err`: its largest deviation from
// float64 truth (long double sin/cos of p·θ_i), measured once on every 16th row.
#include "detail/angles.hpp"
#include "detail/table_kernels.hpp"
#include "harness.hpp"
#include "posenc/sinusoidal.hpp"

#include <algorithm>

namespace posenc::bench {
namespace {

constexpr std::int64_t kPositions = 8192;
constexpr int kRopeDim = 128, kPeDim = 512;

// Largest |value − truth| over rows r % 16 == 0 of a [rows][half] (sin, cos) pair of tables.
double table_error(const std::vector<double>& inv, const float* sin, const float* cos,
                   std::int64_t rows) {
  const std::size_t half = inv.size();
  double worst = 0;
  for (std::int64_t p = 0; p < rows; p += 16)
    for (std::size_t i = 0; i < half; ++i) {
      const long double a = static_cast<long double>(p) * inv[i];
      const std::size_t at = static_cast<std::size_t>(p) * half + i;
      worst = std::max({worst, static_cast<double>(std::fabs(sin[at] - std::sin(a))),
                        static_cast<double>(std::fabs(cos[at] - std::cos(a)))});
    }
  return worst;
}

// The same for an interleaved PE table [rows][2·half] (sin at 2i, cos at 2i+1).
double pe_error(const std::vector<double>& inv, const std::vector<float>& table,
                std::int64_t rows) {
  const std::size_t half = inv.size();
  double worst = 0;
  for (std::int64_t p = 0; p < rows; p += 16)
    for (std::size_t i = 0; i < half; ++i) {
      const long double a = static_cast<long double>(p) * inv[i];
      const std::size_t at = static_cast<std::size_t>(p) * 2 * half + 2 * i;
      worst = std::max({worst, static_cast<double>(std::fabs(table[at] - std::sin(a))),
                        static_cast<double>(std::fabs(table[at + 1] - std::cos(a)))});
    }
  return worst;
}

void set_values(benchmark::State& state, std::int64_t values) {
  state.SetItemsProcessed(state.iterations() * values);
}

void register_cache() {
  const std::string group = "cache/8192x128";
  const std::int64_t values = kPositions * kRopeDim;  // 64 cos + 64 sin per position
  const std::vector<double> inv = inverse_frequencies(kRopeDim, 10000).inv_freq;
  const std::size_t half = inv.size();

  benchmark::RegisterBenchmark((group + "/posenc").c_str(), [=](benchmark::State& state) {
    rope_config config;
    config.head_dim = kRopeDim;
    for (auto _ : state) {
      rotary_cache cache(config, 0, kPositions);
      benchmark::DoNotOptimize(cache.cos_table().data());
    }
    const rotary_cache cache(config, 0, kPositions);
    state.counters["max_err"] = table_error(inv, cache.sin_table().data(),
                                            cache.cos_table().data(), kPositions);
    set_values(state, values);
  });
  benchmark::RegisterBenchmark((group + "/scalar").c_str(), [=](benchmark::State& state) {
    std::vector<float> s(static_cast<std::size_t>(kPositions) * half), c(s.size());
    for (auto _ : state) {
      for (std::int64_t p = 0; p < kPositions; ++p)
        detail::sincos_row_scalar(static_cast<double>(p), inv.data(), half,
                                  s.data() + p * half, c.data() + p * half);
      benchmark::ClobberMemory();
    }
    state.counters["max_err"] = table_error(inv, s.data(), c.data(), kPositions);
    set_values(state, values);
  });
  benchmark::RegisterBenchmark((group + "/user").c_str(), [=](benchmark::State& state) {
    user_cache uc(kRopeDim, 0, kPositions);
    for (auto _ : state) {
      uc.fill(kRopeDim, 0, kPositions);
      benchmark::ClobberMemory();
    }
    state.counters["max_err"] = table_error(inv, uc.sin.data(), uc.cos.data(), kPositions);
    set_values(state, values);
  });
  register_memcpy(group, static_cast<std::size_t>(values) * sizeof(float));
}

void register_sinusoidal() {
  const std::string group = "sinusoidal/8192x512";
  const std::int64_t values = kPositions * kPeDim;
  const std::vector<double> inv = inverse_frequencies(kPeDim, 10000).inv_freq;
  const auto size = static_cast<std::size_t>(values);

  benchmark::RegisterBenchmark((group + "/posenc").c_str(), [=](benchmark::State& state) {
    std::vector<float> out(size);
    for (auto _ : state) {
      sinusoidal_table(out.data(), out.size(), kPeDim, 10000, 0, kPositions);
      benchmark::ClobberMemory();
    }
    state.counters["max_err"] = pe_error(inv, out, kPositions);
    set_values(state, values);
  });
  benchmark::RegisterBenchmark((group + "/scalar").c_str(), [=](benchmark::State& state) {
    std::vector<float> out(size);
    for (auto _ : state) {
      detail::table_rows_scalar(inv.data(), inv.size(), 0, kPositions, pe_layout::interleaved,
                                out.data());
      benchmark::ClobberMemory();
    }
    state.counters["max_err"] = pe_error(inv, out, kPositions);
    set_values(state, values);
  });
  benchmark::RegisterBenchmark((group + "/user").c_str(), [=](benchmark::State& state) {
    std::vector<float> out(size);
    for (auto _ : state) {  // PE(p)[2i] = sin(p·θ_i), PE(p)[2i+1] = cos(p·θ_i), all float32
      for (std::int64_t p = 0; p < kPositions; ++p)
        for (int i = 0; i < kPeDim / 2; ++i) {
          const float theta = 1.0f / std::pow(10000.0f, static_cast<float>(2 * i) / kPeDim);
          const float angle = static_cast<float>(p) * theta;
          out[static_cast<std::size_t>(p * kPeDim + 2 * i)] = std::sin(angle);
          out[static_cast<std::size_t>(p * kPeDim + 2 * i + 1)] = std::cos(angle);
        }
      benchmark::ClobberMemory();
    }
    state.counters["max_err"] = pe_error(inv, out, kPositions);
    set_values(state, values);
  });
  register_memcpy(group, size * sizeof(float));
}

const bool registered = [] {
  register_cache();
  register_sinusoidal();
  return true;
}();

}  // namespace
}  // namespace posenc::bench
