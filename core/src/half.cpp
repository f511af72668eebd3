// half.cpp — RoPE on float16 / bfloat16 tensors (posenc/half.hpp): blocks of whole tokens
// widened into an L1-sized float32 buffer, rotated by the float32 rope_apply, narrowed back.
#include "posenc/half.hpp"

#include "detail/half_float.hpp"
#include "posenc/detail/check.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace posenc {
namespace {

// Floats per block: 16 KiB, so the block and its 16-bit source stay in a 32 KiB L1.
constexpr std::int64_t kBlockFloats = 4096;

// The view's geometry as a float view, for check_view (which reads no element: the
// address only tells null from not).
const_tensor_view geometry(const half_tensor_view& v) noexcept {
  return {reinterpret_cast<const float*>(v.data), v.size, v.tokens, v.heads, v.dim,
          v.token_stride, v.head_stride};
}

void check_half_view(const rotary_cache& cache, const char* name, const char* dim_name,
                     const half_tensor_view& v) {
  detail::check_range("dtype", static_cast<int>(v.format), 0, 1);  // enums cast from ints
  check_view(name, geometry(v));
  if (v.dim != cache.head_dim())
    detail::fail_argument(dim_name, " must equal the cache's head_dim ", cache.head_dim(),
                          ", got ", v.dim);
}

bool is_empty(const half_tensor_view& v) noexcept {
  return v.tokens == 0 || v.heads == 0 || v.dim == 0;
}

// Tokens [t0, t0 + n) of a 16-bit source ⇄ a dense float block [n][heads][dim] ⇄ the
// 16-bit destination (the source itself in place). Only the rotary dims are narrowed:
// pass-through dims keep their exact bits (NaN payloads included), copied out of place.
class half_block {
public:
  half_block(const half_tensor_view& src, const half_tensor_view& dst, float* block)
      : src_(src), dst_(dst), block_(block) {}

  tensor_view widen(std::int64_t t0, std::int64_t n) const noexcept {
    const bool bf = src_.format == half_format::bfloat16;
    for (std::int64_t t = 0; t < n; ++t)
      for (std::int64_t h = 0; h < src_.heads; ++h)
        detail::widen_row(row(src_, t0 + t, h), static_cast<std::size_t>(src_.dim), bf,
                          block_ + (t * src_.heads + h) * src_.dim);
    const auto floats = static_cast<std::size_t>(n * src_.heads * src_.dim);
    return tensor_view::dense(block_, floats, n, src_.heads, src_.dim);
  }

