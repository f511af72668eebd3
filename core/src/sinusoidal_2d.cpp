// sinusoidal_2d.cpp — the 2-D sinusoidal table (posenc/sinusoidal_2d.hpp): one concat row per
// column and per row from the 1-D machinery, then each token's two halves copied into place.
#include "posenc/sinusoidal_2d.hpp"

#include "detail/table_kernels.hpp"
#include "posenc/detail/check.hpp"
#include "posenc/frequencies.hpp"
#include "posenc/sinusoidal.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace posenc {
namespace {

constexpr int kMaxSide = 1 << 16;

void check_positive(const char* name, double v) {
  if (!std::isfinite(v) || !(v > 0)) detail::fail_argument(name, " must be finite and > 0, got ", v);
}

void check(const sinusoidal_2d_options& o) {
  if (o.dim < 4 || o.dim > max_dim || o.dim % 4 != 0)
    detail::fail_argument("dim must be a multiple of 4 in [4, ", max_dim,
                          "] (half the dims per axis, each a sin | cos pair of halves), got ", o.dim);
  detail::check_range("height", o.height, 1, kMaxSide);
  detail::check_range("width", o.width, 1, kMaxSide);
  check_positive("base_size", o.base_size);
  check_positive("interpolation_scale", o.interpolation_scale);
  detail::check_range("extra_tokens", o.extra_tokens, 0, kMaxSide);
  if (o.max_size != 0) {
    detail::check_range("max_size", o.max_size, 1, kMaxSide);
    if (o.height > o.max_size || o.width > o.max_size)
      detail::fail_argument("max_size (", o.max_size, ") must be >= height and width, got ",
                            o.height, " x ", o.width);
  }
}

// Rows PE_{d/2}(((offset + k) / (n / base_size)) / scale), k < count, each d/2 floats.
std::vector<float> axis_rows(const std::vector<double>& inv, int offset, int count, int n,
                             const sinusoidal_2d_options& o) {
  const std::size_t quarter = inv.size();
  std::vector<float> rows(static_cast<std::size_t>(count) * 2 * quarter);
  for (int k = 0; k < count; ++k) {
    const double p = (offset + k) / (n / o.base_size) / o.interpolation_scale;
    detail::pe_row_scalar(p, inv.data(), quarter, pe_layout::concat,
                          rows.data() + static_cast<std::size_t>(k) * 2 * quarter);
  }
  return rows;
}

}  // namespace

std::size_t sinusoidal_2d_rows(const sinusoidal_2d_options& o) {
  check(o);
  return static_cast<std::size_t>(o.extra_tokens) +
         detail::checked_mul("height * width", static_cast<std::size_t>(o.height),
                             static_cast<std::size_t>(o.width));
}

void sinusoidal_2d(float* out, std::size_t out_size, const sinusoidal_2d_options& o) {
  const std::size_t rows = sinusoidal_2d_rows(o);
  const auto dim = static_cast<std::size_t>(o.dim);
  detail::check_buffer("out", out_size, detail::checked_mul("rows * dim", rows, dim));
  if (rows > 0 && out == nullptr) detail::fail_argument("out must not be null");
  const std::vector<double> inv = inverse_frequencies(o.dim / 2, 10000.0).inv_freq;
  const int side_h = o.max_size != 0 ? o.max_size : o.height;
  const int side_w = o.max_size != 0 ? o.max_size : o.width;
  const int top = (side_h - o.height) / 2, left = (side_w - o.width) / 2;
  const std::vector<float> y = axis_rows(inv, top, o.height, side_h, o);
  const std::vector<float> x = axis_rows(inv, left, o.width, side_w, o);
  const std::size_t half = dim / 2;
  std::fill(out, out + static_cast<std::size_t>(o.extra_tokens) * dim, 0.0f);
  float* row = out + static_cast<std::size_t>(o.extra_tokens) * dim;
  for (int i = 0; i < o.height; ++i)
    for (int j = 0; j < o.width; ++j, row += dim) {
      std::copy_n(x.data() + static_cast<std::size_t>(j) * half, half, row);
      std::copy_n(y.data() + static_cast<std::size_t>(i) * half, half, row + half);
    }
}

}  // namespace posenc
