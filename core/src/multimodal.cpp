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
  if (name == "mrope-hw") return rope_axes_kind::mrope_hw;
  if (name == "qwen2-vl") return rope_axes_kind::vision_qwen2vl;
  if (name == "pixtral") return rope_axes_kind::vision_pixtral;
  detail::fail_argument("axes must be \"none\", \"mrope\", \"mrope-interleaved\", \"mrope-hw\", "
                        "\"qwen2-vl\" or \"pixtral\", got ", detail::quoted(name));
}

std::string_view to_string(rope_axes_kind kind) noexcept {
  switch (kind) {
    case rope_axes_kind::mrope: return "mrope";
    case rope_axes_kind::mrope_interleaved: return "mrope-interleaved";
    case rope_axes_kind::mrope_hw: return "mrope-hw";
    case rope_axes_kind::vision_qwen2vl: return "qwen2-vl";
    case rope_axes_kind::vision_pixtral: return "pixtral";
    case rope_axes_kind::bands: return "bands";
    default: return "none";
  }
}

int axis_count(rope_axes_kind kind) noexcept {
  switch (kind) {
    case rope_axes_kind::mrope:
    case rope_axes_kind::mrope_interleaved:
    case rope_axes_kind::mrope_hw: return 3;
    case rope_axes_kind::vision_qwen2vl:
    case rope_axes_kind::vision_pixtral: return 2;
    default: return 1;
  }
}

