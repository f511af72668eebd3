// half.cpp — RoPE on float16 / bfloat16 tensors (posenc/half.hpp): the views checked here,
// then rotated by the one RoPE driver with the 16-bit kernels (detail/half_kernels.hpp),
// which convert in registers.
#include "posenc/half.hpp"

#include "detail/half_driver.hpp"
#include "detail/half_float.hpp"
#include "posenc/detail/check.hpp"

#include <string>

namespace posenc {
namespace {

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

// An empty float view of x's tokens: rope_apply on it checks the positions (length, range,
// start) exactly as the real call would, touching nothing.
tensor_view no_heads(const rotary_cache& cache, std::int64_t tokens) {
  return {nullptr, 0, tokens, 0, cache.head_dim(), 0, 0};
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

detail::half_positions ids_of(std::span<const std::int32_t> p) noexcept { return {p.data(), nullptr, 0}; }
detail::half_positions ids_of(std::span<const std::int64_t> p) noexcept { return {nullptr, p.data(), 0}; }
detail::half_positions ids_of(std::int64_t start) noexcept { return {nullptr, nullptr, start}; }

// in → out (or x in place): the views checked, the positions checked by the float
// rope_apply on an empty view, then everything rotated by the one driver.
template <class Positions>
void apply(const rotary_cache& cache, const half_tensor_view& in, const half_tensor_view& out,
           Positions positions, direction dir) {
  check_in_out(cache, in, out);
  rope_apply(cache, no_heads(cache, in.tokens), positions, dir);
  const detail::half_target target{in, out};
  detail::rotate_half(cache, {&target, 1}, in.tokens, ids_of(positions), dir);
}

void check_qk(const rotary_cache& cache, const half_tensor_view& q, const half_tensor_view& k) {
  check_half_view(cache, "q", "q.dim", q);
  check_half_view(cache, "k", "k.dim", k);
  if (q.tokens != k.tokens)
    detail::fail_length("k.tokens must equal q.tokens (", q.tokens, "), got ", k.tokens);
  if (q.format != k.format) detail::fail_argument("q and k must have the same dtype");
  if (overlaps(q, k)) detail::fail_argument("q and k must not share memory");
}

// q and k forward in place, one row per token for both (as rope_apply_qk).
template <class Positions>
void apply_qk(const rotary_cache& cache, const half_tensor_view& q, const half_tensor_view& k,
              Positions positions) {
  check_qk(cache, q, k);
  rope_apply(cache, no_heads(cache, q.tokens), positions);
  const detail::half_target targets[2] = {{q, q}, {k, k}};
  detail::rotate_half(cache, targets, q.tokens, ids_of(positions), direction::forward);
}

} // namespace

half_format parse_half_format(std::string_view name) {
  if (name == "float16") return half_format::float16;
  if (name == "bfloat16") return half_format::bfloat16;
  detail::fail_argument("dtype must be \"float16\" or \"bfloat16\", got ", detail::quoted(name));
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
  apply(cache, x, x, positions, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view x,
                std::span<const std::int64_t> positions, direction dir) {
  apply(cache, x, x, positions, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view x, std::int64_t start,
                direction dir) {
  apply(cache, x, x, start, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view in, half_tensor_view out,
                std::span<const std::int32_t> positions, direction dir) {
  apply(cache, in, out, positions, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view in, half_tensor_view out,
                std::span<const std::int64_t> positions, direction dir) {
  apply(cache, in, out, positions, dir);
}

void rope_apply(const rotary_cache& cache, half_tensor_view in, half_tensor_view out,
                std::int64_t start, direction dir) {
  apply(cache, in, out, start, dir);
}

void rope_apply_qk(const rotary_cache& cache, half_tensor_view q, half_tensor_view k,
                   std::span<const std::int32_t> positions) {
  apply_qk(cache, q, k, positions);
}

void rope_apply_qk(const rotary_cache& cache, half_tensor_view q, half_tensor_view k,
                   std::int64_t start) {
  apply_qk(cache, q, k, start);
}

} // namespace posenc
