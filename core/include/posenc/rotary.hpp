// posenc/rotary.hpp — rotary position embedding (RoPE, RoFormer): a cos/sin cache and the
// in-place / out-of-place rotation of a float32 tensor [tokens][heads][head_dim].
//
// Each pair (a, b) of a head row at position p is rotated by p·θ_i,
//     R(α) = [[cos α, −sin α], [sin α, cos α]],   (a', b') = f · R(p·θ_i) · (a, b),
// where f is the attention factor of the scaling (HF transformers multiplies cos and sin
// by `attention_scaling`; f = 1 without yarn/longrope). Two layouts of the same maths:
//   half        — pairs (x[i], x[i + r/2])   (GPT-NeoX, HF `rotate_half`)
//   interleaved — pairs (x[2i], x[2i + 1])   (RoFormer, GPT-J, Meta's complex form)
// Only the first r = rotary_dim dims rotate (partial rotary); dims ≥ r are never touched.
// Every cos/sin comes from one place (core/src/detail/angles.hpp): the angle p·θ_i is
// formed and reduced mod 2π in double, then rounded once to float32.
#pragma once

#include "posenc/frequencies.hpp"
#include "posenc/multimodal.hpp"
#include "posenc/tensor.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace posenc {

enum class rope_layout { half, interleaved };

// "half" | "interleaved"; anything else throws posenc::invalid_argument naming `layout`.
rope_layout parse_rope_layout(std::string_view name);
std::string_view to_string(rope_layout layout) noexcept;

// How a rotator forms its angles. `exact` (the default) forms p·θ in double,
// reduces it mod 2π and rounds cos/sin once. `float32` reproduces what most implementations
// do (θ rounded to float32, p·θ multiplied and evaluated in float32, as HF transformers'
// `inv_freq.float() @ position_ids.float()` then `.cos()`); it exists only so the demo and
// the benchmarks can show, side by side, the drift that causes at large positions
// (at p = 10⁶ the float32 spacing is 0.06 rad).
enum class angle_precision { exact, float32 };

// "exact" | "float32"; anything else throws posenc::invalid_argument naming `angles`.
angle_precision parse_angle_precision(std::string_view name);
std::string_view to_string(angle_precision angles) noexcept;

// Which way a rotation turns: forward rotates each pair by +p·θ_i (every convention but one),
// inverse by −p·θ_i. As a rope_apply argument it undoes a rotation; as rope_config::turn it
// is the model's own sense of rotation (nanochat: rotate_half = cat(x2, −x1)).
enum class direction { forward, inverse };

// "forward" | "inverse"; anything else throws posenc::invalid_argument naming `direction`.
direction parse_direction(std::string_view name);
std::string_view to_string(direction dir) noexcept;

// What a rotator is made of. Frequencies are a pure function of these (fixed at construction).
struct rope_config {
  int head_dim = 0;        // elements per head row, in [2, max_dim]
  int rotary_dim = 0;      // even, in [2, head_dim]; 0 means head_dim
  double base = 10000.0;   // finite, > 1
  rope_layout layout = rope_layout::half;
  posenc::scaling scaling = {};
  angle_precision angles = angle_precision::exact;
  rope_axes axes = {};     // several positions per token (multimodal.hpp); none by default
  // The model's sense of rotation: inverse turns pair i by −p·θ_i on rope_apply's forward
  // (and by +p·θ_i on its inverse). cos/sin tables stay cos/sin(p·θ_i) either way.
  direction turn = direction::forward;
};

// Largest |position| (and |start + tokens − 1|, |delta|) accepted: positions are exact in
// double up to here, so the angle p·θ is still one correctly rounded product.
inline constexpr std::int64_t max_position = std::int64_t{1} << 53;

namespace detail {
// rotary_cache's cos/sin storage: floats left uninitialised on construction (the fill writes
// every one; a std::vector would zero them first, and in WebAssembly's size-optimised code
// also walk them one by one on destruction), copied deeply.
class float_table {
public:
  float_table() = default;
  explicit float_table(std::size_t n) : data_(n ? new float[n] : nullptr), size_(n) {}
  float_table(const float_table& other) : float_table(other.size_) {
    std::copy_n(other.data_.get(), size_, data_.get());
  }
  float_table& operator=(const float_table& other) {
    if (this != &other) *this = float_table(other);
    return *this;
  }
  float_table(float_table&&) noexcept = default;
  float_table& operator=(float_table&&) noexcept = default;

