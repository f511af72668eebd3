// bench/stable/loops.hpp — the user loop (bench/native/user_loop.hpp) built three ways, one
// translation unit each: -march=native (timing), the x86-64 baseline (timing), and
// -march=x86-64-v3 (AVX2 + FMA: instruction counts, since valgrind runs no AVX-512).
#pragma once

#include <cstdint>

namespace posenc::bench {

// One in-place rotation of x [tokens][heads][dim], token t with cos/sin row t of the tables
// ([tokens][dim/2] each, float32). interleaved: pairs (2i, 2i+1), else (i, i + dim/2).
using loop_fn = void (*)(const float* cos, const float* sin, float* x, std::int64_t tokens,
                         std::int64_t heads, std::int64_t dim, bool interleaved);

void loop_native(const float*, const float*, float*, std::int64_t, std::int64_t, std::int64_t, bool);
void loop_baseline(const float*, const float*, float*, std::int64_t, std::int64_t, std::int64_t, bool);
void loop_v3(const float*, const float*, float*, std::int64_t, std::int64_t, std::int64_t, bool);

}  // namespace posenc::bench
