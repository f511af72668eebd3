// tensor.cpp — validation of strided [tokens][heads][dim] views (posenc/tensor.hpp).
#include "posenc/tensor.hpp"

#include "posenc/detail/check.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

namespace posenc {
namespace {

constexpr std::int64_t kMaxIndex = std::numeric_limits<std::int64_t>::max();

void check_non_negative(const char* name, const char* field, std::int64_t value) {
  if (value < 0)
    detail::fail_argument(name, ".", field, " must be >= 0, got ", value);
}

// (count − 1)·stride without overflow of int64, else length_error.
std::int64_t span_of(const char* name, const char* field, std::int64_t count,
                     std::int64_t stride) {
  if (count <= 1 || stride == 0) return 0;
  if (count - 1 > kMaxIndex / stride)
    detail::fail_length(name, ": (", field, " - 1) x stride overflows (", count, " x ",
                        stride, ")");
  return (count - 1) * stride;
}

// Rows [t·ts + h·hs, +dim) are pairwise disjoint when the two axes nest: with the axes
// sorted by stride (a ≤ b), one row fits in a step of a, and the whole inner axis fits in
// a step of b. This covers dense [tokens][heads][dim], [heads][tokens][dim] and padded
// layouts; stranger interleavings are refused rather than analysed.
void check_no_overlap(const char* name, const const_tensor_view& v) {
  std::pair<std::int64_t, std::int64_t> inner{v.token_stride, v.tokens};
  std::pair<std::int64_t, std::int64_t> outer{v.head_stride, v.heads};
  if (inner.second <= 1 || (outer.second > 1 && outer.first < inner.first))
    std::swap(inner, outer);
  const bool inner_ok = inner.second <= 1 || inner.first >= v.dim;
  const std::int64_t inner_extent = span_of(name, "rows", inner.second, inner.first) + v.dim;
  const bool outer_ok = outer.second <= 1 || outer.first >= inner_extent;
  if (!inner_ok || !outer_ok)
    detail::fail_length(name, ": rows overlap (token_stride ", v.token_stride,
                        ", head_stride ", v.head_stride, ", dim ", v.dim, ", tokens ",
                        v.tokens, ", heads ", v.heads, ")");
}

} // namespace

std::int64_t dense_token_stride(std::int64_t heads, std::int64_t dim) {
  check_non_negative("dense view", "heads", heads);
  check_non_negative("dense view", "dim", dim);
  if (dim != 0 && heads > kMaxIndex / dim)
    detail::fail_length("dense view: heads x dim overflows int64 (", heads, " x ", dim, ")");
  return heads * dim;
}

void check_view(const char* name, const const_tensor_view& v) {
  check_non_negative(name, "tokens", v.tokens);
  check_non_negative(name, "heads", v.heads);
  check_non_negative(name, "dim", v.dim);
  check_non_negative(name, "token_stride", v.token_stride);
  check_non_negative(name, "head_stride", v.head_stride);
  if (v.tokens == 0 || v.heads == 0 || v.dim == 0) return;  // no element is touched
  if (v.data == nullptr) detail::fail_argument(name, ".data must not be null");

  const std::int64_t t_span = span_of(name, "tokens", v.tokens, v.token_stride);
  const std::int64_t h_span = span_of(name, "heads", v.heads, v.head_stride);
  if (t_span > kMaxIndex - h_span || t_span + h_span > kMaxIndex - v.dim)
    detail::fail_length(name, ": furthest element index overflows int64");
  // Compare in 64 bits: size_t is 32 bits in WASM, and a cast first would wrap a huge view
  // into a small "need" that passes, letting a kernel write outside the caller's buffer.
  const std::int64_t need = t_span + h_span + v.dim;
  if (static_cast<std::uint64_t>(need) > static_cast<std::uint64_t>(v.size))
    detail::fail_length(name, " holds ", v.size, " elements but its furthest element is at ",
                        need - 1, " (tokens ", v.tokens, ", heads ", v.heads, ", dim ", v.dim,
                        ", token_stride ", v.token_stride, ", head_stride ", v.head_stride, ")");
  check_no_overlap(name, v);
}

} // namespace posenc