  float* data() noexcept { return data_.get(); }
  const float* data() const noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }

private:
  std::unique_ptr<float[]> data_;
  std::size_t size_ = 0;
};
}  // namespace detail

// θ (inverse_frequencies(rotary_dim, base, scaling)), the attention factor, and float32
// cos/sin rows for the positions [first, first + count). Immutable after construction, so
// one cache may be shared by concurrent calls.
class rotary_cache {
public:
  // Valid ranges: config as documented on rope_config; count ≥ 0 with
  // count·rotary_dim/2 ≤ 2^28 floats per table (1 GiB; count 0 caches nothing); first and
  // first + count − 1 within ±max_position. Throws posenc::invalid_argument (naming
  // head_dim, rotary_dim, base, scaling.<field>, first or count) or posenc::length_error
  // (table size above the limit or overflowing size_t), before allocating.
  // Table error (exact angles): every cos/sin within 0.5 ulp(float) + |p·θ|·2⁻⁵² + 5e−16 of
  // float64 truth, i.e. ≤ 3e−7 for |p| ≤ 2^24 and ≤ 3e−8 for |p| < 2^16. The table is built
  // by angle addition from an exact anchor row every 32 rows (posenc keeps 32 offset rows in
  // double, 512·rotary_dim/2 bytes and at most 128 KiB, per cache); each value is a function
  // of its position alone.
  explicit rotary_cache(const rope_config& config, std::int64_t first = 0,
                        std::int64_t count = 0);

  int head_dim() const noexcept { return head_dim_; }
  int rotary_dim() const noexcept { return rotary_dim_; }
  rope_layout layout() const noexcept { return layout_; }
  angle_precision angles() const noexcept { return angles_; }
  direction turn() const noexcept { return turn_; }
  double attention_factor() const noexcept { return attention_factor_; }
  // θ'_i as used by rung i (the plain ladder, or the rungs of a 2-D rotary: multimodal.hpp).
  std::span<const double> inv_freq() const noexcept { return inv_freq_; }
  rope_axes_kind axes_kind() const noexcept { return axes_kind_; }
  // The multi-axis convention in messages: "mrope", "qwen2-vl", … or the bands' preset name.
  std::string_view axes_name() const noexcept { return axes_name_; }
  // Positions per token (1, or 3 for M-RoPE, 2 for 2-D rotary, the band count for bands)
  // and axis(i) per rung (empty for 1).
  int axes() const noexcept { return axes_count_; }
  std::span<const std::uint8_t> pair_axis() const noexcept { return pair_axis_; }
  // The axes split one ladder (rope_axes::shared_ladder, M-RoPE): a token at equal positions
  // on every axis is plain RoPE at that position, so `start` means every axis at start + t.
  bool shared_ladder() const noexcept { return shared_ladder_; }
  // Bands with half pairs inside each chunk (rope_axes::half_per_band): each chunk's first
  // dim and width, in order; empty otherwise (the layout pairs over the whole rotary dim).
  std::span<const std::array<int, 2>> chunks() const noexcept { return chunks_; }
  std::int64_t first() const noexcept { return first_; }
  std::int64_t count() const noexcept { return count_; }

  // Row-major [count][rotary_dim/2]: cos_table()[k·r/2 + i] = cos((first + k)·θ_i), raw
  // (not multiplied by the attention factor).
  std::span<const float> cos_table() const noexcept {
    return {table_.data(), table_.size() / 2};
  }
  std::span<const float> sin_table() const noexcept {
    return {table_.data() + table_.size() / 2, table_.size() / 2};
  }

  // True when `position` has a cached row.
  bool cached(std::int64_t position) const noexcept {
    return position >= first_ && position - first_ < count_;
  }