namespace detail {
namespace {

bool is_mrope(rope_axes_kind kind) {
  return kind == rope_axes_kind::mrope || kind == rope_axes_kind::mrope_interleaved ||
         kind == rope_axes_kind::mrope_hw;
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
  if (axes.kind == rope_axes_kind::mrope_hw && s[1] != s[2])
    detail::fail_argument("mrope.section [", s[0], ", ", s[1], ", ", s[2], "] of M-RoPE 'hw' "
                          "needs section[1] == section[2] (h and w alternate over their rungs)");
  if (axes.kind != rope_axes_kind::mrope_interleaved) return;
  // HF's slices offset::3 up to 3·section: they hold section[a] rungs only if these fit.
  if (3 * s[1] > half + 1 || 3 * s[2] > half)
    detail::fail_argument("mrope.section [", s[0], ", ", s[1], ", ", s[2],
                          "] does not fit interleaved M-RoPE of rotaryDim/2 = ", half,
                          ": needs 3·section[1] <= ", half + 1, " and 3·section[2] <= ", half);
}

// The rungs of the ladder of `half` rungs that no band of `taken` takes, in order.
std::vector<int> other_rungs(const std::vector<axis_band>& taken, int half) {
  std::vector<bool> used(static_cast<std::size_t>(half), false);
  for (const axis_band& band : taken)
    for (int k = 0; k < band.dims / 2; ++k)
      used[static_cast<std::size_t>(band.first + band.step * k)] = true;
  std::vector<int> out;
  for (int j = 0; j < half; ++j)
    if (!used[static_cast<std::size_t>(j)]) out.push_back(j);
  return out;
}

// The four fixed conventions as bands (multimodal.hpp), checked first under their own names.
// M-RoPE: bands on the shared ladder (HF `apply_multimodal_rotary_pos_emb`'s contiguous
// sections; `apply_interleaved_mrope`'s freqs_t[..., offset : 3·section[a] : 3] = freqs[a]
// for (a, offset) = (1, 1), (2, 2), t keeping the rest; ERNIE's recomposition_to_3d: h the
// even, w the odd rungs of the first s_h + s_w, t the rest). 2-D rotary: two bands of r/2 dims,
// rows then columns: Qwen2-VL each its own ladder φ of dim r/2; Pixtral the even / odd
// rungs of θ of dim r.
rope_axes as_bands(const rope_axes& axes, int rotary_dim) {
  const int half = rotary_dim / 2;
  const std::string name(to_string(axes.kind));
  if (is_mrope(axes.kind)) {
    check_sections(axes, half);
    const auto& s = axes.section;
    rope_axes out{rope_axes_kind::bands, {}, {}, name};
    out.shared_ladder = true;
    if (axes.kind == rope_axes_kind::mrope) {
      out.bands = {{"t", 2 * s[0]}, {"h", 2 * s[1], 1.0, 0, s[0]}, {"w", 2 * s[2], 1.0, 0, s[0] + s[1]}};
      return out;
    }
    if (axes.kind == rope_axes_kind::mrope_hw) {
      out.bands = {{"t", 2 * s[0], 1.0, 0, s[1] + s[2]}, {"h", 2 * s[1], 1.0, 0, 0, 2},
                   {"w", 2 * s[2], 1.0, 0, 1, 2}};
      return out;
    }
    const axis_band h{"h", 2 * s[1], 1.0, 0, 1, 3}, w{"w", 2 * s[2], 1.0, 0, 2, 3};
    out.bands = {{"t", 2 * s[0], 1.0, 0, 0, 1, other_rungs({h, w}, half)}, h, w};
    return out;
  }
  if (rotary_dim % 4 != 0)
    detail::fail_argument("rotary_dim must be a multiple of 4 for 2-D rotary (rows and "
                          "columns get rotaryDim/4 rungs each), got ", rotary_dim);
  if (axes.kind == rope_axes_kind::vision_qwen2vl)
    return {rope_axes_kind::bands, {}, {{"row", half}, {"col", half}}, name};
  return {rope_axes_kind::bands, {},
          {{"row", half, 1.0, rotary_dim, 0, 2}, {"col", half, 1.0, rotary_dim, 1, 2}}, name};
}

// Rung k of a band: rungs[k], else first + step·k.
int rung_of(const axis_band& band, int k) {
  return band.rungs.empty() ? band.first + band.step * k : band.rungs[static_cast<std::size_t>(k)];
}

// A band's rung picks against its ladder of `ladder` dims: the explicit list, or the stride.
void check_rungs(const axis_band& band, const std::string& at, const std::string& name,
                 int ladder) {
  const int count = band.dims / 2;
  const long long last = band.first + static_cast<long long>(band.step) * (count - 1);
  const bool listed = !band.rungs.empty();
  const bool fits =
      listed ? static_cast<int>(band.rungs.size()) == count &&
                   std::all_of(band.rungs.begin(), band.rungs.end(),
                               [&](int j) { return j >= 0 && j < ladder / 2; })
             : count == 0 || (band.first >= 0 && band.step >= 1 && last < ladder / 2);
  if (!fits)
    detail::fail_argument(at, listed ? ".rungs (" : ".ladder_dim / first / step (", name,
                          ", axis ", band.name, ") must pick dims/2 = ", count,
                          " rungs of a ladder of ", ladder / 2);
}

// Shared ladder: every rung of the rotary dim's ladder taken by exactly one band.
void check_partition(const rope_axes& axes, const std::string& name, int rotary_dim) {
  std::vector<int> owner(static_cast<std::size_t>(rotary_dim / 2), -1);
  for (std::size_t a = 0; a < axes.bands.size(); ++a)
    for (int k = 0; k < axes.bands[a].dims / 2; ++k) {
      int& o = owner[static_cast<std::size_t>(rung_of(axes.bands[a], k))];
      if (o >= 0)
        detail::fail_argument("axes[", a, "].rungs (", name, ", axis ", axes.bands[a].name,
                              ") take rung ", rung_of(axes.bands[a], k), ", taken by axes[", o,
                              "] already: with a shared ladder each rung has one axis");
      o = static_cast<int>(a);
    }
}

}  // namespace

void check_bands(const rope_axes& axes, int rotary_dim) {
  const std::string& name = axes.name.empty() ? std::string("custom") : axes.name;
  const auto n = static_cast<int>(axes.bands.size());
  if (n < 1 || n > max_axes)
    detail::fail_argument("axes (", name, ") must hold 1 to ", max_axes, " bands, got ", n);
  if (axes.shared_ladder && axes.half_per_band)
    detail::fail_argument("axes (", name, ") pair within each chunk (half_per_band) or share "
                          "one ladder (shared_ladder), not both");
  const int least = axes.shared_ladder ? 0 : 2;
  int sum = 0;
  std::string terms;
  for (int a = 0; a < n; ++a) {
    const axis_band& band = axes.bands[static_cast<std::size_t>(a)];
    const std::string at = detail::concat("axes[", a, "]");
    if (band.dims < least || band.dims % 2 != 0 || band.dims > max_dim)
      detail::fail_argument(at, ".dims (", name, ", axis ", band.name, ") must be even and >= ",
                            least, " (its chunk holds dims/2 rotary pairs), got ", band.dims);
    if (!std::isfinite(band.scale) || !(band.scale > 0))
      detail::fail_argument(at, ".scale (", name, ", axis ", band.name,
                            ") must be finite and > 0, got ", band.scale);
    const int ladder = axes.shared_ladder ? rotary_dim
                       : band.ladder_dim == 0 ? band.dims : band.ladder_dim;
    if (ladder % 2 != 0 || ladder > max_dim ||
        (axes.shared_ladder && band.ladder_dim != 0 && band.ladder_dim != rotary_dim))
      detail::fail_argument(at, ".ladder_dim (", name, ", axis ", band.name, ") must be even, <= ",
                            max_dim, axes.shared_ladder ? " and 0 or rotaryDim (shared ladder)" : "",
                            ", got ", band.ladder_dim);
    check_rungs(band, at, name, ladder);
    sum += band.dims;
    terms += detail::concat(a ? " + " : "", band.name, " ", band.dims);
  }
  if (sum != rotary_dim)
    detail::fail_argument("axes (", name, ") dims must sum to rotaryDim ", rotary_dim, ", got ",
                          terms, " = ", sum);
  if (axes.shared_ladder) check_partition(axes, name, rotary_dim);
}

namespace {

// Chunk a of d_a dims: rungs scale_a·b^(−2j/d_a), j < d_a/2, on axis a; with a shared ladder
// rung j of the scaled ladder of rotary_dim, at pair j, on the axis that takes it
// (multimodal.hpp).
axis_ladder band_ladder(const rope_axes& axes, int rotary_dim, double base, const scaling& s) {
  check_bands(axes, rotary_dim);
  const auto n = static_cast<int>(axes.bands.size());
  axis_ladder out;
  frequencies shared;
  if (axes.shared_ladder) {
    shared = inverse_frequencies(rotary_dim, base, s);
    out.inv_freq.resize(shared.inv_freq.size());
    out.pair_axis.resize(shared.inv_freq.size());
    out.attention_factor = shared.attention_factor;
    out.shared = true;
  }
  for (int a = 0; a < n; ++a) {
    const axis_band& band = axes.bands[static_cast<std::size_t>(a)];
    const std::vector<double> ladder =
        axes.shared_ladder ? std::vector<double>{}
        : inverse_frequencies(band.ladder_dim == 0 ? band.dims : band.ladder_dim, base).inv_freq;
    for (int k = 0; k < band.dims / 2; ++k) {
      const auto j = static_cast<std::size_t>(rung_of(band, k));
      const double theta = axes.shared_ladder ? shared.inv_freq[j] : ladder[j];
      const double scaled = band.scale == 1.0 ? theta : band.scale * theta;
      const auto axis = static_cast<std::uint8_t>(a);
      if (axes.shared_ladder) {
        out.inv_freq[j] = scaled, out.pair_axis[j] = axis;
      } else {
        out.inv_freq.push_back(scaled), out.pair_axis.push_back(axis);
      }
    }
  }
  if (n == 1) out.pair_axis.clear();  // one axis: plain RoPE's path
  return out;
}

}  // namespace

axis_ladder make_axis_ladder(const rope_axes& axes, int rotary_dim, double base,
                             const scaling& s) {
  detail::check_range("axes", static_cast<int>(axes.kind), 0, 6);  // enums cast from ints
  if (axes.kind == rope_axes_kind::none) {
    frequencies f = inverse_frequencies(rotary_dim, base, s);
    return {std::move(f.inv_freq), {}, f.attention_factor};
  }
  const bool mrope = is_mrope(axes.kind);
  if (!mrope && !axes.shared_ladder && s.type != scaling_type::none)
    detail::fail_argument("scaling must be none (\"default\") for ",
                          axes.kind == rope_axes_kind::bands ? "axes" : "2-D rotary",
                          ", got \"", to_string(s.type), "\"");
  if (axes.kind == rope_axes_kind::bands) return band_ladder(axes, rotary_dim, base, s);
  return band_ladder(as_bands(axes, rotary_dim), rotary_dim, base, s);
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
