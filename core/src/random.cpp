// random.cpp — SplitMix64-seeded xoshiro128**; the algorithm is specified in random.hpp.
#include "posenc/random.hpp"

#include "posenc/detail/check.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace posenc {
namespace {

// Vigna's splitmix64.c, one step: advances the counter and returns the mixed value.
std::uint64_t splitmix64(std::uint64_t& x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = x;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

constexpr std::uint32_t rotl(std::uint32_t x, int k) noexcept {
  return (x << k) | (x >> (32 - k));
}

void check_uniform_range(float lo, float hi) {
  detail::check_finite("lo", lo);
  detail::check_finite("hi", hi);
  if (!(lo < hi)) detail::fail_argument("hi must be greater than lo (", lo, "), got ", hi);
  if (!std::isfinite(hi - lo))
    detail::fail_argument("hi - lo must be finite in float32, got lo = ", lo, ", hi = ", hi);
}

// The uniform map of random::uniform for an already validated [lo, hi).
float map_uniform(std::uint32_t bits, float lo, float hi) noexcept {
  constexpr double two_pow_minus_24 = 1.0 / 16777216.0;
  const double u = static_cast<double>(bits >> 8) * two_pow_minus_24;
  const float width = hi - lo;
  // width has 24 significant bits and u at most 24, so the product is exact in double and
  // a compiler that fuses this into an FMA computes the same sum.
  const double product = static_cast<double>(width) * u;
  const float r = static_cast<float>(static_cast<double>(lo) + product);
  // Rounding to float can reach hi (e.g. [1, 2): 2 − 2⁻²⁴ rounds to 2); keep [lo, hi).
  return r < hi ? r : std::nextafter(hi, lo);
}

} // namespace

random::random(std::uint64_t seed) noexcept {
  const std::uint64_t z0 = splitmix64(seed);
  const std::uint64_t z1 = splitmix64(seed);
  state_ = {static_cast<std::uint32_t>(z0), static_cast<std::uint32_t>(z0 >> 32),
            static_cast<std::uint32_t>(z1), static_cast<std::uint32_t>(z1 >> 32)};
}

// Blackman & Vigna, xoshiro128starstar.c (version 1.1), verbatim apart from names.
std::uint32_t random::next_u32() noexcept {
  auto& s = state_;
  const std::uint32_t result = rotl(s[1] * 5u, 7) * 9u;
  const std::uint32_t t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return result;
}

float random::uniform(float lo, float hi) {
  check_uniform_range(lo, hi);
  return map_uniform(next_u32(), lo, hi);
}

std::uint32_t random::below(std::uint32_t bound) {
  if (bound == 0) detail::fail_argument("bound must be an integer in [1, 4294967295], got 0");
  // Lemire: the high word of x·bound is uniform once the low word clears the bias zone.
  std::uint64_t m = std::uint64_t{next_u32()} * bound;
  if (static_cast<std::uint32_t>(m) < bound) {
    const std::uint32_t threshold = (0u - bound) % bound;  // 2³² mod bound
    while (static_cast<std::uint32_t>(m) < threshold) m = std::uint64_t{next_u32()} * bound;
  }
  return static_cast<std::uint32_t>(m >> 32);
}

void fill_uniform(std::span<float> out, std::uint64_t seed, float lo, float hi) {
  check_uniform_range(lo, hi);
  random gen(seed);
  for (float& v : out) v = map_uniform(gen.next_u32(), lo, hi);
}

std::vector<std::int32_t> permutation(std::int64_t n, std::uint64_t seed) {
  detail::check_range("n", n, 0, max_permutation_size);
  std::vector<std::int32_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  random gen(seed);
  for (std::int64_t i = n - 1; i >= 1; --i) {
    const auto j = gen.below(static_cast<std::uint32_t>(i + 1));
    std::swap(p[static_cast<std::size_t>(i)], p[j]);
  }
  return p;
}

} // namespace posenc
