// rotary.cpp — the RoPE cos/sin cache and the drivers that walk a strided tensor, fetch
// one cos/sin row per token and hand it to the kernels of detail/rotary_kernels.hpp for
// every head (posenc/rotary.hpp documents the contracts).
#include "posenc/rotary.hpp"

#include "detail/angles.hpp"
#include "detail/axis_rows.hpp"
#include "detail/dispatch.hpp"
#include "detail/half_driver.hpp"
#include "detail/rotary_kernels.hpp"
#include "detail/row_storage.hpp"
#include "posenc/detail/check.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <span>
#include <string>
#include <type_traits>

#if __has_include(<unistd.h>)
#include <unistd.h>
#endif

namespace posenc {

// Rows [first, first + count) of `cache`'s ladder, row k at cos_out/sin_out + k·r/2.
struct rotary_rows {
  static void compute(const rotary_cache& cache, std::int64_t first, std::int64_t count,
                      float* cos_out, float* sin_out) noexcept {
    const std::span<const double> inv = cache.inv_freq();
    if (cache.angles_ == angle_precision::float32) {
      for (std::int64_t k = 0; k < count; ++k) {
        const auto at = static_cast<std::size_t>(k) * inv.size();
        detail::sincos_row_float32(static_cast<double>(first + k), inv.data(), inv.size(),
                                   sin_out + at, cos_out + at);
      }
      return;
    }
    const detail::angle_offsets o =
        detail::offsets_view(inv.data(), inv.size(), cache.offsets_.data());
    detail::dispatched::sincos_rows(o, first, count, sin_out, cos_out);
  }
  // The row of a real position: sincos_row_scalar (the reference the tables agree with).
  static void compute_real(const rotary_cache& cache, double p, float* cos_out,
                           float* sin_out) noexcept {
    const std::span<const double> inv = cache.inv_freq();
    if (cache.angles_ == angle_precision::float32)
      detail::sincos_row_float32(p, inv.data(), inv.size(), sin_out, cos_out);
    else
      detail::sincos_row_scalar(p, inv.data(), inv.size(), sin_out, cos_out);
  }
};

namespace {

// Each cos/sin table holds at most this many floats (1 GiB), so a huge `count` fails with
// a posenc::length_error instead of an allocation failure (or, in WASM, an abort).
constexpr std::size_t kMaxTableFloats = std::size_t{1} << 28;

void check_position(const char* name, std::int64_t p) {
  detail::check_range(name, p, -max_position, max_position);
}

// Float cos/sin of p·θ_i for every i: the only source of float rows in rotary, so cached
// rows and on-the-fly rows are the same function (bit-identical).
void compute_row(const rotary_cache& cache, std::int64_t p, float* cos_out,
                 float* sin_out) noexcept {
  rotary_rows::compute(cache, p, 1, cos_out, sin_out);
}

// Where token t sits: ids32[t] or ids64[t] when given, else start + step·t (step 0:
// every token at `start`, rope_shift's Δ). A multi-axis cache's ids are [axes][tokens]:
// axis a of token t at ids[a·tokens + t].
struct position_source {
  const std::int32_t* ids32 = nullptr;
  const std::int64_t* ids64 = nullptr;
  std::int64_t start = 0;
  std::int64_t step = 1;
  int axes = 1;
  std::int64_t tokens = 0;
  const double* real = nullptr;  // real-valued positions (then ids32, ids64 are null)
  std::int64_t at(std::int64_t t) const noexcept {
    if (ids64) return ids64[t];
    if (ids32) return ids32[t];
    return start + step * t;
  }
  // Position i as a double (exact: integers within ±2^53).
  double real_at(std::int64_t i) const noexcept {
    return real ? real[i] : static_cast<double>(at(i));
  }
  // Token t's positions into p[0 … axes); true when they differ from token t − 1's.
  bool axes_at(std::int64_t t, double* p) const noexcept {
    bool changed = t == 0;
    for (int a = 0; a < axes; ++a) {
      p[a] = real_at(a * tokens + t);
      changed = changed || p[a] != real_at(a * tokens + t - 1);
    }
    return changed;
  }
};

// One tensor the driver rotates: in → out (the same memory for in-place calls); float views,
// or 16-bit ones (detail::half_target: the same fields over std::uint16_t). References to
// the checked views, as detail::half_target holds them (copies would stall, see there).
struct rope_target {
  const const_tensor_view& in;
  const tensor_view& out;
};

// The rotation of one call: rope_apply's R(sign·p·θ) scaled by g from float rows, or
// rope_shift's R(Δ·θ) from double rows (g = 1).
struct rotation {
  bool shift = false;
  float sign = 1.0f;
  float g = 1.0f;
};

// The per-call row of T (float: rope_apply, double: rope_shift) and the SIMD kernel's lanes
// of it (rotary_kernels.hpp, expand_lanes), held in the kernel job itself: each token
// rewrites only the fields that change, so the kernel never reads a job copied wide out of
// fields just stored narrow (a stalled store forward costs more than a small head's work).
// Rows up to kInlineHalf pairs (rotary_dim ≤ 256, every common head) live in the object
// itself, so a decode call allocates nothing; larger ones take one heap block, the only
// allocation of a rope call; each row on 64-byte lines (detail/row_storage.hpp).
// V: the tensor's values (float, or 16-bit bits).
template <class T, class V = float>
class row_buffer {
public:
  row_buffer(const row_buffer&) = delete;  // the pointers point into the buffers
  row_buffer& operator=(const row_buffer&) = delete;

