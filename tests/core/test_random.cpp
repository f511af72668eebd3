// test_random.cpp — the seeded generator: known answers, ranges, determinism, errors.
#include "posenc/random.hpp"

#include "posenc/errors.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace {

// Known answers were computed independently from the algorithm documented in random.hpp by
// this Python 3 transcription (not from posenc); its SplitMix64 reproduces the published
// seed-0 outputs 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, which checks the seeding step.
//
//   M64, M32 = (1 << 64) - 1, (1 << 32) - 1
//   def splitmix(x):
//       x = (x + 0x9E3779B97F4A7C15) & M64
//       z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
//       z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
//       return x, z ^ (z >> 31)
//   def rotl(x, k): return ((x << k) | (x >> (32 - k))) & M32
//   class X:
//       def __init__(s, seed):
//           seed, z0 = splitmix(seed); seed, z1 = splitmix(seed)
//           s.s = [z0 & M32, z0 >> 32, z1 & M32, z1 >> 32]
//       def next(s):
//           a = s.s; r = (rotl((a[1] * 5) & M32, 7) * 9) & M32; t = (a[1] << 9) & M32
//           a[2] ^= a[0]; a[3] ^= a[1]; a[1] ^= a[2]; a[0] ^= a[3]; a[2] ^= t
//           a[3] = rotl(a[3], 11); return r
//       def below(s, b):
//           m = s.next() * b
//           if (m & M32) < b:
//               t = ((1 << 32) - b) % b
//               while (m & M32) < t: m = s.next() * b
//           return m >> 32
//   g = X(42); [hex(g.next()) for _ in range(6)]
//   g = X(42); [(g.next() >> 8) / 2**24 for _ in range(4)]        # uniform(0, 1)
//   Fisher-Yates with below(i + 1), i = n-1 .. 1, on list(range(10)), seed 42
constexpr std::uint32_t kSeed42U32[] = {0x69e85a2a, 0xf843fad0, 0x0105185f,
                                        0x8a1f1ea6, 0xa66be2a9, 0x9844904e};
constexpr float kSeed42Unit[] = {0.4137016534805298f, 0.9697872400283813f,
                                 0.003983974456787109f, 0.5395373106002808f};
// uniform(-1, 1) = -1 + 2u, exact in float for these u.
constexpr float kSeed42Signed[] = {-0x1.617a6p-3f, 0x1.e10fe8p-1f, -0x1.fbeba0p-1f,
                                   0x1.43e3c0p-4f};
const std::vector<std::int32_t> kPermutation10Seed42 = {7, 5, 1, 9, 2, 6, 3, 0, 8, 4};

} // namespace

TEST_CASE("random: seed 42 reproduces the independently computed u32 stream", "[random]") {
  posenc::random gen(42);
  for (const std::uint32_t expected : kSeed42U32) CHECK(gen.next_u32() == expected);
}

TEST_CASE("random: seed 42 uniform values are bit-exact known answers", "[random]") {
  SECTION("uniform(0, 1)") {
    posenc::random gen(42);
    for (const float expected : kSeed42Unit) CHECK(gen.uniform(0.0f, 1.0f) == expected);
  }
  SECTION("uniform(-1, 1)") {
    posenc::random gen(42);
    for (const float expected : kSeed42Signed) CHECK(gen.uniform(-1.0f, 1.0f) == expected);
  }
  SECTION("fill_uniform gives the same stream") {
    std::vector<float> out(4);
    posenc::fill_uniform(out, 42, -1.0f, 1.0f);
    for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == kSeed42Signed[i]);
  }
}

TEST_CASE("random: permutation of 10 for seed 42 is the known answer", "[random]") {
  CHECK(posenc::permutation(10, 42) == kPermutation10Seed42);
}

TEST_CASE("random: uniform stays within lo <= u < hi", "[random]") {
  const auto [lo, hi] = GENERATE(std::pair{0.0f, 1.0f}, std::pair{-3.5f, 2.25f},
                                 std::pair{1.0f, 2.0f}, std::pair{-1e30f, 1e30f},
                                 std::pair{1000.0f, 1000.125f});
  const auto seed = GENERATE(std::uint64_t{0}, std::uint64_t{7}, ~std::uint64_t{0});
  std::vector<float> v(20000);
  posenc::fill_uniform(v, seed, lo, hi);
  const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
  CHECK(*mn >= lo);
  CHECK(*mx < hi);
  // Both ends of the range are reached to within 1% of its width (20000 draws).
  CHECK(static_cast<double>(*mn) - lo < 0.01 * (static_cast<double>(hi) - lo));
  CHECK(static_cast<double>(hi) - *mx < 0.01 * (static_cast<double>(hi) - lo));
}

