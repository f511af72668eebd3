// posenc/frequencies.hpp — the frequency ladder θ_i and its context-extension variants.
//
// DESIGN §2:  θ_i = b^(−2i/d), i = 0 … d/2−1, computed in double as exp(−(2i/d)·ln b);
//             λ_i = 2π/θ_i (wavelength, in positions).
// Scaling variants follow HF transformers' `modeling_rope_utils.py` (`_compute_*_parameters`)
// exactly, with HF's config keys in snake_case. With partial rotary, `dim` is the rotary
// dimension (HF: head_dim · partial_rotary_factor), not the head dimension.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace posenc {

// Largest dim (sinusoidal dim or rotary dim) any posenc function accepts.
inline constexpr int max_dim = 65536;

enum class scaling_type { none, linear, dynamic, yarn, llama3, longrope };

// Parses HF's `rope_type` names: "default" (→ none), "linear", "dynamic", "yarn", "llama3",
// "longrope". Throws posenc::invalid_argument naming `scaling.type` for anything else.
scaling_type parse_scaling_type(std::string_view name);
std::string_view to_string(scaling_type type) noexcept;

// HF's rope_scaling dictionary (plus the two values HF reads from the model config or the
// input). Unset optionals take HF's defaults; fields a type does not read are ignored.
struct scaling {
  scaling_type type = scaling_type::none;
  double factor = 1.0;                                  // linear, dynamic, yarn, llama3, longrope
  std::optional<int> original_max_position_embeddings;  // yarn, llama3, longrope
  std::optional<int> max_position_embeddings;           // dynamic, longrope, yarn fallback
  std::optional<int> seq_len;                           // dynamic, longrope: current length
  std::optional<double> attention_factor;               // yarn, longrope
  double beta_fast = 32.0;                              // yarn
  double beta_slow = 1.0;                               // yarn
  std::optional<double> mscale;                         // yarn
  std::optional<double> mscale_all_dim;                 // yarn
  bool truncate = true;                                 // yarn
  double low_freq_factor = 1.0;                         // llama3
  double high_freq_factor = 4.0;                        // llama3
  std::vector<double> short_factor;                     // longrope, dim/2 values
  std::vector<double> long_factor;                      // longrope, dim/2 values
};

// The ladder and HF's `attention_scaling` (the factor the cos/sin cache is multiplied by).
struct frequencies {
  std::vector<double> inv_freq;   // θ_i, i = 0 … dim/2−1
  double attention_factor = 1.0;
};

// θ_i for an even `dim` in [2, max_dim] and a finite `base` > 1, scaled as `s` says.
// Max error vs float64 truth: 2 ulp (one exp, one log). Throws posenc::invalid_argument
// naming the argument (dim, base, scaling.<field>) when out of range.
frequencies inverse_frequencies(int dim, double base = 10000.0, const scaling& s = {});

// λ_i = 2π/θ_i for the same arguments. Max error: 3 ulp.
std::vector<double> wavelengths(int dim, double base = 10000.0, const scaling& s = {});

} // namespace posenc
