// core/src/detail/axis_rows.hpp — the cos/sin row of a token with several positions
// (posenc/multimodal.hpp): rung i of the row is rung i of the plain row of position
// p_{axis(i)}, so the rotation kernels of rotary_kernels.hpp apply it unchanged.
#pragma once

#include "posenc/frequencies.hpp"
#include "posenc/multimodal.hpp"
#include "row_storage.hpp"
#include "rung_select.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace posenc {
class rotary_cache;
}

namespace posenc::detail {

// θ'_i and axis(i) for i < rotary_dim/2 (the conventions of multimodal.hpp), and the
// attention factor. For kind none: the plain ladder, no axes. Throws invalid_argument
// naming mrope.section, rotary_dim or scaling (core/src/multimodal.cpp).
struct axis_ladder {
  std::vector<double> inv_freq;
  std::vector<std::uint8_t> pair_axis;  // empty for kind none
  double attention_factor = 1.0;
  bool shared = false;                  // bands on one shared ladder (multimodal.hpp)
};
axis_ladder make_axis_ladder(const rope_axes& axes, int rotary_dim, double base,
                             const scaling& s);

// A bands description against its rotary dim (multimodal.hpp): 1 to max_axes bands, each
// even ≥ 2 with a finite scale > 0, summing to rotary_dim; else invalid_argument naming
// axes[i].dims, axes[i].scale or axes. rotary_cache runs it before its own rotary_dim
// checks, so a description's error names the description.
void check_bands(const rope_axes& axes, int rotary_dim);

// Per-call scratch that forms the merged row of a token. The merged row persists from
// token to token, and a load rewrites only the rungs of the axes whose position changed
// (the column of the next patch of an image row, the next patch of a video frame), from
// that position's plain row: the cache's, or computed as rotary_cache::row computes it.
// The rewrite is a bitwise select by the axis's rung mask (built once per call) over the
// span of rungs the axis has, so it vectorises and never branches per rung. Rows up to
// kInlineHalf rungs live in the object, on 64-byte lines (row_storage.hpp).
class axis_rows {
public:
  explicit axis_rows(const rotary_cache& cache);
  axis_rows(const axis_rows&) = delete;  // pointers into the buffers
  axis_rows& operator=(const axis_rows&) = delete;

  // The row of a token at positions p[0 … axes) (integers, or real numbers where a model
  // uses them): pointers valid until the next load. Tokens whose positions are all equal get
  // that position's plain row itself; an integral position takes the integer path (the
  // cache's row, bit-identical to an int64 position), any other its row computed directly.
  void load(const rotary_cache& cache, const double* p);
  const float* cos() const noexcept { return cos_; }
  const float* sin() const noexcept { return sin_; }

private:
  static constexpr std::size_t kInlineHalf = 128;
  static constexpr auto kAxes = static_cast<std::size_t>(max_axes);

  // Rungs of axis a taken from the row (cos, sin).
  void merge(std::size_t a, const float* cos, const float* sin) noexcept;

  std::size_t half_;
  int axes_;
  std::size_t stride_;  // floats from one row to the next in rows_
  bool merged_valid_ = false;  // every axis of merged_position_ is in the merged row
  std::array<double, kAxes> merged_position_{};
  std::array<std::size_t, kAxes> first_{}, end_{};  // axis a's rungs lie in [first, end)
  row_storage<float, 4 * (kInlineHalf + 16)> rows_;  // computed row cos, sin; merged row cos, sin
  // mask_[a·half + i]: all ones when rung i takes axis a, else 0.
  row_storage<std::uint32_t, kAxes * kInlineHalf> mask_;
  // select_rungs at the best arch this CPU runs (detail/dispatch.hpp).
  rung_select_fn select_;
  const float* cos_ = nullptr;
  const float* sin_ = nullptr;
};

}  // namespace posenc::detail