  // cos_out[i] = cos(position·θ_i), sin_out[i] = sin(position·θ_i), i < rotary_dim/2: the
  // cached row, or the same function evaluated on the fly (bit-identical either way).
  // position within ±max_position (else invalid_argument naming `position`); outputs hold
  // rotary_dim/2 floats each. Error as for the table.
  void row(std::int64_t position, float* cos_out, float* sin_out) const;
  // The merged row of a token at positions[0 … axes()) (multimodal.hpp): rung i from the
  // row of positions[axis(i)]; positions.size() must equal axes() (else length_error naming
  // `positions`), each within ±max_position. Same values rope_apply uses.
  void row(std::span<const std::int64_t> positions, float* cos_out, float* sin_out) const;
  // The row of a real-valued position (DINOv3's patch centres, CogVideoX's and Allegro's
  // scaled grids): cos/sin(position·θ_i), the product formed and reduced in double and
  // rounded once (error as for the table, |position| ≤ max_position, finite; else
  // invalid_argument naming `position`). An integral position gives row(int64)'s bits.
  void row_real(double position, float* cos_out, float* sin_out) const;
  // The merged row of a token at real-valued positions[0 … axes()), as row(span<int64>).
  void row(std::span<const double> positions, float* cos_out, float* sin_out) const;

private:
  int head_dim_ = 0;
  int rotary_dim_ = 0;
  rope_layout layout_ = rope_layout::half;
  angle_precision angles_ = angle_precision::exact;
  direction turn_ = direction::forward;
  rope_axes_kind axes_kind_ = rope_axes_kind::none;
  int axes_count_ = 1;
  bool shared_ladder_ = false;
  std::string axes_name_ = "none";
  double attention_factor_ = 1.0;
  std::vector<double> inv_freq_;
  std::vector<std::uint8_t> pair_axis_;
  std::vector<std::array<int, 2>> chunks_;
  std::int64_t first_ = 0;
  std::int64_t count_ = 0;
  std::vector<double> offsets_;  // exact angles: the offset rows cos/sin(j·θ_i) rows start from
  detail::float_table table_;  // [cos table | sin table]
  friend struct rotary_rows;  // core/src/rotary.cpp: the one function that computes rows
};

// ── Application ────────────────────────────────────────────────────────────────────────
// Common contract of every rope_apply / rope_apply_qk overload:
//  - x (or in/out) is a view [tokens][heads][dim] with any non-negative strides; it must
//    pass check_view (elements inside `size`, rows not overlapping), and dim == head_dim.
//    Out of place, `out` must have the same tokens/heads/dim as `in`, and the two views
//    must either be the very same view or not share memory; pass-through dims are copied.
//  - Token t sits at positions[t] (int32, or int64 within ±max_position = 2^53: KV offsets,
//    negatives, repeats; the span length must equal tokens) or at start + t (start and
//    start + tokens − 1 within ±max_position). Positions outside the cache are computed on
//    the fly, never refused; the angle p·θ_i is formed and reduced in double at any of them.
//    A cache with axes() = A > 1 (multimodal.hpp) takes A·tokens positions in HF's
//    position_ids order [A][tokens]: axis a of token t at positions[a·tokens + t]; start + t
//    then means every axis at start + t (M-RoPE's text tokens), and 2-D rotary refuses it.
//    rope_shift moves every axis by delta.
//  - forward: each pair becomes f·R(p·θ_i)·pair (f = attention factor);
//    inverse: R(−p·θ_i)·pair / f, which undoes forward to float rounding (≤ 1e−6 rel).
//    A cache whose turn() is inverse swaps the two angles: f·R(−p·θ_i) and R(p·θ_i) / f.
//  - Max error per rotated element vs float64 rotation of the same input by the exact angle:
//    ≤ 4e−7·f·(|a| + |b|) for |p| ≤ 2^24 (cos/sin error 3e−7 plus 2 float roundings). Past
//    2^24 the bound is not promised, but the angle p·θ_i is still formed and reduced in
//    double (never in float32), so cos/sin stay those of the correctly rounded product.
//  - The same bits whichever kernel the CPU, the call's size or its rows' alignment selects,
//    in place or out of place, at a start or at the same explicit positions.
// Invalid arguments throw posenc::invalid_argument / length_error naming the argument
// (x, in, out, q, k, positions, start, x.dim, …) before anything is written.
void rope_apply(const rotary_cache& cache, tensor_view x,
                std::span<const std::int32_t> positions, direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, tensor_view x,
                std::span<const std::int64_t> positions, direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, tensor_view x, std::int64_t start,
                direction dir = direction::forward);
// Real-valued positions (finite, within ±max_position; else invalid_argument naming
// positions[i]): the angle p·θ_i formed and reduced in double as for integers; an integral
// value rotates exactly as the same int64 position (bit-identical). Same error bound.
void rope_apply(const rotary_cache& cache, tensor_view x, std::span<const double> positions,
                direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::span<const double> positions, direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::span<const std::int32_t> positions, direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::span<const std::int64_t> positions, direction dir = direction::forward);
