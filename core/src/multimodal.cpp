// multimodal.cpp — the rung maps of multi-position RoPE (posenc/multimodal.hpp) and the
// merged cos/sin row of one token (detail/axis_rows.hpp).
#include "detail/axis_rows.hpp"
#include "detail/half_float.hpp"  // bit_as

#include "posenc/detail/check.hpp"
#include "posenc/rotary.hpp"

#include <algorithm>
#include <string>

namespace posenc {

rope_axes_kind parse_rope_axes(std::string_view name) {
  if (name == "none") return rope_axes_kind::none;
  if (name == "mrope") return rope_axes_kind::mrope;
  if (name == "mrope-interleaved") return rope_axes_kind::mrope_interleaved;
  if (name == "qwen2-vl") return rope_axes_kind::vision_qwen2vl;
  if (name == "pixtral") return rope_axes_kind::vision_pixtral;
  detail::fail_argument("axes must be \"none\", \"mrope\", \"mrope-interleaved\", \"qwen2-vl\" "
                        "or \"pixtral\", got \"", std::string(name), "\"");
}

std::string_view to_string(rope_axes_kind kind) noexcept {
  switch (kind) {
    case rope_axes_kind::mrope: return "mrope";
    case rope_axes_kind::mrope_interleaved: return "mrope-interleaved";
    case rope_axes_kind::vision_qwen2vl: return "qwen2-vl";
    case rope_axes_kind::vision_pixtral: return "pixtral";
    default: return "none";
  }
}

int axis_count(rope_axes_kind kind) noexcept {
  switch (kind) {
    case rope_axes_kind::mrope:
    case rope_axes_kind::mrope_interleaved: return 3;
    case rope_axes_kind::vision_qwen2vl:
    case rope_axes_kind::vision_pixtral: return 2;
    default: return 1;
  }
}

namespace detail {
namespace {

// HF `apply_multimodal_rotary_pos_emb`: contiguous sections t | h | w (the same in both
// halves of the full-width row, which is what mrope_section·2 splits).
std::vector<std::uint8_t> contiguous_axes(const std::array<int, 3>& section) {
  std::vector<std::uint8_t> axis;
  for (std::uint8_t a = 0; a < 3; ++a) axis.insert(axis.end(), section[a], a);
  return axis;
}

// HF `apply_interleaved_mrope`: freqs_t[..., offset : 3·section[a] : 3] = freqs[a] for
// (a, offset) = (1, 1), (2, 2); every other rung keeps t.
std::vector<std::uint8_t> interleaved_axes(const std::array<int, 3>& section, int half) {
  std::vector<std::uint8_t> axis(static_cast<std::size_t>(half), 0);
  for (int a = 1; a <= 2; ++a)
    for (int i = a; i < std::min(3 * section[a], half); i += 3)
      axis[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(a);
  return axis;
}

void check_sections(const rope_axes& axes, int half) {
  const auto& s = axes.section;
  for (int a = 0; a < 3; ++a)
    detail::check_range(a == 0 ? "mrope.section[0]" : a == 1 ? "mrope.section[1]"
                                                             : "mrope.section[2]",
                        s[a], 0, half);
  if (s[0] + s[1] + s[2] != half)
    detail::fail_argument("mrope.section must sum to rotaryDim/2 = ", half, ", got ", s[0],
                          " + ", s[1], " + ", s[2], " = ", s[0] + s[1] + s[2]);
  if (axes.kind != rope_axes_kind::mrope_interleaved) return;
  // HF's slices offset::3 up to 3·section: they hold section[a] rungs only if these fit.
  if (3 * s[1] > half + 1 || 3 * s[2] > half)
    detail::fail_argument("mrope.section [", s[0], ", ", s[1], ", ", s[2],
                          "] does not fit interleaved M-RoPE of rotaryDim/2 = ", half,
                          ": needs 3·section[1] <= ", half + 1, " and 3·section[2] <= ", half);
}

// Rows φ of dim r/2 (Qwen2-VL) or the even / odd rungs of θ of dim r (Pixtral), r/4 each.
axis_ladder vision_ladder(rope_axes_kind kind, int rotary_dim, double base) {
  if (rotary_dim % 4 != 0)
    detail::fail_argument("rotary_dim must be a multiple of 4 for 2-D rotary (rows and "
                          "columns get rotaryDim/4 rungs each), got ", rotary_dim);
  const auto quarter = static_cast<std::size_t>(rotary_dim / 4);
  axis_ladder out;
  out.pair_axis.assign(2 * quarter, 0);
  std::fill(out.pair_axis.begin() + static_cast<std::ptrdiff_t>(quarter), out.pair_axis.end(),
            std::uint8_t{1});
  out.inv_freq.resize(2 * quarter);
  if (kind == rope_axes_kind::vision_qwen2vl) {
    const std::vector<double> phi = inverse_frequencies(rotary_dim / 2, base).inv_freq;
    std::copy(phi.begin(), phi.end(), out.inv_freq.begin());
    std::copy(phi.begin(), phi.end(), out.inv_freq.begin() + static_cast<std::ptrdiff_t>(quarter));
    return out;
  }
  const std::vector<double> theta = inverse_frequencies(rotary_dim, base).inv_freq;
  for (std::size_t i = 0; i < quarter; ++i) {
    out.inv_freq[i] = theta[2 * i];
    out.inv_freq[quarter + i] = theta[2 * i + 1];
  }
  return out;
}

}  // namespace

axis_ladder make_axis_ladder(const rope_axes& axes, int rotary_dim, double base,
                             const scaling& s) {
  detail::check_range("axes", static_cast<int>(axes.kind), 0, 4);  // enums cast from ints
  const int half = rotary_dim / 2;
  switch (axes.kind) {
    case rope_axes_kind::vision_qwen2vl:
    case rope_axes_kind::vision_pixtral: {
      if (s.type != scaling_type::none)
        detail::fail_argument("scaling must be none (\"default\") for 2-D rotary, got \"",
                              to_string(s.type), "\"");
      return vision_ladder(axes.kind, rotary_dim, base);
    }
    case rope_axes_kind::mrope:
    case rope_axes_kind::mrope_interleaved: check_sections(axes, half); break;
    default: break;
  }
  frequencies f = inverse_frequencies(rotary_dim, base, s);
  axis_ladder out{std::move(f.inv_freq), {}, f.attention_factor};
  if (axes.kind == rope_axes_kind::mrope) out.pair_axis = contiguous_axes(axes.section);
  if (axes.kind == rope_axes_kind::mrope_interleaved)
    out.pair_axis = interleaved_axes(axes.section, half);
  return out;
}

axis_rows::axis_rows(const rotary_cache& cache)
    : half_(static_cast<std::size_t>(cache.rotary_dim() / 2)),
      pair_axis_(cache.pair_axis().data()), axes_(cache.axes()) {
  const std::size_t floats = axes_ > 1 ? 2 * (kSlots + 1) * half_ : 0;
  if (floats > inline_.size()) heap_.resize(floats);
  data_ = heap_.empty() ? inline_.data() : heap_.data();
  const std::size_t masks = axes_ > 1 ? kSlots * half_ : 0;
  if (masks > inline_mask_.size()) heap_mask_.resize(masks);
  mask_ = heap_mask_.empty() ? inline_mask_.data() : heap_mask_.data();
  for (std::size_t a = 0; a < (axes_ > 1 ? kSlots : 0); ++a)
    for (std::size_t i = 0; i < half_; ++i)
      mask_[a * half_ + i] = pair_axis_[i] == a ? ~std::uint32_t{0} : 0;
}

namespace {

// out[i] = rows[a][i] for the axis a whose mask has rung i (exactly one does): a bitwise
// select, so every value is copied bit for bit.
void select_rows(const float* __restrict r0, const float* __restrict r1,
                 const float* __restrict r2, const std::uint32_t* __restrict mask,
                 std::size_t n, float* __restrict out) noexcept {
  const std::uint32_t* m1 = mask + n;
  const std::uint32_t* m2 = mask + 2 * n;
  for (std::size_t i = 0; i < n; ++i)
    out[i] = bit_as<float>((bit_as<std::uint32_t>(r0[i]) & mask[i]) |
                           (bit_as<std::uint32_t>(r1[i]) & m1[i]) |
                           (bit_as<std::uint32_t>(r2[i]) & m2[i]));
}

}  // namespace

const axis_rows::slot& axis_rows::fetch(const rotary_cache& cache, std::int64_t p) {
  slot* target = nullptr;
  for (slot& s : slots_) {
    if (s.filled && s.position == p) {
      s.used = clock_;
      return s;
    }
    if (s.used != clock_ && (!target || !s.filled || (target->filled && s.used < target->used)))
      target = &s;  // not used by this token: free, or the least recently used
  }
  // Three slots and at most three positions per token: a free one always exists here.
  target->position = p;
  target->filled = true;
  target->used = clock_;
  if (cache.cached(p)) {
    const auto offset = static_cast<std::size_t>(p - cache.first()) * half_;
    target->cos = cache.cos_table().data() + offset;
    target->sin = cache.sin_table().data() + offset;
  } else {
    float* row = data_ + 2 * half_ * static_cast<std::size_t>(target - slots_.data());
    cache.row(p, row, row + half_);
    target->cos = row;
    target->sin = row + half_;
  }
  return *target;
}

void axis_rows::load(const rotary_cache& cache, const std::int64_t* p) {
  ++clock_;
  const float* cos[3];
  const float* sin[3];
  bool uniform = true;
  for (int a = 0; a < axes_; ++a) {
    const slot& s = fetch(cache, p[a]);
    cos[a] = s.cos;
    sin[a] = s.sin;
    uniform = uniform && p[a] == p[0];
  }
  if (uniform) {
    cos_ = cos[0];
    sin_ = sin[0];
    return;
  }
  if (axes_ == 2) {  // the select below reads three rows (the third one's mask is all 0)
    cos[2] = cos[1];
    sin[2] = sin[1];
  }
  float* merged_cos = data_ + 2 * kSlots * half_;
  float* merged_sin = merged_cos + half_;
  select_rows(cos[0], cos[1], cos[2], mask_, half_, merged_cos);
  select_rows(sin[0], sin[1], sin[2], mask_, half_, merged_sin);
  cos_ = merged_cos;
  sin_ = merged_sin;
}

}  // namespace detail
}  // namespace posenc
