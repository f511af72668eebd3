// posenc/tensor.hpp — a strided view of a float32 tensor [tokens][heads][dim].
//
// Element (t, h, j) lives at data[t·token_stride + h·head_stride + j]. Strides are in
// elements, so both [tokens][heads][dim] (token_stride = heads·dim, head_stride = dim) and
// [heads][tokens][dim] (token_stride = dim, head_stride = tokens·dim) storage are views.
// `size` is the number of floats the caller owns at `data`; every function that takes a
// view checks that the furthest element lies inside it and that rows do not overlap.
// dense() checks its own product: heads·dim past int64 throws posenc::length_error, and a
// negative count posenc::invalid_argument (check_view's rules, applied before the product).
#pragma once

#include <cstddef>
#include <cstdint>

namespace posenc {

// heads·dim, the token stride of a dense [tokens][heads][dim] view, or length_error when it
// overflows int64; negative arguments → invalid_argument (core/src/tensor.cpp).
std::int64_t dense_token_stride(std::int64_t heads, std::int64_t dim);

struct tensor_view {
  float* data = nullptr;
  std::size_t size = 0;       // floats available at data
  std::int64_t tokens = 0;
  std::int64_t heads = 0;
  std::int64_t dim = 0;       // elements per head row (head_dim)
  std::int64_t token_stride = 0;
  std::int64_t head_stride = 0;

  // Dense [tokens][heads][dim].
  static tensor_view dense(float* data, std::size_t size, std::int64_t tokens,
                           std::int64_t heads, std::int64_t dim) {
    return {data, size, tokens, heads, dim, dense_token_stride(heads, dim), dim};
  }
};

struct const_tensor_view {
  const float* data = nullptr;
  std::size_t size = 0;
  std::int64_t tokens = 0;
  std::int64_t heads = 0;
  std::int64_t dim = 0;
  std::int64_t token_stride = 0;
  std::int64_t head_stride = 0;

  const_tensor_view() = default;
  const_tensor_view(const float* d, std::size_t n, std::int64_t t, std::int64_t h,
                    std::int64_t dm, std::int64_t ts, std::int64_t hs)
      : data(d), size(n), tokens(t), heads(h), dim(dm), token_stride(ts), head_stride(hs) {}
  const_tensor_view(const tensor_view& v)  // NOLINT: a mutable view is also a const one
      : const_tensor_view(v.data, v.size, v.tokens, v.heads, v.dim, v.token_stride,
                          v.head_stride) {}

  static const_tensor_view dense(const float* data, std::size_t size, std::int64_t tokens,
                                 std::int64_t heads, std::int64_t dim) {
    return {data, size, tokens, heads, dim, dense_token_stride(heads, dim), dim};
  }
};

// Throws posenc::length_error (naming `name`) unless every element of the view lies in
// [0, size) and distinct (token, head) rows do not overlap; negative values → invalid_argument.
void check_view(const char* name, const const_tensor_view& v);

} // namespace posenc