  void narrow(std::int64_t t0, std::int64_t n, int rotary_dim) const noexcept {
    const bool bf = dst_.format == half_format::bfloat16;
    const bool copy = src_.data != dst_.data;
    for (std::int64_t t = 0; t < n; ++t)
      for (std::int64_t h = 0; h < dst_.heads; ++h) {
        std::uint16_t* out = row(dst_, t0 + t, h);
        detail::narrow_row(block_ + (t * dst_.heads + h) * dst_.dim,
                           static_cast<std::size_t>(rotary_dim), bf, out);
        if (copy) std::copy(row(src_, t0 + t, h) + rotary_dim, row(src_, t0 + t, h) + dst_.dim,
                            out + rotary_dim);
      }
  }

private:
  static std::uint16_t* row(const half_tensor_view& v, std::int64_t t, std::int64_t h) noexcept {
    return v.data + t * v.token_stride + h * v.head_stride;
  }
  half_tensor_view src_, dst_;
  float* block_;
};

// The float block of one call: kBlockFloats inline, or a heap block when a single token
// is larger than that.
class block_buffer {
public:
  explicit block_buffer(std::int64_t floats_per_token)
      : per_(std::max<std::int64_t>(1, kBlockFloats / std::max<std::int64_t>(1, floats_per_token))) {
    if (floats_per_token > kBlockFloats) heap_.resize(static_cast<std::size_t>(floats_per_token));
  }
  std::int64_t tokens_per_block() const noexcept { return per_; }
  float* data() noexcept { return heap_.empty() ? inline_.data() : heap_.data(); }

private:
  std::int64_t per_;
  std::array<float, kBlockFloats> inline_;  // uninitialised: widen writes before use
  std::vector<float> heap_;
};

// Positions of tokens [t0, t0 + n) of a call, as the float rope_apply takes them: a span
// slice, or for a multi-axis cache ([axes][tokens]) the block's columns gathered.
template <class Id>
class position_blocks {
public:
  position_blocks(const rotary_cache& cache, std::span<const Id> all, std::int64_t tokens)
      : all_(all), tokens_(tokens), axes_(cache.axes()) {}
  std::span<const Id> block(std::int64_t t0, std::int64_t n) {
    if (axes_ == 1) return all_.subspan(static_cast<std::size_t>(t0), static_cast<std::size_t>(n));
    gathered_.resize(static_cast<std::size_t>(axes_ * n));
    for (int a = 0; a < axes_; ++a)
      std::copy_n(all_.data() + a * tokens_ + t0, n, gathered_.data() + a * n);
    return gathered_;
  }

private:
  std::span<const Id> all_;
  std::int64_t tokens_;
  int axes_;
  std::vector<Id> gathered_;
};

// An empty float view of x's tokens: rope_apply on it checks the positions (length, range,
// start) exactly as the real call would, touching nothing.
tensor_view no_heads(const rotary_cache& cache, std::int64_t tokens) {
  return {nullptr, 0, tokens, 0, cache.head_dim(), 0, 0};
}

template <class Positions>
void apply_blocks(const rotary_cache& cache, const half_tensor_view& x, const half_tensor_view& out,
                  Positions&& rotate) {
  if (is_empty(x)) return;
  block_buffer buffer(x.heads * x.dim);
  const half_block blocks(x, out, buffer.data());
  const std::int64_t per = buffer.tokens_per_block();
  for (std::int64_t t0 = 0; t0 < x.tokens; t0 += per) {
    const std::int64_t n = std::min(per, x.tokens - t0);
    rotate(blocks.widen(t0, n), t0, n);
    blocks.narrow(t0, n, cache.rotary_dim());
  }
}

// [lowest, highest) 16-bit addresses a validated, non-empty view touches.
const std::uint16_t* end_of(const half_tensor_view& v) noexcept {
  return v.data + (v.tokens - 1) * v.token_stride + (v.heads - 1) * v.head_stride + v.dim;
}

bool overlaps(const half_tensor_view& a, const half_tensor_view& b) noexcept {
  return !is_empty(a) && !is_empty(b) && a.data < end_of(b) && b.data < end_of(a);
}

// x alone (in place: out is the very same view; named x), or in → out (named in / out):
// out of in's shape and dtype, sharing no memory with it.
void check_in_out(const rotary_cache& cache, const half_tensor_view& in, const half_tensor_view& out) {
  const bool in_place = in.data == out.data && in.size == out.size && in.tokens == out.tokens &&
                        in.heads == out.heads && in.dim == out.dim && in.format == out.format &&
                        in.token_stride == out.token_stride && in.head_stride == out.head_stride;
  if (in_place) return check_half_view(cache, "x", "x.dim", in);
  check_half_view(cache, "in", "in.dim", in);
  check_half_view(cache, "out", "out.dim", out);
  if (out.tokens != in.tokens || out.heads != in.heads)
    detail::fail_length("out must have in's shape (", in.tokens, " tokens x ", in.heads,
                        " heads), got ", out.tokens, " x ", out.heads);
  if (out.format != in.format)
    detail::fail_argument("out must have in's dtype (", to_string(in.format), "), got ",
                          to_string(out.format));
  if (overlaps(in, out))
    detail::fail_argument("out must be the same view as in or not share memory with it");
}

template <class Id>
void apply_span(const rotary_cache& cache, const half_tensor_view& x, const half_tensor_view& out,
                std::span<const Id> positions, direction dir) {
  check_in_out(cache, x, out);
  rope_apply(cache, no_heads(cache, x.tokens), positions, dir);
  position_blocks<Id> ids(cache, positions, x.tokens);
  apply_blocks(cache, x, out, [&](tensor_view block, std::int64_t t0, std::int64_t n) {
    rope_apply(cache, block, ids.block(t0, n), dir);
  });
}

// q and k share blocks of tokens (one row per token serves both, as rope_apply_qk).
template <class Rotate>
void apply_qk_blocks(const rotary_cache& cache, const half_tensor_view& q,
                     const half_tensor_view& k, Rotate&& rotate) {
  if (is_empty(q) && is_empty(k)) return;
  const std::int64_t per_q = q.heads * q.dim, per_k = k.heads * k.dim;
  block_buffer buffer(per_q + per_k);
  const std::int64_t per = buffer.tokens_per_block();
  const half_block qb(q, q, buffer.data()), kb(k, k, buffer.data() + per * per_q);
  for (std::int64_t t0 = 0; t0 < q.tokens; t0 += per) {
    const std::int64_t n = std::min(per, q.tokens - t0);
    rotate(qb.widen(t0, n), kb.widen(t0, n), t0, n);
    qb.narrow(t0, n, cache.rotary_dim());
    kb.narrow(t0, n, cache.rotary_dim());
  }
}

void check_qk(const rotary_cache& cache, const half_tensor_view& q, const half_tensor_view& k) {
  check_half_view(cache, "q", "q.dim", q);
  check_half_view(cache, "k", "k.dim", k);
  if (q.tokens != k.tokens)
    detail::fail_length("k.tokens must equal q.tokens (", q.tokens, "), got ", k.tokens);
  if (q.format != k.format) detail::fail_argument("q and k must have the same dtype");
  if (overlaps(q, k)) detail::fail_argument("q and k must not share memory");
}

} // namespace