  // lane_group: the kernel's (expand_lanes; 0 for plain lanes).
  row_buffer(const rotary_cache& cache, float sign, float g, std::int64_t head_group,
             std::size_t lane_group)
      : interleaved_(cache.layout() == rope_layout::interleaved),
        lanes_(!POSENC_SCALAR_ONLY && (interleaved_ || sign != 1.0f || lane_group != 0)),
        lane_group_(lane_group),
        row_stride_(storage::row_stride(static_cast<std::size_t>(cache.rotary_dim() / 2))),
        // lanes per row: the half layout's half values, the interleaved layout's rotary_dim
        lane_stride_(storage::row_stride(static_cast<std::size_t>(
            interleaved_ ? cache.rotary_dim() : cache.rotary_dim() / 2))),
        data_(2 * row_stride_ + (lanes_ ? 2 * lane_stride_ : 0)),
        expand_(expander()) {
    job_.half = static_cast<std::size_t>(cache.rotary_dim() / 2);
    job_.sign = sign;
    job_.g = g;
    job_.head_group = head_group;
  }

  // The row of position p: pointers into the cache when it holds p, else computed here.
  void load(const rotary_cache& cache, std::int64_t p) {
    const std::size_t half = job_.half;
    T* const cos = data_.data();
    T* const sin = cos + row_stride_;
    if constexpr (std::is_same_v<T, double>) {
      detail::sincos_row_scalar(static_cast<double>(p), cache.inv_freq().data(), half, sin, cos);
      use(cos, sin);
    } else if (cache.cached(p)) {
      const auto offset = static_cast<std::size_t>(p - cache.first()) * half;
      use(cache.cos_table().data() + offset, cache.sin_table().data() + offset);
    } else {
      compute_row(cache, p, cos, sin);
      use(cos, sin);
    }
  }

  // A row formed elsewhere (a multi-axis token's, detail/axis_rows.hpp), and its lanes.
  void use(const T* cos, const T* sin) noexcept {
    job_.cos = cos;
    job_.sin = sin;
    job_.lane_cos = cos;
    job_.lane_sin = sin;
    if (!lanes_) return;
    T* const lanes = data_.data() + 2 * row_stride_;
    expand_(cos, sin, job_.half, job_.sign, interleaved_, lanes, lanes + lane_stride_, lane_group_);
    job_.lane_cos = lanes;
    job_.lane_sin = lanes + lane_stride_;
  }

  // The kernel job of chunk c (rotary_cache::chunks) for token t of one target: the row's
  // rungs of that chunk, the tensor from the chunk's first dim, its width (the last chunk
  // also carries the pass-through dims).
  template <class Target>
  detail::token_rows<T, V> chunk_job(const Target& target, std::int64_t t, std::size_t c,
                                     std::span<const std::array<int, 2>> chunks) noexcept {
    detail::token_rows<T, V> j = job(target, t);
    const auto [offset, dims] = chunks[c];
    const std::size_t rung = static_cast<std::size_t>(offset / 2);
    j.cos += rung;
    j.sin += rung;
    j.lane_cos += rung;
    j.lane_sin += rung;
    j.half = static_cast<std::size_t>(dims / 2);
    j.in += offset;
    j.out += offset;
    j.dim = c + 1 == chunks.size() ? j.dim - offset : dims;
    return j;
  }

