// rotary.cpp — the RoPE cos/sin cache and the drivers that walk a strided tensor, fetch
// one cos/sin row per token and hand it to the kernels of detail/rotary_kernels.hpp for
// every head (posenc/rotary.hpp documents the contracts).
#include "posenc/rotary.hpp"

#include "detail/angles.hpp"
#include "detail/axis_rows.hpp"
#include "detail/dispatch.hpp"
#include "detail/rotary_kernels.hpp"
#include "posenc/detail/check.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace posenc {
namespace {

#if !POSENC_SCALAR_ONLY
using arch = xsimd::default_arch;
#endif

// Each cos/sin table holds at most this many floats (1 GiB), so a huge `count` fails with
// a posenc::length_error instead of an allocation failure (or, in WASM, an abort).
constexpr std::size_t kMaxTableFloats = std::size_t{1} << 28;

void check_position(const char* name, std::int64_t p) {
  detail::check_range(name, p, -max_position, max_position);
}

// Float cos/sin of p·θ_i for every i: the only source of float rows in rotary, so cached
// rows and on-the-fly rows are the same function (bit-identical).
void compute_row(std::span<const double> inv_freq, angle_precision angles, std::int64_t p,
                 float* cos_out, float* sin_out) noexcept {
  const auto position = static_cast<double>(p);  // exact: |p| ≤ 2^53
  if (angles == angle_precision::float32) {
    detail::sincos_row_float32(position, inv_freq.data(), inv_freq.size(), sin_out, cos_out);
    return;
  }
  detail::dispatched::sincos_rows(position, 1, inv_freq.data(), inv_freq.size(), sin_out,
                                  cos_out);
}

// Where token t sits: positions[t], or start + t when no span is given. A multi-axis
// cache's span is [axes][tokens]: axis a of token t at ids[a·tokens + t].
struct position_source {
  const std::int32_t* ids = nullptr;
  std::int64_t start = 0;
  int axes = 1;
  std::int64_t tokens = 0;
  std::int64_t at(std::int64_t t) const noexcept { return ids ? ids[t] : start + t; }
  // Token t's positions into p[0 … axes); true when they differ from token t − 1's.
  bool axes_at(std::int64_t t, std::int64_t* p) const noexcept {
    bool changed = t == 0;
    for (int a = 0; a < axes; ++a) {
      const std::int32_t* axis = ids + a * tokens;
      p[a] = axis[t];
      changed = changed || axis[t] != axis[t - 1];
    }
    return changed;
  }
};

// One tensor the driver rotates: in → out (the same memory for in-place calls).
struct rope_target {
  const_tensor_view in;
  tensor_view out;
};

// The per-call scratch: one on-the-fly row and, for the interleaved layout, the row
// expanded to (c, c, …)/(−s, s, …). Rows up to kInlineHalf pairs (rotary_dim ≤ 256, every
// common head) live in the object itself, so a decode call allocates nothing; larger ones
// take one heap block, the only allocation of a rope call.
class row_buffer {
public:
  row_buffer(const row_buffer&) = delete;  // data_/cos2_/sin2_ point into the buffers
  row_buffer& operator=(const row_buffer&) = delete;

  explicit row_buffer(const rotary_cache& cache)
      : half_(static_cast<std::size_t>(cache.rotary_dim() / 2)),
        interleaved_(cache.layout() == rope_layout::interleaved) {
    const std::size_t floats = half_ * (interleaved_ ? 6 : 2);
    if (floats > inline_.size()) heap_.resize(floats);
    data_ = heap_.empty() ? inline_.data() : heap_.data();
    cos2_ = interleaved_ ? data_ + 2 * half_ : nullptr;
    sin2_ = interleaved_ ? data_ + 4 * half_ : nullptr;
  }

  // The row of position p: pointers into the cache when it holds p, else computed here.
  void load(const rotary_cache& cache, std::int64_t p) {
    if (cache.cached(p)) {
      const auto offset = static_cast<std::size_t>(p - cache.first()) * half_;
      cos_ = cache.cos_table().data() + offset;
      sin_ = cache.sin_table().data() + offset;
    } else {
      compute_row(cache.inv_freq(), cache.angles(), p, data_, data_ + half_);
      cos_ = data_;
      sin_ = data_ + half_;
    }
  }

