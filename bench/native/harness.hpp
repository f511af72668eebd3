// bench/native/harness.hpp — what every native benchmark shares: buffers, the memcpy
// ceiling, the scalar-reference RoPE driver and the loops a user would write.
//
// Naming: each operation is a group "op/<shape>" with up to four members registered side by
// side in this one binary — "<group>/posenc", "<group>/scalar" (the library's scalar
// reference), "<group>/user" (plain float32-angle code, std::sin/std::cos) and
// "<group>/memcpy" (the same bytes copied: the bandwidth ceiling). bench/report.mjs pairs them
// into ratios.
#pragma once

#include "detail/rotary_kernels.hpp"
#include "posenc/rotary.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstring>
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

// Registers "<group>/memcpy": `bytes` copied between two buffers per iteration.
inline void register_memcpy(const std::string& group, std::size_t bytes) {
  benchmark::RegisterBenchmark((group + "/memcpy").c_str(), [bytes](benchmark::State& state) {
    std::vector<char> src(bytes, 1), dst(bytes);
    for (auto _ : state) {
      std::memcpy(dst.data(), src.data(), bytes);
      benchmark::DoNotOptimize(dst.data());
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  });
}

// The scalar reference of rope_apply for dense [tokens][heads][dim] tensors: the kernels'
// scalar twins driven token by token over the cache rows (what a POSENC_SCALAR build runs).
inline void rope_scalar(const rotary_cache& cache, const float* in, float* out,
                        std::int64_t tokens, std::int64_t heads, std::int64_t start) {
  const auto half = static_cast<std::size_t>(cache.rotary_dim() / 2);
  std::vector<float> c(half), s(half);
  detail::token_rows job;
  job.half = half;
  job.interleaved = cache.layout() == rope_layout::interleaved;
  job.g = static_cast<float>(cache.attention_factor());
  job.in_head_stride = job.out_head_stride = job.dim = cache.head_dim();
  job.heads = heads;
  for (std::int64_t t = 0; t < tokens; ++t) {
    cache.row(start + t, c.data(), s.data());
    job.cos = c.data();
    job.sin = s.data();
    job.in = in + t * heads * cache.head_dim();
    job.out = out + t * heads * cache.head_dim();
    detail::rotate_token_scalar(job);
  }
}

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
      const std::int64_t row = (t * heads + h) * dim;
      if (in == out) {
        float* x = out + row;
        if (interleaved) {
          for (std::int64_t i = 0; i < half; ++i) {
            const float a = x[2 * i], b = x[2 * i + 1];
            x[2 * i] = a * c[i] - b * s[i];
            x[2 * i + 1] = b * c[i] + a * s[i];
          }
        } else {
          for (std::int64_t i = 0; i < half; ++i) {
            const float a = x[i], b = x[i + half];
            x[i] = a * c[i] - b * s[i];
            x[i + half] = b * c[i] + a * s[i];
          }
        }
        continue;
      }
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
