// relative.cpp — ALiBi slopes and biases, T5 buckets, Shaw clipped distances, the learned
// table stand-in (posenc/relative.hpp states the maths and ranges).
#include "posenc/relative.hpp"

#include "posenc/detail/check.hpp"
#include "posenc/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace posenc {
namespace {

constexpr std::int64_t max_t5_buckets = 65536;
constexpr std::int64_t max_learned_dim = 65536;

// queries·keys (times heads) within max_relative_elements, else length_error.
std::size_t matrix_size(std::int64_t heads, std::int64_t queries, std::int64_t keys) {
  const std::size_t n =
      detail::checked_mul("heads * queries * keys",
                          detail::checked_mul("queries * keys", std::size_t(queries), std::size_t(keys)),
                          std::size_t(heads));
  if (n > max_relative_elements)
    detail::fail_length("heads * queries * keys = ", n, " exceeds the maximum ", max_relative_elements);
  return n;
}

void check_lengths(std::int64_t queries, std::int64_t keys) {
  detail::check_range("queries", queries, 1, max_relative_length);
  detail::check_range("keys", keys, 1, max_relative_length);
}

// The largest power of two ≤ n (n ≥ 1).
std::int64_t floor_pow2(std::int64_t n) {
  std::int64_t c = 1;
  while (c * 2 <= n) c *= 2;
  return c;
}

} // namespace

std::vector<double> alibi_slopes(std::int64_t heads) {
  detail::check_range("heads", heads, 1, max_alibi_heads);
  const std::int64_t c = floor_pow2(heads);
  std::vector<double> slopes(static_cast<std::size_t>(heads));
  // −8k/c and −8(2r+1)/(2c) are exact in double (c a power of two), so exp2 sees the true power.
  for (std::int64_t h = 0; h < c; ++h) slopes[h] = std::exp2(-8.0 * double(h + 1) / double(c));
  for (std::int64_t r = 0; c + r < heads; ++r)
    slopes[c + r] = std::exp2(-8.0 * double(2 * r + 1) / double(2 * c));
  return slopes;
}

std::vector<float> alibi_bias(std::int64_t heads, std::int64_t queries, std::int64_t keys,
                              bool causal) {
  detail::check_range("heads", heads, 1, max_alibi_heads);
  detail::check_range("keys", keys, 1, max_relative_length);
  detail::check_range("queries", queries, 1, keys);
  std::vector<float> out(matrix_size(heads, queries, keys));
  const std::vector<double> slopes = alibi_slopes(heads);
  const std::int64_t first = keys - queries;  // key position of query 0
  float* p = out.data();
  for (std::int64_t h = 0; h < heads; ++h) {
    for (std::int64_t i = 0; i < queries; ++i) {
      const std::int64_t at = first + i;
      for (std::int64_t j = 0; j < keys; ++j, ++p) {
        if (causal && j > at) *p = -std::numeric_limits<float>::infinity();
        else *p = static_cast<float>(-slopes[h] * double(std::llabs(at - j)));
      }
    }
  }
  return out;
}

namespace {

void check_t5(bool bidirectional, std::int64_t num_buckets, std::int64_t max_distance) {
  detail::check_range("num_buckets", num_buckets, bidirectional ? 4 : 2, max_t5_buckets);
  const std::int64_t exact = (bidirectional ? num_buckets / 2 : num_buckets) / 2;
  detail::check_range("max_distance", max_distance, exact + 1, max_relative_length);
}

// _relative_position_bucket for validated arguments; |r| ≤ 2²⁴.
std::int32_t bucket_of(std::int64_t r, bool bidirectional, std::int64_t num_buckets,
                       std::int64_t max_distance) {
  std::int64_t offset = 0;
  std::int64_t n = num_buckets;
  if (bidirectional) {
    n = num_buckets / 2;
    if (r > 0) offset = n;
    r = std::llabs(r);
  } else {
    r = r < 0 ? -r : 0;
  }
  const std::int64_t exact = n / 2;
  if (r < exact) return static_cast<std::int32_t>(offset + r);
  // HF: torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact)
  //     * (num_buckets - max_exact), all on float32 tensors (the Python scalars become float).
  const float ratio = static_cast<float>(r) / static_cast<float>(exact);
  const float denom = static_cast<float>(std::log(double(max_distance) / double(exact)));
  const float scaled = std::log(ratio) / denom * static_cast<float>(n - exact);
  const std::int64_t large = std::min<std::int64_t>(exact + static_cast<std::int64_t>(scaled), n - 1);
  return static_cast<std::int32_t>(offset + large);
}

} // namespace

std::int32_t t5_bucket(std::int64_t relative_position, bool bidirectional,
                       std::int64_t num_buckets, std::int64_t max_distance) {
  check_t5(bidirectional, num_buckets, max_distance);
  detail::check_range("relative_position", relative_position, -max_relative_length,
                      max_relative_length);
  return bucket_of(relative_position, bidirectional, num_buckets, max_distance);
}

std::vector<std::int32_t> t5_buckets(std::int64_t queries, std::int64_t keys, bool bidirectional,
                                     std::int64_t num_buckets, std::int64_t max_distance) {
  check_lengths(queries, keys);
  check_t5(bidirectional, num_buckets, max_distance);
  std::vector<std::int32_t> out(matrix_size(1, queries, keys));
  std::int32_t* p = out.data();
  for (std::int64_t i = 0; i < queries; ++i)
    for (std::int64_t j = 0; j < keys; ++j) *p++ = bucket_of(j - i, bidirectional, num_buckets, max_distance);
  return out;
}

std::vector<std::int32_t> clipped_distances(std::int64_t queries, std::int64_t keys,
                                            std::int64_t max_distance) {
  check_lengths(queries, keys);
  detail::check_range("max_distance", max_distance, 0, max_relative_length);
  std::vector<std::int32_t> out(matrix_size(1, queries, keys));
  std::int32_t* p = out.data();
  for (std::int64_t i = 0; i < queries; ++i)
    for (std::int64_t j = 0; j < keys; ++j)
      *p++ = static_cast<std::int32_t>(std::clamp(j - i, -max_distance, max_distance));
  return out;
}

learned_table::learned_table(std::int64_t positions, std::int64_t dim, std::uint64_t seed)
    : positions_(positions), dim_(dim) {
  detail::check_range("positions", positions, 1, max_relative_length);
  detail::check_range("dim", dim, 1, max_learned_dim);
  if (positions * dim > max_learned_elements)
    detail::fail_length("positions * dim = ", positions * dim, " exceeds the maximum ",
                        max_learned_elements);
  values_.resize(static_cast<std::size_t>(positions * dim));
  fill_uniform(values_, seed, -1.0f, 1.0f);
}

std::span<const float> learned_table::row(std::int64_t position) const {
  if (position < 0 || position >= positions_)
    detail::fail_argument("position must be an integer in [0, ", positions_ - 1,
                          "] (a learned table has no vector past its ", positions_,
                          " trained positions), got ", position);
  return std::span<const float>(values_).subspan(static_cast<std::size_t>(position * dim_),
                                                 static_cast<std::size_t>(dim_));
}

} // namespace posenc