  // The kernel job for one token of one target (after load and expand): every head row
  // rotated by this row, pass-through dims copied out of place.
  detail::token_rows job(float sign, float g, const const_tensor_view& in,
                         const tensor_view& out) const noexcept {
    detail::token_rows j;
    j.cos = cos_;
    j.sin = sin_;
    j.cos2 = cos2_;
    j.sin2 = sin2_;
    j.half = half_;
    j.interleaved = interleaved_;
    j.sign = sign;
    j.g = g;
    j.in_head_stride = in.head_stride;
    j.out_head_stride = out.head_stride;
    j.heads = in.heads;
    j.dim = in.dim;
    return j;
  }

  // The row formed elsewhere (a multi-axis token's, detail/axis_rows.hpp).
  void use(const float* cos, const float* sin) noexcept {
    cos_ = cos;
    sin_ = sin;
  }

  // Once per token, before rotate: the interleaved kernels read the expanded row.
  void expand(float sign) noexcept {
#if !POSENC_SCALAR_ONLY
    if (interleaved_) detail::expand_interleaved_row(cos_, sin_, half_, sign, cos2_, sin2_);
#else
    (void)sign;
#endif
  }

private:
  static constexpr std::size_t kInlineHalf = 128;

  std::size_t half_;
  bool interleaved_;
  std::array<float, 6 * kInlineHalf> inline_;  // uninitialised: every use writes first
  std::vector<float> heap_;
  float* data_ = nullptr;  // [cos | sin | cos2 | sin2], in inline_ or heap_
  float* cos2_ = nullptr;  // expanded interleaved row, inside data_
  float* sin2_ = nullptr;
  const float* cos_ = nullptr;
  const float* sin_ = nullptr;
};

// Tensors of at least this many floats (16 MiB, well past any L2) come from memory or L3,
// not from the caches, so the kernels spend extra work on moving them:
//  - out-of-place outputs are written with non-temporal stores (rotary_kernels.hpp,
//    rotate_token_streaming), skipping the read-for-ownership of every destination line.
//    Measured on 32 MiB: 1.6–1.9× faster than plain stores. (Copying each token block with
//    memcpy, whose rep movsb also skips it, then rotating in place was tried and measured no
//    faster.)
//  - in place, WebAssembly stages each token through an L1 block (rotate_token_staged);
//    native code reads ahead with prefetch instead.
// The kernels pick by token_rows::large and whether in = out (in and out have one shape).
constexpr std::int64_t kLargeFloats = std::int64_t{1} << 22;

bool is_large(const const_tensor_view& v) noexcept {
  return v.tokens * v.heads * v.dim >= kLargeFloats;
}

// check_view accepts an empty view (0 tokens, heads or dim) without checking its data or
// strides, since no element is touched; the drivers must then not even form its addresses.
bool is_empty(const const_tensor_view& v) noexcept {
  return v.tokens == 0 || v.heads == 0 || v.dim == 0;
}

// Rotates every (token, head) row of every target; token t sits at pos.at(t). One cos/sin
// row per token, applied to all heads of all targets (GQA: q and k share it).
void rotate_tokens(const rotary_cache& cache, std::span<const rope_target> targets,
                   std::int64_t tokens, position_source pos, float sign, float g) {
  if (std::all_of(targets.begin(), targets.end(),
                  [](const rope_target& target) { return is_empty(target.in); }))
    return;
  row_buffer row(cache);
  detail::axis_rows axis_rows(cache);  // holds nothing unless the cache has several axes
  std::int64_t p_axes[3];
  bool streamed = false;
  for (std::int64_t t = 0; t < tokens; ++t) {
    if (pos.axes > 1) {  // a multi-axis token's row (from a span; start is one position)
      if (pos.axes_at(t, p_axes)) {
        axis_rows.load(cache, p_axes);
        row.use(axis_rows.cos(), axis_rows.sin());
        row.expand(sign);
      }
    } else if (const std::int64_t p = pos.at(t); t == 0 || p != pos.at(t - 1)) {
      row.load(cache, p);  // a run of one position (packed padding) loads once
      row.expand(sign);
    }
    for (const rope_target& target : targets) {
      if (is_empty(target.in)) continue;
      detail::token_rows job = row.job(sign, g, target.in, target.out);
      job.in = target.in.data + t * target.in.token_stride;
      job.out = target.out.data + t * target.out.token_stride;
      job.large = is_large(target.in);
      if (t + 1 < tokens) job.prefetch = job.in + target.in.token_stride;
      detail::dispatched::rotate_token(job);
      streamed = streamed || (job.large && job.in != job.out);
    }
  }
  if (streamed) detail::stream_fence();  // once per call, not per token
}

// [lowest, highest] float addresses a validated, non-empty view touches.
std::pair<const float*, const float*> extent(const const_tensor_view& v) noexcept {
  const std::int64_t last = (v.tokens - 1) * v.token_stride + (v.heads - 1) * v.head_stride +
                            v.dim - 1;
  return {v.data, v.data + last};
}

bool overlaps(const const_tensor_view& a, const const_tensor_view& b) noexcept {
  if (is_empty(a) || is_empty(b)) return false;
  const auto [a_lo, a_hi] = extent(a);
  const auto [b_lo, b_hi] = extent(b);
  return !(a_hi < b_lo || b_hi < a_lo);
}

bool same_layout(const const_tensor_view& a, const const_tensor_view& b) noexcept {
  return a.data == b.data && a.token_stride == b.token_stride &&
         a.head_stride == b.head_stride;
}

void check_head_view(const rotary_cache& cache, const char* name, const char* dim_name,
                     const const_tensor_view& v) {
  check_view(name, v);
  if (v.dim != cache.head_dim())
    detail::fail_argument(dim_name, " must equal the cache's head_dim ", cache.head_dim(),
                          ", got ", v.dim);
}

// The position source of a span: tokens values, or axes·tokens ([axes][tokens]).
position_source span_positions(const rotary_cache& cache, std::span<const std::int32_t> positions,
                               std::int64_t tokens) {
  const int axes = cache.axes();
  if (axes == 1 && static_cast<std::int64_t>(positions.size()) != tokens)
    detail::fail_length("positions holds ", positions.size(), " values but tokens is ",
                        tokens);
  if (axes > 1 && static_cast<std::int64_t>(positions.size()) != axes * tokens)
    detail::fail_length("positions holds ", positions.size(), " values but a ", axes,
                        "-axis rotator (", to_string(cache.axes_kind()), ") takes ", axes,
                        " x tokens = ", axes * tokens, " ([", axes, "][tokens])");
  return {positions.data(), 0, axes, tokens};
}

void check_start(const rotary_cache& cache, std::int64_t start, std::int64_t tokens) {
  if (cache.axes() == 2)
    detail::fail_argument("a 2-D rotary (", to_string(cache.axes_kind()),
                          ") takes positions [2][tokens] (row, col), not start");
  check_position("start", start);
  if (tokens > 0 && start > max_position - (tokens - 1))
    detail::fail_argument("start + tokens - 1 must be <= ", max_position, ", got start ",
                          start, " with ", tokens, " tokens");
}

// Validates an out-of-place pair; `out` may also be `in` itself.
void check_in_out(const rotary_cache& cache, const const_tensor_view& in,
                  const tensor_view& out) {
  check_head_view(cache, "in", "in.dim", in);
  check_head_view(cache, "out", "out.dim", out);
  if (out.tokens != in.tokens || out.heads != in.heads)
    detail::fail_length("out must have in's shape (", in.tokens, " tokens x ", in.heads,
                        " heads), got ", out.tokens, " x ", out.heads);
  if (!same_layout(in, out) && overlaps(in, out))
    detail::fail_argument("out must be the same view as in or not share memory with it");
}

float forward_sign(direction dir) noexcept { return dir == direction::forward ? 1.0f : -1.0f; }

// f forward, 1/f inverse (HF multiplies cos and sin by attention_scaling).
float factor_for(const rotary_cache& cache, direction dir) noexcept {
  const double f = cache.attention_factor();
  return static_cast<float>(dir == direction::forward ? f : 1.0 / f);
}

void apply_one(const rotary_cache& cache, const const_tensor_view& in, const tensor_view& out,
               position_source pos, direction dir) {
  const rope_target target{in, out};
  rotate_tokens(cache, std::span<const rope_target>(&target, 1), in.tokens, pos,
                forward_sign(dir), factor_for(cache, dir));
}

void apply_qk(const rotary_cache& cache, const tensor_view& q, const tensor_view& k,
              position_source pos) {
  const rope_target targets[2] = {{q, q}, {k, k}};
  rotate_tokens(cache, std::span<const rope_target>(targets), q.tokens, pos, 1.0f,
                factor_for(cache, direction::forward));
}

void check_qk(const rotary_cache& cache, const tensor_view& q, const tensor_view& k) {
  check_head_view(cache, "q", "q.dim", q);
  check_head_view(cache, "k", "k.dim", k);
  if (q.tokens != k.tokens)
    detail::fail_length("k.tokens must equal q.tokens (", q.tokens, "), got ", k.tokens);
  if (overlaps(q, k)) detail::fail_argument("q and k must not share memory");
}

// rope_shift's single row: every token moves by the same Δ, so one double row R(Δ·θ)
// (no attention factor) serves the whole call.
class shift_row {
public:
  shift_row(const rotary_cache& cache, std::int64_t delta)
      : half_(static_cast<std::size_t>(cache.rotary_dim() / 2)),
        interleaved_(cache.layout() == rope_layout::interleaved),
        data_(half_ * (interleaved_ ? 6 : 2)) {
    detail::sincos_row_scalar(static_cast<double>(delta), cache.inv_freq().data(), half_,
                              sin(), cos());
    if (interleaved_) detail::expand_interleaved_row(cos(), sin(), half_, cos2(), sin2());
  }