  // The kernel job for token t of one target (after load).
  template <class Target>
  const detail::token_rows<T, V>& job(const Target& target, std::int64_t t) noexcept {
    job_.in = target.in.data + t * target.in.token_stride;
    job_.out = target.out.data + t * target.out.token_stride;
    job_.in_head_stride = target.in.head_stride;
    job_.out_head_stride = target.out.head_stride;
    job_.heads = target.in.heads;
    job_.dim = target.in.dim;
    return job_;
  }

private:
  static constexpr std::size_t kInlineHalf = 128;
  // cos, sin and two lane rows (up to 2·kInlineHalf values), each a line longer (row_stride).
  using storage = detail::row_storage<T, 6 * kInlineHalf + 4 * 64 / sizeof(T)>;
  using expand_fn = void (*)(const T*, const T*, std::size_t, float, bool, T*, T*, std::size_t) noexcept;

  // expand_lanes at the best arch this CPU runs for float rows (rope_shift's double rows:
  // the baseline's).
  static expand_fn expander() noexcept {
    if constexpr (std::is_same_v<T, float>) return detail::dispatched::rope_kernels().expand;
    else return &detail::expand_lanes<T>;
  }

  bool interleaved_;
  bool lanes_;  // the kernel reads lanes other than cos/sin themselves
  std::size_t lane_group_;
  std::size_t row_stride_;   // cos to sin
  std::size_t lane_stride_;  // lane_cos to lane_sin
  detail::token_rows<T, V> job_;
  storage data_;  // [cos | sin | lane_cos | lane_sin], each on 64-byte lines
  expand_fn expand_;
};

// check_view accepts an empty view (0 tokens, heads or dim) without checking its data or
// strides, since no element is touched; the drivers must then not even form its addresses.
template <class View>
bool is_empty(const View& v) noexcept {
  return v.tokens == 0 || v.heads == 0 || v.dim == 0;
}

// How many heads the kernel sweeps per row block (detail/rotary_kernels.hpp, rotate_token):
// all heads of a token load each row block once per token, which pays while the tensor stays
// in cache; one head at a time walks memory in order, which pays when it streams.
// Calls touching at most all_heads_bytes() (in and, out of place, out) take all heads:
// natively, tensors that fit the core's L2 (measured in cache: the interleaved layout at
// 16 × 32 × 128 half the instructions and 1.5–1.7× faster than one head at a time);
// WebAssembly's 128-bit kernels reload twice as many row blocks per head and gain from one
// group up to tensors of several MiB. The 16-bit split kernels (a lane_group ≠ 0), whose row
// block is one split batch, gain from one group up to kSplitAllHeadsBytes natively too.
// kAllHeadsBytes, an L1-resident decode step natively, bounds the in-cache kernel tiers.
#ifdef __EMSCRIPTEN__
constexpr std::int64_t kAllHeadsBytes = std::int64_t{8} << 20;
std::int64_t reported_l2_bytes() noexcept { return kAllHeadsBytes; }
#else
constexpr std::int64_t kAllHeadsBytes = 64 * 1024;
std::int64_t reported_l2_bytes() noexcept {
  static const std::int64_t bytes = [] {
#ifdef _SC_LEVEL2_CACHE_SIZE
    const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);  // glibc: per core; 0 or −1 where unknown
    if (l2 > 0) return std::max<std::int64_t>(l2, kAllHeadsBytes);
#endif
    return kAllHeadsBytes;
  }();
  return bytes;
}
#endif
std::atomic<std::int64_t> l2_override{0};  // set_l2_bytes; 0: reported_l2_bytes()
std::int64_t all_heads_bytes() noexcept { return l2_bytes(); }
constexpr std::int64_t kSplitAllHeadsBytes = std::int64_t{8} << 20;

// The bytes a call reads and writes (in, and out when it is another tensor).
template <class Target>
std::int64_t touched_bytes(std::span<const Target> targets) noexcept {
  std::int64_t bytes = 0;
  for (const Target& target : targets) {
    if (is_empty(target.in)) continue;
    const std::int64_t values = target.in.tokens * target.in.heads * target.in.dim;
    bytes += static_cast<std::int64_t>(sizeof(*target.in.data)) * values *
             (target.in.data == target.out.data ? 1 : 2);
  }
  return bytes;
}

// True when the call touches more than kAllHeadsBytes: its tensors stream from memory.
template <class Target>
bool streams(std::span<const Target> targets) noexcept {
  return touched_bytes(targets) > kAllHeadsBytes;
}

// True when some row of a target, in or out, starts off a 64-byte line: on AVX-512 each
// 64-byte access of such a row splits across two lines (the kernel table's *_off_line tiers).
template <class Target>
bool off_line(std::span<const Target> targets) noexcept {
  const auto off = [](const auto& v) {
    constexpr std::int64_t line = 64 / static_cast<std::int64_t>(sizeof(*v.data));
    return reinterpret_cast<std::uintptr_t>(v.data) % 64 != 0 ||
           (v.tokens > 1 && v.token_stride % line != 0) || (v.heads > 1 && v.head_stride % line != 0);
  };
  for (const Target& target : targets)
    if (!is_empty(target.in) && (off(target.in) || off(target.out))) return true;
  return false;
}


template <class Target>
std::int64_t head_group(std::span<const Target> targets, std::size_t lane_group) noexcept {
  if (touched_bytes(targets) > (lane_group != 0 ? kSplitAllHeadsBytes : all_heads_bytes())) return 1;
  std::int64_t heads = 1;
  for (const Target& target : targets)
    if (!is_empty(target.in)) heads = std::max(heads, target.in.heads);
  return heads;
}

template <class T, class V = float>
using token_kernel = void (*)(const detail::token_rows<T, V>&) noexcept;

// Token t of every target, by the row just set: one row, applied to all heads of all
// targets (GQA: q and k share it); chunk by chunk for half pairs within each axis' chunk.
template <class T, class V, class Target>
void rotate_targets(row_buffer<T, V>& row, std::span<const Target> targets, std::int64_t t,
                    token_kernel<T, V> kernel, std::span<const std::array<int, 2>> chunks = {}) noexcept {
  for (const Target& target : targets) {
    if (is_empty(target.in)) continue;
    if (chunks.empty()) {
      kernel(row.job(target, t));
      continue;
    }
    for (std::size_t c = 0; c < chunks.size(); ++c) kernel(row.chunk_job(target, t, c, chunks));
  }
}

// Tokens with several positions each (a span, [axes][tokens]): a token's merged row is
// formed (detail/axis_rows.hpp) when its positions differ from the previous token's.
template <class V, class Target>
void rotate_axis_tokens(const rotary_cache& cache, row_buffer<float, V>& row,
                        std::span<const Target> targets, std::int64_t tokens,
                        const position_source& pos, token_kernel<float, V> kernel) {
  detail::axis_rows axis_rows(cache);
  double p[max_axes];
  for (std::int64_t t = 0; t < tokens; ++t) {
    if (pos.axes_at(t, p)) {
      axis_rows.load(cache, p);
      row.use(axis_rows.cos(), axis_rows.sin());
    }
    rotate_targets(row, targets, t, kernel, cache.chunks());
  }
}

// True when every token has one position and the cache holds it: each row is then a
// pointer into the cache, nothing computed.
bool rows_cached(const rotary_cache& cache, const position_source& pos, std::int64_t tokens) noexcept {
  if (pos.axes != 1 || pos.real != nullptr || tokens == 0) return false;
  if (pos.ids32 == nullptr && pos.ids64 == nullptr)  // start + step·t: its ends bound it
    return cache.cached(pos.at(0)) && cache.cached(pos.at(tokens - 1));
  for (std::int64_t t = 0; t < tokens; ++t)
    if (!cache.cached(pos.at(t))) return false;
  return true;
}

// Rotates every (token, head) row of every target by `kernel` (its lanes formed with
// lane_group, see row_buffer); token t sits at pos.at(t).
template <class T, class V, class Target>
void rotate_tokens(const rotary_cache& cache, std::span<const Target> targets,
                   std::int64_t tokens, const position_source& pos, float sign, float g,
                   token_kernel<T, V> kernel, std::size_t lane_group = 0) {
  // Tensors that stream from memory, rows read from the cache (float rows: rope_shift's
  // double rows are always computed): one target after the other, so each streams in order
  // alone instead of q's and k's rows interleaved token by token.
  if constexpr (std::is_same_v<T, float>) {
    if (targets.size() > 1 && streams(targets) && rows_cached(cache, pos, tokens)) {
      for (std::size_t i = 0; i < targets.size(); ++i)
        rotate_tokens<T, V>(cache, targets.subspan(i, 1), tokens, pos, sign, g, kernel, lane_group);
      return;
    }
  }
  row_buffer<T, V> row(cache, sign, g, head_group(targets, lane_group), lane_group);
  if (pos.axes > 1 || pos.real != nullptr) {  // only rope_apply forms these (rope_shift: one Δ)
    if constexpr (std::is_same_v<T, float>)
      rotate_axis_tokens(cache, row, targets, tokens, pos, kernel);
    return;
  }
  for (std::int64_t t = 0; t < tokens; ++t) {
    if (const std::int64_t p = pos.at(t); t == 0 || p != pos.at(t - 1))
      row.load(cache, p);  // a run of one position loads once
    rotate_targets(row, targets, t, kernel, cache.chunks());
  }
}

// The one entry point under every public rope_apply / rope_apply_qk / rope_shift (their
// arguments already checked): the kernel is chosen here, once per call, from the layout,
// the precision and whether g = 1 (detail/dispatch.hpp).
void rotate(const rotary_cache& cache, std::span<const rope_target> targets,
            std::int64_t tokens, const position_source& pos, rotation how) {
  if (std::all_of(targets.begin(), targets.end(),
                  [](const rope_target& target) { return is_empty(target.in); }))
    return;
  const auto& kernels = detail::dispatched::rope_kernels();
  const bool interleaved = cache.layout() == rope_layout::interleaved;
  if (how.shift)
    return rotate_tokens<double>(cache, targets, tokens, pos, 1.0f, 1.0f,
                                 kernels.shift[interleaved]);
  const std::int64_t bytes = touched_bytes(targets);
  const bool off = off_line(targets);
  const auto& apply = !off ? kernels.apply
                      : bytes > kAllHeadsBytes ? kernels.streaming_off_line : kernels.apply_off_line;
  rotate_tokens<float>(cache, targets, tokens, pos, how.sign, how.g,
                       apply[interleaved][how.g != 1.0f]);
}

// rotate's 16-bit twin (detail/half_driver.hpp): the same driver, the 16-bit kernels.
void rotate_16(const rotary_cache& cache, std::span<const detail::half_target> targets,
               std::int64_t tokens, const position_source& pos, rotation how) {
  if (std::all_of(targets.begin(), targets.end(),
                  [](const detail::half_target& target) { return is_empty(target.in); }))
    return;
  if (!cache.chunks().empty())  // the split kernels' lanes are grouped across the whole row
    detail::fail_argument("x: a rotator with half pairs within each axis' chunk (",
                          cache.axes_name(), ") rotates float32 tensors only");
  const bool bf = targets[0].in.format == half_format::bfloat16;
  const bool interleaved = cache.layout() == rope_layout::interleaved;
  const detail::half_kernel_table& kernels = detail::dispatched::half_kernels();
  rotate_tokens<float>(cache, targets, tokens, pos, how.sign, how.g,
                       kernels.apply[bf][interleaved][how.g != 1.0f], kernels.lane_group[bf][interleaved]);
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

// The position sources of the public overloads, validated: a span's length must equal
// tokens (int64 ids also within ±max_position each), a start keeps every position there.
// A multi-axis cache takes axes·tokens values ([axes][tokens]).
void check_span_length(const rotary_cache& cache, std::size_t size, std::int64_t tokens) {
  const int axes = cache.axes();
  if (axes == 1 && static_cast<std::int64_t>(size) != tokens)
    detail::fail_length("positions holds ", size, " values but tokens is ", tokens);
  if (axes > 1 && static_cast<std::int64_t>(size) != axes * tokens)
    detail::fail_length("positions holds ", size, " values but a ", axes, "-axis rotator (",
                        cache.axes_name(), ") takes ", axes, " x tokens = ",
                        axes * tokens, " ([", axes, "][tokens])");
}

position_source positions_of(const rotary_cache& cache, std::span<const std::int32_t> positions,
                             std::int64_t tokens) {
  check_span_length(cache, positions.size(), tokens);
  return {positions.data(), nullptr, 0, 1, cache.axes(), tokens};
}

position_source positions_of(const rotary_cache& cache, std::span<const std::int64_t> positions,
                             std::int64_t tokens) {
  check_span_length(cache, positions.size(), tokens);
  for (std::size_t t = 0; t < positions.size(); ++t)
    if (positions[t] < -max_position || positions[t] > max_position)
      detail::fail_argument("positions[", t, "] must be in [", -max_position, ", ",
                            max_position, "], got ", positions[t]);
  return {nullptr, positions.data(), 0, 1, cache.axes(), tokens};
}

// Finite, within ±max_position (the bound of integer positions).
void check_real(std::span<const double> positions) {
  for (std::size_t t = 0; t < positions.size(); ++t)
    if (!(std::abs(positions[t]) <= static_cast<double>(max_position)))
      detail::fail_argument("positions[", t, "] must be finite and within ±", max_position,
                            ", got ", positions[t]);
}

// The convention's name in messages: the bands' preset (or "custom"), else the kind's.
std::string axes_name_of(const rope_axes& axes) {
  if (axes.kind != rope_axes_kind::bands) return std::string(to_string(axes.kind));
  return axes.name.empty() ? std::string("custom") : axes.name;
}

position_source positions_of(const rotary_cache& cache, std::span<const double> positions,
                             std::int64_t tokens) {
  check_span_length(cache, positions.size(), tokens);
  check_real(positions);
  position_source out;
  out.axes = cache.axes();
  out.tokens = tokens;
  out.real = positions.data();
  return out;
}

position_source positions_of(const rotary_cache& cache, std::int64_t start, std::int64_t tokens) {
  // M-RoPE's text tokens sit at t = h = w = start + i; axes with their own ladders have no
  // such convention.
  if (cache.axes() > 1 && !cache.shared_ladder())
    detail::fail_argument("a ", cache.axes(), "-axis rotary (", cache.axes_name(), ") takes positions [",
                          cache.axes(), "][tokens], not start");
  check_position("start", start);
  if (tokens > 0 && start > max_position - (tokens - 1))
    detail::fail_argument("start + tokens - 1 must be <= ", max_position, ", got start ",
                          start, " with ", tokens, " tokens");
  return {nullptr, nullptr, start};
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

// forward: R(p·θ) scaled by f; inverse: R(−p·θ) scaled by 1/f (HF multiplies cos and sin
// by attention_scaling). An inverse-turn cache (nanochat) swaps the angles, not the factors.
rotation apply_rotation(const rotary_cache& cache, direction dir) noexcept {
  const double f = cache.attention_factor();
  const bool forward = dir == direction::forward;
  const bool turns_forward = forward == (cache.turn() == direction::forward);
  return {false, turns_forward ? 1.0f : -1.0f, static_cast<float>(forward ? f : 1.0 / f)};
}

void apply_one(const rotary_cache& cache, const const_tensor_view& in, const tensor_view& out,
               const position_source& pos, direction dir) {
  const rope_target target{in, out};
  rotate(cache, {&target, 1}, in.tokens, pos, apply_rotation(cache, dir));
}

// x rotated in place (positions: a span of int32 / int64 ids, or a start): x converted once
// to the const view that the check and the driver read.
template <class Positions>
void apply_in_place(const rotary_cache& cache, const tensor_view& x, const Positions& positions,
                    direction dir) {
  const const_tensor_view in = x;
  check_head_view(cache, "x", "x.dim", in);
  apply_one(cache, in, x, positions_of(cache, positions, x.tokens), dir);
}

template <class Positions>
void apply_out_of_place(const rotary_cache& cache, const const_tensor_view& in,
                        const tensor_view& out, const Positions& positions, direction dir) {
  check_in_out(cache, in, out);
  apply_one(cache, in, out, positions_of(cache, positions, in.tokens), dir);
}

void check_qk(const rotary_cache& cache, const const_tensor_view& q, const const_tensor_view& k) {
  check_head_view(cache, "q", "q.dim", q);
  check_head_view(cache, "k", "k.dim", k);
  if (q.tokens != k.tokens)
    detail::fail_length("k.tokens must equal q.tokens (", q.tokens, "), got ", k.tokens);
  if (overlaps(q, k)) detail::fail_argument("q and k must not share memory");
}

// q and k rotated forward in place, one row per token for both: each converted once to the
// const view that the checks and the driver read.
template <class Positions>
void apply_qk(const rotary_cache& cache, const tensor_view& q, const tensor_view& k,
              const Positions& positions) {
  const const_tensor_view q_in = q, k_in = k;
  check_qk(cache, q_in, k_in);
  const rope_target targets[2] = {{q_in, q}, {k_in, k}};
  rotate(cache, targets, q.tokens, positions_of(cache, positions, q.tokens),
         apply_rotation(cache, direction::forward));
}

} // namespace

void set_l2_bytes(std::int64_t bytes) {
  if (bytes != 0) detail::check_range("bytes", bytes, 4096, std::int64_t{1} << 40);
  l2_override.store(bytes, std::memory_order_relaxed);
}

std::int64_t l2_bytes() noexcept {
  const std::int64_t set = l2_override.load(std::memory_order_relaxed);
  return set != 0 ? set : reported_l2_bytes();
}

rope_layout parse_rope_layout(std::string_view name) {
  if (name == "half") return rope_layout::half;
  if (name == "interleaved") return rope_layout::interleaved;
  detail::fail_argument("layout must be \"half\" or \"interleaved\", got ", detail::quoted(name));
}

angle_precision parse_angle_precision(std::string_view name) {
  if (name == "exact") return angle_precision::exact;
  if (name == "float32") return angle_precision::float32;
  detail::fail_argument("angles must be \"exact\" or \"float32\", got ", detail::quoted(name));
}

std::string_view to_string(angle_precision angles) noexcept {
  return angles == angle_precision::float32 ? "float32" : "exact";
}

direction parse_direction(std::string_view name) {
  if (name == "forward") return direction::forward;
  if (name == "inverse") return direction::inverse;
  detail::fail_argument("direction must be \"forward\" or \"inverse\", got ", detail::quoted(name));
}

std::string_view to_string(direction dir) noexcept {
  return dir == direction::inverse ? "inverse" : "forward";
}

std::string_view to_string(rope_layout layout) noexcept {
  return layout == rope_layout::interleaved ? "interleaved" : "half";
}

rotary_cache::rotary_cache(const rope_config& config, std::int64_t first, std::int64_t count)
    : head_dim_(config.head_dim), layout_(config.layout), angles_(config.angles),
      turn_(config.turn), first_(first), count_(count) {
  detail::check_range("head_dim", config.head_dim, 2, max_dim);
  // Enums may arrive cast from integers (bindings, fuzzers): refuse values no name maps to.
  detail::check_range("layout", static_cast<int>(config.layout), 0, 1);
  detail::check_range("angles", static_cast<int>(config.angles), 0, 1);
  detail::check_range("turn", static_cast<int>(config.turn), 0, 1);
  rotary_dim_ = config.rotary_dim == 0 ? config.head_dim : config.rotary_dim;
  if (config.axes.kind == rope_axes_kind::bands) detail::check_bands(config.axes, rotary_dim_);
  // Without a rotary_dim the caller gave head_dim only: an odd one is named as head_dim.
  if (config.rotary_dim == 0) detail::check_even("head_dim", rotary_dim_, 2, max_dim);
  else detail::check_even("rotary_dim (0 means head_dim)", rotary_dim_, 2, config.head_dim);
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
  axes_count_ = config.axes.count();
  if (config.axes.half_per_band) {
    if (config.axes.kind != rope_axes_kind::bands || layout_ != rope_layout::half)
      detail::fail_argument("layout must be \"half\" for half pairs within each axis' chunk (",
                            axes_name_of(config.axes), "), got \"", to_string(layout_), "\"");
    int offset = 0;
    for (const axis_band& band : config.axes.bands) {
      chunks_.push_back({offset, band.dims});
      offset += band.dims;
    }
  }
  axes_name_ = axes_name_of(config.axes);
  inv_freq_ = std::move(ladder.inv_freq);
  pair_axis_ = std::move(ladder.pair_axis);
  shared_ladder_ = ladder.shared;
  attention_factor_ = ladder.attention_factor;

  if (angles_ == angle_precision::exact) {
    offsets_.resize(detail::offset_doubles(half));
    detail::dispatched::fill_offsets(inv_freq_.data(), half, offsets_.data());
  }
  table_ = detail::float_table(2 * floats);
  rotary_rows::compute(*this, first, count, table_.data(), table_.data() + floats);
}

void rotary_cache::row(std::int64_t position, float* cos_out, float* sin_out) const {
  check_position("position", position);
  const auto half = static_cast<std::size_t>(rotary_dim_ / 2);
  if (cached(position)) {
    const auto offset = static_cast<std::size_t>(position - first_) * half;
    std::copy_n(cos_table().data() + offset, half, cos_out);
    std::copy_n(sin_table().data() + offset, half, sin_out);
  } else {
    compute_row(*this, position, cos_out, sin_out);
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
  double p[max_axes];
  std::copy(positions.begin(), positions.end(), p);
  detail::axis_rows rows(*this);
  rows.load(*this, p);
  const auto half = static_cast<std::size_t>(rotary_dim_ / 2);
  std::copy_n(rows.cos(), half, cos_out);
  std::copy_n(rows.sin(), half, sin_out);
}

void rotary_cache::row_real(double position, float* cos_out, float* sin_out) const {
  if (!(std::abs(position) <= static_cast<double>(max_position)))
    detail::fail_argument("position must be finite and within ±", max_position, ", got ", position);
  if (position == std::floor(position)) {
    row(static_cast<std::int64_t>(position), cos_out, sin_out);
    return;
  }
  rotary_rows::compute_real(*this, position, cos_out, sin_out);
}

void rotary_cache::row(std::span<const double> positions, float* cos_out, float* sin_out) const {
  if (static_cast<int>(positions.size()) != axes())
    detail::fail_length("positions holds ", positions.size(), " values but the rotator has ",
                        axes(), " axes");
  check_real(positions);
  if (axes() == 1) {
    row_real(positions[0], cos_out, sin_out);
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
  apply_in_place(cache, x, positions, dir);
}

void rope_apply(const rotary_cache& cache, tensor_view x,
                std::span<const std::int64_t> positions, direction dir) {
  apply_in_place(cache, x, positions, dir);
}

void rope_apply(const rotary_cache& cache, tensor_view x, std::int64_t start, direction dir) {
  apply_in_place(cache, x, start, dir);
}

void rope_apply(const rotary_cache& cache, tensor_view x, std::span<const double> positions,
                direction dir) {
  apply_in_place(cache, x, positions, dir);
}

void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::span<const double> positions, direction dir) {
  apply_out_of_place(cache, in, out, positions, dir);
}

void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::span<const double> positions) {
  apply_qk(cache, q, k, positions);
}

void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::span<const std::int32_t> positions, direction dir) {
  apply_out_of_place(cache, in, out, positions, dir);
}

void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::span<const std::int64_t> positions, direction dir) {
  apply_out_of_place(cache, in, out, positions, dir);
}

