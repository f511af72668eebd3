// test_relative.cpp — ALiBi, T5 buckets, Shaw distances and the learned table against
// independent float64 references transcribed from Hugging Face transformers:
//   models/bloom/modeling_bloom.py  build_alibi_tensor          (slopes)
//   models/mpt/modeling_mpt.py      build_mpt_alibi_tensor      (slopes; bias −slope·|i−j|)
//   models/t5/modeling_t5.py        T5Attention._relative_position_bucket, compute_bias
#include "posenc/relative.hpp"

#include "posenc/errors.hpp"
#include "posenc/random.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

// BLOOM build_alibi_tensor, in float64:
//   closest_power_of_2 = 2 ** floor(log2(num_heads))
//   base = 2 ** (-(2 ** -(log2(closest_power_of_2) - 3))); slopes = base ** arange(1, 1 + cp)
//   extra_base = 2 ** (-(2 ** -(log2(2 * cp) - 3)))
//   slopes += extra_base ** arange(1, 1 + 2 * min(cp, num_heads - cp), 2)
std::vector<double> bloom_slopes(int num_heads) {
  const int cp = 1 << static_cast<int>(std::floor(std::log2(num_heads)));
  const double base = std::pow(2.0, -std::pow(2.0, -(std::log2(cp) - 3)));
  std::vector<double> slopes;
  for (int p = 1; p <= cp; ++p) slopes.push_back(std::pow(base, p));
  if (cp != num_heads) {
    const double extra = std::pow(2.0, -std::pow(2.0, -(std::log2(2 * cp) - 3)));
    const int remaining = std::min(cp, num_heads - cp);
    for (int p = 1; p < 1 + 2 * remaining; p += 2) slopes.push_back(std::pow(extra, p));
  }
  return slopes;
}

// MPT build_mpt_alibi_tensor (alibi_bias_max = 8), in float64:
//   n2 = 2 ** ceil(log2(num_heads)); m = arange(1, n2 + 1) * (8 / n2); slopes = 1 / 2 ** m
//   if n2 != num_heads: slopes = concat([slopes[1::2], slopes[::2]])[:num_heads]
std::vector<double> mpt_slopes(int num_heads) {
  const int n2 = 1 << static_cast<int>(std::ceil(std::log2(num_heads)));
  std::vector<double> s;
  for (int k = 1; k <= n2; ++k) s.push_back(1.0 / std::pow(2.0, k * (8.0 / n2)));
  if (n2 == num_heads) return s;
  std::vector<double> r;
  for (int k = 1; k < n2; k += 2) r.push_back(s[k]);
  for (int k = 0; k < n2; k += 2) r.push_back(s[k]);
  r.resize(num_heads);
  return r;
}

// T5Attention._relative_position_bucket for one value. `f32` follows HF's dtypes (the
// relative positions become a float32 tensor, so the log part runs in float32); without it
// the same formula in float64.
std::int64_t t5_reference(std::int64_t relative_position, bool bidirectional, std::int64_t num_buckets,
                          std::int64_t max_distance, bool f32) {
  std::int64_t relative_buckets = 0;
  if (bidirectional) {
    num_buckets /= 2;
    relative_buckets += (relative_position > 0 ? 1 : 0) * num_buckets;
    relative_position = std::llabs(relative_position);
  } else {
    relative_position = -std::min<std::int64_t>(relative_position, 0);
  }
  const std::int64_t max_exact = num_buckets / 2;
  const bool is_small = relative_position < max_exact;
  // HF evaluates both branches and torch.where keeps one; log(0) → −inf converted to an
  // integer is undefined in C++, so the large branch is taken only where it is used.
  if (is_small) return relative_buckets + relative_position;
  std::int64_t if_large;
  if (f32) {
    const float v = std::log(float(relative_position) / float(max_exact)) /
                    float(std::log(double(max_distance) / double(max_exact))) * float(num_buckets - max_exact);
    if_large = max_exact + static_cast<std::int64_t>(v);
  } else {
    const double v = std::log(double(relative_position) / double(max_exact)) /
                     std::log(double(max_distance) / double(max_exact)) * double(num_buckets - max_exact);
    if_large = max_exact + static_cast<std::int64_t>(v);
  }
  if_large = std::min(if_large, num_buckets - 1);
  return relative_buckets + if_large;
}