  // Rotates the first r dims of one head row in place.
  void rotate(float* x) const noexcept {
#if POSENC_SCALAR_ONLY
    if (interleaved_)
      detail::shift_interleaved_scalar(cos(), sin(), half_, x);
    else
      detail::shift_half_scalar(cos(), sin(), half_, x);
#else
    if (interleaved_)
      detail::shift_interleaved<arch>(cos(), sin(), cos2(), sin2(), half_, x);
    else
      detail::shift_half<arch>(cos(), sin(), half_, x);
#endif
  }

private:
  // data_ = [cos | sin | cos2 | sin2]; the expanded pair exists for interleaved only.
  double* cos() noexcept { return data_.data(); }
  double* sin() noexcept { return data_.data() + half_; }
  double* cos2() noexcept { return data_.data() + 2 * half_; }
  double* sin2() noexcept { return data_.data() + 4 * half_; }
  const double* cos() const noexcept { return data_.data(); }
  const double* sin() const noexcept { return data_.data() + half_; }
  const double* cos2() const noexcept { return data_.data() + 2 * half_; }
  const double* sin2() const noexcept { return data_.data() + 4 * half_; }

  std::size_t half_;
  bool interleaved_;
  std::vector<double> data_;
};

} // namespace

rope_layout parse_rope_layout(std::string_view name) {
  if (name == "half") return rope_layout::half;
  if (name == "interleaved") return rope_layout::interleaved;
  detail::fail_argument("layout must be \"half\" or \"interleaved\", got \"",
                        std::string(name), "\"");
}

