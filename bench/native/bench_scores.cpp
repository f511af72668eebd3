// bench/native/bench_scores.cpp — the rotary score matrix: S = ⟨RoPE(q_m, m),
// RoPE(k_n, n)⟩ for 512 queries × 512 keys × dim 128, positions 0 … 511.
#include "detail/dot_kernels.hpp"
#include "harness.hpp"
#include "posenc/scores.hpp"

#include <memory>
#include <numeric>

namespace posenc::bench {
namespace {

constexpr std::int64_t kRows = 512, kDim = 128;

// q, k inputs, their rotated copies and the score matrix, owned by one member.
struct score_buffers {
  std::vector<float> q, k, qr, kr, out;
  score_buffers(std::size_t n, std::size_t cells)
      : q(random_floats(n, 5)), k(random_floats(n, 6)), qr(n), kr(n), out(cells) {}
};

void register_scores() {
  const auto n = static_cast<std::size_t>(kRows * kDim);
  const auto cells = static_cast<std::size_t>(kRows * kRows);
  std::vector<std::int32_t> positions(static_cast<std::size_t>(kRows));
  std::iota(positions.begin(), positions.end(), 0);
  register_paired("scores/rotary/512x512x128", [=] {
    auto p = std::make_shared<score_buffers>(n, cells);
    auto s = std::make_shared<score_buffers>(n, cells);
    auto u = std::make_shared<score_buffers>(n, cells);
    score_options options;
    options.dim = static_cast<int>(kDim);
    rope_config config;
    config.head_dim = static_cast<int>(kDim);
    return std::vector<member>{
        {"posenc",
         [=] { attention_scores(p->q, kRows, p->k, kRows, positions, positions, options, p->out); }},
        {"scalar",
         [=] {  // the scalar references: rotate both, then float64 dots
           const rotary_cache cache(config);
           rope_scalar(cache, s->q.data(), s->qr.data(), kRows, 1, 0);
           rope_scalar(cache, s->k.data(), s->kr.data(), kRows, 1, 0);
           detail::score_matrix_scalar(s->qr.data(), kRows, s->kr.data(), kRows, kDim, 1.0,
                                       s->out.data());
         }},
        {"user",
         [=] {  // float32 angles and cache, rotated copies, naive float dots
           const user_cache uc(kDim, 0, kRows);
           user_rope(uc, u->q.data(), u->qr.data(), kRows, 1, kDim, false);
           user_rope(uc, u->k.data(), u->kr.data(), kRows, 1, kDim, false);
           for (std::int64_t m = 0; m < kRows; ++m)
             for (std::int64_t j = 0; j < kRows; ++j) {
               float sum = 0;
               for (std::int64_t i = 0; i < kDim; ++i) sum += u->qr[m * kDim + i] * u->kr[j * kDim + i];
               u->out[static_cast<std::size_t>(m * kRows + j)] = sum;
             }
         }},
        memcpy_member((2 * n + cells) * sizeof(float))};
  });
}

const bool registered = [] {
  register_scores();
  return true;
}();

}  // namespace
}  // namespace posenc::bench
