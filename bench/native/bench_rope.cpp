// bench/native/bench_rope.cpp — RoPE application (issue 5): 2048 tokens × 32 heads × 128
// (32 MiB) in both layouts, in and out of place; decode (1 token × 32 heads at position
// 4000, inside and outside the cache); GQA (32 query + 8 key heads, one shared row per token).
#include "harness.hpp"

#include <string>

namespace posenc::bench {
namespace {

constexpr std::size_t bytes_of(std::int64_t floats) {
  return static_cast<std::size_t>(floats) * sizeof(float);
}

rotary_cache make_cache(rope_layout layout, std::int64_t count) {
  rope_config config;
  config.head_dim = static_cast<int>(kHeadDim);
  config.layout = layout;
  return rotary_cache(config, 0, count);
}

// "apply/<layout>/<in|out>_place": 2048 × 32 × 128, token t at position t (all cached).
void register_apply(rope_layout layout, bool in_place) {
  const std::string group = std::string("apply/") + std::string(to_string(layout)) +
                            (in_place ? "/in_place" : "/out_of_place");
  const std::int64_t n = kTokens * kHeads * kHeadDim;
  const bool interleaved = layout == rope_layout::interleaved;

  benchmark::RegisterBenchmark((group + "/posenc").c_str(), [=](benchmark::State& state) {
    const rotary_cache cache = make_cache(layout, kTokens);
    std::vector<float> x = random_floats(static_cast<std::size_t>(n), 1), y(x.size());
    for (auto _ : state) {
      if (in_place) {
        rope_apply(cache, tensor_view::dense(x.data(), x.size(), kTokens, kHeads, kHeadDim), 0);
      } else {
        rope_apply(cache, const_tensor_view::dense(x.data(), x.size(), kTokens, kHeads, kHeadDim),
                   tensor_view::dense(y.data(), y.size(), kTokens, kHeads, kHeadDim), 0);
      }
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes_of(n)));
  });
  benchmark::RegisterBenchmark((group + "/scalar").c_str(), [=](benchmark::State& state) {
    const rotary_cache cache = make_cache(layout, kTokens);
    std::vector<float> x = random_floats(static_cast<std::size_t>(n), 1), y(x.size());
    for (auto _ : state) {
      rope_scalar(cache, x.data(), in_place ? x.data() : y.data(), kTokens, kHeads, 0);
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes_of(n)));
  });
  benchmark::RegisterBenchmark((group + "/user").c_str(), [=](benchmark::State& state) {
    const user_cache uc(kHeadDim, 0, kTokens);
    std::vector<float> x = random_floats(static_cast<std::size_t>(n), 1), y(x.size());
    for (auto _ : state) {
      user_rope(uc, x.data(), in_place ? x.data() : y.data(), kTokens, kHeads, kHeadDim,
                interleaved);
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes_of(n)));
  });
  register_memcpy(group, bytes_of(n));
}

// "decode/<cached|uncached>": one token × 32 heads × 128 at position 4000, in place. The
// cache holds 8192 rows (inside) or none (outside: the row is computed per call). The user
// loop computes its float32 row with std::sin/std::cos in the uncached case.
void register_decode(bool cached) {
  const std::string group = std::string("decode/") + (cached ? "in_cache" : "outside_cache");
  const std::int64_t n = kHeads * kHeadDim;
  const std::int64_t count = cached ? 8192 : 0;

  benchmark::RegisterBenchmark((group + "/posenc").c_str(), [=](benchmark::State& state) {
    const rotary_cache cache = make_cache(rope_layout::half, count);
    std::vector<float> x = random_floats(static_cast<std::size_t>(n), 2);
    const tensor_view view = tensor_view::dense(x.data(), x.size(), 1, kHeads, kHeadDim);
    for (auto _ : state) {
      rope_apply(cache, view, kDecodePosition);
      benchmark::ClobberMemory();
    }
  });
  benchmark::RegisterBenchmark((group + "/scalar").c_str(), [=](benchmark::State& state) {
    const rotary_cache cache = make_cache(rope_layout::half, count);
    std::vector<float> x = random_floats(static_cast<std::size_t>(n), 2);
    for (auto _ : state) {  // cache.row computes the row when it is not cached
      rope_scalar(cache, x.data(), x.data(), 1, kHeads, kDecodePosition);
      benchmark::ClobberMemory();
    }
  });
  benchmark::RegisterBenchmark((group + "/user").c_str(), [=](benchmark::State& state) {
    user_cache uc(kHeadDim, kDecodePosition, 1);
    std::vector<float> x = random_floats(static_cast<std::size_t>(n), 2);
    for (auto _ : state) {
      if (!cached) uc.fill(kHeadDim, kDecodePosition, 1);
      user_rope(uc, x.data(), x.data(), 1, kHeads, kHeadDim, false);
      benchmark::ClobberMemory();
    }
  });
  register_memcpy(group, bytes_of(n));
}

// "gqa": q 2048 × 32 × 128 and k 2048 × 8 × 128, both in place, one row per token for both.
void register_gqa() {
  const std::string group = "gqa/half/in_place";
  const std::int64_t nq = kTokens * kHeads * kHeadDim, nk = kTokens * kKvHeads * kHeadDim;

  benchmark::RegisterBenchmark((group + "/posenc").c_str(), [=](benchmark::State& state) {
    const rotary_cache cache = make_cache(rope_layout::half, kTokens);
    std::vector<float> q = random_floats(static_cast<std::size_t>(nq), 3);
    std::vector<float> k = random_floats(static_cast<std::size_t>(nk), 4);
    for (auto _ : state) {
      rope_apply_qk(cache, tensor_view::dense(q.data(), q.size(), kTokens, kHeads, kHeadDim),
                    tensor_view::dense(k.data(), k.size(), kTokens, kKvHeads, kHeadDim), 0);
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes_of(nq + nk)));
  });
  benchmark::RegisterBenchmark((group + "/scalar").c_str(), [=](benchmark::State& state) {
    const rotary_cache cache = make_cache(rope_layout::half, kTokens);
    std::vector<float> q = random_floats(static_cast<std::size_t>(nq), 3);
    std::vector<float> k = random_floats(static_cast<std::size_t>(nk), 4);
    for (auto _ : state) {
      rope_scalar(cache, q.data(), q.data(), kTokens, kHeads, 0);
      rope_scalar(cache, k.data(), k.data(), kTokens, kKvHeads, 0);
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes_of(nq + nk)));
  });
  benchmark::RegisterBenchmark((group + "/user").c_str(), [=](benchmark::State& state) {
    const user_cache uc(kHeadDim, 0, kTokens);
    std::vector<float> q = random_floats(static_cast<std::size_t>(nq), 3);
    std::vector<float> k = random_floats(static_cast<std::size_t>(nk), 4);
    for (auto _ : state) {
      user_rope(uc, q.data(), q.data(), kTokens, kHeads, kHeadDim, false);
      user_rope(uc, k.data(), k.data(), kTokens, kKvHeads, kHeadDim, false);
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes_of(nq + nk)));
  });
  register_memcpy(group, bytes_of(nq + nk));
}

const bool registered = [] {
  for (rope_layout layout : {rope_layout::half, rope_layout::interleaved})
    for (bool in_place : {true, false}) register_apply(layout, in_place);
  register_decode(true);
  register_decode(false);
  register_gqa();
  return true;
}();

}  // namespace
}  // namespace posenc::bench
