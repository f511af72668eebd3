// core/src/detail/half_driver.hpp — how half.cpp (16-bit tensors, checked there) reaches the
// one RoPE driver of rotary.cpp, which runs the 16-bit kernels of half_kernels.hpp.
#pragma once

#include "posenc/half.hpp"

#include <cstdint>
#include <span>

namespace posenc::detail {

// in → out (the same view in place), one 16-bit format for both. References to the
// caller's views: the driver reads their fields where they are (a copy of a just-written
// view is a wide load over narrow stores, which stalls store forwarding on every call).
struct half_target {
  const half_tensor_view& in;
  const half_tensor_view& out;
};

// Token t at ids32[t] or ids64[t] (a multi-axis cache: [axes][tokens]), else at start + t.
struct half_positions {
  const std::int32_t* ids32 = nullptr;
  const std::int64_t* ids64 = nullptr;
  std::int64_t start = 0;
};

// Rotates every target (all of `tokens` tokens, all of one format) as rope_apply does,
// forward or inverse, scaled by the attention factor. Every argument must already be valid.
void rotate_half(const rotary_cache& cache, std::span<const half_target> targets,
                 std::int64_t tokens, half_positions pos, direction dir);

}  // namespace posenc::detail
