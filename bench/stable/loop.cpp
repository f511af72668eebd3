// The user loop, compiled once per flag set as POSENC_LOOP (bench/CMakeLists.txt: loop_native
// -O3 -march=native, loop_baseline -O3 for the x86-64 baseline, loop_v3 -O3 -march=x86-64-v3).
#include "loops.hpp"

#include "../native/user_loop.hpp"

namespace posenc::bench {

void POSENC_LOOP(const float* cos, const float* sin, float* x, std::int64_t tokens,
                 std::int64_t heads, std::int64_t dim, bool interleaved) {
  user_rope_rows(cos, sin, x, x, tokens, heads, dim, interleaved);
}

}  // namespace posenc::bench
