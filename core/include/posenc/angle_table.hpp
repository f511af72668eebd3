// posenc/angle_table.hpp — the angle table p·θ_i behind both the sinusoidal table and RoPE
// (Hugging Face's `freqs = outer(positions, inv_freq)`), before any sine or cosine is taken.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace posenc {

// out[r·(dim/2) + i] = positions[r]·θ_i in double, θ_i = base^(−2i/dim) (inverse_frequencies),
// not reduced mod 2π. Ranges: dim even in [2, max_dim], base finite > 1 (posenc::invalid_argument
// naming them otherwise); any int32 position. Max error vs the exact product of p and the
// double θ_i: 0.5 ulp(double).
std::vector<double> position_angles(int dim, double base, std::span<const std::int32_t> positions);

} // namespace posenc
