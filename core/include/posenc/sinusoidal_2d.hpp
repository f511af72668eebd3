// posenc/sinusoidal_2d.hpp — the 2-D sinusoidal table of DiT, MAE, SD3 and PixArt
// (diffusers embeddings.py `get_2d_sincos_pos_embed`, `get_2d_sincos_pos_embed_from_grid`,
// `get_1d_sincos_pos_embed_from_grid`; `PatchEmbed` for pos_embed_max_size cropping).
//
// For a grid of height × width patches and dim d (a multiple of 4), token k = i·width + j
// (row i, column j) gets
//     [ PE_{d/2}(x_j) | PE_{d/2}(y_i) ]      (diffusers: "emb_h" of grid[0], which is the
//                                              column coordinate, comes first)
// where PE_{d/2}(p) is the concat-layout sinusoidal row of dim d/2 (sinusoidal.hpp):
// [sin(p·ω_0 … p·ω_{d/4−1}) | cos(…)], ω_k = 10000^(−k/(d/4)), and
//     y_i = (top + i) / (rows / base_size) / interpolation_scale,
//     x_j = (left + j) / (cols / base_size) / interpolation_scale,
// rows × cols the full grid the table is built on: height × width, or max_size × max_size
// when max_size is set (SD3's pos_embed_max_size), cropped at top = (max_size − height) / 2,
// left = (max_size − width) / 2 (integer halves, as `cropped_pos_embed`). extra_tokens zero
// rows come first (cls_token with extra_tokens > 0). MAE's own grid (positions 0 … n − 1) is
// base_size = the grid side, interpolation_scale 1.
#pragma once

#include <cstddef>

namespace posenc {

struct sinusoidal_2d_options {
  int dim = 0;                       // multiple of 4, in [4, max_dim]
  int height = 0, width = 0;         // grid in patches, each in [1, 2^16]
  double base_size = 16.0;           // finite, > 0 (diffusers' default)
  double interpolation_scale = 1.0;  // finite, > 0
  int max_size = 0;                  // 0, or ≥ height and width (≤ 2^16): build max², crop
  int extra_tokens = 0;              // zero rows first, in [0, 2^16]
};

// Rows (extra_tokens + height·width), each dim floats.
std::size_t sinusoidal_2d_rows(const sinusoidal_2d_options& o);

// Writes the table into out (out_size ≥ rows·dim floats, else length_error naming out).
// Violations throw posenc::invalid_argument naming dim, height, width, base_size,
// interpolation_scale, max_size or extra_tokens; nothing is written on error.
// Max error vs the float64 evaluation of the formulas above: 0.5 ulp(float) + |p|·2⁻⁵³ + 1e−15
// per value (each angle formed and reduced in double, rounded once).
void sinusoidal_2d(float* out, std::size_t out_size, const sinusoidal_2d_options& o);

}  // namespace posenc
