// multimodal.cpp — the rung maps of multi-position RoPE (posenc/multimodal.hpp) and the
// merged cos/sin row of one token (detail/axis_rows.hpp).
#include "detail/axis_rows.hpp"
#include "detail/dispatch.hpp"

#include "posenc/detail/check.hpp"
#include "posenc/rotary.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

namespace posenc {

rope_axes_kind parse_rope_axes(std::string_view name) {
  if (name == "none") return rope_axes_kind::none;
  if (name == "mrope") return rope_axes_kind::mrope;
  if (name == "mrope-interleaved") return rope_axes_kind::mrope_interleaved;
  if (name == "qwen2-vl") return rope_axes_kind::vision_qwen2vl;
  if (name == "pixtral") return rope_axes_kind::vision_pixtral;
  detail::fail_argument("axes must be \"none\", \"mrope\", \"mrope-interleaved\", \"qwen2-vl\" "
                        "or \"pixtral\", got ", detail::quoted(name));
}

std::string_view to_string(rope_axes_kind kind) noexcept {
  switch (kind) {
    case rope_axes_kind::mrope: return "mrope";
    case rope_axes_kind::mrope_interleaved: return "mrope-interleaved";
    case rope_axes_kind::vision_qwen2vl: return "qwen2-vl";
    case rope_axes_kind::vision_pixtral: return "pixtral";
    case rope_axes_kind::bands: return "bands";
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

}  // namespace

void check_bands(const rope_axes& axes, int rotary_dim) {
  const std::string& name = axes.name.empty() ? std::string("custom") : axes.name;
  const auto n = static_cast<int>(axes.bands.size());
  if (n < 1 || n > max_axes)
    detail::fail_argument("axes (", name, ") must hold 1 to ", max_axes, " bands, got ", n);
  int sum = 0;
  std::string terms;
  for (int a = 0; a < n; ++a) {
    const axis_band& band = axes.bands[static_cast<std::size_t>(a)];
    const std::string at = detail::concat("axes[", a, "]");
    if (band.dims < 2 || band.dims % 2 != 0 || band.dims > max_dim)
      detail::fail_argument(at, ".dims (", name, ", axis ", band.name,
                            ") must be even and >= 2 (its chunk holds dims/2 rotary pairs), got ",
                            band.dims);
    if (!std::isfinite(band.scale) || !(band.scale > 0))
      detail::fail_argument(at, ".scale (", name, ", axis ", band.name,
                            ") must be finite and > 0, got ", band.scale);
    const int ladder = band.ladder_dim == 0 ? band.dims : band.ladder_dim;
    const long long last = band.first + static_cast<long long>(band.step) * (band.dims / 2 - 1);
    if (ladder % 2 != 0 || ladder > max_dim || band.first < 0 || band.step < 1 || last >= ladder / 2)
      detail::fail_argument(at, ".ladder_dim / first / step (", name, ", axis ", band.name,
                            ") must pick rungs of an even ladder: rungs ", band.first, " + ",
                            band.step, "·k for k < ", band.dims / 2, " of ", ladder / 2);
    sum += band.dims;
    terms += detail::concat(a ? " + " : "", band.name, " ", band.dims);
  }
  if (sum != rotary_dim)
    detail::fail_argument("axes (", name, ") dims must sum to rotaryDim ", rotary_dim, ", got ",
                          terms, " = ", sum);
}

namespace {

// Chunk a of d_a dims: rungs scale_a·b^(−2j/d_a), j < d_a/2, on axis a (multimodal.hpp).
axis_ladder band_ladder(const rope_axes& axes, int rotary_dim, double base) {
  check_bands(axes, rotary_dim);
  const auto n = static_cast<int>(axes.bands.size());
  axis_ladder out;
  for (int a = 0; a < n; ++a) {
    const axis_band& band = axes.bands[static_cast<std::size_t>(a)];
    const std::vector<double> ladder =
        inverse_frequencies(band.ladder_dim == 0 ? band.dims : band.ladder_dim, base).inv_freq;
    for (int k = 0; k < band.dims / 2; ++k) {
      const double theta = ladder[static_cast<std::size_t>(band.first + band.step * k)];
      out.inv_freq.push_back(band.scale == 1.0 ? theta : band.scale * theta);
      out.pair_axis.push_back(static_cast<std::uint8_t>(a));
    }
  }
  if (n == 1) out.pair_axis.clear();  // one axis: plain RoPE's path
  return out;
}

// The 2-D rotaries as two bands of r/2 dims, rows then columns: Qwen2-VL each its own
// ladder φ of dim r/2; Pixtral the even / odd rungs of θ of dim r.
axis_ladder vision_ladder(rope_axes_kind kind, int rotary_dim, double base) {
  if (rotary_dim % 4 != 0)
    detail::fail_argument("rotary_dim must be a multiple of 4 for 2-D rotary (rows and "
                          "columns get rotaryDim/4 rungs each), got ", rotary_dim);
  const int half = rotary_dim / 2;
  if (kind == rope_axes_kind::vision_qwen2vl)
    return band_ladder({rope_axes_kind::bands, {}, {{"row", half}, {"col", half}}, "qwen2-vl"},
                       rotary_dim, base);
  return band_ladder({rope_axes_kind::bands, {},
                      {{"row", half, 1.0, rotary_dim, 0, 2}, {"col", half, 1.0, rotary_dim, 1, 2}},
                      "pixtral"}, rotary_dim, base);
}

}  // namespace

axis_ladder make_axis_ladder(const rope_axes& axes, int rotary_dim, double base,
                             const scaling& s) {
  detail::check_range("axes", static_cast<int>(axes.kind), 0, 5);  // enums cast from ints
  const int half = rotary_dim / 2;
  switch (axes.kind) {
    case rope_axes_kind::bands:
    case rope_axes_kind::vision_qwen2vl:
    case rope_axes_kind::vision_pixtral: {
      if (s.type != scaling_type::none)
        detail::fail_argument("scaling must be none (\"default\") for ",
                              axes.kind == rope_axes_kind::bands ? "axes" : "2-D rotary",
                              ", got \"", to_string(s.type), "\"");
      if (axes.kind == rope_axes_kind::bands) return band_ladder(axes, rotary_dim, base);
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
    : half_(static_cast<std::size_t>(cache.rotary_dim() / 2)), axes_(cache.axes()),
      stride_(decltype(rows_)::row_stride(half_)), rows_(4 * stride_),
      mask_(axes_ > 1 ? kAxes * half_ : 0), select_(dispatched::rope_kernels().select) {
  if (axes_ == 1) return;
  std::fill(rows_.data() + 2 * stride_, rows_.data() + 4 * stride_, 0.0f);  // read by merge
  const std::uint8_t* pair_axis = cache.pair_axis().data();
  first_.fill(half_);
  for (std::size_t a = 0; a < kAxes; ++a)
    for (std::size_t i = 0; i < half_; ++i) {
      const bool mine = pair_axis[i] == a;
      mask_.data()[a * half_ + i] = mine ? ~std::uint32_t{0} : 0;
      if (mine) first_[a] = std::min(first_[a], i), end_[a] = i + 1;
    }
}

void axis_rows::merge(std::size_t a, const float* cos, const float* sin) noexcept {
  const std::uint32_t* mask = mask_.data() + a * half_;
  select_(cos, mask, first_[a], end_[a], rows_.data() + 2 * stride_);
  select_(sin, mask, first_[a], end_[a], rows_.data() + 3 * stride_);
}

void axis_rows::load(const rotary_cache& cache, const double* p) {
  // Position q's plain row: the cache's, else computed into the first two rows (used
  // at once, or returned as this load's row).
  const auto row_of = [&](double q) -> std::pair<const float*, const float*> {
    if (q != std::floor(q)) {
      cache.row_real(q, rows_.data(), rows_.data() + stride_);
      return {rows_.data(), rows_.data() + stride_};
    }
    const auto k = static_cast<std::int64_t>(q);
    if (cache.cached(k)) {
      const auto offset = static_cast<std::size_t>(k - cache.first()) * half_;
      return {cache.cos_table().data() + offset, cache.sin_table().data() + offset};
    }
    cache.row(k, rows_.data(), rows_.data() + stride_);
    return {rows_.data(), rows_.data() + stride_};
  };
  if (std::all_of(p, p + axes_, [&](double q) { return q == p[0]; })) {
    std::tie(cos_, sin_) = row_of(p[0]);
    return;
  }
  for (int a = 0; a < axes_; ++a) {
    if (merged_valid_ && merged_position_[static_cast<std::size_t>(a)] == p[a]) continue;
    const auto [cos, sin] = row_of(p[a]);
    merge(static_cast<std::size_t>(a), cos, sin);
    merged_position_[static_cast<std::size_t>(a)] = p[a];
  }
  merged_valid_ = true;
  cos_ = rows_.data() + 2 * stride_;
  sin_ = rows_.data() + 3 * stride_;
}

}  // namespace detail
}  // namespace posenc