void rope_apply(const rotary_cache& cache, const_tensor_view in, tensor_view out,
                std::int64_t start, direction dir = direction::forward);

// Grouped-query attention: rotates q and k (both forward, in place) with one cos/sin row per
// token shared by both. q and k must have equal token counts; head counts may differ.
// Same result as two separate rope_apply calls (bit-identical).
void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::span<const std::int32_t> positions);
void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::span<const std::int64_t> positions);
void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::int64_t start);
void rope_apply_qk(const rotary_cache& cache, tensor_view q, tensor_view k,
                   std::span<const double> positions);

// Re-rotates cached keys by `delta` positions, in place: keys rotated at p become keys
// rotated at p + delta (R(a)R(b) = R(a + b); an inverse-turn cache turns by −delta·θ_i). A pure rotation (no attention factor): the
// angle delta·θ_i is formed and reduced in double, and the rotation itself is computed in
// double and rounded to float once per element, so cos² + sin² = 1 holds to
// 1e−16 and repeated shifts do not drift. k: a view as for rope_apply (dim == head_dim);
// |delta| ≤ max_position. Max error vs rotating at p + delta directly: ≤ 2e−6 relative to
// the pair for |p + delta| ≤ 2^24; 1000 repeated shifts keep every row norm within 1e−5.
void rope_shift(const rotary_cache& cache, tensor_view k, std::int64_t delta);

// ── HF's (cos, sin) pair ───────────────────────────────────────────────────────────────
// What a model's rotary embedding returns: cos_out/sin_out [tokens][rotary_dim], full width in
// the cache's layout (half: c_0 … c_{r/2−1} c_0 … c_{r/2−1}; interleaved: c_0 c_0 c_1 c_1 …;
// half pairs within each axis chunk: the half pattern per chunk),
// each value f·cos(p·θ_i) / f·sin(p·θ_i) rounded to float once (f = attention factor), for
// either turn (nanochat's rotary embedding returns these; its rotate_half turns them back). Token
// t sits at positions[t] or at start + t, every position within ±max_position. A multi-axis
// cache (multimodal.hpp) returns each token's merged row — after HF's section merge
// (apply_multimodal_rotary_pos_emb / apply_interleaved_mrope) or the vision towers' row and
// column rungs (apply_rotary_pos_emb_vision) — from axes·tokens positions in [axes][tokens]
// order (length_error naming positions otherwise); start gives M-RoPE text tokens
// (t = h = w) and is refused by 2-D rotaries (invalid_argument naming start). cos_out and
// sin_out hold exactly tokens·rotary_dim floats and must not overlap (else length_error naming
// cos / sin); positions / start out of range → invalid_argument naming them; nothing is
// written on error. Max error vs f·cos/sin in float64: f·(3e−7) + 0.5 ulp for |p| ≤ 2^24
// (the row's error, rows bit-identical to rotary_cache::row).
void rope_cos_sin(const rotary_cache& cache, std::span<const std::int32_t> positions,
                  std::span<float> cos_out, std::span<float> sin_out);
void rope_cos_sin(const rotary_cache& cache, std::span<const std::int64_t> positions,
                  std::span<float> cos_out, std::span<float> sin_out);
void rope_cos_sin(const rotary_cache& cache, std::int64_t start, std::size_t tokens,
                  std::span<float> cos_out, std::span<float> sin_out);
// Real-valued positions (as rope_apply's): rows as rotary_cache::row_real gives them.
void rope_cos_sin(const rotary_cache& cache, std::span<const double> positions,
                  std::span<float> cos_out, std::span<float> sin_out);


// ── Planning ───────────────────────────────────────────────────────────────────────────
// The per-core L2 size the rotation kernels plan with: a call that reads and writes at most
// this many bytes rotates all heads of a token per block of cos/sin (the tensor stays in
// cache); a larger one goes one head at a time, walking memory in order. 0 (the default)
// means what the system reports (sysconf, at least 64 KiB; WebAssembly: 8 MiB). For machines
// that report a wrong size (some virtual machines, valgrind's emulated CPU) the way Eigen's
// setCpuCacheSizes is. Changes speed only: every result is bit-identical whatever the value.
// bytes: 0 or [4096, 2^40] (else invalid_argument naming bytes); safe from any thread.
void set_l2_bytes(std::int64_t bytes);
// The value the kernels use now (the reported size unless set_l2_bytes gave one).
std::int64_t l2_bytes() noexcept;

} // namespace posenc
