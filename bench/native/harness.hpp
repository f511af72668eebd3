// bench/native/harness.hpp — what every native benchmark shares: paired timing, buffers,
// the scalar-reference RoPE driver and the loops a user would write.
//
// Each operation is ONE Google Benchmark, "op/<shape>", whose members run side by side:
// "posenc", "scalar" (the library's scalar reference), "user" (plain float32-angle code,
// std::sin/std::cos), "bare" (one load and one store of the same bytes, no arithmetic) and
// "memcpy" (the same bytes copied by the C library). Every
// iteration runs every member once, in rotating order, and times each with the thread's CPU
// clock, so all members see the same machine state (this machine is shared: separate
// benchmarks minutes apart saw memcpy vary by 2×). Counters "<member>_ns" hold each median;
// bench/report.mjs turns them into ratios.
#pragma once

#include "detail/rotary_kernels.hpp"
#include "posenc/rotary.hpp"
#include "user_loop.hpp"
#include "../stable/sampling.hpp"

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

// RoPE shapes: a 7B-class model's head geometry.
inline constexpr std::int64_t kTokens = 2048, kHeads = 32, kKvHeads = 8, kHeadDim = 128;
inline constexpr std::int64_t kDecodePosition = 4000;

// Values placed `offset` bytes past a 64-byte line (x), in storage of their own, or where
// malloc puts them (offset < 0): members that compare times get tensors at the same offset,
// since where a large vector lands (malloc gives 16-byte alignment, and which 16 bytes
// varies from run to run) changes how many vector accesses split a cache line.
template <class T>
struct line_buffer {
  std::vector<T> storage;
  T* x;
  line_buffer(const std::vector<T>& values, int offset)
      : storage(values.size() + 128 / sizeof(T)) {
    const auto address = reinterpret_cast<std::uintptr_t>(storage.data());
    const std::size_t to_line = (64 - address % 64) % 64;
    x = offset < 0 ? storage.data() : storage.data() + (to_line + static_cast<std::size_t>(offset)) / sizeof(T);
    std::copy(values.begin(), values.end(), x);
  }
};

// One member of a paired benchmark: `run` does the operation once; `error`, if set, is
// measured once after timing (max deviation from float64 truth, for the tables).
struct member {
  std::string name;
  std::function<void()> run;
  std::function<double()> error = {};
};

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

// The "bare" member: one pass over the same bytes with no arithmetic — each float loaded
// and stored once (in place: x → x; out of place: x → y). `+ 0.0f` is not an identity
// (−0 + 0 = +0), so the compiler keeps every load and store and cannot turn the loop into
// memcpy. Cloned per ISA (GCC ifunc) so it uses vectors as wide as posenc's dispatch does.
[[gnu::target_clones("avx512f", "avx2", "default"), gnu::noinline]] inline void bare_pass(
    const float* in, float* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = in[i] + 0.0f;
}

// Its buffers as malloc aligns them, or (line_offset ≥ 0) that many bytes past a 64-byte line.
inline member bare_member(std::size_t floats, bool in_place, int line_offset = -1) {
  auto x = std::make_shared<line_buffer<float>>(random_floats(floats, 5), line_offset);
  auto y = std::make_shared<line_buffer<float>>(std::vector<float>(in_place ? 0 : floats), line_offset);
  return {"bare", [=] {
            bare_pass(x->x, in_place ? x->x : y->x, floats);
            benchmark::DoNotOptimize(x->x);
          }};
}

// The scalar reference of rope_apply for dense [tokens][heads][dim] tensors: one cache.row
// per token and the kernels' scalar twin (what a POSENC_SCALAR build runs).
inline void rope_scalar(const rotary_cache& cache, const float* in, float* out,
                        std::int64_t tokens, std::int64_t heads, std::int64_t start) {
  const auto half = static_cast<std::size_t>(cache.rotary_dim() / 2);
  // Reused across calls: the member times the kernel, not an allocation (posenc's driver
  // keeps its row inline too).
  thread_local std::vector<float> c, s;
  c.resize(half);
  s.resize(half);
  detail::token_rows<float> job;
  job.cos = c.data();
  job.sin = s.data();
  job.half = half;
  job.g = static_cast<float>(cache.attention_factor());
  job.in_head_stride = job.out_head_stride = job.dim = cache.head_dim();
  job.heads = heads;
  const bool interleaved = cache.layout() == rope_layout::interleaved;
  for (std::int64_t t = 0; t < tokens; ++t) {
    cache.row(start + t, c.data(), s.data());
    job.in = in + t * heads * cache.head_dim();
    job.out = out + t * heads * cache.head_dim();
    if (interleaved)
      detail::rotate_token_scalar<float, true>(job);
    else
      detail::rotate_token_scalar<float, false>(job);
  }
}

}  // namespace posenc::bench
