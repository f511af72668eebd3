// posenc/scores.hpp — attention logits under the three position schemes, and the maths
// that explains them.
//
// S[m][n] = ⟨q'_m, k'_n⟩ for query rows q_m at position q_positions[m] and key rows k_n at
// k_positions[n], where the primed vectors are
//   none:     q'_m = q_m,                    k'_n = k_n
//   additive: q'_m = q_m + PE(qpos_m),       k'_n = k_n + PE(kpos_n)   (Vaswani et al.)
//   rotary:   q'_m = RoPE(q_m, qpos_m),      k'_n = RoPE(k_n, kpos_n)  (RoFormer; rotary.hpp)
// optionally times 1/√dim. RoPE includes the scaling's attention factor f (yarn, longrope),
// as HF transformers multiplies cos/sin by it, so rotary scores carry f². Rotary scores depend on n − m only; additive ones do not, because
//   (q + p_m)·(k + p_n) = q·k + q·p_n + p_m·k + p_m·p_n
// and only the last term is a function of n − m (the cross terms carry absolute position).
#pragma once

#include "posenc/frequencies.hpp"
#include "posenc/rotary.hpp"
#include "posenc/sinusoidal.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace posenc {

enum class score_mode { none, additive, rotary };

// "none" | "additive" | "rotary"; anything else throws posenc::invalid_argument naming `mode`.
score_mode parse_score_mode(std::string_view name);
std::string_view to_string(score_mode mode) noexcept;

struct score_options {
  int dim = 0;                       // head dim of q and k rows, in [1, max_dim] (even unless mode none)
  score_mode mode = score_mode::rotary;
  rope_layout layout = rope_layout::half;                // rotary pairs
  posenc::pe_layout pe_layout = posenc::pe_layout::interleaved;  // additive table
  double base = 10000;               // finite, > 1
  int rotary_dim = 0;                // rotary: even, in [2, dim]; 0 means dim
  posenc::scaling scaling = {};      // rotary: context-extension scaling of the ladder
  bool scale = false;                // multiply every score (and term) by 1/√dim
  angle_precision angles = angle_precision::exact;  // rotary: float32 = the common (drifting) way
};

// The four [tq][tk] matrices of the additive decomposition, each scaled like
// the scores: content = q·k, query_position = q·p_n, position_key = p_m·k,
// position_position = p_m·p_n. Their sum is the additive score to float rounding.
struct score_terms {
  std::vector<float> content, query_position, position_key, position_position;
};

// Largest tq·tk (and tq·dim, tk·dim) attention_scores accepts: 2²⁸ elements (1 GiB float32).
inline constexpr std::size_t max_score_elements = std::size_t{1} << 28;

// out[m·tk + n] = S[m][n] as above, for q [tq][dim] and k [tk][dim] dense float32 rows.
// Ranges: q.size() == tq·dim, k.size() == tk·dim, q_positions.size() == tq,
// k_positions.size() == tk (any int32), out.size() ≥ tq·tk; sizes ≤ max_score_elements.
// In additive mode, `terms` (if not null) is resized and filled; other modes leave it alone.
// Dot products run in float32 xsimd batches (core/src/detail/dot_kernels.hpp). Max error
// vs float64 of the same q', k': (dim/(2W) + log2(2W) + W + 1)·2⁻²⁴·Σ_j |q'_j·k'_j| with W
// the float lanes (≤ 1.3e−6·Σ|q'_j k'_j| at dim 128, W = 4); q' and k' themselves carry
// one float rounding each (additive: 2⁻²⁴·|x| + 6e−8; rotary: rotary.hpp's 4e−7 bound).
// Throws posenc::invalid_argument / length_error naming the argument (q, k, q_positions,
// k_positions, out, options.dim, options.base, options.rotary_dim, …) before writing.
void attention_scores(std::span<const float> q, std::size_t tq, std::span<const float> k,
                      std::size_t tk, std::span<const std::int32_t> q_positions,
                      std::span<const std::int32_t> k_positions, const score_options& options,
                      std::span<float> out, score_terms* terms = nullptr);

struct kernel_value {
  double score;  // qᵀR(δθ)k = dot + area
  double dot;    // Σ_i (q1·k1 + q2·k2)·cos δθ_i
  double area;   // Σ_i (q2·k1 − q1·k2)·sin δθ_i  (signed area of each pair, rotated)
};

// The relative kernel of RoPE for one vector pair, in double:
//   ⟨R(mθ)q, R(nθ)k⟩ = qᵀR(δθ)k = Σ_i (q1k1 + q2k2)·cos δθ_i + (q2k1 − q1k2)·sin δθ_i,
// δ = n − m, pairs (q1, q2) = (q[i], q[i + dim/2]) for half or (q[2i], q[2i+1]) interleaved.
// Ranges: dim even in [2, max_dim], q.size() == k.size() == dim, |delta| ≤ max_position
// (rotary.hpp). Computed in double: max error vs float64 truth (the exact product δ·θ_i)
// dim·2⁻⁵²·Σ|q_j·k_j| + |δ|·2⁻⁵³·Σ_i |pair terms|.
// hand check: θ = 0.1 pair, q = (1, 0), k = (0, 1), δ = 3 → −sin 0.3 = −0.295520.
kernel_value relative_kernel(std::span<const float> q, std::span<const float> k, int dim,
                             double base, std::int64_t delta,
                             rope_layout layout = rope_layout::half);

// max over m, n of |S(qpos_m + s, kpos_n + s) − S(qpos_m, kpos_n)|: both position lists
// moved by `shift`, the same scores compared. ~0 (float noise) for none and rotary, large
// for additive. Same ranges as attention_scores; every shifted position must fit int32
// (else invalid_argument naming `shift`). Cost: two attention_scores calls.
double shift_invariance(std::span<const float> q, std::size_t tq, std::span<const float> k,
                        std::size_t tk, std::span<const std::int32_t> q_positions,
                        std::span<const std::int32_t> k_positions, const score_options& options,
                        std::int64_t shift);

// RoFormer §3.4.3 long-term-decay bound:
//   out[δ] = (1/(d/2))·Σ_{j=1}^{d/2} |S_j|,  S_j = Σ_{l=0}^{j−1} e^{i·δ·θ_l},  δ = 0 … max_distance.
// out[0] = (1/(d/2))·Σ j = (d/2 + 1)/2; the curve falls (not monotonically) as δ grows.
// Ranges: dim even in [2, max_dim], base finite > 1, max_distance in [0, 2²⁴] with
// (max_distance + 1)·dim/2 ≤ 2³⁰. Computed in double: max error vs float64 truth
// dim·2⁻⁵¹·out[δ] + |δ|·2⁻⁵³·dim/2 (each angle's product rounding).
std::vector<double> decay_bound(int dim, double base, std::int64_t max_distance);

} // namespace posenc
