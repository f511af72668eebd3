// posenc/random.hpp — a small seeded generator that gives the same numbers everywhere.
//
// Why not <random>: std::uniform_real_distribution and friends are implementation-defined,
// so libstdc++ (native) and libc++ (Emscripten) disagree for the same seed. Attention demos
// and tests build their weights and inputs from this generator so that native and WASM
// produce BIT-IDENTICAL numbers for the same seed. Only integer operations and IEEE
// correctly-rounded +, −, × are used (no libm transcendental).
//
// Algorithm (fixed; changing it changes every seeded result, so treat it as an ABI):
//   1. SplitMix64 (Steele, Lea & Flood 2014; Vigna's reference `splitmix64.c`) expands the
//      64-bit seed:   x += 0x9E3779B97F4A7C15;
//                     z = x; z = (z ^ (z >> 30))·0xBF58476D1CE4E5B9;
//                            z = (z ^ (z >> 27))·0x94D049BB133111EB;  return z ^ (z >> 31)
//      Two outputs z0, z1 give the xoshiro state s = {lo32(z0), hi32(z0), lo32(z1), hi32(z1)}.
//      SplitMix64 is a bijection of its counter, so z0 ≠ z1 and s is never all zero.
//   2. xoshiro128** 1.1 (Blackman & Vigna 2018, `xoshiro128starstar.c`) produces u32:
//      result = rotl(s1·5, 7)·9;  t = s1 << 9;  s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3;
//      s2 ^= t;  s3 = rotl(s3, 11).
//   3. A float in [0, 1) is u = (u32 >> 8)·2⁻²⁴ (24 bits: exactly representable in float).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace posenc {

// Largest n `permutation` accepts (2²⁴: every index is exact as a float in the JS face).
inline constexpr std::int64_t max_permutation_size = std::int64_t{1} << 24;

class random {
public:
  // Seeds the state from `seed` by SplitMix64 (step 1 above). Every 64-bit seed is valid.
  explicit random(std::uint64_t seed) noexcept;

  // Next xoshiro128** output, uniform over all 2³² values (step 2 above).
  std::uint32_t next_u32() noexcept;

  // Uniform float in [lo, hi): lo + (hi − lo)·u with u from step 3, consuming one next_u32.
  // (hi − lo) is rounded to float, the product is exact in double (24 × 24 bits), the sum
  // is rounded once to double and once to float, so an FMA contraction cannot change the
  // result; a value that rounds up to hi is replaced by the largest float below hi.
  // Valid: lo, hi finite, lo < hi, hi − lo finite in float. Error vs float64
  // lo + (hi − lo)·u: ≤ 1 ulp(float) of the result plus 0.5 ulp(float) of (hi − lo)·u.
  // Throws posenc::invalid_argument naming `lo`/`hi` otherwise.
  float uniform(float lo, float hi);

  // Uniform integer in [0, bound) without modulo bias (Lemire 2019, "Fast random integer
  // generation in an interval", 32-bit multiply-shift with rejection). Valid: bound ≥ 1
  // (throws posenc::invalid_argument naming `bound` otherwise). Consumes ≥ 1 next_u32.
  std::uint32_t below(std::uint32_t bound);

private:
  std::array<std::uint32_t, 4> state_{};
};

// out[i] = the i-th random(seed).uniform(lo, hi), i = 0 … out.size()−1, so any prefix of a
// fill is the same numbers. Valid ranges as random::uniform (checked even when out is empty).
void fill_uniform(std::span<float> out, std::uint64_t seed, float lo, float hi);

// A permutation of 0 … n−1 by Fisher–Yates (Knuth, TAOCP vol. 2, Algorithm P), drawing j in
// [0, i] with random(seed).below(i + 1) for i = n−1 down to 1. Valid: n in
// [0, max_permutation_size]; throws posenc::invalid_argument naming `n` otherwise.
std::vector<std::int32_t> permutation(std::int64_t n, std::uint64_t seed);

} // namespace posenc
