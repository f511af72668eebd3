// bench/native/bench_scores.cpp — the rotary score matrix (issue 5): S = ⟨RoPE(q_m, m),
// RoPE(k_n, n)⟩ for 512 queries × 512 keys × dim 128, positions 0 … 511.
#include "detail/dot_kernels.hpp"
#include "harness.hpp"
#include "posenc/scores.hpp"

#include <numeric>

namespace posenc::bench {
namespace {

constexpr std::int64_t kRows = 512, kDim = 128;

void register_scores() {
  const std::string group = "scores/rotary/512x512x128";
  const auto n = static_cast<std::size_t>(kRows * kDim);
  const auto cells = static_cast<std::size_t>(kRows * kRows);
  std::vector<std::int32_t> positions(static_cast<std::size_t>(kRows));
  std::iota(positions.begin(), positions.end(), 0);

  benchmark::RegisterBenchmark((group + "/posenc").c_str(), [=](benchmark::State& state) {
    const std::vector<float> q = random_floats(n, 5), k = random_floats(n, 6);
    std::vector<float> out(cells);
    score_options options;
    options.dim = static_cast<int>(kDim);
    for (auto _ : state) {
      attention_scores(q, kRows, k, kRows, positions, positions, options, out);
      benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(cells));
  });
  benchmark::RegisterBenchmark((group + "/scalar").c_str(), [=](benchmark::State& state) {
    const std::vector<float> q = random_floats(n, 5), k = random_floats(n, 6);
    std::vector<float> qr(n), kr(n), out(cells);
    rope_config config;
    config.head_dim = static_cast<int>(kDim);
    for (auto _ : state) {  // the scalar references: rotate both, then float64 dots
      const rotary_cache cache(config);
      rope_scalar(cache, q.data(), qr.data(), kRows, 1, 0);
      rope_scalar(cache, k.data(), kr.data(), kRows, 1, 0);
      detail::score_matrix_scalar(qr.data(), kRows, kr.data(), kRows, kDim, 1.0, out.data());
      benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(cells));
  });
  benchmark::RegisterBenchmark((group + "/user").c_str(), [=](benchmark::State& state) {
    const std::vector<float> q = random_floats(n, 5), k = random_floats(n, 6);
    std::vector<float> qr(n), kr(n), out(cells);
    for (auto _ : state) {  // float32 angles and cache, rotate copies, naive float dots
      const user_cache uc(kDim, 0, kRows);
      user_rope(uc, q.data(), qr.data(), kRows, 1, kDim, false);
      user_rope(uc, k.data(), kr.data(), kRows, 1, kDim, false);
      for (std::int64_t m = 0; m < kRows; ++m)
        for (std::int64_t j = 0; j < kRows; ++j) {
          float sum = 0;
          for (std::int64_t i = 0; i < kDim; ++i) sum += qr[m * kDim + i] * kr[j * kDim + i];
          out[static_cast<std::size_t>(m * kRows + j)] = sum;
        }
      benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(cells));
  });
  register_memcpy(group, (2 * n + cells) * sizeof(float));
}

const bool registered = [] {
  register_scores();
  return true;
}();

}  // namespace
}  // namespace posenc::bench
