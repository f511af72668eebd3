// posenc/embedding.hpp — the input layer of a sinusoidal transformer: token embeddings with
// the position table added, x_r ← scale·e_r + PE(p_r) (Vaswani et al. 2017, §3.4, multiply the
// embeddings by √d_model before adding; a PyTorch PositionalEncoding module's forward).
#pragma once

#include "posenc/sinusoidal.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace posenc {

// out[r·dim + j] = scale·e[r·dim + j] + PE(positions[r])[j], float32, r < positions.size().
// Ranges: e.size() = positions.size()·dim (else posenc::length_error naming `e`), scale finite;
// dim, base and positions as sinusoidal_table. Each value is formed in double and rounded
// once: max error vs float64 truth 0.5 ulp(float) of the result + the table's error
// (0.5 ulp(float) + |p|·2⁻⁵³).
std::vector<float> add_sinusoidal(std::span<const float> e, int dim, double base,
                                  std::span<const std::int32_t> positions, double scale = 1.0,
                                  pe_layout layout = pe_layout::interleaved);

} // namespace posenc
