// posenc/relative.hpp — the position families that act on attention scores (relative biases)
// or that store one trained vector per position, beside the sinusoidal table and RoPE:
//
//   ALiBi (Press, Smith & Lewis 2022): score(i, j) += −m_h·|i − j|, one fixed slope m_h per head.
//   T5 (Raffel et al. 2020): score(i, j) += b_h[bucket(j − i)], a learned scalar per bucket;
//      the bucket is exact for short distances and logarithmic up to max_distance.
//   Shaw et al. 2018: learned vectors a_{clip(j − i, k)} added to the keys and values.
//   Learned absolute (BERT, GPT-2): x_p += P[p] for p < L; there is no P[p] for p ≥ L.
//
// Query i and key j are the row and column of the score matrix. The functions here return
// the position part only (slopes, biases, bucket or distance indices); the learned scalars
// and vectors indexed by them belong to a trained model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace posenc {

// Largest head count alibi_slopes / alibi_bias accept.
inline constexpr std::int64_t max_alibi_heads = std::int64_t{1} << 16;
// Largest query or key count of the matrices below (distances stay exact in float32).
inline constexpr std::int64_t max_relative_length = std::int64_t{1} << 24;
// Largest element count of one returned matrix (heads·queries·keys): 2²⁸ (1 GiB float32).
inline constexpr std::size_t max_relative_elements = std::size_t{1} << 28;

// ALiBi slopes m_0 … m_{heads−1}, the paper's rule as BLOOM (`build_alibi_tensor`) and the
// ALiBi reference code compute it: with c = 2^⌊log2 heads⌋, m_h = 2^(−8(h+1)/c) for h < c, and
// the remaining heads take every other slope of the 2c-head ladder,
// m_{c+r} = 2^(−8(2r+1)/(2c)) for r < heads − c. (MPT's gen_slopes with alibi_bias_max 8
// gives the same list.) Range: heads in [1, max_alibi_heads]; invalid_argument naming
// `heads` otherwise. Values: exp2 of an exact argument, ≤ 1 ulp (double) from 2^x.
std::vector<double> alibi_slopes(std::int64_t heads);

// The ALiBi bias [heads][queries][keys]: −m_h·|P_i − j| rounded once to float (≤ 0.5 ulp
// of the exact value), with query i at key position P_i = keys − queries + i (the last
// queries, as when decoding against a cache; P_i = i when queries = keys). causal: entries
// with j > P_i are −infinity (the mask). Ranges: heads in [1, max_alibi_heads], keys in
// [1, max_relative_length], queries in [1, keys]; heads·queries·keys ≤ max_relative_elements
// (length_error otherwise). invalid_argument names the argument.
std::vector<float> alibi_bias(std::int64_t heads, std::int64_t queries, std::int64_t keys,
                              bool causal);

// T5's bucket of one relative position r = key − query: HF transformers
// `T5Attention._relative_position_bucket` (from Mesh TensorFlow) step for step, including its
// float32 arithmetic for the logarithmic part:
//   bidirectional: n = num_buckets / 2 (floor), offset n if r > 0, r ← |r|;
//   causal:        n = num_buckets, offset 0, r ← max(−r, 0) (keys after the query share bucket 0);
//   e = n / 2;  r < e → offset + r;
//   else offset + min(n − 1, e + trunc(f32(log(f32(r) / e)) / f32(log(max_distance / e)) · (n − e))).
// Ranges: num_buckets in [2, 65536] (≥ 4 when bidirectional, so e ≥ 1), max_distance an
// integer in (e, 2²⁴]; invalid_argument naming `num_buckets` / `max_distance` otherwise.
// |r| ≤ 2²⁴. Exact (an integer); the float32 steps are HF's, so ties fall as they do there.
std::int32_t t5_bucket(std::int64_t relative_position, bool bidirectional,
                       std::int64_t num_buckets, std::int64_t max_distance);

// [queries][keys] of t5_bucket(j − i) with query i at position i and key j at j (HF
// `T5Attention.compute_bias`). queries, keys in [1, max_relative_length],
// queries·keys ≤ max_relative_elements; other ranges as t5_bucket.
std::vector<std::int32_t> t5_buckets(std::int64_t queries, std::int64_t keys, bool bidirectional,
                                     std::int64_t num_buckets, std::int64_t max_distance);

// Shaw et al. 2018, eq. (3)–(4): [queries][keys] of clip(j − i, −max_distance, max_distance),
// query i at position i. The learned vectors w_{−k} … w_k are indexed by this + max_distance.
// Ranges: queries, keys in [1, max_relative_length], queries·keys ≤ max_relative_elements,
// max_distance in [0, max_relative_length]; invalid_argument naming the argument.
std::vector<std::int32_t> clipped_distances(std::int64_t queries, std::int64_t keys,
                                            std::int64_t max_distance);

// A stand-in for a trained absolute table P [positions][dim] (nn.Embedding(L, d)): values
// uniform in [−1, 1) from posenc::random(seed) (fill_uniform), row after row, so the same
// seed gives the same rows whatever L is. It has positions·dim parameters and no row past
// positions − 1: that refusal is the family's extrapolation failure.
class learned_table {
public:
  // positions in [1, max_relative_length], dim in [1, 65536], positions·dim ≤ 2²⁶;
  // invalid_argument / length_error naming the argument otherwise.
  learned_table(std::int64_t positions, std::int64_t dim, std::uint64_t seed);

  std::int64_t positions() const noexcept { return positions_; }
  std::int64_t dim() const noexcept { return dim_; }
  // positions·dim, the trainable parameters of the table.
  std::int64_t parameters() const noexcept { return positions_ * dim_; }
  // All rows, row-major.
  std::span<const float> data() const noexcept { return values_; }
  // Row P[position]; invalid_argument naming `position` unless 0 ≤ position < positions().
  std::span<const float> row(std::int64_t position) const;

private:
  std::int64_t positions_;
  std::int64_t dim_;
  std::vector<float> values_;
};

// Largest positions·dim of a learned_table.
inline constexpr std::int64_t max_learned_elements = std::int64_t{1} << 26;

} // namespace posenc
