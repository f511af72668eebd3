// bench/stable/sampling.hpp — what the paired native benchmarks share (posenc_stable,
// posenc_peer_ggml): the thread's CPU clock, a store the compiler must keep, and the inputs.
#pragma once

#include <ctime>
#include <random>
#include <vector>

namespace posenc::bench {

// CPU time of this thread in ns: on a shared machine, waiting for a core is not counted.
inline double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// Keeps the compiler from dropping stores nobody reads.
inline void escape(void* p) { asm volatile("" : : "g"(p) : "memory"); }

// n floats uniform in [−1, 1), the same for the same seed.
inline std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

}  // namespace posenc::bench
