// core/src/detail/rung_select.hpp — the merge step of a multi-position token's cos/sin row
// (detail/axis_rows.hpp): the rungs one axis owns, copied from that axis's plain row.
#pragma once

#include "bit_as.hpp"

#include <cstddef>
#include <cstdint>

namespace posenc::detail {

// out[i] = row[i] where mask[i] is all ones, else out[i] unchanged, for i in [first, end):
// a bitwise select, so every value is copied bit for bit. A plain loop on purpose: each
// arch's translation unit (detail/dispatch.hpp) vectorises it at that arch's width.
template <class Arch>
void select_rungs(const float* __restrict row, const std::uint32_t* __restrict mask,
                  std::size_t first, std::size_t end, float* __restrict out) noexcept {
  for (std::size_t i = first; i < end; ++i)
    out[i] = bit_as<float>((bit_as<std::uint32_t>(row[i]) & mask[i]) |
                           (bit_as<std::uint32_t>(out[i]) & ~mask[i]));
}

using rung_select_fn = void (*)(const float*, const std::uint32_t*, std::size_t, std::size_t,
                                float*) noexcept;

}  // namespace posenc::detail
