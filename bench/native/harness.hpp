// bench/native/harness.hpp — what every native benchmark shares: paired timing, buffers,
// the scalar-reference RoPE driver and the loops a user would write.
//
// Each operation is ONE Google Benchmark, "op/<shape>", whose members run side by side:
// "posenc", "scalar" (the library's scalar reference), "user" (plain float32-angle code,
// std::sin/std::cos) and "memcpy" (the same bytes copied: the bandwidth ceiling). Every
// iteration runs every member once, in rotating order, and times each with the thread's CPU
// clock, so all members see the same machine state (this machine is shared: separate
// benchmarks minutes apart saw memcpy vary by 2×). Counters "<member>_ns" hold each median;
// bench/report.mjs turns them into ratios.
#pragma once

#include "detail/rotary_kernels.hpp"
#include "posenc/rotary.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace posenc::bench {

// RoPE shapes of issue 5: a 7B-class model's head geometry.
inline constexpr std::int64_t kTokens = 2048, kHeads = 32, kKvHeads = 8, kHeadDim = 128;
inline constexpr std::int64_t kDecodePosition = 4000;

inline std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

// One member of a paired benchmark: `run` does the operation once; `error`, if set, is
// measured once after timing (max deviation from float64 truth, for the tables).
struct member {
  std::string name;
  std::function<void()> run;
  std::function<double()> error = {};
};

inline double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// Registers `group`: make() builds the members (buffers, caches) when the benchmark runs;
// each sample times `inner` back-to-back runs of one member (inner > 1 for sub-µs work,
// so the clock's own cost stays negligible). `values` (if > 0) is the number of values one
// run produces, reported as values/s.
inline void register_paired(const std::string& group,
                            std::function<std::vector<member>()> make, int inner = 1,
                            std::int64_t values = 0) {
  benchmark::RegisterBenchmark(group.c_str(), [=](benchmark::State& state) {
    const std::vector<member> members = make();
    std::vector<std::vector<double>> samples(members.size());
    std::size_t turn = 0;
    for (auto _ : state) {
      for (std::size_t k = 0; k < members.size(); ++k) {
        const std::size_t m = (turn + k) % members.size();  // rotate who goes first
        const double t0 = thread_cpu_ns();
        for (int i = 0; i < inner; ++i) members[m].run();
        benchmark::ClobberMemory();
        samples[m].push_back((thread_cpu_ns() - t0) / inner);
      }
      ++turn;
    }
    for (std::size_t m = 0; m < members.size(); ++m) {
      std::vector<double>& v = samples[m];
      std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
      const double median = v[v.size() / 2];
      state.counters[members[m].name + "_ns"] = median;
      if (values > 0) state.counters[members[m].name + "_values_per_s"] = values / median * 1e9;
      if (members[m].error) state.counters[members[m].name + "_max_err"] = members[m].error();
    }
  });
}

// The "memcpy" member: `bytes` copied between two buffers it owns.
inline member memcpy_member(std::size_t bytes) {
  auto src = std::make_shared<std::vector<char>>(bytes, 1);
  auto dst = std::make_shared<std::vector<char>>(bytes);
  return {"memcpy", [=] {
            std::memcpy(dst->data(), src->data(), bytes);
            benchmark::DoNotOptimize(dst->data());
          }};
}

// rope_apply for dense [tokens][heads][dim] tensors driven token by token over the cache
// rows (cache.row, expanded for the interleaved layout) with one token kernel of
// rotary_kernels.hpp: the members below that run a kernel other than the library's choice.
template <class TokenKernel>
void rope_driven(const rotary_cache& cache, const float* in, float* out, std::int64_t tokens,
                 std::int64_t heads, std::int64_t start, TokenKernel kernel) {
  const auto half = static_cast<std::size_t>(cache.rotary_dim() / 2);
  // Reused across calls: the members time the kernel, not an allocation (posenc's driver
  // keeps its row inline too).
  thread_local std::vector<float> c, s, c2, s2;
  c.resize(half);
  s.resize(half);
  c2.resize(2 * half);
  s2.resize(2 * half);
  detail::token_rows job;
  job.cos = c.data();
  job.sin = s.data();
  job.cos2 = c2.data();
  job.sin2 = s2.data();
  job.half = half;
  job.interleaved = cache.layout() == rope_layout::interleaved;
  job.g = static_cast<float>(cache.attention_factor());
  job.in_head_stride = job.out_head_stride = job.dim = cache.head_dim();
  job.heads = heads;
  for (std::int64_t t = 0; t < tokens; ++t) {
    cache.row(start + t, c.data(), s.data());
    if (job.interleaved) detail::expand_interleaved_row(c.data(), s.data(), half, 1.0f, c2.data(), s2.data());
    job.in = in + t * heads * cache.head_dim();
    job.out = out + t * heads * cache.head_dim();
    kernel(job);
  }
}