TEST_CASE("random: a value that would round up to hi is kept below hi", "[random]") {
  // In [1, next float above 1) every u > 1/2 rounds 1 + u·2⁻²³ up to hi; only 1 is valid.
  const float hi = std::nextafter(1.0f, 2.0f);
  std::vector<float> v(1000);
  posenc::fill_uniform(v, 3, 1.0f, hi);
  CHECK(std::all_of(v.begin(), v.end(), [](float x) { return x == 1.0f; }));
}

TEST_CASE("random: uniform(0, 1) has mean 1/2 and variance 1/12", "[random]") {
  std::vector<float> v(100000);
  posenc::fill_uniform(v, 2024, 0.0f, 1.0f);
  double sum = 0, sum2 = 0;
  for (const float x : v) {
    sum += x;
    sum2 += static_cast<double>(x) * x;
  }
  const double mean = sum / static_cast<double>(v.size());
  const double var = sum2 / static_cast<double>(v.size()) - mean * mean;
  // Standard error of the mean is 0.29/√1e5 ≈ 9e-4; 5e-3 is > 5 sigma.
  CHECK(mean == Approx(0.5).margin(5e-3));
  CHECK(var == Approx(1.0 / 12.0).margin(2e-3));
}

TEST_CASE("random: same seed same numbers, distinct seeds differ", "[random]") {
  std::vector<float> a(64), b(64), c(64);
  posenc::fill_uniform(a, 99, -1.0f, 1.0f);
  posenc::fill_uniform(b, 99, -1.0f, 1.0f);
  posenc::fill_uniform(c, 100, -1.0f, 1.0f);
  CHECK(a == b);
  CHECK(a != c);
  // A prefix of a longer fill is the shorter fill.
  std::vector<float> longer(128);
  posenc::fill_uniform(longer, 99, -1.0f, 1.0f);
  CHECK(std::equal(a.begin(), a.end(), longer.begin()));

  CHECK(posenc::permutation(50, 1) == posenc::permutation(50, 1));
  CHECK(posenc::permutation(50, 1) != posenc::permutation(50, 2));
}

TEST_CASE("random: below(bound) covers 0 .. bound-1 evenly", "[random]") {
  const std::uint32_t bound = GENERATE(1u, 2u, 3u, 7u, 10u);
  posenc::random gen(5);
  std::vector<int> counts(bound, 0);
  const int draws = 7000;
  for (int i = 0; i < draws; ++i) {
    const std::uint32_t r = gen.below(bound);
    REQUIRE(r < bound);
    ++counts[r];
  }
  const double expected = static_cast<double>(draws) / bound;
  for (const int n : counts) CHECK(std::abs(n - expected) < 6.0 * std::sqrt(expected));
}

TEST_CASE("random: permutation is a permutation for every n", "[random]") {
  const std::int64_t n = GENERATE(0, 1, 2, 3, 17, 1000);
  const auto seed = GENERATE(std::uint64_t{0}, std::uint64_t{42});
  auto p = posenc::permutation(n, seed);
  REQUIRE(static_cast<std::int64_t>(p.size()) == n);
  std::sort(p.begin(), p.end());
  std::vector<std::int32_t> identity(static_cast<std::size_t>(n));
  std::iota(identity.begin(), identity.end(), 0);
  CHECK(p == identity);
}

TEST_CASE("random: bad arguments throw naming the argument", "[random]") {
  posenc::random gen(1);
  std::vector<float> out(3);
  const float inf = INFINITY;
  CHECK_THROWS_WITH(gen.uniform(1.0f, 1.0f), Catch::Contains("hi must be greater than lo"));
  CHECK_THROWS_WITH(gen.uniform(2.0f, 1.0f), Catch::Contains("hi must be greater than lo"));
  CHECK_THROWS_WITH(gen.uniform(NAN, 1.0f), Catch::Contains("lo must be a finite"));
  CHECK_THROWS_WITH(gen.uniform(0.0f, inf), Catch::Contains("hi must be a finite"));
  CHECK_THROWS_WITH(gen.uniform(-3e38f, 3e38f), Catch::Contains("hi - lo must be finite"));
  CHECK_THROWS_AS(posenc::fill_uniform(out, 1, 0.0f, NAN), posenc::invalid_argument);
  CHECK_THROWS_WITH(gen.below(0), Catch::Contains("bound"));
  CHECK_THROWS_WITH(posenc::permutation(-1, 1),
                    Catch::Contains("n must be an integer in [0, 16777216]"));
  CHECK_THROWS_AS(posenc::permutation(posenc::max_permutation_size + 1, 1),
                  posenc::invalid_argument);
  // A failed call leaves the generator's stream untouched.
  posenc::random fresh(1);
  CHECK(gen.next_u32() == fresh.next_u32());
}