angle_precision parse_angle_precision(std::string_view name) {
  if (name == "exact") return angle_precision::exact;
  if (name == "float32") return angle_precision::float32;
  detail::fail_argument("angles must be \"exact\" or \"float32\", got \"", std::string(name), "\"");
}

std::string_view to_string(angle_precision angles) noexcept {
  return angles == angle_precision::float32 ? "float32" : "exact";
}

std::string_view to_string(rope_layout layout) noexcept {
  return layout == rope_layout::interleaved ? "interleaved" : "half";
}

rotary_cache::rotary_cache(const rope_config& config, std::int64_t first, std::int64_t count)
    : head_dim_(config.head_dim), layout_(config.layout), angles_(config.angles), first_(first),
      count_(count) {
  detail::check_range("head_dim", config.head_dim, 2, max_dim);
  // Enums may arrive cast from integers (bindings, fuzzers): refuse values no name maps to.
  detail::check_range("layout", static_cast<int>(config.layout), 0, 1);
  detail::check_range("angles", static_cast<int>(config.angles), 0, 1);
  rotary_dim_ = config.rotary_dim == 0 ? config.head_dim : config.rotary_dim;
  detail::check_even("rotary_dim (0 means head_dim)", rotary_dim_, 2, config.head_dim);
  check_position("first", first);
  detail::check_range("count", count, 0, max_position);
  if (count > 0 && first > max_position - (count - 1))
    detail::fail_argument("first + count - 1 must be <= ", max_position, ", got first ",
                          first, " with count ", count);
  // Bound count·r/2 in int64 before anything becomes a size_t: size_t is 32 bits in WASM,
  // where a cast first would wrap and size the table smaller than the loop below fills.
  const std::int64_t half64 = rotary_dim_ / 2;
  if (count > static_cast<std::int64_t>(kMaxTableFloats) / half64)
    detail::fail_length("count (cached positions) x rotary_dim/2 must be <= ", kMaxTableFloats,
                        ", got ", count, " x ", half64);
  const auto half = static_cast<std::size_t>(half64);
  const std::size_t floats = static_cast<std::size_t>(count) * half;

  detail::axis_ladder ladder =
      detail::make_axis_ladder(config.axes, rotary_dim_, config.base, config.scaling);
  axes_kind_ = config.axes.kind;
  inv_freq_ = std::move(ladder.inv_freq);
  pair_axis_ = std::move(ladder.pair_axis);
  attention_factor_ = ladder.attention_factor;

  cos_.resize(floats);
  sin_.resize(floats);
  if (angles_ == angle_precision::exact) {  // the same rows compute_row gives, in one call
    detail::dispatched::sincos_rows(static_cast<double>(first), count, inv_freq_.data(), half,
                                    sin_.data(), cos_.data());
    return;
  }
  for (std::int64_t k = 0; k < count; ++k) {
    const auto offset = static_cast<std::size_t>(k) * half;
    compute_row(inv_freq_, angles_, first + k, cos_.data() + offset, sin_.data() + offset);
  }
}

