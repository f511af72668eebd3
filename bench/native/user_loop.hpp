// bench/native/user_loop.hpp — the RoPE a user writes by hand, the yardstick of the apply:
// a float32 cos/sin cache (angles in float32, std::cos/std::sin) and the plain rotation loop.
// Its definitions have internal linkage, so each translation unit that includes it keeps its
// own copy, compiled with that unit's flags (bench/stable builds it at -march=native and at
// the x86-64 baseline side by side).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace posenc::bench {
namespace {

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

// The user's rotation loop over dense tensors, token t with rows cos/sin + t·dim/2. In place
// (in == out) it indexes one pointer, as a user would write it.
void user_rope_rows(const float* cos, const float* sin, const float* in, float* out,
                    std::int64_t tokens, std::int64_t heads, std::int64_t dim, bool interleaved) {
  const std::int64_t half = dim / 2;
  for (std::int64_t t = 0; t < tokens; ++t) {
    const float* c = cos + t * half;
    const float* s = sin + t * half;
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

// The same loop, token t at row t of the user cache.
[[maybe_unused]] void user_rope(const user_cache& uc, const float* in, float* out,
                                std::int64_t tokens, std::int64_t heads, std::int64_t dim,
                                bool interleaved) {
  user_rope_rows(uc.cos.data(), uc.sin.data(), in, out, tokens, heads, dim, interleaved);
}
}  // namespace
}  // namespace posenc::bench