half_format parse_half_format(std::string_view name) {
  if (name == "float16") return half_format::float16;
  if (name == "bfloat16") return half_format::bfloat16;
  detail::fail_argument("dtype must be \"float16\" or \"bfloat16\", got \"", std::string(name), "\"");
}

std::string_view to_string(half_format format) noexcept {
  return format == half_format::bfloat16 ? "bfloat16" : "float16";
}

float to_float(std::uint16_t bits, half_format format) noexcept {
  return format == half_format::bfloat16 ? detail::bf16_to_f32(bits) : detail::f16_to_f32(bits);
}

std::uint16_t from_float(float value, half_format format) noexcept {
  return format == half_format::bfloat16 ? detail::f32_to_bf16(value) : detail::f32_to_f16(value);
}

void rope_apply(const rotary_cache& cache, half_tensor_view x,
                std::span<const std::int32_t> positions, direction dir) {
  apply_span(cache, x, x, positions, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view x,
                std::span<const std::int64_t> positions, direction dir) {
  apply_span(cache, x, x, positions, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view x, std::int64_t start,
                direction dir) {
  rope_apply(cache, x, x, start, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view in, half_tensor_view out,
                std::span<const std::int32_t> positions, direction dir) {
  apply_span(cache, in, out, positions, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view in, half_tensor_view out,
                std::span<const std::int64_t> positions, direction dir) {
  apply_span(cache, in, out, positions, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view in, half_tensor_view out,
                std::int64_t start, direction dir) {
  check_in_out(cache, in, out);
  rope_apply(cache, no_heads(cache, in.tokens), start, dir);
  apply_blocks(cache, in, out, [&](tensor_view block, std::int64_t t0, std::int64_t) {
    rope_apply(cache, block, start + t0, dir);
  });
}

void rope_apply_qk(const rotary_cache& cache, half_tensor_view q, half_tensor_view k,
                   std::span<const std::int32_t> positions) {
  check_qk(cache, q, k);
  rope_apply(cache, no_heads(cache, q.tokens), positions);
  position_blocks<std::int32_t> ids(cache, positions, q.tokens);
  apply_qk_blocks(cache, q, k, [&](tensor_view qv, tensor_view kv, std::int64_t t0, std::int64_t n) {
    rope_apply_qk(cache, qv, kv, ids.block(t0, n));
  });
}

void rope_apply_qk(const rotary_cache& cache, half_tensor_view q, half_tensor_view k,
                   std::int64_t start) {
  check_qk(cache, q, k);
  rope_apply(cache, no_heads(cache, q.tokens), start);
  apply_qk_blocks(cache, q, k, [&](tensor_view qv, tensor_view kv, std::int64_t t0, std::int64_t) {
    rope_apply_qk(cache, qv, kv, start + t0);
  });
}

} // namespace posenc