bool close_ulps(double a, double b, double ulps) {
  return std::abs(a - b) <= ulps * std::numeric_limits<double>::epsilon() * std::abs(b);
}

} // namespace

TEST_CASE("alibi_slopes: BLOOM's and MPT's rules for 1 … 64 heads, incl. 12/20/40", "[relative]") {
  for (int heads = 1; heads <= 64; ++heads) {
    INFO("heads = " << heads);
    const auto ours = posenc::alibi_slopes(heads);
    const auto bloom = bloom_slopes(heads);
    const auto mpt = mpt_slopes(heads);
    REQUIRE(ours.size() == std::size_t(heads));
    for (int h = 0; h < heads; ++h) {
      INFO("head " << h);
      CHECK(close_ulps(ours[h], bloom[h], 8));
      CHECK(close_ulps(ours[h], mpt[h], 8));
    }
  }
  // The paper's 8-head list: 1/2, 1/4, …, 1/256.
  const auto eight = posenc::alibi_slopes(8);
  for (int h = 0; h < 8; ++h) CHECK(eight[h] == std::ldexp(1.0, -(h + 1)));
  // 12 heads: eight of the 8-head ladder, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
  const auto twelve = posenc::alibi_slopes(12);
  CHECK(close_ulps(twelve[8], std::sqrt(0.5), 2));
  CHECK(close_ulps(twelve[11], std::pow(2.0, -3.5), 2));
}

TEST_CASE("alibi_bias: −slope·|i − j|, the causal mask, fewer queries than keys", "[relative]") {
  for (const int heads : {12, 20, 40}) {
    for (const bool causal : {false, true}) {
      const int queries = 5, keys = 9;
      const auto bias = posenc::alibi_bias(heads, queries, keys, causal);
      REQUIRE(bias.size() == std::size_t(heads * queries * keys));
      const auto slopes = bloom_slopes(heads);
      for (int h = 0; h < heads; ++h)
        for (int i = 0; i < queries; ++i)
          for (int j = 0; j < keys; ++j) {
            const int at = keys - queries + i;
            const float got = bias[(h * queries + i) * keys + j];
            if (causal && j > at) {
              CHECK(got == -std::numeric_limits<float>::infinity());
            } else {
              // MPT: (arange(1 - T, 1) - arange(1 - T, 1)[:, None]).abs() * -1 * slopes
              CHECK(got == static_cast<float>(-slopes[h] * std::abs(double(at - j))));
            }
          }
    }
  }
  const auto square = posenc::alibi_bias(1, 3, 3, false);
  CHECK(square[0 * 3 + 2] == -2.0f / 256);  // 1 head: slope 2^-8; (0, 2)
  CHECK(square[2 * 3 + 0] == -2.0f / 256);  // symmetric without the mask
}

TEST_CASE("alibi: bad arguments name themselves", "[relative]") {
  using posenc::test::require_throws;
  require_throws<posenc::invalid_argument>([] { (void)posenc::alibi_slopes(0); }, "heads");
  require_throws<posenc::invalid_argument>([] { (void)posenc::alibi_slopes(posenc::max_alibi_heads + 1); }, "heads");
  require_throws<posenc::invalid_argument>([] { (void)posenc::alibi_bias(4, 5, 4, false); }, "queries");
  require_throws<posenc::invalid_argument>([] { (void)posenc::alibi_bias(4, 0, 4, false); }, "queries");
  require_throws<posenc::invalid_argument>([] { (void)posenc::alibi_bias(4, 1, 0, false); }, "keys");
  require_throws<posenc::length_error>([] { (void)posenc::alibi_bias(4096, 8192, 8192, true); }, "heads * queries * keys");
}