void rotary_cache::row(std::int64_t position, float* cos_out, float* sin_out) const {
  check_position("position", position);
  const auto half = static_cast<std::size_t>(rotary_dim_ / 2);
  if (cached(position)) {
    const auto offset = static_cast<std::size_t>(position - first_) * half;
    std::copy_n(cos_.data() + offset, half, cos_out);
    std::copy_n(sin_.data() + offset, half, sin_out);
  } else {
    compute_row(inv_freq_, angles_, position, cos_out, sin_out);
  }
}

void rotary_cache::row(std::span<const std::int64_t> positions, float* cos_out,
                       float* sin_out) const {
  if (static_cast<int>(positions.size()) != axes())
    detail::fail_length("positions holds ", positions.size(), " values but the rotator has ",
                        axes(), " axes");
  for (const std::int64_t p : positions) check_position("positions", p);
  if (axes() == 1) {
    row(positions[0], cos_out, sin_out);
    return;
  }
  detail::axis_rows rows(*this);
  rows.load(*this, positions.data());
  const auto half = static_cast<std::size_t>(rotary_dim_ / 2);
  std::copy_n(rows.cos(), half, cos_out);
  std::copy_n(rows.sin(), half, sin_out);
}

void rope_apply(const rotary_cache& cache, tensor_view x,
                std::span<const std::int32_t> positions, direction dir) {
  check_head_view(cache, "x", "x.dim", x);
  apply_one(cache, x, x, span_positions(cache, positions, x.tokens), dir);
}

void rope_apply(const rotary_cache& cache, tensor_view x, std::int64_t start, direction dir) {
  check_head_view(cache, "x", "x.dim", x);
  check_start(cache, start, x.tokens);
  apply_one(cache, x, x, {nullptr, start}, dir);
}

void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::span<const std::int32_t> positions, direction dir) {
  check_in_out(cache, in, out);
  apply_one(cache, in, out, span_positions(cache, positions, in.tokens), dir);
}

void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::int64_t start, direction dir) {
  check_in_out(cache, in, out);
  check_start(cache, start, in.tokens);
  apply_one(cache, in, out, {nullptr, start}, dir);
}

void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::span<const std::int32_t> positions) {
  check_qk(cache, q, k);
  apply_qk(cache, q, k, span_positions(cache, positions, q.tokens));
}

void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::int64_t start) {
  check_qk(cache, q, k);
  check_start(cache, start, q.tokens);
  apply_qk(cache, q, k, {nullptr, start});
}

void rope_shift(const rotary_cache& cache, tensor_view k, std::int64_t delta) {
  check_head_view(cache, "k", "k.dim", k);
  check_position("delta", delta);
  if (is_empty(k)) return;
  const shift_row row(cache, delta);
  for (std::int64_t t = 0; t < k.tokens; ++t)
    for (std::int64_t h = 0; h < k.heads; ++h)
      row.rotate(k.data + t * k.token_stride + h * k.head_stride);
}

} // namespace posenc
