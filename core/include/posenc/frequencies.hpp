// posenc/frequencies.hpp — the frequency ladder θ_i and its context-extension variants.
//
//  θ_i = b^(−2i/d), i = 0 … d/2−1, computed in double (within 1 ulp: the exponent
//             is carried in double-double, see ladder_term in frequencies.cpp);
//             λ_i = 2π/θ_i (wavelength, in positions).
// Scaling variants follow HF transformers' `modeling_rope_utils.py` (`_compute_*_parameters`,
// the `rope_parameters` version of transformers v5) exactly, with HF's config keys in
// snake_case, but evaluated in double where HF evaluates in float32. With partial rotary,
// `dim` is the rotary dimension (HF: head_dim · partial_rotary_factor), not the head dimension.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace posenc {

// Largest dim (sinusoidal dim or rotary dim) any posenc function accepts.
inline constexpr int max_dim = 65536;

// Bounds on what scaling may produce (checked after the variant is applied): θ_i ≤ 2^20 keeps
// p·θ finite and meaningful for every accepted position; the attention factor multiplies
// float32 values (and its inverse undoes it), so it must stay in [1e−4, 1e4]: both it and
// 1/it are modest finite floats.
inline constexpr double max_inv_freq = 1048576.0;
inline constexpr double min_attention_factor = 1e-4;
inline constexpr double max_attention_factor = 1e4;

enum class scaling_type { none, linear, dynamic, yarn, llama3, longrope, proportional };

// Parses HF's `rope_type` names: "default" (→ none), "linear", "dynamic", "yarn", "llama3",
// "longrope", "proportional". Throws posenc::invalid_argument naming `scaling.type` for anything else.
scaling_type parse_scaling_type(std::string_view name);
// The HF name of `type` ("default" for none).
std::string_view to_string(scaling_type type) noexcept;

// HF's rope_scaling dictionary (plus the two values HF reads from the model config or the
// input). An unset optional is an absent key: HF's default or fallback applies. Fields a
// type does not read are ignored (and not validated). Error messages name the fields as
// `scaling.<field>` with the snake_case names below.
struct scaling {
  scaling_type type = scaling_type::none;
  // linear, llama3, dynamic (without alpha): required, finite ≥ 1. yarn, longrope: optional
  // (finite ≥ 1); unset → max_position_embeddings / original_max_position_embeddings, as HF
  // does. proportional: optional (finite ≥ 1), unset → 1.
  std::optional<double> factor;
  // yarn, llama3, longrope: the pre-extension context length, in [1, 2^31). Unset → falls
  // back to max_position_embeddings (HF `standardize_rope_params`).
  std::optional<int> original_max_position_embeddings;
  // The model's context length, in [1, 2^31): dynamic (required), and the fallbacks above.
  std::optional<int> max_position_embeddings;
  // dynamic, longrope: the current sequence length, in [1, 2^31). dynamic uses
  // max(seq_len, max_position_embeddings); longrope picks long_factor iff seq_len > original.
  std::optional<int> seq_len;
  std::optional<double> attention_factor;  // yarn, longrope: finite > 0
  double beta_fast = 32.0;                 // yarn: finite ≥ 0, 0 → 32 (HF `or`)
  double beta_slow = 1.0;                  // yarn: finite ≥ 0, 0 → 1; ≤ beta_fast
  std::optional<double> mscale;            // yarn: finite ≥ 0
  std::optional<double> mscale_all_dim;    // yarn: finite ≥ 0
  bool truncate = true;                    // yarn: floor/ceil the ramp ends
  // llama3 (HF requires both; the defaults are Llama 3.1's): low_freq_factor finite > 0,
  // high_freq_factor finite > low_freq_factor.
  double low_freq_factor = 1.0;
  double high_freq_factor = 4.0;
  std::vector<double> short_factor;        // longrope: dim/2 finite values > 0
  std::vector<double> long_factor;         // longrope: dim/2 finite values > 0
  // proportional (Gemma 4): the share p of the dim that rotates, in (0, 1]; unset → 1.
  std::optional<double> partial_rotary_factor;
  // dynamic NTK-α (Hunyuan): finite > 0; when set (and non-zero, HF's truthiness) it replaces
  // the factor rule and needs neither factor nor max_position_embeddings.
  std::optional<double> alpha;
};

// The ladder and HF's `attention_scaling` (the factor the cos/sin cache is multiplied by).
struct frequencies {
  std::vector<double> inv_freq;   // θ_i, i = 0 … dim/2−1
  double attention_factor = 1.0;
};

// θ_i for an even `dim` in [2, max_dim] (dynamic: [4, max_dim], HF divides by dim − 2) and a
// finite `base` > 1, scaled as `s` says:
//   none      θ_i = b^(−2i/d)                                  (_compute_default_rope_parameters)
//   linear    θ_i / factor                          (_compute_linear_scaling_rope_parameters)
//   dynamic   ladder of b·(factor·L/M − (factor−1))^(d/(d−2)),   L = max(seq_len, M)
//                                                            (_compute_dynamic_ntk_parameters)
//             or, with alpha, of b·α^(d/(d−2))        (HunYuanDenseV1RotaryEmbedding, NTK-α)
//   proportional  θ_i = b^(−2i/d)/factor for i < ⌊p·d/2⌋, θ_i = 0 after: the whole width d
//             is the rotary width, the zero-frequency pairs (cos 1, sin 0) pass unchanged
//                                                     (_compute_proportional_rope_parameters)
//   yarn      ramp between θ_i/factor and θ_i; attention factor 0.1·ln(factor)+1 or the
//             mscale ratio                                          (_compute_yarn_parameters)
//   llama3    θ_i/factor for long wavelengths, θ_i for short, smooth blend in between
//                                                                 (_compute_llama3_parameters)
//   longrope  θ_i / ext_i (short or long factors); attention factor
//             √(1 + ln(factor)/ln(original))                    (_compute_longrope_parameters)
// Max error vs float64 truth of the same formula: 1 ulp for none (measured 0.97 ulp against
// long double), 2 ulp for linear/longrope (one more division), a few ulp (< 1e−15 relative)
// for dynamic/yarn/llama3; the golden cases of tests/vectors/ladder.json, written by an
// independent float64 reference, agree to 3e−16 relative. Throws
// posenc::invalid_argument naming the argument (dim, base, scaling.<field>) when out of range,
// and when the parameters together give a θ_i outside (0, max_inv_freq] (proportional: its
// zero-frequency tail excepted) or an attention
// factor outside [min_attention_factor, max_attention_factor].
frequencies inverse_frequencies(int dim, double base = 10000.0, const scaling& s = {});

// λ_i = 2π/θ_i for the same arguments and ranges (+infinity for a zero frequency). Max error:
// one more ulp than θ_i.
std::vector<double> wavelengths(int dim, double base = 10000.0, const scaling& s = {});

} // namespace posenc