void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::int64_t start, direction dir) {
  apply_out_of_place(cache, in, out, start, dir);
}

void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::span<const std::int32_t> positions) {
  apply_qk(cache, q, k, positions);
}

void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::span<const std::int64_t> positions) {
  apply_qk(cache, q, k, positions);
}

void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::int64_t start) {
  apply_qk(cache, q, k, start);
}

void detail::rotate_half(const rotary_cache& cache, std::span<const half_target> targets,
                         std::int64_t tokens, half_positions pos, direction dir) {
  const bool ids = pos.ids32 != nullptr || pos.ids64 != nullptr;  // start: one position for all axes
  rotate_16(cache, targets, tokens,
            {pos.ids32, pos.ids64, pos.start, 1, ids ? cache.axes() : 1, tokens},
            apply_rotation(cache, dir));
}

void rope_shift(const rotary_cache& cache, tensor_view k, std::int64_t delta) {
  const const_tensor_view in = k;  // converted once, for the check and the driver
  check_head_view(cache, "k", "k.dim", in);
  check_position("delta", delta);
  const rope_target target{in, k};
  const std::int64_t turned = cache.turn() == direction::forward ? delta : -delta;
  rotate(cache, {&target, 1}, k.tokens, {nullptr, nullptr, turned, 0}, {true});
}

} // namespace posenc
