// core/src/detail/axis_rows.hpp — the cos/sin row of a token with several positions
// (posenc/multimodal.hpp): rung i of the row is rung i of the plain row of position
// p_{axis(i)}, so the rotation kernels of rotary_kernels.hpp apply it unchanged.
#pragma once

#include "posenc/frequencies.hpp"
#include "posenc/multimodal.hpp"

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
};
axis_ladder make_axis_ladder(const rope_axes& axes, int rotary_dim, double base,
                             const scaling& s);

// Per-call scratch that forms the merged row of a token: each distinct position's plain
// row (the cache's, or computed as rotary_cache::row computes it) is kept in one of three
// slots, so consecutive tokens sharing a position on an axis (the patches of one image
// row, the frames of a video) fetch only the rows that changed. The merge is a bitwise
// select by per-rung masks built once per call (no branch per rung; it vectorises). Rows
// up to kInlineHalf rungs live in the object; larger ones take one heap block.
class axis_rows {
public:
  explicit axis_rows(const rotary_cache& cache);
  axis_rows(const axis_rows&) = delete;  // pointers into the buffers
  axis_rows& operator=(const axis_rows&) = delete;

  // The row of a token at positions p[0 … axes): pointers valid until the next load.
  // Tokens whose positions are all equal get that position's plain row itself.
  void load(const rotary_cache& cache, const std::int64_t* p);
  const float* cos() const noexcept { return cos_; }
  const float* sin() const noexcept { return sin_; }

private:
  struct slot {
    std::int64_t position = 0;
    bool filled = false;
    unsigned used = 0;  // last load that used it (the least recent is refilled)
    const float* cos = nullptr;
    const float* sin = nullptr;
  };
  static constexpr std::size_t kInlineHalf = 128;
  static constexpr std::size_t kSlots = 3;

  const slot& fetch(const rotary_cache& cache, std::int64_t p);

  std::size_t half_;
  const std::uint8_t* pair_axis_;
  int axes_;
  unsigned clock_ = 0;
  std::array<slot, kSlots> slots_{};
  std::array<float, 2 * (kSlots + 1) * kInlineHalf> inline_;  // uninitialised until written
  std::vector<float> heap_;
  float* data_ = nullptr;  // [slot 0 cos | sin | slot 1 … | slot 2 … | merged cos | sin]
  // mask_[a·half + i]: all ones when rung i takes axis a, else 0.
  std::array<std::uint32_t, kSlots * kInlineHalf> inline_mask_;
  std::vector<std::uint32_t> heap_mask_;
  std::uint32_t* mask_ = nullptr;
  const float* cos_ = nullptr;
  const float* sin_ = nullptr;
};

}  // namespace posenc::detail