TEST_CASE("t5_buckets: HF's _relative_position_bucket, bidirectional and causal", "[relative]") {
  struct shape { bool bidirectional; std::int64_t buckets, max_distance; };
  for (const shape s : {shape{true, 32, 128}, shape{false, 32, 128}, shape{true, 64, 256},
                        shape{false, 16, 64}, shape{true, 33, 100}}) {
    INFO("bidirectional " << s.bidirectional << ", " << s.buckets << " buckets, max " << s.max_distance);
    const int queries = 300, keys = 420;  // past max_distance on both sides
    const auto got = posenc::t5_buckets(queries, keys, s.bidirectional, s.buckets, s.max_distance);
    REQUIRE(got.size() == std::size_t(queries * keys));
    int float64_differs = 0;
    for (int i = 0; i < queries; ++i)
      for (int j = 0; j < keys; ++j) {
        const auto ref = t5_reference(j - i, s.bidirectional, s.buckets, s.max_distance, true);
        REQUIRE(got[i * keys + j] == ref);
        float64_differs += ref != t5_reference(j - i, s.bidirectional, s.buckets, s.max_distance, false);
      }
    // On these shapes float32 and float64 agree (no quotient lands within float32 rounding
    // of an integer), so the bucket does not hinge on the log's last bit.
    CHECK(float64_differs == 0);
  }
  // Known values of t5-small's encoder (32 buckets, 128): exact below 8, then logarithmic.
  CHECK(posenc::t5_bucket(-7, true, 32, 128) == 7);
  CHECK(posenc::t5_bucket(7, true, 32, 128) == 23);
  CHECK(posenc::t5_bucket(-16, true, 32, 128) == 10);
  CHECK(posenc::t5_bucket(-127, true, 32, 128) == 15);
  CHECK(posenc::t5_bucket(-100000, true, 32, 128) == 15);
  CHECK(posenc::t5_bucket(100000, true, 32, 128) == 31);
  // Decoder (causal): every key after the query is bucket 0.
  CHECK(posenc::t5_bucket(5, false, 32, 128) == 0);
  CHECK(posenc::t5_bucket(-5, false, 32, 128) == 5);
  CHECK(posenc::t5_bucket(-1000, false, 32, 128) == 31);
}

TEST_CASE("t5_buckets: bad arguments name themselves", "[relative]") {
  using posenc::test::require_throws;
  require_throws<posenc::invalid_argument>([] { (void)posenc::t5_buckets(4, 4, true, 3, 128); }, "num_buckets");
  require_throws<posenc::invalid_argument>([] { (void)posenc::t5_buckets(4, 4, false, 1, 128); }, "num_buckets");
  require_throws<posenc::invalid_argument>([] { (void)posenc::t5_buckets(4, 4, true, 32, 8); }, "max_distance");
  require_throws<posenc::invalid_argument>([] { (void)posenc::t5_buckets(0, 4, true, 32, 128); }, "queries");
  require_throws<posenc::invalid_argument>([] { (void)posenc::t5_buckets(4, -1, true, 32, 128); }, "keys");
  require_throws<posenc::invalid_argument>([] { (void)posenc::t5_bucket(std::int64_t{1} << 30, true, 32, 128); }, "relative_position");
}

TEST_CASE("clipped_distances: Shaw et al.'s clip(j − i, −k, k)", "[relative]") {
  const auto d = posenc::clipped_distances(6, 10, 3);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 10; ++j) CHECK(d[i * 10 + j] == std::max(-3, std::min(3, j - i)));
  const auto zero = posenc::clipped_distances(3, 3, 0);
  for (const int v : zero) CHECK(v == 0);
  posenc::test::require_throws<posenc::invalid_argument>([] { (void)posenc::clipped_distances(3, 3, -1); }, "max_distance");
}

TEST_CASE("learned_table: seeded rows, L·d parameters, no row past L", "[relative]") {
  const posenc::learned_table t(512, 32, 7);
  CHECK(t.parameters() == 16384);  // nn.Embedding(512, 32)
  std::vector<float> expected(512 * 32);
  posenc::fill_uniform(expected, 7, -1.0f, 1.0f);
  const auto row = t.row(511);
  for (int c = 0; c < 32; ++c) CHECK(row[c] == expected[511 * 32 + c]);
  // The same seed gives the same first rows whatever the length.
  const posenc::learned_table shorter(4, 32, 7);
  CHECK(shorter.row(3)[5] == t.row(3)[5]);
  using posenc::test::require_throws;
  require_throws<posenc::invalid_argument>([&] { (void)t.row(512); }, "position");
  require_throws<posenc::invalid_argument>([&] { (void)t.row(-1); }, "position");
  require_throws<posenc::invalid_argument>([] { posenc::learned_table(0, 4, 1); }, "positions");
  require_throws<posenc::invalid_argument>([] { posenc::learned_table(4, 0, 1); }, "dim");
  require_throws<posenc::length_error>([] { posenc::learned_table(1 << 20, 1 << 10, 1); }, "positions * dim");
}
