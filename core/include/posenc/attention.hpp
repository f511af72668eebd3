// posenc/attention.hpp — a small multi-head self-attention with optional positions.
//
// This is the demonstration of why positions matter: attention without positions is
// permutation-equivariant (shuffling the input rows shuffles the output rows identically),
// and adding the sinusoidal table or rotating Q and K by RoPE breaks that. It is a
// reference-sized layer (T ≤ 4096 tokens), not an inference engine.
//
// For X [T][D], H heads of width h = D/H, weights W [D][D] in nn.Linear's [out][in] order
// (y = x·Wᵀ, no biases), and positions p_t (default t):
//   X'  = X + PE(p)                       (additive: sinusoidal table, D wide)
//   Q = X'·Wqᵀ,  K = X'·Wkᵀ,  V = X'·Wvᵀ
//   Q_h, K_h ← R(p·θ) Q_h, R(p·θ) K_h    (rotary: RoPE per head, head_dim h; never V)
//   A_h = softmax_rows(Q_h K_hᵀ / √h)     (causal: A_h[i][j] = 0 for j > i)
//   out = concat_h(A_h V_h) · Woᵀ         (Vaswani et al. 2017, eqs. 1 and §3.2.2)
// The softmax subtracts each row's maximum before exponentiating (no overflow for any
// finite logits) and runs in double; masked weights are exactly 0.
#pragma once

#include "posenc/rotary.hpp"
#include "posenc/scores.hpp"
#include "posenc/sinusoidal.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace posenc {

// Documented maxima of self_attention (cost is O(T·D² + H·T²·h), memory O(H·T²)).
inline constexpr int max_attention_tokens = 4096;
inline constexpr int max_attention_model_dim = 4096;
// heads·tokens² (the attention weights returned): 2²⁶ floats = 256 MiB.
inline constexpr std::int64_t max_attention_weights = std::int64_t{1} << 26;

struct attention_options {
  int tokens = 0;     // T, in [1, max_attention_tokens]
  int model_dim = 0;  // D, in [1, max_attention_model_dim], divisible by heads;
                      // even for additive positions
  int heads = 1;      // H, in [1, model_dim]; head_dim = D/H, even for rotary positions
  score_mode positions = score_mode::none;
  bool causal = false;    // mask keys after the query (j > i)
  double base = 10000.0;  // θ base of both the sinusoidal table and RoPE: finite, > 1
  rope_layout layout = rope_layout::half;  // RoPE pair layout (rotary only)
  posenc::pe_layout pe_layout = posenc::pe_layout::interleaved;  // table layout (additive)
};

// The four projections, each model_dim² floats in nn.Linear's [out][in] row-major order.
struct attention_weights {
  int model_dim = 0;
  std::vector<float> wq, wk, wv, wo;
};

// Weights drawn from random(seed) (posenc/random.hpp) as uniform floats in
// [−1/√model_dim, 1/√model_dim): wq first, then wk, wv, wo, each row-major — the same
// stream as fill_uniform over 4·model_dim² floats, so native and WASM weights are
// bit-identical for a seed. (The bound is PyTorch nn.Linear's default init scale.)
// model_dim in [1, max_attention_model_dim]; else posenc::invalid_argument naming it.
attention_weights make_attention_weights(int model_dim, std::uint64_t seed);

struct attention_result {
  std::vector<float> output;   // [T][D] row-major
  std::vector<float> weights;  // [H][T][T] row-major: softmax rows, each sums to 1
};

// Multi-head self-attention of the header comment.
// Arguments: x holds exactly tokens·model_dim floats ([T][D] row-major); w.model_dim ==
// options.model_dim and each matrix holds model_dim² floats; positions is empty (then
// p_t = t) or holds one int32 per token (any values; used by the additive and rotary modes).
// Ranges: as on attention_options; heads·tokens² ≤ max_attention_weights.
// Errors: posenc::invalid_argument / posenc::length_error naming the argument (tokens,
// model_dim, heads, base, x, w.wq …, positions) and its allowed range; nothing is computed.
// Max error vs a float64 evaluation of the same float32 inputs: every product (the
// projections, QKᵀ, A·V) is the score kernel of scores.hpp, a float32 dot of length D, h or
// T within (⌈n/8⌉ + 8)·2⁻²⁴·Σ|a_j·b_j| for 4-lane batches (detail/dot_kernels.hpp); the
// softmax runs in double; RoPE cos/sin are within 3e−7 for |p| ≤ 2²⁴. For inputs in
// [−1, 1] and make_attention_weights: ≤ 1e−6 absolute for T, D ≤ 64 (measured: 1e−7).
attention_result self_attention(std::span<const float> x, const attention_weights& w,
                                const attention_options& options,
                                std::span<const std::int32_t> positions = {});

// The permutation test: with π = permutation(tokens, seed) and
// (shuffle Y)[i] = Y[π[i]], returns max |shuffle(out(X)) − out(shuffle(X))| over all
// elements, where both runs use the default positions 0 … T−1 (positions belong to slots,
// not to tokens). ~1e−7 without positions (and without a causal mask, which is itself
// order-dependent); O(1) with additive or rotary positions. Arguments and errors as
// self_attention.
double permutation_test(std::span<const float> x, const attention_weights& w,
                        const attention_options& options, std::uint64_t seed);

} // namespace posenc