// The scalar reference of rope_apply: the kernels' scalar twins (what a POSENC_SCALAR
// build runs).
inline void rope_scalar(const rotary_cache& cache, const float* in, float* out,
                        std::int64_t tokens, std::int64_t heads, std::int64_t start) {
  rope_driven(cache, in, out, tokens, heads, start, detail::rotate_token_scalar);
}

#if defined(__x86_64__) && !POSENC_SCALAR_ONLY
// posenc's kernel as the WASM SIMD binary runs it, but natively: xsimd's sse2 arch (the
// width of WebAssembly SIMD128, which Emscripten builds from the same sse2 code) and no
// read-ahead (WebAssembly has no prefetch instruction), in place. Beside memcpy it shows
// how fast memory lets such a kernel go on this machine: the context of the WASM in-place
// ratios (issue 5).
inline void rope_wasm_like(const rotary_cache& cache, float* x, std::int64_t tokens,
                           std::int64_t heads) {
  rope_driven(cache, x, x, tokens, heads, 0, detail::rotate_token<xsimd::sse2>);
}
#endif

// What a user writes: θ and the angle p·θ in float32, std::cos/std::sin per value
// (HF's `inv_freq.float() @ positions.float()` then .cos()/.sin()). Rows [first, first+n).
struct user_cache {
  std::int64_t half;
  std::vector<float> cos, sin;
  user_cache(std::int64_t dim, std::int64_t first, std::int64_t n)
      : half(dim / 2), cos(static_cast<std::size_t>(n * half)), sin(cos.size()) {
    fill(dim, first, n);
  }
  void fill(std::int64_t dim, std::int64_t first, std::int64_t n) {
    for (std::int64_t p = 0; p < n; ++p)
      for (std::int64_t i = 0; i < half; ++i) {
        const float inv = 1.0f / std::pow(10000.0f, static_cast<float>(2 * i) / static_cast<float>(dim));
        const float angle = static_cast<float>(first + p) * inv;
        cos[p * half + i] = std::cos(angle);
        sin[p * half + i] = std::sin(angle);
      }
  }
};

// The user's rotation loop over dense tensors, token t at row t of the user cache. In place
// (in == out) it indexes one pointer, as a user would write it.
inline void user_rope(const user_cache& uc, const float* in, float* out, std::int64_t tokens,
                      std::int64_t heads, std::int64_t dim, bool interleaved) {
  const std::int64_t half = uc.half;
  for (std::int64_t t = 0; t < tokens; ++t) {
    const float* c = uc.cos.data() + t * half;
    const float* s = uc.sin.data() + t * half;
    for (std::int64_t h = 0; h < heads; ++h) {
      // Each pair is read before it is written, so the same loop serves in == out.
      const std::int64_t row = (t * heads + h) * dim;
      const float* x = in + row;
      float* y = out + row;
      if (interleaved) {
        for (std::int64_t i = 0; i < half; ++i) {
          const float a = x[2 * i], b = x[2 * i + 1];
          y[2 * i] = a * c[i] - b * s[i];
          y[2 * i + 1] = b * c[i] + a * s[i];
        }
      } else {
        for (std::int64_t i = 0; i < half; ++i) {
          const float a = x[i], b = x[i + half];
          y[i] = a * c[i] - b * s[i];
          y[i + half] = b * c[i] + a * s[i];
        }
      }
    }
  }
}

}  // namespace posenc::bench
